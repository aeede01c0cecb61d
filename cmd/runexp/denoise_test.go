package main

import (
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/experiments/setup"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/runner"
)

// ringsCSV writes 40 two-ring points as training data and 6 noisy copies
// as inputs, and returns the matrices and file names.
func ringsCSV(t *testing.T) (train, noisy *mat.Dense, trainPath, inputPath string) {
	t.Helper()
	rnd := rand.New(rand.NewPCG(2, 2))
	set, err := datasets.TwoRings(datasets.RingsOptions{N: 40, Radii: [2]float64{1, 2}, Noise: 0.05, ArcEnd: [2]float64{360, 360}}, rnd)
	if err != nil {
		t.Fatal(err)
	}
	noisy = datasets.AddGaussian(set.X.Slice(0, 6, 0, 2).(*mat.Dense), 0.2, rnd)
	dir := t.TempDir()
	trainPath, inputPath = filepath.Join(dir, "train.csv"), filepath.Join(dir, "noisy.csv")
	if err := datasets.WriteCSVMatrix(trainPath, set.X); err != nil {
		t.Fatal(err)
	}
	if err := datasets.WriteCSVMatrix(inputPath, noisy); err != nil {
		t.Fatal(err)
	}
	return set.X, noisy, trainPath, inputPath
}

// TestDenoiseComponentRule: the CLI resolves the subspace size by the
// kinds' rule (setup.Components). --energy f gives the same pre-images as
// --components q with q the fewest components holding f, computed here by
// hand from the eigenvalues; neither, both, or more components than the
// rank are usage errors; and an estimator that cannot take the kernel is
// refused with the capability's reason.
func TestDenoiseComponentRule(t *testing.T) {
	train, _, trainPath, inputPath := ringsCSV(t)
	m, err := methods.FitKPCA(train, kernel.Gaussian{C: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	const f = 0.8
	var sum, acc float64
	for _, v := range m.Values {
		sum += v
	}
	q := 0
	for q < len(m.Values) && acc < f*sum {
		acc += m.Values[q]
		q++
	}
	if got, err := setup.Components(m, config.ModelPoint{Energy: f}); err != nil || got != q {
		t.Fatalf("setup.Components(energy %g) = %d, %v; the eigenvalues give %d", f, got, err, q)
	}
	if q < 2 || q >= m.Rank() {
		t.Fatalf("energy %g keeps %d of rank %d components: pick another fraction for the test", f, q, m.Rank())
	}
	dir := t.TempDir()
	base := []string{"denoise", "--train", trainPath, "--input", inputPath, "--kernel", "gaussian", "--c", "0.5", "--method", "kwok-tsang"}
	outE, outQ := filepath.Join(dir, "e.csv"), filepath.Join(dir, "q.csv")
	if code, _, stderr := runCLI(append(base, "--output", outE, "--energy", "0.8")...); code != exitOK {
		t.Fatalf("--energy: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runCLI(append(base, "--output", outQ, "--components", itoa(q))...); code != exitOK {
		t.Fatalf("--components: exit %d: %s", code, stderr)
	}
	ze, _ := datasets.ReadCSVMatrix(outE)
	zq, _ := datasets.ReadCSVMatrix(outQ)
	if ze == nil || zq == nil || !mat.Equal(ze, zq) {
		t.Errorf("--energy %g and --components %d give different pre-images", f, q)
	}
	out := filepath.Join(dir, "x.csv")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "exactly one of --components and --energy"},
		{[]string{"--components", "3", "--energy", "0.5"}, "exactly one of --components and --energy"},
		{[]string{"--components", itoa(m.Rank() + 1)}, "numerical rank"},
		{[]string{"--components", "-1"}, "want a count"},
		{[]string{"--components", "3", "--method", "no-such-estimator"}, "unknown estimator"},
		{[]string{"--components", "3", "--kernel", "linear", "--method", "mika"}, "needs a Gaussian kernel"},
	} {
		args := append(append(append([]string(nil), base...), "--output", out), tc.args...)
		if code, _, stderr := runCLI(args...); code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 with %q", tc.args, code, stderr, tc.want)
		}
	}
	if code, _, stderr := runCLI("denoise", "-h"); code != exitUsage || !strings.Contains(stderr, "one component rule") {
		t.Errorf("denoise -h: exit %d, help %q does not state the component rule", code, stderr)
	}
}

// TestDenoiseSharesKindPath: the library call behind the CLI gives what
// setup.Denoiser, the denoise kind's path, gives for the same cell.
func TestDenoiseSharesKindPath(t *testing.T) {
	train, noisy, _, _ := ringsCSV(t)
	mp := config.ModelPoint{Kernel: "gaussian", WidthName: "c", Width: 0.5}
	z, st, err := Denoise(train, noisy, DenoiseOptions{Kernel: mp, Method: "mika", Params: map[string]any{"max_iter": 50}, Components: 5, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	bm, err := setup.Method("mika", map[string]any{"max_iter": 50})
	if err != nil {
		t.Fatal(err)
	}
	mp.Components = 5
	cell := cellFor(t, mp, bm)
	m, q, den, err := setup.Denoiser(nil, "train", train, cell)
	if err != nil {
		t.Fatal(err)
	}
	var want mat.Dense
	if _, err := den.Denoise(&want, &methods.DenoiseInput{Model: m, Q: q, X0: noisy}); err != nil {
		t.Fatal(err)
	}
	if q != 5 || len(st) != 6 || !mat.Equal(z, &want) {
		t.Errorf("CLI and kind path differ (q = %d):\n%v\n%v", q, mat.Formatted(z), mat.Formatted(&want))
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func cellFor(t *testing.T, mp config.ModelPoint, bm *runner.BoundMethod) *runner.Cell {
	t.Helper()
	k, err := runner.KernelFor(mp)
	if err != nil {
		t.Fatal(err)
	}
	return &runner.Cell{Model: mp, Kernel: k, Method: bm}
}
