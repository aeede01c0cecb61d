package kernel

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
	"gonum.org/v1/gonum/mat"
)

func randDense(rnd *rand.Rand, r, c int) *mat.Dense {
	d := make([]float64, r*c)
	for i := range d {
		d[i] = rnd.NormFloat64()
	}
	return mat.NewDense(r, c, d)
}

// TestGramMatchesEval checks the batched Gram matrix (one matrix product,
// ‖x−y‖² expanded) against pairwise Eval for every kernel; the tolerance
// covers the cancellation in ‖x‖² + ‖y‖² − 2xᵀy for unit-scale data.
func TestGramMatchesEval(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 1))
	a, b := randDense(rnd, 7, 5), randDense(rnd, 4, 5)
	for _, k := range []Kernel{Gaussian{C: 3}, NewGaussianGamma(0.5), NewGaussianSigma(2), Linear{}, Polynomial{Degree: 3, Offset: 1}} {
		var g mat.Dense
		Gram(&g, k, a, b)
		// A second call into the same, now sized, buffer must work too.
		Gram(&g, k, a, b)
		for i := 0; i < 7; i++ {
			for j := 0; j < 4; j++ {
				want := k.Eval(a.RawRowView(i), b.RawRowView(j))
				if got := g.At(i, j); !scalar.EqualWithinAbsOrRel(got, want, 1e-12, 1e-12) {
					t.Errorf("%v: Gram[%d,%d] = %v, Eval = %v", k, i, j, got, want)
				}
			}
		}
	}
}

// TestParameterisations checks the three Gaussian conventions of the
// papers give one kernel: exp(−‖x−y‖²/c) with c = 1/γ = σ².
func TestParameterisations(t *testing.T) {
	x, y := []float64{1, 2}, []float64{0, 0.5}
	d2 := 1 + 1.5*1.5
	for _, tc := range []struct {
		k    Gaussian
		want float64
	}{
		{Gaussian{C: 4}, math.Exp(-d2 / 4)},
		{NewGaussianGamma(0.25), math.Exp(-0.25 * d2)},
		{NewGaussianSigma(2), math.Exp(-d2 / 4)},
	} {
		if got := tc.k.Eval(x, y); !scalar.EqualWithinAbsOrRel(got, tc.want, 1e-15, 1e-15) {
			t.Errorf("%v: got %v, want %v", tc.k, got, tc.want)
		}
	}
}

// TestInputDist2 inverts ‖φ(x)−φ(y)‖² = 2 − 2exp(−d²/c) (Kwok & Tsang's
// distance relation for the Gaussian kernel) and the identity for the
// linear kernel.
func TestInputDist2(t *testing.T) {
	g := Gaussian{C: 2}
	for _, d2 := range []float64{0, 0.1, 1, 5} {
		f := 2 - 2*math.Exp(-d2/2)
		got, ok := g.InputDist2(f)
		if !ok || !scalar.EqualWithinAbsOrRel(got, d2, 1e-12, 1e-12) {
			t.Errorf("InputDist2(%v) = %v, %v; want %v", f, got, ok, d2)
		}
	}
	if _, ok := g.InputDist2(2); ok {
		t.Error("a feature distance of 2 has no input distance and must report !ok")
	}
	if got, _ := (Linear{}).InputDist2(3); got != 3 {
		t.Errorf("linear InputDist2(3) = %v", got)
	}
}

func TestSqDistShapePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a wrongly sized destination must panic")
		}
	}()
	dst := mat.NewDense(2, 2, nil)
	SqDist(dst, mat.NewDense(3, 2, nil), mat.NewDense(3, 2, nil))
}
