package methods_test

import (
	"math/rand/v2"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/methods"
)

// Benchmark sizes: a USPS-like problem, N = 400 training images of
// D = 256 pixels and 400 test images, q = 100 components.
const (
	benchN = 400
	benchD = 256
	benchM = 400
	benchQ = 100
)

var benchOnce struct {
	sync.Once
	x, test *mat.Dense
	model   *methods.KPCA
	proj    *methods.Projection
}

// benchSetup returns seeded U(0,1) data and the Gaussian kernel with
// c = D/6: for U(0,1) entries E‖x−y‖² = D·2·(1/12) = D/6, and a sum of 256
// independent terms has its median within a few percent of its mean, so c
// is the median-distance heuristic.
func benchSetup(b *testing.B) (x, test *mat.Dense, model *methods.KPCA, proj *methods.Projection) {
	b.Helper()
	benchOnce.Do(func() {
		rng := rand.New(rand.NewPCG(1, 1))
		uniform := func(r, c int) *mat.Dense {
			m := mat.NewDense(r, c, nil)
			for i := 0; i < r; i++ {
				for j := 0; j < c; j++ {
					m.Set(i, j, rng.Float64())
				}
			}
			return m
		}
		benchOnce.x = uniform(benchN, benchD)
		benchOnce.test = uniform(benchM, benchD)
		m, err := methods.FitKPCA(benchOnce.x, benchGaussian())
		if err != nil {
			panic(err)
		}
		benchOnce.model = m
		benchOnce.proj = m.Project(benchOnce.test, benchQ)
	})
	return benchOnce.x, benchOnce.test, benchOnce.model, benchOnce.proj
}

func benchGaussian() kernel.Gaussian { return kernel.Gaussian{C: benchD / 6.0} }

func BenchmarkKPCAFit(b *testing.B) {
	x, _, _, _ := benchSetup(b)
	for b.Loop() {
		if _, err := methods.FitKPCA(x, benchGaussian()); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkProject(b *testing.B) {
	_, test, m, _ := benchSetup(b)
	for b.Loop() {
		m.Project(test, benchQ)
	}
}

func BenchmarkMika(b *testing.B) {
	_, test, m, proj := benchSetup(b)
	p := methods.NewProblem(m.Basis(), proj.Gamma, test)
	est := &methods.Mika{MaxIter: 100, Tol: 1e-9, Start: methods.StartNoisy, Eps: 1e-12}
	var z mat.Dense
	var st []methods.Status
	for b.Loop() {
		var err error
		if st, err = est.PreImage(&z, p); err != nil {
			b.Fatal(err)
		}
	}
	reportIterations(b, st)
}

func BenchmarkKwokTsang(b *testing.B) {
	_, test, m, proj := benchSetup(b)
	p := methods.NewProblem(m.Basis(), proj.Gamma, test)
	est := &methods.KwokTsang{Neighbors: 10}
	var z mat.Dense
	for b.Loop() {
		if _, err := est.PreImage(&z, p); err != nil {
			b.Fatal(err)
		}
	}
}

// reportIterations reports the mean iterations (GPS steps) and the
// fraction of converged rows of a run.
func reportIterations(b *testing.B, st []methods.Status) {
	var iters, conv int
	for _, s := range st {
		iters += s.Iterations
		if s.Converged {
			conv++
		}
	}
	b.ReportMetric(float64(iters)/float64(len(st)), "iter/row")
	b.ReportMetric(float64(conv)/float64(len(st)), "converged/row")
}

func BenchmarkDambreville(b *testing.B) {
	_, test, m, proj := benchSetup(b)
	p := methods.NewProblem(m.Basis(), proj.Gamma, test)
	est := &methods.Dambreville{}
	var z mat.Dense
	for b.Loop() {
		if _, err := est.PreImage(&z, p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTikhonov runs the paper's λ = 3e-4 with the registry's defaults
// (up to 1000 iterations), as a Fig. 4 cell does.
func BenchmarkTikhonov(b *testing.B) {
	_, test, m, proj := benchSetup(b)
	p := methods.NewProblem(m.Basis(), proj.Gamma, test)
	est := &methods.Tikhonov{Lambda: 3e-4, MaxIter: 1000, Tol: 1e-9, Start: methods.StartNoisy, Eps: 1e-12}
	var z mat.Dense
	var st []methods.Status
	for b.Loop() {
		var err error
		if st, err = est.PreImage(&z, p); err != nil {
			b.Fatal(err)
		}
	}
	reportIterations(b, st)
}

// BenchmarkLassoGPS runs the registry's defaults (step 1e-2·max|X|, the path
// followed until the cost stabilises): one Fig. 4 cell.
func BenchmarkLassoGPS(b *testing.B) {
	_, test, m, proj := benchSetup(b)
	p := methods.NewProblem(m.Basis(), proj.Gamma, test)
	est, _, err := methods.New("lasso-gps", nil)
	if err != nil {
		b.Fatal(err)
	}
	var z mat.Dense
	var st []methods.Status
	for b.Loop() {
		if st, err = est.(methods.PreImager).PreImage(&z, p); err != nil {
			b.Fatal(err)
		}
	}
	reportIterations(b, st)
}
