package methods_test

import (
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/methods"
)

// The Python tests run the examples in python/ through the real protocol.
// They need a python3 with NumPy (Debian's python3-numpy): RUNEXP_PYTHON
// names it, as .ci/run does, and then its absence is a failure; otherwise
// python3 on PATH and /usr/bin/python3 are tried and the tests skip when
// neither imports numpy.

var (
	pyOnce sync.Once
	pyPath string
	pyMods = map[string]bool{}
	pyMu   sync.Mutex
)

// python returns an interpreter that imports every module in mods, or
// skips the test (fails it when RUNEXP_PYTHON is set and numpy is asked
// for).
func python(t *testing.T, mods ...string) string {
	t.Helper()
	pyOnce.Do(func() {
		cands := []string{"python3", "/usr/bin/python3"}
		if env := os.Getenv("RUNEXP_PYTHON"); env != "" {
			cands = []string{env}
		}
		for _, c := range cands {
			if p, err := exec.LookPath(c); err == nil && exec.Command(p, "-c", "import numpy").Run() == nil {
				pyPath = p
				return
			}
		}
	})
	if pyPath == "" {
		if os.Getenv("RUNEXP_PYTHON") != "" {
			t.Fatalf("RUNEXP_PYTHON=%s does not import numpy", os.Getenv("RUNEXP_PYTHON"))
		}
		t.Skip("no python3 with NumPy (apt-get install python3-numpy, or set RUNEXP_PYTHON): the external estimator's Python tests are skipped")
	}
	for _, m := range mods {
		pyMu.Lock()
		ok, seen := pyMods[m]
		if !seen {
			ok = exec.Command(pyPath, "-c", "import "+m).Run() == nil
			pyMods[m] = ok
		}
		pyMu.Unlock()
		if !ok {
			t.Skipf("%s cannot import %s (Debian: apt-get install python3-%s): skipped", pyPath, m, m)
		}
	}
	return pyPath
}

// examplePython returns the command line running python/examples/name with
// the arguments args.
func examplePython(t *testing.T, name string, args ...string) string {
	t.Helper()
	py := python(t)
	script, err := filepath.Abs(filepath.Join("..", "..", "python", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(append([]string{py, script}, args...), " ")
}

// pyFixture is the de-noising problem of the agreement tests: 30 training
// inputs in 5 dimensions, 8 noisy inputs, 4 components.
func pyFixture(t *testing.T, k kernel.Kernel) *methods.DenoiseInput {
	t.Helper()
	rng := rand.New(rand.NewPCG(21, 22))
	x := randn(rng, 30, 5)
	if k == nil {
		k = medianGaussian(x)
	}
	m, err := methods.FitKPCA(x, k)
	checkNoErr(t, "fit", err)
	return &methods.DenoiseInput{Model: m, Q: 4, X0: randn(rng, 8, 5), Rand: rand.New(rand.NewPCG(1, 1))}
}

func denoiseWith(t *testing.T, name string, raw map[string]any, in *methods.DenoiseInput) *mat.Dense {
	t.Helper()
	est, _, err := methods.New(name, raw)
	checkNoErr(t, name, err)
	d, ok := methods.AsDenoiser(est)
	if !ok {
		t.Fatalf("%s is no denoiser", name)
	}
	var z mat.Dense
	st, err := d.Denoise(&z, in)
	checkNoErr(t, name, err)
	for i, s := range st {
		if s.Err != nil {
			t.Fatalf("%s: row %d: %v", name, i, s.Err)
		}
	}
	return &z
}

// TestLearnedPythonAgrees: the native learned estimator and the NumPy
// example python/examples/learned_preimage.py, run through the protocol,
// agree to 1e-8 relative on the same problems, for each option. The two
// share no code: NumPy's eigh against gonum's EigenSym, LU against
// Cholesky.
func TestLearnedPythonAgrees(t *testing.T) {
	for _, tc := range []struct {
		name   string
		kernel kernel.Kernel
		native map[string]any
		args   []string
	}{
		{"defaults", nil, nil, nil},
		{"sklearn-like gaussian", nil,
			map[string]any{"alpha": 0.1, "inverse_kernel": "gaussian", "inverse_c": 2.5, "centre": false},
			[]string{"--alpha", "0.1", "--inverse-kernel", "gaussian", "--inverse-c", "2.5", "--no-centre"}},
		{"linear", kernel.Linear{}, map[string]any{"alpha": 0.5}, []string{"--alpha", "0.5"}},
		{"linear inverse on gaussian", nil, map[string]any{"alpha": 0.01, "inverse_kernel": "linear"}, []string{"--alpha", "0.01", "--inverse-kernel", "linear"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := pyFixture(t, tc.kernel)
			want := denoiseWith(t, "learned", tc.native, in)
			got := denoiseWith(t, "external", map[string]any{"command": examplePython(t, "learned_preimage.py", tc.args...)}, in)
			if diff := maxRelDiff(got, want); !(diff <= 1e-8) {
				t.Errorf("Python and Go differ by %.3g relative, want ≤ 1e-8", diff)
			} else {
				t.Logf("Python and Go agree to %.2g relative", diff)
			}
		})
	}
}

// TestLearnedSklearnAgrees: scikit-learn's KernelPCA.inverse_transform
// (python/examples/sklearn_kpca.py) is learned with centre: false and the
// same alpha, gamma = 1/c (the correspondence in learned.go).
func TestLearnedSklearnAgrees(t *testing.T) {
	python(t, "sklearn")
	for _, tc := range []struct {
		name   string
		kernel kernel.Kernel
		alpha  float64
	}{
		{"rbf", nil, 1e-3},
		{"rbf strong ridge", nil, 1},
		{"linear", kernel.Linear{}, 0.1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := pyFixture(t, tc.kernel)
			want := denoiseWith(t, "learned", map[string]any{"alpha": tc.alpha, "centre": false}, in)
			a := strconv.FormatFloat(tc.alpha, 'g', -1, 64)
			got := denoiseWith(t, "external", map[string]any{"command": examplePython(t, "sklearn_kpca.py", "--alpha", a)}, in)
			if diff := maxRelDiff(got, want); !(diff <= 1e-8) {
				t.Errorf("scikit-learn and learned differ by %.3g relative, want ≤ 1e-8", diff)
			} else {
				t.Logf("scikit-learn and learned agree to %.2g relative", diff)
			}
		})
	}
}

// TestFeatureNeighboursExample runs the documentation's example through
// the protocol, for both capabilities, against the same rule in Go: the
// mean of the 5 training inputs nearest to Ψ in feature space.
func TestFeatureNeighboursExample(t *testing.T) {
	in := pyFixture(t, nil)
	proj := in.Model.Project(in.X0, in.Q)
	p := methods.NewProblem(in.Model.Basis(), proj.Gamma, in.X0)
	var d2 mat.Dense
	p.Terms.TrainDist2(&d2, p.Basis.Diag)
	m, d := in.X0.Dims()
	want := mat.NewDense(m, d, nil)
	for i := 0; i < m; i++ {
		row := d2.RawRowView(i)
		idx := make([]int, len(row))
		for j := range idx {
			idx[j] = j
		}
		sort.SliceStable(idx, func(a, b int) bool { return row[idx[a]] < row[idx[b]] })
		for _, j := range idx[:5] {
			floats.AddScaled(want.RawRowView(i), 0.2, in.Model.X.RawRowView(j))
		}
	}
	cmd := examplePython(t, "feature_neighbours.py")
	got := denoiseWith(t, "external", map[string]any{"command": cmd, "does": "de-noise"}, in)
	if diff := maxRelDiff(got, want); diff > 1e-12 {
		t.Errorf("de-noise: %.3g from the Go rule", diff)
	}
	est, _, err := methods.New("external", map[string]any{"command": cmd})
	checkNoErr(t, "external", err)
	var z mat.Dense
	_, err = est.(methods.PreImager).PreImage(&z, p)
	checkNoErr(t, "pre-image", err)
	if diff := maxRelDiff(&z, want); diff > 1e-12 {
		t.Errorf("pre-image: %.3g from the Go rule", diff)
	}
}

// TestPythonHelperFailures: what the helper makes of an estimator's
// mistakes reaches the batch's error or the rows' statuses.
func TestPythonHelperFailures(t *testing.T) {
	py := python(t)
	pydir, err := filepath.Abs(filepath.Join("..", "..", "python"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in := pyFixture(t, nil)
	for _, tc := range []struct {
		name, body string
		want       string // in the batch's error; "" for success
		check      func(t *testing.T, z *mat.Dense, st []methods.Status)
	}{
		{"raises", `raise ValueError("the estimator broke")`, "ValueError: the estimator broke", nil},
		{"unsupported", `raise rx.Unsupported("no de-noising here")`, "exit status 3", nil},
		{"wrong shape", `return p.X0[:, :2]`, "result has shape (8, 2), want (8, 5)", nil},
		// Fortran order, written by NumPy itself (npyio cannot write it).
		{"fortran order", `np.save(p.directory + "/Z.npy", np.asfortranarray(2 * p.X0)); sys.exit(0)`, "",
			func(t *testing.T, z *mat.Dense, st []methods.Status) {
				var want mat.Dense
				want.Scale(2, in.X0)
				if !mat.Equal(z, &want) {
					t.Error("a Fortran-order Z.npy was read transposed or shuffled")
				}
			}},
		{"rows", `z = p.X0.copy(); z[1, 0] = np.nan; return z, [None, None, "diverged", {"iterations": 4, "converged": False}, None, None, None, None]`, "",
			func(t *testing.T, z *mat.Dense, st []methods.Status) {
				if !errors.Is(st[1].Err, methods.ErrNotFinite) {
					t.Errorf("NaN row: %v", st[1].Err)
				}
				if st[2].Err == nil || !strings.Contains(st[2].Err.Error(), "diverged") {
					t.Errorf("failed row: %v", st[2].Err)
				}
				if st[3].Err != nil || st[3].Iterations != 4 || st[3].Converged {
					t.Errorf("row 3: %+v", st[3])
				}
				if !mat.Equal(z.Slice(4, 8, 0, 5), in.X0.Slice(4, 8, 0, 5)) {
					t.Error("rows 4 to 7 are not X0")
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			script := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".py")
			src := "import sys\nsys.path.insert(0, " + strconv.Quote(pydir) + ")\nimport numpy as np\nimport runexp_estimator as rx\n\n" +
				"def estimate(p):\n    " + tc.body + "\n\nrx.main(estimate)\n"
			if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			est, _, err := methods.New("external", map[string]any{"command": py + " " + script})
			checkNoErr(t, "external", err)
			var z mat.Dense
			st, err := est.(methods.Denoiser).Denoise(&z, in)
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error %v, want one mentioning %q", err, tc.want)
				}
				return
			}
			checkNoErr(t, tc.name, err)
			tc.check(t, &z, st)
		})
	}
}
