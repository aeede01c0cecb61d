package lgdenoise

import (
	"fmt"
	"math"
	"strings"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
	"github.com/runexp/runexp/internal/stats"
)

// Per-image arrays of a record, one per group and one over all test
// images (suffix _<group> or _all), one entry per test image of the
// group in test-row order, NaN where the estimator failed on it: the
// image's APE, its SNR ratio (eq. 14), the ratio's numerator ‖x̃ − x‖² and
// denominator ‖x̃ − x₀‖², and its detail ratio and detail error against
// the clean image (metrics.DetailRatio, DetailError). Every method
// de-noises the same corrupted test images, so item i of two records'
// arrays is the same image: the arrays are paired across methods.
const (
	arrAPE       = "ape"
	arrSNR       = "snr"
	arrSNRNum    = "snr_num"
	arrSNRDen    = "snr_den"
	arrDetail    = "detail"
	arrDetailErr = "detailerr"
)

// items says how each per-group metric follows from the record's
// per-image arrays, so that claims comparing methods on it (best,
// compare, ratio) get the paired bootstrap interval over test images of
// the very statistic they compare: the mean (ape_mean, snr_mean), the
// standard deviation (ape_std), or for snr_pooled the ratio of the summed
// numerators to the summed denominators, recomputed on each resample of
// images (ItemStat.Joint) rather than a mean of per-image ratios.
func items(_ *report.Record, metric string) (claims.ItemStat, bool) {
	if st, ok := claims.ItemsByPrefix(groupStats, metric, func(g string) bool { return g != "" }, ""); ok {
		return st, true
	}
	if g, ok := strings.CutPrefix(metric, "snr_pooled_"); ok && g != "" {
		return claims.ItemStat{
			Arrays: []string{arrSNRNum + "_" + g, arrSNRDen + "_" + g},
			Joint:  func(_ *report.Record, c [][]float64) float64 { return metrics.PooledSNR(c[0], c[1]) },
		}, true
	}
	return claims.ItemStat{}, false
}

// groupStats are the per-group statistics items declares, by the
// metric's prefix; the suffix is the group.
var groupStats = []claims.PrefixStat{
	{Prefix: "ape_mean_", Array: arrAPE + "_", Stat: metrics.Mean},
	{Prefix: "ape_std_", Array: arrAPE + "_", Stat: metrics.Std},
	{Prefix: "snr_mean_", Array: arrSNR + "_", Stat: metrics.Mean},
	{Prefix: "detail_ratio_", Array: arrDetail + "_", Stat: metrics.Mean},
	{Prefix: "detail_error_", Array: arrDetailErr + "_", Stat: metrics.Mean},
}

// meanCI renders the 95% interval of a cell's metric (ape_mean, snr_mean
// or snr_pooled) for a group suffix: the BCa bootstrap of package stats
// over the group's test images (failed images left out), recomputing the
// statistic items declares for the metric, seeded from the root seed, the
// cell key and the metric. "—" when the record has no per-image arrays
// or too few images.
func (in *instance) meanCI(r *report.Record, metric string) string {
	st, ok := items(r, metric)
	if !ok || r.Status == report.StatusFailed {
		return "—"
	}
	names := st.Arrays
	if st.Joint == nil {
		names = []string{st.Array}
	}
	cols := make([][]float64, len(names))
	for j, name := range names {
		cols[j] = r.Arrays[name]
		if len(cols[j]) == 0 || len(cols[j]) != len(cols[0]) {
			return "—"
		}
	}
	buf := make([][]float64, len(cols))
	stat := func(idx []int) float64 {
		for j := range buf {
			buf[j] = buf[j][:0]
		}
		for _, i := range idx {
			if math.IsNaN(cols[0][i]) {
				continue
			}
			for j := range cols {
				buf[j] = append(buf[j], cols[j][i])
			}
		}
		if len(buf[0]) == 0 {
			return math.NaN()
		}
		if st.Joint != nil {
			return st.Joint(r, buf)
		}
		return st.Stat(r, buf[0])
	}
	e, err := stats.Bootstrap(len(cols[0]), stat, 0.95, stats.DefaultResamples, runner.NewRand(in.env.Config.Seed, "table-ci:"+r.Key+":"+metric))
	if err != nil {
		return "—"
	}
	return fmt.Sprintf("[%s, %s]", report.FormatFloat(e.CI.Lo, 4), report.FormatFloat(e.CI.Hi, 4))
}

// ciNote is the table caption's sentence on the intervals.
const ciNote = "In brackets: the 95% CI of the mean APE and of the SNR, a BCa bootstrap over the group's test images (failed images left out; the pooled SNR recomputed as a ratio of sums on each resample; " +
	"2000 resamples, seeded); claims comparing methods use the paired bootstrap of the difference over the same images."
