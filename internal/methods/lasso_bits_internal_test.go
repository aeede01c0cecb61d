package methods

import (
	"math/rand/v2"
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/linalg"
)

// gpsDigest is the SHA-256 of everything PreImage returns for p: every
// coordinate's bits, and per row the step count, convergence and the
// bits of its diagnostics.
func gpsDigest(t *testing.T, l *LassoGPS, p *Problem) string {
	t.Helper()
	var z mat.Dense
	st, err := l.PreImage(&z, p)
	if err != nil {
		t.Fatal(err)
	}
	return resultDigest(&z, st, true, "lambda", "steps", "nonzero")
}

// TestLassoGPSBits pins the bits of GPS paths: the digest of the results
// (gpsDigest) on seeded problems, computed by the implementation before
// the step's bookkeeping was made cheaper. The cheaper bookkeeping must
// not move a path: a rounding difference could break a near-tie
// differently and send it elsewhere, and the results feed a baseline
// compared at tolerance 0. A change of the digest means the paths moved;
// it must come with a baseline refresh, never a new digest alone.
func TestLassoGPSBits(t *testing.T) {
	if !linalg.PureGo() {
		t.Skip("the digests are of the pure-Go backend's products; another BLAS rounds them differently")
	}
	rng := rand.New(rand.NewPCG(52, 3))
	for _, tc := range []struct {
		name   string
		scale  float64 // of the median squared distance
		grid   bool
		lambda float64
		digest string
	}{
		{"very narrow", 0.03, false, 0, "58d359bca16aa371"},
		{"narrow", 0.2, false, 0, "d8182277c0329164"},
		{"median", 1, false, 0, "e6339d4359906f48"},
		{"wide", 20, false, 0, "b437fc6b527ddedb"},
		{"grid", 1, true, 0, "bc78497881985fed"},
		{"median lambda", 1, false, 1e-3, "d023d94f4d615359"},
	} {
		x := mat.NewDense(80, 24, nil)
		test := mat.NewDense(12, 24, nil)
		fillNormal(rng, tc.grid, x, test)
		var d2 mat.Dense
		kernel.SqDist(&d2, x, x)
		model, err := FitKPCA(x, kernel.Gaussian{C: tc.scale * medianOf(&d2)})
		if err != nil {
			t.Fatal(err)
		}
		p := NewProblem(model.Basis(), model.Project(test, 10).Gamma, test)
		l := &LassoGPS{StepFactor: 1e-2, Tol: 1e-6, Window: 50, MaxSteps: 100000, Lambda: tc.lambda}
		if got := gpsDigest(t, l, p); got != tc.digest {
			t.Errorf("%s: digest %s, want %s", tc.name, got, tc.digest)
		}
	}
}

// TestLassoGPSBitsUSPS is TestLassoGPSBits on the first 20 rows of a
// Fig. 4-sized USPS cell (BenchmarkLassoGPSUSPSCell's draws) at c = 10
// and c = 1000. It needs RUNEXP_DATA.
func TestLassoGPSBitsUSPS(t *testing.T) {
	root := digestDataRoot(t, "USPS")
	train, test, err := datasets.LoadUSPS(root, datasets.USPSOptions{Digits: []int{0, 2, 4, 9}, TrainPerDigit: 100, TestPerDigit: 100}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	noisy := datasets.AddGaussian(test.X, 0.5, rand.New(rand.NewPCG(3, 4)))
	const rows = 20
	for _, tc := range []struct {
		c      float64
		digest string
	}{{10, "92298f94b897722f"}, {1000, "29183fcc977b4f85"}} {
		model, err := FitKPCA(train.X, kernel.Gaussian{C: tc.c})
		if err != nil {
			t.Fatal(err)
		}
		n, _ := train.X.Dims()
		_, d := noisy.Dims()
		gam := mat.DenseCopyOf(model.Project(noisy, 100).Gamma.Slice(0, rows, 0, n))
		p := NewProblem(model.Basis(), gam, mat.DenseCopyOf(noisy.Slice(0, rows, 0, d)))
		l := &LassoGPS{StepFactor: 1e-2, Tol: 1e-6, Window: 50, MaxSteps: 100000}
		if got := gpsDigest(t, l, p); got != tc.digest {
			t.Errorf("c = %g: digest %s, want %s", tc.c, got, tc.digest)
		}
	}
}

// digestDataRoot skips a digest test on real data where its digests cannot
// hold (another BLAS rounds the products differently) or the data root is
// missing (what names the files it needs), and returns the data root.
func digestDataRoot(t *testing.T, what string) *datasets.Root {
	t.Helper()
	if !linalg.PureGo() {
		t.Skip("the digests are of the pure-Go backend's products; another BLAS rounds them differently")
	}
	root, err := datasets.OpenRoot(os.Getenv("RUNEXP_DATA"))
	if os.Getenv("RUNEXP_DATA") == "" || err != nil {
		t.Skipf("RUNEXP_DATA not set or unreadable: the %s files are not available", what)
	}
	return root
}
