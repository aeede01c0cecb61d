package methods_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/methods"
)

func newLearned(t *testing.T, raw map[string]any) methods.Denoiser {
	t.Helper()
	spec, ok := methods.Lookup("learned")
	if !ok {
		t.Fatal("learned is not registered")
	}
	p, err := spec.Bind(raw)
	if err != nil {
		t.Fatal(err)
	}
	d, err := spec.NewDenoiser(p)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestLearnedInterpolates: with α = 0 the ridge regression interpolates,
// so the training inputs, denoised with any number of components whose
// coordinates still tell them apart, come back exactly.
func TestLearnedInterpolates(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	x := randn(rng, 15, 5)
	m, err := methods.FitKPCA(x, medianGaussian(x))
	checkNoErr(t, "fit", err)
	for _, q := range []int{3, m.Rank()} {
		for _, centre := range []bool{false, true} {
			for _, ik := range []string{"same", "gaussian"} {
				d := newLearned(t, map[string]any{"alpha": 0, "centre": centre, "inverse_kernel": ik})
				var z mat.Dense
				st, err := d.Denoise(&z, &methods.DenoiseInput{Model: m, Q: q, X0: x})
				checkNoErr(t, "denoise", err)
				for i, s := range st {
					if s.Err != nil {
						t.Errorf("q=%d row %d: %v", q, i, s.Err)
					}
				}
				if diff := maxRelDiff(&z, x); diff > 1e-8 {
					t.Errorf("q=%d centre=%v %s: training inputs reproduced to %.3g, want ≤ 1e-8", q, centre, ik, diff)
				}
			}
		}
	}
}

// TestLearnedTwoPoints checks a problem solved by hand: x₁ = 0 and x₂ = 2
// in one dimension, Gaussian kernel c = 4, inverse Gaussian width c' = 1,
// α = 1/2.
//
// K = [1 e; e 1] with e = exp(−4/4); the centred K̃ = (1−e)/2·[1 −1; −1 1]
// has one positive eigenvalue λ = 1 − e with eigenvector (1, −1)/√2, so the
// training coordinates are β = K̃α = ±√(λ/2)·(1, −1) and
// ‖β₁ − β₂‖² = 2λ. The inverse Gram matrix is K' = [1 f; f 1] with
// f = exp(−2λ/c'), and A = (K' + αI)⁻¹X with det = (1+α)² − f².
//
//   - The midpoint x = 1 has k(x, x₁) = k(x, x₂), so its centred kernel
//     row is zero and β = 0; k'(0, β_n) = g = exp(−(λ/2)/c') for both n.
//     Without centring z = g(A₁ + A₂) = g·(x₁+x₂)/(1+α+f) = 2g/(1+α+f);
//     with centring the targets are ∓1, A₁ + A₂ = 0 and z = x̄ = 1.
//   - The training input x₁ maps to K'₁·A = (A₁ + fA₂)
//     = (−2f + 2f(1+α))/det = 2fα/det (no centring).
//   - x₂ maps to fA₁ + A₂ = 2((1+α) − f²)/det.
func TestLearnedTwoPoints(t *testing.T) {
	const (
		c     = 4.0
		cInv  = 1.0
		alpha = 0.5
	)
	e := math.Exp(-4 / c)
	lambda := 1 - e
	f := math.Exp(-2 * lambda / cInv)
	g := math.Exp(-(lambda / 2) / cInv)
	det := (1+alpha)*(1+alpha) - f*f

	x := mat.NewDense(2, 1, []float64{0, 2})
	m, err := methods.FitKPCA(x, kernel.Gaussian{C: c})
	checkNoErr(t, "fit", err)
	if m.Rank() != 1 || math.Abs(m.Values[0]-lambda) > 1e-14 {
		t.Fatalf("KPCA of two points: eigenvalues %v, want [%v]", m.Values, lambda)
	}
	x0 := mat.NewDense(3, 1, []float64{1, 0, 2})
	for _, tc := range []struct {
		centre bool
		want   []float64
	}{
		{false, []float64{2 * g / (1 + alpha + f), 2 * f * alpha / det, 2 * ((1 + alpha) - f*f) / det}},
		// Centred targets (−1, 1), an eigenvector of K' + αI with
		// eigenvalue 1+α−f: A = (−1, 1)/(1+α−f), so x₁ ↦ 1 + (f − 1)/(1+α−f)
		// and x₂ ↦ 1 + (1 − f)/(1+α−f).
		{true, []float64{1, 1 + (f-1)/(1+alpha-f), 1 + (1-f)/(1+alpha-f)}},
	} {
		d := newLearned(t, map[string]any{"alpha": alpha, "inverse_kernel": "gaussian", "inverse_c": cInv, "centre": tc.centre})
		var z mat.Dense
		_, err := d.Denoise(&z, &methods.DenoiseInput{Model: m, Q: 1, X0: x0})
		checkNoErr(t, "denoise", err)
		got := mat.Col(nil, 0, &z)
		if !floats.EqualApprox(got, tc.want, 1e-13) {
			t.Errorf("centre=%v: got %v, want %v", tc.centre, got, tc.want)
		}
	}
}

// TestLearnedLinearLimit: with the linear kernel both ways, the learned map
// is linear ridge regression on PCA coordinates b_i = (x − x̄)ᵀv_i, and
// since BᵀB = Λ and BᵀX̃ = ΛV_qᵀ for the centred training inputs X̃,
//
//	z = x̄ + Σ_{i≤q} b_i λ_i/(λ_i + α) v_i
//
// (λ_i the eigenvalues of X̃ᵀX̃): linear PCA reconstruction shrunk by
// λ/(λ+α), and exactly linear PCA as α → 0. Without centring, x̄ is
// missing from z (scikit-learn's documented behaviour). The reference is
// an SVD of X̃, independent of the kernel code.
func TestLearnedLinearLimit(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n, dim, q = 14, 5, 3
	x := randn(rng, n, dim)
	for j := 0; j < dim; j++ {
		// Offset the mean so that dropping it is visible.
		for i := 0; i < n; i++ {
			x.Set(i, j, x.At(i, j)+float64(j+1))
		}
	}
	x0 := randn(rng, 6, dim)
	mean := make([]float64, dim)
	for i := 0; i < n; i++ {
		floats.Add(mean, x.RawRowView(i))
	}
	floats.Scale(1/float64(n), mean)
	xc := mat.DenseCopyOf(x)
	for i := 0; i < n; i++ {
		floats.Sub(xc.RawRowView(i), mean)
	}
	var svd mat.SVD
	if !svd.Factorize(xc, mat.SVDThin) {
		t.Fatal("SVD failed")
	}
	s := svd.Values(nil)
	var v mat.Dense
	svd.VTo(&v)

	m, err := methods.FitKPCA(x, kernel.Linear{})
	checkNoErr(t, "fit", err)
	for _, alpha := range []float64{1e-6, 0.5, 10} {
		for _, centre := range []bool{true, false} {
			want := mat.NewDense(6, dim, nil)
			for r := 0; r < 6; r++ {
				d := floats.SubTo(make([]float64, dim), x0.RawRowView(r), mean)
				out := want.RawRowView(r)
				if centre {
					copy(out, mean)
				}
				for i := 0; i < q; i++ {
					vi := mat.Col(nil, i, &v)
					lam := s[i] * s[i]
					floats.AddScaled(out, floats.Dot(d, vi)*lam/(lam+alpha), vi)
				}
			}
			den := newLearned(t, map[string]any{"alpha": alpha, "centre": centre})
			var z mat.Dense
			_, err := den.Denoise(&z, &methods.DenoiseInput{Model: m, Q: q, X0: x0})
			checkNoErr(t, "denoise", err)
			// The part of X̃ outside the span of the coordinates cancels in
			// K'_x·(K'+αI)⁻¹X̃ only up to rounding amplified by 1/α.
			tol := 1e-10 + 1e-14/alpha
			if diff := maxRelDiff(&z, want); diff > tol {
				t.Errorf("α=%g centre=%v: %.3g from the closed form (tolerance %.3g)", alpha, centre, diff, tol)
			}
		}
	}
	// α → 0 with centring is linear PCA itself.
	lp, _, err := methods.New("linear-pca", map[string]any{"pca_components": q})
	checkNoErr(t, "linear-pca", err)
	var want, z mat.Dense
	_, err = lp.(methods.Denoiser).Denoise(&want, &methods.DenoiseInput{Model: m, Q: q, X0: x0})
	checkNoErr(t, "linear-pca", err)
	_, err = newLearned(t, map[string]any{"alpha": 1e-9}).Denoise(&z, &methods.DenoiseInput{Model: m, Q: q, X0: x0})
	checkNoErr(t, "learned", err)
	if diff := maxRelDiff(&z, &want); diff > 1e-6 {
		t.Errorf("α = 1e-9: %.3g from linear PCA", diff)
	}
}

// TestLearnedRefuses: configurations the map cannot take are errors that
// say what to change, never panics.
func TestLearnedRefuses(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	x := randn(rng, 10, 4)
	lin, err := methods.FitKPCA(x, kernel.Linear{})
	checkNoErr(t, "fit", err)
	hogX := randn(rng, 6, 64)
	hog, err := methods.FitKPCA(hogX, kernel.MappedGaussian{Map: kernel.HOG{Width: 8, Height: 8, Cell: 4, Block: 1, Bins: 6}, C: 1})
	checkNoErr(t, "fit", err)
	for _, tc := range []struct {
		name  string
		raw   map[string]any
		model *methods.KPCA
		x0    *mat.Dense
		want  string
	}{
		{"same on HOG", nil, hog, hogX, "inverse_kernel same"},
		{"gaussian width from a linear model", map[string]any{"inverse_kernel": "gaussian"}, lin, x, "set inverse_c"},
		// K' = BBᵀ has rank q < N: singular without a ridge.
		{"linear without ridge", map[string]any{"alpha": 0, "inverse_kernel": "linear"}, lin, x, "increase alpha"},
	} {
		var z mat.Dense
		_, err := newLearned(t, tc.raw).Denoise(&z, &methods.DenoiseInput{Model: tc.model, Q: 2, X0: tc.x0})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.name, err, tc.want)
		}
	}
	// The HOG model works with an explicit inverse kernel.
	var z mat.Dense
	_, err = newLearned(t, map[string]any{"inverse_kernel": "gaussian", "inverse_c": 1.0}).Denoise(&z, &methods.DenoiseInput{Model: hog, Q: 2, X0: hogX})
	checkNoErr(t, "HOG with an explicit inverse kernel", err)
}
