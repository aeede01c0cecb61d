package stats

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"
)

// DefaultResamples is the bootstrap sample count: with 2000 resamples the
// Monte Carlo error of a 95% BCa end point is about 1% of the interval's
// width (Efron & Tibshirani 1993, §19.3).
const DefaultResamples = 2000

// Interval is a two-sided confidence interval [Lo, Hi] at Level.
type Interval struct {
	Lo, Hi float64
	Level  float64
}

// Covers reports whether v lies in the interval.
func (iv Interval) Covers(v float64) bool { return iv.Lo <= v && v <= iv.Hi }

// Estimate is a mean over items with its confidence interval.
type Estimate struct {
	Mean float64
	CI   Interval
	// Items is the number of items (rows) with at least one finite
	// score; Repeats the largest number of scores an item had.
	Items, Repeats int
}

func (e Estimate) String() string {
	return fmt.Sprintf("%.4g [%.4g, %.4g]", e.Mean, e.CI.Lo, e.CI.Hi)
}

// ItemMeans reduces an items × repeats table to one mean per item,
// skipping non-finite scores (failed rows) and items left with none.
func ItemMeans(scores [][]float64) (means []float64, repeats int) {
	for _, row := range scores {
		var s float64
		n := 0
		for _, v := range row {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				s += v
				n++
			}
		}
		if n > 0 {
			means = append(means, s/float64(n))
			repeats = max(repeats, n)
		}
	}
	return means, repeats
}

// Mean returns the BCa bootstrap estimate of the mean score over items of
// an items × repeats table (see the package documentation), with b
// resamples drawn from rnd at the given level (e.g. 0.95).
func Mean(scores [][]float64, level float64, b int, rnd *rand.Rand) (Estimate, error) {
	x, reps := ItemMeans(scores)
	iv, m, err := bca(x, level, b, rnd)
	if err != nil {
		return Estimate{}, err
	}
	return Estimate{Mean: m, CI: iv, Items: len(x), Repeats: reps}, nil
}

// PairedDiff returns the estimate of mean(a − b) over items, where a and b
// are items × repeats tables of two methods on the same corrupted inputs.
// A pair is used only where both scores are finite.
func PairedDiff(a, b [][]float64, level float64, nb int, rnd *rand.Rand) (Estimate, error) {
	if len(a) != len(b) {
		return Estimate{}, fmt.Errorf("stats: paired tables have %d and %d items", len(a), len(b))
	}
	d := make([][]float64, len(a))
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return Estimate{}, fmt.Errorf("stats: item %d has %d and %d repeats", i, len(a[i]), len(b[i]))
		}
		d[i] = make([]float64, len(a[i]))
		for r := range a[i] {
			d[i][r] = a[i][r] - b[i][r]
		}
	}
	return Mean(d, level, nb, rnd)
}

// bca returns the BCa interval of the mean of x and the mean.
func bca(x []float64, level float64, b int, rnd *rand.Rand) (Interval, float64, error) {
	n := len(x)
	switch {
	case n < 2:
		return Interval{}, math.NaN(), fmt.Errorf("stats: %d items with a finite score; an interval needs at least 2", n)
	case !(level > 0 && level < 1):
		return Interval{}, math.NaN(), fmt.Errorf("stats: level %v, want it in (0, 1)", level)
	case b < 100:
		return Interval{}, math.NaN(), fmt.Errorf("stats: %d resamples, want at least 100", b)
	case rnd == nil:
		return Interval{}, math.NaN(), errors.New("stats: no random stream")
	}
	var sum float64
	for _, v := range x {
		sum += v
	}
	mean := sum / float64(n)
	boot := make([]float64, b)
	below := 0
	for k := range boot {
		var s float64
		for range n {
			s += x[rnd.IntN(n)]
		}
		boot[k] = s / float64(n)
		if boot[k] < mean {
			below++
		}
	}
	sort.Float64s(boot)
	if boot[0] == boot[b-1] {
		// Every item scored the same: the interval is that point.
		return Interval{Lo: mean, Hi: mean, Level: level}, mean, nil
	}
	std := distuv.UnitNormal
	// Bias correction z0 (Efron 1987 eq. 2.8), from the fraction of
	// resamples below the estimate, kept off 0 and 1.
	frac := (float64(below) + 0.5) / (float64(b) + 1)
	z0 := std.Quantile(frac)
	// Acceleration from the jackknife (Efron 1987 eq. 6.6): for the mean
	// the leave-one-out estimates are (sum − x_i)/(n − 1).
	var num, den float64
	for _, v := range x {
		u := (sum-v)/float64(n-1) - mean // θ_(i) − θ_(·); θ_(·) = mean
		num += u * u * u
		den += u * u
	}
	a := 0.0
	if den > 0 {
		a = -num / (6 * math.Pow(den, 1.5))
	}
	alpha := (1 - level) / 2
	end := func(z float64) float64 {
		zz := z0 + (z0+z)/(1-a*(z0+z))
		p := std.CDF(zz)
		return quantile(boot, p)
	}
	return Interval{Lo: end(std.Quantile(alpha)), Hi: end(std.Quantile(1 - alpha)), Level: level}, mean, nil
}

// quantile returns the p-quantile of sorted s by linear interpolation
// between order statistics.
func quantile(s []float64, p float64) float64 {
	p = min(1, max(0, p))
	h := p * float64(len(s)-1)
	i := int(math.Floor(h))
	if i >= len(s)-1 {
		return s[len(s)-1]
	}
	return s[i] + (h-float64(i))*(s[i+1]-s[i])
}

// Bootstrap returns the BCa bootstrap estimate of a statistic of n paired
// items: stat receives the item indices of a sample (with repeats in a
// resample) and returns the statistic on those items, e.g. the difference
// of two methods' median errors over the same test items. The items are
// resampled as units, so whatever stat reads of an item (both methods'
// scores, all its repeats) stays together. The estimate is stat of all
// items; the acceleration comes from the jackknife of stat (Efron 1987
// eq. 6.6), which for the mean reduces to [Mean]'s. For a non-smooth
// statistic (a median, a percentile) the jackknife acceleration is rough
// and the interval's coverage is checked by simulation (TestMedianCoverage).
func Bootstrap(n int, stat func(idx []int) float64, level float64, b int, rnd *rand.Rand) (Estimate, error) {
	switch {
	case n < 2:
		return Estimate{}, fmt.Errorf("stats: %d items; an interval needs at least 2", n)
	case !(level > 0 && level < 1):
		return Estimate{}, fmt.Errorf("stats: level %v, want it in (0, 1)", level)
	case b < 100:
		return Estimate{}, fmt.Errorf("stats: %d resamples, want at least 100", b)
	case rnd == nil:
		return Estimate{}, errors.New("stats: no random stream")
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	theta := stat(idx)
	if math.IsNaN(theta) || math.IsInf(theta, 0) {
		return Estimate{}, fmt.Errorf("stats: the statistic of all %d items is %v", n, theta)
	}
	boot := make([]float64, 0, b)
	below := 0
	for range b {
		for i := range idx {
			idx[i] = rnd.IntN(n)
		}
		v := stat(idx)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			// A resample with no finite score on one side (every drawn
			// item failed) has no statistic; it is left out.
			continue
		}
		boot = append(boot, v)
		if v < theta {
			below++
		}
	}
	if len(boot) < b/2 {
		return Estimate{}, fmt.Errorf("stats: only %d of %d resamples had a finite statistic", len(boot), b)
	}
	sort.Float64s(boot)
	est := Estimate{Mean: theta, Items: n, Repeats: 1}
	if boot[0] == boot[len(boot)-1] {
		est.CI = Interval{Lo: theta, Hi: theta, Level: level}
		return est, nil
	}
	std := distuv.UnitNormal
	z0 := std.Quantile((float64(below) + 0.5) / (float64(len(boot)) + 1))
	// Jackknife: θ_(i) is stat without item i; a = Σ(θ̄ − θ_(i))³ /
	// (6 (Σ(θ̄ − θ_(i))²)^{3/2}).
	jack := make([]float64, n)
	loo := make([]int, n-1)
	var jbar float64
	nj := 0
	for i := range n {
		loo = loo[:0]
		for j := range n {
			if j != i {
				loo = append(loo, j)
			}
		}
		jack[i] = stat(loo)
		if !math.IsNaN(jack[i]) && !math.IsInf(jack[i], 0) {
			jbar += jack[i]
			nj++
		}
	}
	jbar /= float64(max(nj, 1))
	var num, den float64
	for _, v := range jack {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		u := jbar - v
		num += u * u * u
		den += u * u
	}
	a := 0.0
	if den > 0 && !math.IsNaN(num) {
		a = num / (6 * math.Pow(den, 1.5))
	}
	alpha := (1 - level) / 2
	end := func(z float64) float64 {
		return quantile(boot, std.CDF(z0+(z0+z)/(1-a*(z0+z))))
	}
	est.CI = Interval{Lo: end(std.Quantile(alpha)), Hi: end(std.Quantile(1 - alpha)), Level: level}
	return est, nil
}
