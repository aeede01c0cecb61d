package methods_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/methods"
)

// directDenoise runs honeine-richard-direct and, for comparison, the
// centred reading (honeine-richard after the KPCA projection) with q
// components of the model fitted on x.
func directDenoise(t *testing.T, x, x0 *mat.Dense, k kernel.Kernel, q int) (unc, cen *mat.Dense) {
	t.Helper()
	m, err := methods.FitKPCA(x, k)
	checkNoErr(t, "fit", err)
	if q == 0 {
		q = m.Rank()
	}
	in := &methods.DenoiseInput{Model: m, Q: q, X0: x0}
	unc, cen = &mat.Dense{}, &mat.Dense{}
	st, err := (&methods.HoneineRichardDirect{}).Denoise(unc, in)
	checkNoErr(t, "direct", err)
	for i, s := range st {
		if s.Err != nil {
			t.Fatalf("row %d failed: %v", i, s.Err)
		}
	}
	_, err = methods.ProjectThenPreImage{PreImager: &methods.HoneineRichard{}}.Denoise(cen, in)
	checkNoErr(t, "centred", err)
	return unc, cen
}

// TestHoneineRichardDirectLinear: with the linear kernel, K = XXᵀ and
// z = Xᵀ(XXᵀ)⁺Xx is the orthogonal projection of x onto the span of the
// training inputs (closed form). With 12 inputs spanning R⁴ that is x
// itself, for any x, not only the training points.
func TestHoneineRichardDirectLinear(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 1))
	x := randn(rng, 12, 4)
	x0 := randn(rng, 5, 4)
	unc, _ := directDenoise(t, x, x0, kernel.Linear{}, 0)
	if e := maxRelDiff(unc, x0); e > 1e-10 {
		t.Errorf("linear kernel, all components: z differs from x by %g", e)
	}
	// Two inputs spanning the first two axes of R³: z keeps x's first two
	// coordinates and drops the third, by hand.
	x2 := mat.NewDense(2, 3, []float64{1, 0, 0, 0, 1, 0})
	unc, _ = directDenoise(t, x2, mat.NewDense(1, 3, []float64{1, 2, 3}), kernel.Linear{}, 0)
	if e := maxRelDiff(unc, mat.NewDense(1, 3, []float64{1, 2, 0})); e > 1e-12 {
		t.Errorf("projection onto span{e1, e2}: got %v, want [1 2 0]", mat.Formatted(unc))
	}
}

// TestHoneineRichardDirectTwoPoints: training inputs 0 and 1 on the line,
// k(a, b) = exp(−(a−b)²), e = k(0, 1) = e⁻¹. By hand, with every
// component: K⁻¹ = [1 −e; −e 1]/(1 − e²), k(X, x) = (k₀, k₁) with
// k₀ = exp(−x²), k₁ = exp(−(x−1)²), so z = (k₁ − e·k₀)/(1 − e²). At the
// midpoint x = ½, k₀ = k₁ = e^{−1/4} and z = e^{−1/4}/(1 + e⁻¹) = 0.569349.
// The centred reading projects φ(x) onto the line through φ(0) and φ(1) at
// t = ⟨φ(x)−φ(0), φ(1)−φ(0)⟩/‖φ(1)−φ(0)‖² = ½ + (k₁ − k₀)/(2(1 − e)), and
// z = t: ½ at the midpoint. Far out (x = 3) the uncentred z shrinks to
// (e⁻⁴ − e⁻¹⁰)/(1 − e⁻²) = 0.0211 while the centred one stays near ½ (0.514).
func TestHoneineRichardDirectTwoPoints(t *testing.T) {
	x := mat.NewDense(2, 1, []float64{0, 1})
	e := math.Exp(-1)
	for _, x0 := range []float64{0.5, 3, -0.7} {
		k0, k1 := math.Exp(-x0*x0), math.Exp(-(x0-1)*(x0-1))
		wantU := (k1 - e*k0) / (1 - e*e)
		wantC := 0.5 + (k1-k0)/(2*(1-e))
		unc, cen := directDenoise(t, x, mat.NewDense(1, 1, []float64{x0}), kernel.Gaussian{C: 1}, 0)
		if got := unc.At(0, 0); math.Abs(got-wantU) > 1e-12 {
			t.Errorf("x = %g: uncentred z = %.15g, want %.15g by hand", x0, got, wantU)
		}
		if got := cen.At(0, 0); math.Abs(got-wantC) > 1e-12 {
			t.Errorf("x = %g: centred z = %.15g, want %.15g by hand", x0, got, wantC)
		}
	}
	if v := math.Exp(-0.25) / (1 + e); math.Abs(v-0.569349) > 1e-6 {
		t.Errorf("the midpoint's hand value is %g", v)
	}
}

// TestHoneineRichardDirectComponents: with q < rank components the
// uncentred reading keeps the q+1 leading eigenvectors of K:
// z = Xᵀ V Λ⁻¹ Vᵀ k(X, x), checked against that formula built here from
// gonum's eigendecomposition, and it differs from the all-component z.
func TestHoneineRichardDirectComponents(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 2))
	x := randn(rng, 10, 3)
	x0 := randn(rng, 4, 3)
	k := medianGaussian(x)
	unc, _ := directDenoise(t, x, x0, k, 3)
	var eig mat.EigenSym
	if !eig.Factorize(kernel.SelfGram(k, x), true) {
		t.Fatal("eigendecomposition failed")
	}
	vals := eig.Values(nil)
	var v mat.Dense
	eig.VectorsTo(&v)
	var kx mat.Dense
	kernel.Gram(&kx, k, x0, x)
	want := mat.NewDense(4, 3, nil)
	for l := 9; l >= 6; l-- { // the 4 = q+1 largest
		col := mat.Col(nil, l, &v)
		cv := mat.NewVecDense(10, col)
		var kv mat.VecDense
		kv.MulVec(&kx, cv) // k(x_m, X)·v_l
		var xv mat.VecDense
		xv.MulVec(x.T(), cv) // Xᵀv_l
		var term mat.Dense
		term.Outer(1/vals[l], &kv, &xv)
		want.Add(want, &term)
	}
	if e := maxRelDiff(unc, want); e > 1e-10 {
		t.Errorf("q = 3: differs from Xᵀ V₄Λ₄⁻¹V₄ᵀk(X, x) by %g", e)
	}
	all, _ := directDenoise(t, x, x0, k, 0)
	if e := maxRelDiff(unc, all); e < 1e-3 {
		t.Errorf("q = 3 and every component agree to %g: the component count is ignored", e)
	}
}
