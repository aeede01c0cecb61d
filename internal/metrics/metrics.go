package metrics

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/floats"
)

// Renormalize writes into dst the affine map of z whose minimum and maximum
// land on those of ref: dst = lo_ref + (z − lo_z)·(hi_ref − lo_ref)/(hi_z − lo_z).
// It is the reading of Abrahamsen & Hansen's "re-normalized to the range of
// the original image" that the paper leaves unstated (ambiguity a3). A
// constant z has no range to map; it becomes the middle of ref's range.
// dst may alias z.
func Renormalize(dst, z, ref []float64) {
	if len(dst) != len(z) || len(z) != len(ref) || len(z) == 0 {
		panic(fmt.Sprintf("metrics: lengths %d, %d, %d", len(dst), len(z), len(ref)))
	}
	loZ, hiZ := floats.Min(z), floats.Max(z)
	loR, hiR := floats.Min(ref), floats.Max(ref)
	if hiZ == loZ {
		for i := range dst {
			dst[i] = (loR + hiR) / 2
		}
		return
	}
	s := (hiR - loR) / (hiZ - loZ)
	for i, v := range z {
		dst[i] = loR + (v-loZ)*s
	}
}

// MSE returns the mean over entries of (a_i − b_i)².
func MSE(a, b []float64) float64 {
	if len(a) != len(b) || len(a) == 0 {
		panic(fmt.Sprintf("metrics: lengths %d and %d", len(a), len(b)))
	}
	var s float64
	for i, v := range a {
		d := v - b[i]
		s += d * d
	}
	return s / float64(len(a))
}

// Percentile returns the p-th quantile (p in [0, 1]) of x by linear
// interpolation between the order statistics at h = (n−1)p (Hyndman & Fan
// type 7, the default of R and numpy). x need not be sorted and is not
// modified. NaN values are an error of the caller: filter failed rows first.
func Percentile(x []float64, p float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	if p < 0 || p > 1 {
		panic(fmt.Sprintf("metrics: percentile %v outside [0, 1]", p))
	}
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	return sortedPercentile(s, p)
}

// Mean returns the mean of x (NaN if x is empty), as [Summarize] does,
// without Summarize's sort: the claims' bootstrap takes the mean of
// thousands of resamples.
func Mean(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	return floats.Sum(x) / float64(len(x))
}

// Std returns the sample standard deviation of x (n − 1 in the
// denominator; 0 for one element, NaN for none), as [Summarize] does.
func Std(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	return std(x, Mean(x))
}

func std(x []float64, mean float64) float64 {
	if len(x) < 2 {
		return 0
	}
	var v float64
	for _, e := range x {
		v += (e - mean) * (e - mean)
	}
	return math.Sqrt(v / float64(len(x)-1))
}

// Spread returns Percentile(x, hi) − Percentile(x, lo) from one sorted
// copy of x (a band's width).
func Spread(x []float64, lo, hi float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	if lo < 0 || lo > 1 || hi < 0 || hi > 1 {
		panic(fmt.Sprintf("metrics: percentiles %v, %v outside [0, 1]", lo, hi))
	}
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	return sortedPercentile(s, hi) - sortedPercentile(s, lo)
}

// sortedPercentile is Percentile of s, sorted in increasing order: the
// order statistics and their interpolation, so that a caller needing
// several percentiles of one sample sorts it once.
func sortedPercentile(s []float64, p float64) float64 {
	h := float64(len(s)-1) * p
	lo := math.Floor(h)
	i := int(lo)
	if i+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[i] + (h-lo)*(s[i+1]-s[i])
}

// MeanPairwiseDistance returns the mean Euclidean distance over all pairs
// i < j of the rows (each a vector of the same length); 0 for fewer than
// two rows.
func MeanPairwiseDistance(rows [][]float64) float64 {
	n := len(rows)
	if n < 2 {
		return 0
	}
	var s float64
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			s += floats.Distance(rows[i], rows[j], 2)
		}
	}
	return s / float64(n*(n-1)/2)
}

// Summary holds the statistics of a sample that the reports print.
type Summary struct {
	N               int
	Mean, Std       float64
	P5, Median, P95 float64
	Min, Max        float64
}

// Summarize returns the mean, standard deviation (n − 1), 5th, 50th and
// 95th percentiles, minimum and maximum of x.
func Summarize(x []float64) Summary {
	s := Summary{N: len(x)}
	if len(x) == 0 {
		nan := math.NaN()
		s.Mean, s.Std, s.P5, s.Median, s.P95, s.Min, s.Max = nan, nan, nan, nan, nan, nan, nan
		return s
	}
	s.Mean = Mean(x)
	s.Std = std(x, s.Mean)
	// One sorted copy serves the three percentiles (the claims'
	// bootstrap summarises thousands of resamples: three sorts each were
	// most of the report stage of the Yale B configs, docs/performance.md).
	sorted := append([]float64(nil), x...)
	sort.Float64s(sorted)
	s.P5, s.Median, s.P95 = sortedPercentile(sorted, 0.05), sortedPercentile(sorted, 0.5), sortedPercentile(sorted, 0.95)
	s.Min, s.Max = floats.Min(x), floats.Max(x)
	return s
}
