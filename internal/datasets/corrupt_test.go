package datasets

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

func TestAddGaussian(t *testing.T) {
	const (
		rows, cols = 200, 250
		std        = 0.3
	)
	x := mat.NewDense(rows, cols, nil)
	for i := range rows {
		for j := range cols {
			x.Set(i, j, math.Sin(float64(i*cols+j)))
		}
	}
	orig := mat.DenseCopyOf(x)

	y := AddGaussian(x, std, rand.New(rand.NewPCG(1, 2)))
	if !mat.Equal(x, orig) {
		t.Fatal("AddGaussian modified its input")
	}
	var d mat.Dense
	d.Sub(y, x)
	noise := d.RawMatrix().Data
	// n = 50000 draws: the sample std has relative standard error
	// 1/sqrt(2n) ≈ 0.32%, so 1% is over 3 standard errors; the sample mean
	// has standard error std/sqrt(n) ≈ 0.0013, so 0.006 is over 4.
	mean, sd := stat.MeanStdDev(noise, nil)
	if !scalar.EqualWithinRel(sd, std, 0.01) {
		t.Errorf("noise std = %v, want %v within 1%%", sd, std)
	}
	if math.Abs(mean) > 0.006 {
		t.Errorf("noise mean = %v, want 0 within 0.006", mean)
	}

	if z := AddGaussian(x, std, rand.New(rand.NewPCG(1, 2))); !mat.Equal(y, z) {
		t.Error("same seed gave different noise")
	}

	// std 0 returns an equal copy that does not share storage with x.
	z := AddGaussian(x, 0, rand.New(rand.NewPCG(1, 2)))
	if !mat.Equal(z, x) {
		t.Error("AddGaussian(x, 0) differs from x")
	}
	z.Set(0, 0, 42)
	if x.At(0, 0) == 42 {
		t.Error("AddGaussian(x, 0) shares storage with x")
	}
}

// TestAddGaussianRowMajor pins the documented draw order: entry (i, j)
// gets draw number i·cols + j of rnd, even for a view into a larger matrix.
func TestAddGaussianRowMajor(t *testing.T) {
	big := mat.NewDense(4, 5, nil)
	bigOrig := mat.DenseCopyOf(big)
	view := big.Slice(1, 3, 1, 4).(*mat.Dense)
	y := AddGaussian(view, 2, rand.New(rand.NewPCG(9, 9)))
	if !mat.Equal(big, bigOrig) {
		t.Error("AddGaussian modified the matrix under the view")
	}
	ref := rand.New(rand.NewPCG(9, 9))
	for i := range 2 {
		for j := range 3 {
			// Exact: the same draws scaled by the same factor, added to 0.
			if want := 2 * ref.NormFloat64(); y.At(i, j) != want {
				t.Errorf("y[%d,%d] = %v, want %v", i, j, y.At(i, j), want)
			}
		}
	}
}

func TestAddGaussianPanics(t *testing.T) {
	x := mat.NewDense(1, 1, nil)
	for _, c := range []struct {
		name string
		std  float64
		rnd  *rand.Rand
	}{
		{"negative std", -1, rand.New(rand.NewPCG(1, 1))},
		{"NaN std", math.NaN(), rand.New(rand.NewPCG(1, 1))},
		{"Inf std", math.Inf(1), rand.New(rand.NewPCG(1, 1))},
		{"nil rnd", 1, nil},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", c.name)
				}
			}()
			AddGaussian(x, c.std, c.rnd)
		}()
	}
}
