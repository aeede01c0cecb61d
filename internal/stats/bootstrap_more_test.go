package stats

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestBootstrapRefusals: every bad input to Mean, PairedDiff and
// Bootstrap is an error that says what was wanted, never a panic or an
// interval of nothing.
func TestBootstrapRefusals(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 1))
	two := [][]float64{{1}, {2}}
	mean := func(idx []int) float64 { return float64(len(idx)) }
	nan := math.NaN()
	for _, c := range []struct {
		name string
		f    func() error
		want string
	}{
		{"mean of one item", func() error { _, err := Mean([][]float64{{1, 2}}, 0.95, 100, rnd); return err }, "1 items with a finite score; an interval needs at least 2"},
		{"mean of failed items", func() error { _, err := Mean([][]float64{{nan}, {math.Inf(1)}, {3}}, 0.95, 100, rnd); return err }, "1 items with a finite score"},
		{"level 1", func() error { _, err := Mean(two, 1, 100, rnd); return err }, "level 1, want it in (0, 1)"},
		{"level NaN", func() error { _, err := Mean(two, nan, 100, rnd); return err }, "level NaN, want it in (0, 1)"},
		{"99 resamples", func() error { _, err := Mean(two, 0.95, 99, rnd); return err }, "99 resamples, want at least 100"},
		{"no stream", func() error { _, err := Mean(two, 0.95, 100, nil); return err }, "no random stream"},
		{"paired items", func() error { _, err := PairedDiff(two, two[:1], 0.95, 100, rnd); return err }, "paired tables have 2 and 1 items"},
		{"paired repeats", func() error {
			_, err := PairedDiff([][]float64{{1, 2}, {3}}, [][]float64{{1, 2}, {3, 4}}, 0.95, 100, rnd)
			return err
		}, "item 1 has 1 and 2 repeats"},
		{"bootstrap of one", func() error { _, err := Bootstrap(1, mean, 0.95, 100, rnd); return err }, "1 items; an interval needs at least 2"},
		{"bootstrap level 0", func() error { _, err := Bootstrap(5, mean, 0, 100, rnd); return err }, "level 0, want it in (0, 1)"},
		{"bootstrap resamples", func() error { _, err := Bootstrap(5, mean, 0.9, 10, rnd); return err }, "10 resamples, want at least 100"},
		{"bootstrap stream", func() error { _, err := Bootstrap(5, mean, 0.9, 100, nil); return err }, "no random stream"},
		{"statistic not finite", func() error {
			_, err := Bootstrap(5, func([]int) float64 { return math.Inf(-1) }, 0.9, 100, rnd)
			return err
		}, "the statistic of all 5 items is -Inf"},
	} {
		err := c.f()
		if err == nil || !strings.HasPrefix(err.Error(), "stats: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want stats: …%s", c.name, err, c.want)
		}
	}
}

// TestBootstrapFailedResamples: resamples whose statistic is not finite
// are left out, and more than half of them so is an error. The statistic
// is finite only when item 0 is drawn; a resample of n = 2 items misses it
// with probability 1/4, of n = 20 with (19/20)^20 ≈ 0.36, so both keep
// more than half; with item 0 required twice in n = 20 (probability
// 1 − 0.358 − 0.377 ≈ 0.26) fewer than half survive.
func TestBootstrapFailedResamples(t *testing.T) {
	rnd := rand.New(rand.NewPCG(4, 2))
	count0 := func(idx []int) int {
		k := 0
		for _, i := range idx {
			if i == 0 {
				k++
			}
		}
		return k
	}
	// needs(m, n) is finite on all n items (idx in order), on the
	// jackknife's leave-one-out samples (shorter than n), and on a
	// resample that drew item 0 at least m times.
	needs := func(m, n int) func([]int) float64 {
		return func(idx []int) float64 {
			all := true
			for i, v := range idx {
				all = all && v == i
			}
			if !all && len(idx) == n && count0(idx) < m {
				return math.NaN()
			}
			return float64(len(idx)) + float64(count0(idx))
		}
	}
	for _, n := range []int{2, 20} {
		est, err := Bootstrap(n, needs(1, n), 0.9, 1000, rnd)
		if err != nil {
			t.Errorf("n=%d, item 0 needed once: %v", n, err)
			continue
		}
		if est.Mean != float64(n+1) || !(est.CI.Lo <= est.CI.Hi) || est.Items != n {
			t.Errorf("n=%d: estimate %+v, want mean %d and an interval", n, est, n+1)
		}
	}
	_, err := Bootstrap(20, needs(2, 20), 0.9, 1000, rnd)
	if err == nil || !strings.Contains(err.Error(), "of 1000 resamples had a finite statistic") {
		t.Errorf("item 0 needed twice: %v, want too few finite resamples", err)
	}
}

// TestBootstrapConstantStatistic: a statistic that is the same on every
// resample has the point interval at it, at the level asked.
func TestBootstrapConstantStatistic(t *testing.T) {
	est, err := Bootstrap(6, func([]int) float64 { return 2.5 }, 0.8, 200, rand.New(rand.NewPCG(1, 9)))
	if err != nil {
		t.Fatal(err)
	}
	if est.Mean != 2.5 || est.CI != (Interval{Lo: 2.5, Hi: 2.5, Level: 0.8}) || est.Repeats != 1 {
		t.Errorf("constant statistic: %+v", est)
	}
}

// TestEstimateString prints the mean and interval to four significant
// figures, the form the logs and tables use.
func TestEstimateString(t *testing.T) {
	e := Estimate{Mean: 0.123456, CI: Interval{Lo: -1.5e-5, Hi: 12345.6}}
	if got, want := e.String(), "0.1235 [-1.5e-05, 1.235e+04]"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

// TestDecideAbove: the Above side passes only with the whole interval
// strictly above the bound, fails with it at or below, and is
// inconclusive across it.
func TestDecideAbove(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		want   Verdict
	}{
		{0.1, 0.2, Pass}, {0, 0.2, Inconclusive}, {-0.1, 0.1, Inconclusive},
		{-0.2, 0, Fail}, {-0.2, -0.1, Fail},
	} {
		if got := Decide(Interval{Lo: c.lo, Hi: c.hi}, Above, 0); got != c.want {
			t.Errorf("Decide([%g, %g], Above, 0) = %v, want %v", c.lo, c.hi, got, c.want)
		}
	}
}
