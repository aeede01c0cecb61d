package methods_test

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
)

// randn returns an r×c matrix of standard normal draws.
func randn(rng *rand.Rand, r, c int) *mat.Dense {
	m := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m.Set(i, j, rng.NormFloat64())
		}
	}
	return m
}

// medianGaussian returns the Gaussian kernel whose width c is the median
// squared distance between rows of x, the usual heuristic.
func medianGaussian(x *mat.Dense) kernel.Gaussian {
	var d2 mat.Dense
	kernel.SqDist(&d2, x, x)
	n, _ := x.Dims()
	var off []float64
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			off = append(off, d2.At(i, j))
		}
	}
	sort.Float64s(off)
	return kernel.Gaussian{C: off[len(off)/2]}
}

// unitRows returns the m×n matrix whose row i is e_{rows[i]}.
func unitRows(n int, rows ...int) *mat.Dense {
	g := mat.NewDense(len(rows), n, nil)
	for i, j := range rows {
		g.Set(i, j, 1)
	}
	return g
}

// maxRelDiff returns max_i ‖a_i − b_i‖ / max(1, ‖b_i‖) over the rows.
func maxRelDiff(a, b mat.Matrix) float64 {
	r, c := a.Dims()
	if rb, cb := b.Dims(); r != rb || c != cb {
		return math.Inf(1)
	}
	var worst float64
	ra, rb := make([]float64, c), make([]float64, c)
	for i := 0; i < r; i++ {
		mat.Row(ra, i, a)
		mat.Row(rb, i, b)
		worst = math.Max(worst, floats.Distance(ra, rb, 2)/math.Max(1, floats.Norm(rb, 2)))
	}
	return worst
}

func checkNoErr(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}
