package kernel

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestHOGGeometry checks the descriptor's length against a count by
// hand, (⌊W/c⌋ − b + 1)·(⌊H/c⌋ − b + 1) blocks of b·b cells of Bins
// values: pixels outside the last whole cell ignored, blocks at a stride
// of one cell; the names a cache key and a table read; and each refusal
// of Validate.
func TestHOGGeometry(t *testing.T) {
	for _, tc := range []struct {
		h    HOG
		len  int
		name string
	}{
		// USPS in Huang et al.: 7×7 cells, 6×6 blocks of 2×2 cells of 9 bins.
		{HOG{Width: 28, Height: 28, Cell: 4, Block: 2, Bins: 9}, 6 * 6 * 4 * 9, "hog(28x28,cell=4,block=2,bins=9)"},
		// 30 px hold 7 whole cells of 4 (2 px ignored), 20 px 5.
		{HOG{Width: 30, Height: 20, Cell: 4, Block: 2, Bins: 9}, 6 * 4 * 4 * 9, "hog(30x20,cell=4,block=2,bins=9)"},
		// One block covering the image.
		{HOG{Width: 8, Height: 8, Cell: 4, Block: 2, Bins: 4}, 1 * 1 * 4 * 4, "hog(8x8,cell=4,block=2,bins=4)"},
		// Blocks of one cell: a histogram per cell.
		{HOG{Width: 9, Height: 6, Cell: 3, Block: 1, Bins: 2}, 3 * 2 * 1 * 2, "hog(9x6,cell=3,block=1,bins=2)"},
	} {
		if err := tc.h.Validate(); err != nil {
			t.Errorf("%v: %v", tc.h, err)
			continue
		}
		if got := tc.h.Len(); got != tc.len {
			t.Errorf("%v: Len %d, want %d", tc.h, got, tc.len)
		}
		if got := tc.h.String(); got != tc.name {
			t.Errorf("String %q, want %q", got, tc.name)
		}
		img := make([]float64, tc.h.Width*tc.h.Height)
		for i := range img {
			img[i] = float64(i%7) / 7
		}
		if d := tc.h.Descriptor(img); len(d) != tc.len {
			t.Errorf("%v: a descriptor of %d values, Len %d", tc.h, len(d), tc.len)
		}
	}
	for _, tc := range []struct {
		h    HOG
		want string
	}{
		{HOG{Width: 2, Height: 28, Cell: 1, Block: 1, Bins: 9}, "kernel: HOG needs an image of at least 3×3 pixels, got 2×28"},
		{HOG{Width: 28, Height: 28, Cell: 0, Block: 2, Bins: 9}, "kernel: HOG cell 0, block 2, bins 9: want cell ≥ 1, block ≥ 1, bins ≥ 2"},
		{HOG{Width: 28, Height: 28, Cell: 4, Block: 0, Bins: 9}, "kernel: HOG cell 4, block 0, bins 9: want cell ≥ 1, block ≥ 1, bins ≥ 2"},
		{HOG{Width: 28, Height: 28, Cell: 4, Block: 2, Bins: 1}, "kernel: HOG cell 4, block 2, bins 1: want cell ≥ 1, block ≥ 1, bins ≥ 2"},
		{HOG{Width: 28, Height: 7, Cell: 4, Block: 2, Bins: 9}, "kernel: HOG blocks of 2×2 cells of 4 px do not fit a 28×7 image"},
	} {
		if err := tc.h.Validate(); err == nil || err.Error() != tc.want {
			t.Errorf("%v: %v, want %q", tc.h, err, tc.want)
		}
	}
}

// TestMappedGaussianEval checks one kernel value against its definition,
// exp(−‖h(x) − h(y)‖²/C), with h the HOG descriptors computed apart; the
// kernel's name, which names its map; and Map's refusal of rows of
// another width.
func TestMappedGaussianEval(t *testing.T) {
	h := HOG{Width: 8, Height: 8, Cell: 4, Block: 2, Bins: 4}
	k := MappedGaussian{Map: h, C: 0.5}
	x, y := make([]float64, 64), make([]float64, 64)
	for i := range x {
		x[i] = float64(i%8) / 8 // a ramp along x
		y[i] = float64(i/8) / 8 // a ramp along y
	}
	hx, hy := h.Descriptor(x), h.Descriptor(y)
	var d2 float64
	for i := range hx {
		d2 += (hx[i] - hy[i]) * (hx[i] - hy[i])
	}
	if d2 == 0 {
		t.Fatal("the two ramps have the same descriptor; the test checks nothing")
	}
	if got, want := k.Eval(x, y), math.Exp(-d2/0.5); math.Abs(got-want) > 1e-15 {
		t.Errorf("Eval = %v, want exp(−%v/0.5) = %v (1e-15)", got, d2, want)
	}
	if got := k.Eval(x, x); got != 1 {
		t.Errorf("Eval(x, x) = %v, want 1", got)
	}
	if got, want := k.String(), "gaussian-on-hog(8x8,cell=4,block=2,bins=4)(c=0.5)"; got != want {
		t.Errorf("String %q, want %q", got, want)
	}
	func() {
		defer func() {
			if r := fmt.Sprint(recover()); r != "kernel: HOG of 63-column rows, want 8×8" {
				t.Errorf("Map of 63 columns: panic %q", r)
			}
		}()
		h.Map(mat.NewDense(1, 63, nil))
	}()
}
