package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// TMean returns the Student t confidence interval of the mean of x at the
// given level (e.g. 0.95): x̄ ± t_{n−1, 1−α/2}·s/√n with s the sample
// standard deviation (Student 1908; e.g. NIST/SEMATECH e-Handbook of
// Statistical Methods §7.2.2.1). It is for few items, where the bootstrap
// is unreliable: with n items the bootstrap distribution of the mean has
// variance (n−1)/n·s²/n and normal-quantile end points, so at n = 5 its
// 95% interval is about 0.63 times the t-interval's width and covers far
// less often than 95% (84.5% in claims.TestPairedNullRate). The t-interval is
// exact for normal items and robust to mild skew; paired differences
// (one per split, LPKPCA − KPCA on the same split) are the intended
// input. Non-finite values are an error: a missing item must be dropped
// by the caller, who knows why it is missing.
func TMean(x []float64, level float64) (Estimate, error) {
	n := len(x)
	switch {
	case n < 2:
		return Estimate{}, fmt.Errorf("stats: %d items; a t-interval needs at least 2", n)
	case !(level > 0 && level < 1):
		return Estimate{}, fmt.Errorf("stats: level %v, want it in (0, 1)", level)
	}
	var sum float64
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return Estimate{}, fmt.Errorf("stats: item %d is %v", i, v)
		}
		sum += v
	}
	mean := sum / float64(n)
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	se := math.Sqrt(ss / float64(n-1) / float64(n))
	h := TQuantile(n-1, 1-(1-level)/2) * se
	return Estimate{Mean: mean, CI: Interval{Lo: mean - h, Hi: mean + h, Level: level}, Items: n, Repeats: 1}, nil
}

// TQuantile returns the p-quantile of Student's t distribution with df
// degrees of freedom (gonum's distuv.StudentsT).
func TQuantile(df int, p float64) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(p)
}
