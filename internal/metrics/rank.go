package metrics

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/stat"
)

// Ranks returns the rank of each element of x in increasing order, 1 for
// the smallest. Tied values share the mean of the ranks they span
// (average or "fractional" ranks), so the ranks always sum to n(n+1)/2 and
// a tie favours neither value: {10, 20, 20, 30} ranks {1, 2.5, 2.5, 4}.
// This is the one tie rule of runexp, the one Spearman's ρ is defined with
// (Kendall & Gibbons, Rank Correlation Methods, §3.8; R's
// rank(ties.method = "average")). x must not hold NaN, which has no place
// in an order: Ranks panics on it.
func Ranks(x []float64) []float64 {
	for _, v := range x {
		if math.IsNaN(v) {
			panic("metrics: Ranks of NaN")
		}
	}
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return x[idx[a]] < x[idx[b]] })
	r := make([]float64, len(x))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && x[idx[j+1]] == x[idx[i]] {
			j++
		}
		// Positions i..j (0-based) hold ranks i+1..j+1; their mean is
		// (i+j)/2 + 1.
		mean := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			r[idx[k]] = mean
		}
		i = j + 1
	}
	return r
}

// Spearman returns Spearman's rank correlation ρ of x and y: the Pearson
// correlation of their average ranks (Ranks), which with ties is the
// standard definition (R's cor(x, y, method = "spearman")) and without ties
// equals 1 − 6Σd²/(n(n²−1)).
//
// ρ is undefined, and Spearman returns NaN, when x or y is constant (every
// rank equal: zero variance, a correlation of 0/0), when there are fewer
// than two pairs, or when either holds NaN. It never substitutes 0: a
// constant series is no evidence of either sign, and a caller that must
// decide something (a claim's verdict) has to say what it does with an
// undefined ρ. x and y must have the same length.
func Spearman(x, y []float64) float64 {
	if len(x) != len(y) {
		panic(fmt.Sprintf("metrics: Spearman of lengths %d and %d", len(x), len(y)))
	}
	if len(x) < 2 || constant(x) || constant(y) {
		return math.NaN()
	}
	for i := range x {
		if math.IsNaN(x[i]) || math.IsNaN(y[i]) {
			return math.NaN()
		}
	}
	return stat.Correlation(Ranks(x), Ranks(y), nil)
}

// constant reports whether every element of x equals the first (a NaN
// makes x not constant; Spearman rejects NaN separately).
func constant(x []float64) bool {
	for _, v := range x[1:] {
		if v != x[0] {
			return false
		}
	}
	return true
}
