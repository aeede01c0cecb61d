package metrics

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestMaskedSSE: by hand, the deleted entries (mask 0) are (0,1), (1,0)
// and (2,1), with errors 2.5−2 = 0.5, 4−3 = 1 and 0−6 = −6: 0.25 + 1 + 36 =
// 37.25. The observed entries differ too (z(0,0) = 100) and must not count.
func TestMaskedSSE(t *testing.T) {
	x := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	z := mat.NewDense(3, 2, []float64{100, 2.5, 4, 4, 5, 0})
	mask := mat.NewDense(3, 2, []float64{1, 0, 0, 1, 1, 0})
	if got := MaskedSSE(z, x, mask); got != 37.25 {
		t.Errorf("MaskedSSE = %v, want 37.25", got)
	}
	// Nothing deleted: no error at all.
	ones := mat.NewDense(3, 2, []float64{1, 1, 1, 1, 1, 1})
	if got := MaskedSSE(z, x, ones); got != 0 {
		t.Errorf("MaskedSSE with nothing deleted = %v, want 0", got)
	}
	// A NaN imputed value propagates: a broken imputer is never scored 0.
	z.Set(1, 0, math.NaN())
	if got := MaskedSSE(z, x, mask); !math.IsNaN(got) {
		t.Errorf("MaskedSSE with a NaN imputation = %v, want NaN", got)
	}
}

func TestMaskedSSEShapePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MaskedSSE of different shapes did not panic")
		}
	}()
	MaskedSSE(mat.NewDense(2, 2, nil), mat.NewDense(2, 3, nil), mat.NewDense(2, 3, nil))
}

// TestBlockContrast: labels (0, 0, 1) and off-diagonal entries k01 = 0.9
// (within), k02 = 0.1 and k12 = 0.3 (between). Within mean 0.9, between
// mean 0.2, overall mean 1.3/3: (0.9 − 0.2)/(1.3/3) = 2.1/1.3.
func TestBlockContrast(t *testing.T) {
	k := mat.NewSymDense(3, []float64{
		1, 0.9, 0.1,
		0.9, 1, 0.3,
		0.1, 0.3, 1,
	})
	if got, want := BlockContrast(k, []int{0, 0, 1}), 2.1/1.3; math.Abs(got-want) > 1e-15 {
		t.Errorf("BlockContrast = %v, want %v", got, want)
	}
	// Labels that explain nothing: a constant off-diagonal gives 0.
	c := mat.NewSymDense(3, []float64{1, 0.5, 0.5, 0.5, 1, 0.5, 0.5, 0.5, 1})
	if got := BlockContrast(c, []int{0, 0, 1}); got != 0 {
		t.Errorf("BlockContrast of a constant matrix = %v, want 0", got)
	}
	// One label for all: no between pairs, undefined.
	if got := BlockContrast(k, []int{2, 2, 2}); !math.IsNaN(got) {
		t.Errorf("BlockContrast with one label = %v, want NaN", got)
	}
}

// TestGreedyClusters: with tol 0.1 the points 0, 0.05, 1, 0.08, 1.09, 5
// (on a line) form {0, 0.05, 0.08} around 0, {1, 1.09} around 1, and {5}.
func TestGreedyClusters(t *testing.T) {
	var pts [][]float64
	for _, v := range []float64{0, 0.05, 1, 0.08, 1.09, 5} {
		pts = append(pts, []float64{v, 0})
	}
	got := GreedyClusters(pts, 0.1)
	want := []int{3, 2, 1}
	if len(got) != len(want) {
		t.Fatalf("GreedyClusters = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("GreedyClusters = %v, want %v", got, want)
		}
	}
	if got := GreedyClusters(nil, 1); len(got) != 0 {
		t.Errorf("GreedyClusters(nil) = %v, want none", got)
	}
}
