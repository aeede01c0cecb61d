package metrics

import (
	"math"
	"testing"
)

// TestGradientEnergyByHand: the 3×2 image
//
//	1 2 4
//	1 0 4
//
// has row differences 1, 2 and −1, 4 (squares 1+4+1+16 = 22) and column
// differences 0, −2, 0 (squares 4): 26.
func TestGradientEnergyByHand(t *testing.T) {
	x := []float64{1, 2, 4, 1, 0, 4}
	if got := GradientEnergy(x, 3, 2); got != 26 {
		t.Errorf("GradientEnergy = %v, want 26", got)
	}
	// A constant image has no detail; a constant shift keeps it.
	if got := GradientEnergy([]float64{5, 5, 5, 5}, 2, 2); got != 0 {
		t.Errorf("constant image: %v, want 0", got)
	}
	y := []float64{11, 12, 14, 11, 10, 14}
	if got := DetailRatio(y, x, 3, 2); got != 1 {
		t.Errorf("shifted image: ratio %v, want 1", got)
	}
	if got := DetailError(y, x, 3, 2); got != 0 {
		t.Errorf("shifted image: error %v, want 0", got)
	}
}

// TestDetailSmoothing: halving an image's contrast about its mean
// (z = m + (x − m)/2, as over-smoothing towards a mean face does) scales
// every difference by 1/2: ratio 1/4 and error (1/2)² = 1/4. A constant
// reconstruction loses all detail: ratio 0, error 1.
func TestDetailSmoothing(t *testing.T) {
	x := []float64{1, 2, 4, 1, 0, 4}
	z := make([]float64, len(x))
	for i, v := range x {
		z[i] = 2 + (v-2)/2
	}
	if r, e := DetailRatio(z, x, 3, 2), DetailError(z, x, 3, 2); math.Abs(r-0.25) > 1e-15 || math.Abs(e-0.25) > 1e-15 {
		t.Errorf("half contrast: ratio %v, error %v; want 1/4 and 1/4", r, e)
	}
	c := []float64{3, 3, 3, 3, 3, 3}
	if r, e := DetailRatio(c, x, 3, 2), DetailError(c, x, 3, 2); r != 0 || e != 1 {
		t.Errorf("constant: ratio %v, error %v; want 0 and 1", r, e)
	}
	defer func() {
		if recover() == nil {
			t.Error("a 5-pixel 3×2 image did not panic")
		}
	}()
	GradientEnergy(x[:5], 3, 2)
}
