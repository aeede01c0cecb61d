package kernel

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// cosine is a kernel runexp does not know: Gram and SelfGram must fall
// back to evaluating it pair by pair.
type cosine struct{}

func (cosine) Eval(x, y []float64) float64 {
	var xy, xx, yy float64
	for i := range x {
		xy += x[i] * y[i]
		xx += x[i] * x[i]
		yy += y[i] * y[i]
	}
	return xy / math.Sqrt(xx*yy)
}

func (cosine) String() string { return "cosine" }

// TestSelfGramByHand checks SelfGram of the non-Gaussian kernels against
// values computed by hand on x₁ = (1, 2), x₂ = (3, 0), x₃ = (0, 1):
// xᵢᵀxⱼ is 5, 3, 2 on the diagonal's left and 5, 9, 1 on it; the
// polynomial of degree 2 with offset 1 squares each plus one; the cosine
// divides by the norms √5, 3, 1.
func TestSelfGramByHand(t *testing.T) {
	x := mat.NewDense(3, 2, []float64{1, 2, 3, 0, 0, 1})
	dot := [3][3]float64{{5, 3, 2}, {3, 9, 0}, {2, 0, 1}}
	norm := [3]float64{math.Sqrt(5), 3, 1}
	for _, tc := range []struct {
		k    Kernel
		want func(i, j int) float64
	}{
		{Linear{}, func(i, j int) float64 { return dot[i][j] }},
		{Polynomial{Degree: 2, Offset: 1}, func(i, j int) float64 { return (dot[i][j] + 1) * (dot[i][j] + 1) }},
		{cosine{}, func(i, j int) float64 { return dot[i][j] / (norm[i] * norm[j]) }},
	} {
		s := SelfGram(tc.k, x)
		for i := range 3 {
			for j := range 3 {
				// Integers are exact; the cosine's quotients round once
				// or twice: 1e-15 relative.
				if got, want := s.At(i, j), tc.want(i, j); math.Abs(got-want) > 1e-15*math.Max(1, math.Abs(want)) {
					t.Errorf("%v: K[%d,%d] = %v, want %v", tc.k, i, j, got, want)
				}
			}
		}
		var g mat.Dense
		Gram(&g, tc.k, x, x)
		if !mat.EqualApprox(&g, s, 1e-15) {
			t.Errorf("%v: Gram and SelfGram disagree", tc.k)
		}
	}
}

// TestDiag checks k(x, x): 1 for a Gaussian whatever x, ‖x‖² for the
// linear kernel, (‖x‖² + offset)^degree for the polynomial.
func TestDiag(t *testing.T) {
	x := mat.NewDense(2, 2, []float64{1, 2, 3, 0})
	for _, tc := range []struct {
		k    Kernel
		want []float64
	}{
		{Gaussian{C: 0.1}, []float64{1, 1}},
		{Linear{}, []float64{5, 9}},
		{Polynomial{Degree: 3, Offset: 1}, []float64{216, 1000}},
		{cosine{}, []float64{1, 1}},
	} {
		got := Diag(tc.k, x)
		for i := range tc.want {
			if math.Abs(got[i]-tc.want[i]) > 1e-12*tc.want[i] {
				t.Errorf("%v: Diag = %v, want %v", tc.k, got, tc.want)
				break
			}
		}
	}
}

// TestLabel checks the two descriptions of a kernel: String, from which
// cache keys and records are built, keeps every digit; Label, for logs,
// four significant digits.
func TestLabel(t *testing.T) {
	for _, tc := range []struct {
		k          Kernel
		str, label string
	}{
		{Gaussian{C: 0.123456789}, "gaussian(c=0.123456789)", "gaussian(c=0.1235)"},
		{Polynomial{Degree: 2, Offset: 1.23456}, "polynomial(degree=2,offset=1.23456)", "polynomial(degree=2,offset=1.235)"},
		{Linear{}, "linear", "linear"},
	} {
		if got := tc.k.String(); got != tc.str {
			t.Errorf("String = %q, want %q", got, tc.str)
		}
		if got := Label(tc.k); got != tc.label {
			t.Errorf("Label = %q, want %q", got, tc.label)
		}
	}
}

// TestNewGaussianRefusals checks that a width that is not positive and
// finite, or an unknown parameterisation, is an error naming it, never a
// kernel with a NaN or infinite C.
func TestNewGaussianRefusals(t *testing.T) {
	for _, w := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if _, err := NewGaussian("c", w); err == nil || !strings.Contains(err.Error(), "want a positive finite width") {
			t.Errorf("width %v: %v", w, err)
		}
	}
	if _, err := NewGaussian("ell", 1); err == nil || !strings.Contains(err.Error(), `unknown Gaussian width "ell"`) {
		t.Errorf("unknown parameterisation: %v", err)
	}
	for _, tc := range []struct {
		param string
		w, c  float64
	}{{"c", 2, 2}, {"gamma", 0.5, 2}, {"sigma", 3, 9}} {
		if k, err := NewGaussian(tc.param, tc.w); err != nil || k.C != tc.c {
			t.Errorf("NewGaussian(%s, %v) = %v, %v; want C = %v", tc.param, tc.w, k, err, tc.c)
		}
	}
}

// TestInputDist2Rounding checks the clamps of the distance inversions: a
// feature distance made slightly negative by rounding is a zero input
// distance, and beyond the Gaussian's range there is none.
func TestInputDist2Rounding(t *testing.T) {
	g := Gaussian{C: 2}
	if d, ok := g.InputDist2(-1e-16); !ok || d != 0 {
		t.Errorf("Gaussian InputDist2(-1e-16) = %v, %t; want 0", d, ok)
	}
	if d, ok := g.InputDist2(2.5); ok || !math.IsInf(d, 1) {
		t.Errorf("Gaussian InputDist2(2.5) = %v, %t; want +Inf, false", d, ok)
	}
	if d, ok := (Linear{}).InputDist2(-1e-16); !ok || d != 0 {
		t.Errorf("linear InputDist2(-1e-16) = %v, %t; want 0", d, ok)
	}
}

// TestGramDestination checks the destination rule: an empty matrix is
// sized, one of the right shape reused, any other shape a panic naming
// both shapes.
func TestGramDestination(t *testing.T) {
	a := mat.NewDense(2, 3, []float64{1, 0, 0, 0, 1, 0})
	dst := mat.NewDense(2, 2, nil)
	Gram(dst, Linear{}, a, a)
	if dst.At(0, 0) != 1 || dst.At(0, 1) != 0 {
		t.Errorf("reused destination %v", mat.Formatted(dst))
	}
	defer func() {
		r := recover()
		if s, ok := r.(string); !ok || s != "kernel: destination is 2×2, want 2×1" {
			t.Errorf("recovered %v", r)
		}
	}()
	Gram(dst, cosine{}, a, a.Slice(0, 1, 0, 3))
}
