package main

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"runtime"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/linalg"
	"github.com/runexp/runexp/internal/report"
)

// peers says, per task, what the peer is and how close its output must
// come: the largest difference relative to the largest magnitude.
var peers = map[string]struct {
	title, peer string
	tol         float64
}{
	"kpca-fit":     {"kernel PCA fit (N = 1000, D = 256)", "scikit-learn KernelPCA(n_components=50, eigen_solver='dense').fit; the 50 eigenvalues and the test coordinates", 1e-8},
	"kpca-learned": {"fit + learned pre-image (M = 200)", "scikit-learn KernelPCA(fit_inverse_transform=True, alpha=1e-3): fit, then inverse_transform(transform(X0))", 1e-8},
	"mika":         {"Mika et al. fixed point (M = 200)", "NumPy, python/peers/mika.py (eq. 13 of Abrahamsen & Hansen)", 1e-6},
	"kwok-tsang":   {"Kwok–Tsang, 10 neighbours (M = 200)", "NumPy, python/peers/kwoktsang.py (Kwok & Tsang eq. 16)", 1e-8},
	"rkpca":        {"RKPCA fixed point, l2 (M = 200)", "NumPy, python/peers/rkpca.py (Nguyen & De la Torre eq. 6)", 1e-6},
	"rkpca-impute": {"RKPCA imputation, Oil Flow (Algorithm 1)", "NumPy, python/peers/rkpca_impute.py (Nguyen & De la Torre Algorithm 1 with eq. 6's masked fixed point, as internal/methods/rkpca_impute.go reads it): 100 points, p(del) = 0.2, γ = γ₂ = 0.0375, C = 1, energy 0.99, m = 25, k = 10, the same partitions; the imputed points", 1e-6},
	"lasso-gps":    {"Lasso pre-image, GPS path (2 rows, N = 400)", "NumPy, python/peers/gps.py: Abrahamsen & Hansen eqs. 21–24 by Friedman's GPS from the papers, every gradient component at every step (scikit-learn's lars_path traces the linear Lasso's path and cannot take this objective); A&H Fig. 4's USPS setting at c = 100, 100 components; the pre-images", 1e-12},
	"lpkpca":       {"LPKPCA solve (λ = 0.05, 8-NN, 60 dirs)", "NumPy and SciPy, python/peers/lpkpca.py: M = Λ − λPᵀLP, then scipy.linalg.eigh(M, subset_by_index) (LAPACK dsyevr) for the 60 leading eigenpairs; the eigenvalues and the directions B", 1e-8},
}

// run builds the problem, times runexp, writes the inputs, runs the
// peers and compares the outputs.
func run(dir, py string, repeats int) ([]row, string, error) {
	p, err := newProblem()
	if err != nil {
		return nil, "", err
	}
	if err := writeInputs(dir, p, repeats); err != nil {
		return nil, "", err
	}
	ours, outs, err := ourTasks(p, repeats)
	if err != nil {
		return nil, "", err
	}
	theirs, env, err := runPeers(dir, py)
	if err != nil {
		return nil, "", err
	}
	var rows []row
	for _, name := range taskNames {
		r, c := outs[name].Dims()
		got, err := readF64(filepath.Join(dir, "out_"+name+".f64"), r, c)
		if err != nil {
			return nil, "", err
		}
		info := peers[name]
		rows = append(rows, row{name: info.title, note: info.peer, ours: ours[name], peer: theirs[name], agree: relDiff(outs[name], got), tol: info.tol})
	}
	return rows, env, nil
}

// relDiff is max |a − b| / max |a|, NaN where the shapes differ or
// either holds a NaN.
func relDiff(a, b *mat.Dense) float64 {
	ra, ca := a.Dims()
	rb, cb := b.Dims()
	if ra != rb || ca != cb {
		return math.NaN()
	}
	var d, s float64
	for i := range ra {
		for j := range ca {
			x, y := a.At(i, j), b.At(i, j)
			if math.IsNaN(x) || math.IsNaN(y) {
				return math.NaN()
			}
			d, s = max(d, math.Abs(x-y)), max(s, math.Abs(x))
		}
	}
	if s == 0 {
		return d
	}
	return d / s
}

// printTable prints the ratio table and returns how many rows disagree
// beyond their tolerance.
func printTable(w io.Writer, rows []row, env string) int {
	t := &report.Table{Title: "runexp against its peers, same data and parameters (CPU seconds of every thread; best of the repeats)",
		Header: []string{"task", "runexp CPU s", "peer CPU s", "runexp ÷ peer", "runexp wall s", "peer wall s", "agreement", "ok"}}
	bad := 0
	var notes []string
	for i, r := range rows {
		ok := "yes"
		if !(r.agree <= r.tol) {
			ok, bad = "NO", bad+1
		}
		t.Rows = append(t.Rows, []string{r.name, fmt.Sprintf("%.3f", r.ours.CPU), fmt.Sprintf("%.3f", r.peer.CPU), fmt.Sprintf("%.2f", r.ours.CPU/r.peer.CPU),
			fmt.Sprintf("%.3f", r.ours.Wall), fmt.Sprintf("%.3f", r.peer.Wall), fmt.Sprintf("%.1e (≤ %.0e)", r.agree, r.tol), ok})
		notes = append(notes, fmt.Sprintf("(%d) %s", i+1, r.note))
	}
	t.Caption = fmt.Sprintf("Rows 1–6: USPS digits 0, 2, 4, 9: %d training and %d noisy test images (Gaussian noise, std %g), Gaussian kernel c = %g, %d components. "+
		"Rows 7–8 have their own data (their notes). "+
		"runexp ÷ peer > 1: runexp takes more CPU. Agreement: max |runexp − peer| / max |runexp| of the outputs. Peers: %s. runexp: %s BLAS, GOMAXPROCS %d; peers: %s.",
		4*trainPerDigit, 4*testPerDigit, noiseStd, width, components, strings.Join(notes, "; "), linalg.Backend(), runtime.GOMAXPROCS(0), env)
	if err := t.RenderText(w); err != nil {
		fmt.Fprintln(w, err)
	}
	return bad
}
