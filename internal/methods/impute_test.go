package methods_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/methods"
)

// missingSSE is Σ (z − x)² over the missing entries.
func missingSSE(z, x, mask *mat.Dense) float64 {
	r, c := x.Dims()
	var s float64
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if mask.At(i, j) == 0 {
				e := z.At(i, j) - x.At(i, j)
				s += e * e
			}
		}
	}
	return s
}

func impute(t *testing.T, est methods.Denoiser, x, mask *mat.Dense, rng *rand.Rand) *mat.Dense {
	t.Helper()
	var z mat.Dense
	st, err := est.Denoise(&z, &methods.DenoiseInput{X0: x, Mask: mask, Rand: rng})
	checkNoErr(t, "impute", err)
	for i, s := range st {
		if s.Err != nil {
			t.Fatalf("row %d: %v", i, s.Err)
		}
	}
	// Observed entries are returned unchanged.
	r, c := x.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if mask.At(i, j) != 0 && z.At(i, j) != x.At(i, j) {
				t.Fatalf("observed entry (%d, %d) changed from %g to %g", i, j, x.At(i, j), z.At(i, j))
			}
		}
	}
	return &z
}

// Hand-worked: column 0 observes 1 and 3 (mean 2), column 1 observes 10
// and 30 (mean 20).
func TestImputeMeanHandWorked(t *testing.T) {
	x := mat.NewDense(3, 2, []float64{1, 10, 99, 30, 3, 99})
	mask := mat.NewDense(3, 2, []float64{1, 1, 0, 1, 1, 0})
	z := impute(t, methods.ImputeMean{}, x, mask, nil)
	want := mat.NewDense(3, 2, []float64{1, 10, 2, 30, 3, 20})
	if !mat.Equal(z, want) {
		t.Errorf("got %v, want %v", mat.Formatted(z), mat.Formatted(want))
	}
}

// Hand-worked 1-NN (distance: mean squared difference over the attributes
// both points observe). Point 0 = (0, ?, 5): to point 1 = (1, 7, ?) 1² = 1,
// to point 2 = (0.2, 8, 5) (0.2² + 0²)/2 = 0.02, to point 3 = (10, ?, ?)
// 100, so attribute 1 comes from point 2: 8. Point 1: to point 0 1, to
// point 2 (0.8² + 1²)/2 = 0.82, to point 3 81, so attribute 2 comes from
// point 2: 5. Point 3: to point 1 81, to point 2 96.04, to point 0 100;
// attribute 1 from point 1 (7), attribute 2 from the nearest point
// observing it, point 2 (5).
func TestImputeNNHandWorked(t *testing.T) {
	x := mat.NewDense(4, 3, []float64{0, -1, 5, 1, 7, -1, 0.2, 8, 5, 10, -1, -1})
	mask := mat.NewDense(4, 3, []float64{1, 0, 1, 1, 1, 0, 1, 1, 1, 1, 0, 0})
	z := impute(t, methods.ImputeNN{}, x, mask, nil)
	want := mat.NewDense(4, 3, []float64{0, 8, 5, 1, 7, 5, 0.2, 8, 5, 10, 7, 5})
	if !mat.Equal(z, want) {
		t.Errorf("got\n%v\nwant\n%v", mat.Formatted(z), mat.Formatted(want))
	}
}

// PPCA-EM with missing values recovers an exactly rank-2 matrix (plus a
// mean) with 15% of its entries removed: the posterior means of the missing
// entries equal the true values up to EM's convergence.
func TestPPCARecoversLowRank(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	const n, d, q = 80, 8, 2
	var x mat.Dense
	x.Mul(randn(rng, n, q), randn(rng, q, d))
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x.Set(i, j, x.At(i, j)+float64(j))
		}
	}
	mask := methods.RandomMask(rng, n, d, 0.15)
	z := impute(t, &methods.PPCA{Latent: q, MaxIter: 20000, Tol: 1e-12}, &x, mask, nil)
	mean := impute(t, methods.ImputeMean{}, &x, mask, nil)
	got, base := missingSSE(z, &x, mask), missingSSE(mean, &x, mask)
	t.Logf("missing-entry SSE: PPCA %g, mean imputation %g", got, base)
	if got > 1e-6*base {
		t.Errorf("PPCA missing-entry SSE %g, want ≤ 1e-6 × the mean imputation's %g", got, base)
	}
}

// Algorithm 1 on points of a curve in 4-D, (t, t², t³, sin 2t) with t
// uniform in [0, 1] (a non-linear 1-D manifold, where linear methods cannot
// be exact), 20% of the entries missing: the imputed values must be far
// closer to the truth than mean imputation, 1-NN and PPCA (measured SSE
// over the missing entries: 0.13 against 7.8, 0.65 and 1.4).
func TestRKPCAImputeCurve(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 12))
	const n = 100
	x := mat.NewDense(n, 4, nil)
	for i := 0; i < n; i++ {
		s := rng.Float64()
		x.SetRow(i, []float64{s, s * s, s * s * s, math.Sin(2 * s)})
	}
	mask := methods.RandomMask(rng, n, 4, 0.2)
	est := &methods.RKPCAImpute{Gamma: 1, Gamma2: 1, C: 0.1, Energy: 0.95, Iterations: 10, Partitions: 10, MaxIter: 1000, Tol: 1e-8}
	z := impute(t, est, x, mask, rand.New(rand.NewPCG(1, 2)))
	z2 := impute(t, est, x, mask, rand.New(rand.NewPCG(1, 2)))
	if !mat.Equal(z, z2) {
		t.Error("same seed, different imputations")
	}
	got := missingSSE(z, x, mask)
	mean := missingSSE(impute(t, methods.ImputeMean{}, x, mask, nil), x, mask)
	nn := missingSSE(impute(t, methods.ImputeNN{}, x, mask, nil), x, mask)
	pp := missingSSE(impute(t, &methods.PPCA{Latent: 1, MaxIter: 2000, Tol: 1e-8}, x, mask, nil), x, mask)
	t.Logf("missing-entry SSE: Algorithm 1 %g, mean %g, 1-NN %g, PPCA %g", got, mean, nn, pp)
	if !(got < 0.1*mean) || !(got < 0.5*nn) || !(got < 0.5*pp) {
		t.Errorf("Algorithm 1 SSE %g, want < 0.1 × mean imputation's %g and < 0.5 × 1-NN's %g and PPCA's %g", got, mean, nn, pp)
	}
}

// Robust PCA on exactly rank-3 data recovers a test point of the subspace
// whose 4 of 40 coordinates are gross outliers (+6), while linear PCA
// spreads the outliers over the reconstruction.
func TestRobustPCARejectsOutliers(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	const n, d, q = 50, 40, 3
	basis := randn(rng, q, d)
	var x mat.Dense
	x.Mul(randn(rng, n, q), basis)
	var clean mat.Dense
	clean.Mul(randn(rng, 1, q), basis)
	x0 := mat.DenseCopyOf(&clean)
	for j := 0; j < 4; j++ {
		x0.Set(0, j, x0.At(0, j)+6)
	}
	m, err := methods.FitKPCA(&x, medianGaussian(&x))
	checkNoErr(t, "FitKPCA", err)
	in := &methods.DenoiseInput{Model: m, Q: q, X0: x0}
	var rz, lz mat.Dense
	st, err := (&methods.RobustPCA{Components: q, SigmaStart: 8, Anneal: 0.85, MaxIter: 500, Tol: 1e-12}).Denoise(&rz, in)
	checkNoErr(t, "robust-pca", err)
	if st[0].Err != nil {
		t.Fatal(st[0].Err)
	}
	_, err = (&methods.LinearPCA{Components: q}).Denoise(&lz, in)
	checkNoErr(t, "linear-pca", err)
	r, l := maxRelDiff(&rz, &clean), maxRelDiff(&lz, &clean)
	t.Logf("relative error: robust %g, linear %g", r, l)
	if r > 1e-3 {
		t.Errorf("robust PCA relative error %g, want ≤ 1e-3", r)
	}
	if l < 0.1 {
		t.Errorf("linear PCA relative error %g: the test would not discriminate", l)
	}
}
