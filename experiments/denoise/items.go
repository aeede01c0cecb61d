package denoise

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
	"github.com/runexp/runexp/internal/stats"
)

// items says how each summary metric of a denoise record follows from its
// per-item errors (Arrays["mse"], NaN where the estimator failed), so that
// a claim comparing two estimators gets a paired bootstrap interval of
// the very statistic it compares: a median for mse_median, the 95th − 5th
// percentile spread for band_width, and so on. The scaled metrics are the
// per-pixel error times a constant: 255² for mse255_mean, and for the
// per-image squared error the pixel count d, which the record holds as
// sse_mean / mse_mean (both means over the same rows), rounded.
func items(rec *report.Record, metric string) (claims.ItemStat, bool) {
	mean := claims.StatOf(metrics.Mean)
	pixels := func(r *report.Record) float64 { return math.Round(r.Get(SSEMean) / r.Get(MSEMean)) }
	var f func(*report.Record, []float64) float64
	switch report.Metric(metric) {
	case MSEMean:
		f = mean
	case MSEP5:
		f = claims.PercentileOf(0.05)
	case MSEMedian:
		f = claims.PercentileOf(0.5)
	case MSEP95:
		f = claims.PercentileOf(0.95)
	case BandWidth:
		f = func(_ *report.Record, x []float64) float64 {
			return metrics.Spread(x, 0.05, 0.95)
		}
	case MSE255Mean:
		f = func(_ *report.Record, x []float64) float64 { return metrics.Mean(x) * 255 * 255 }
	case SSEMean:
		f = func(r *report.Record, x []float64) float64 { return metrics.Mean(x) * pixels(r) }
	case SSEMedian:
		f = func(r *report.Record, x []float64) float64 { return metrics.Percentile(x, 0.5) * pixels(r) }
	case "zero_fraction":
		// Every pre-image has the same d pixels, so the fraction of zero
		// pixels over the good rows is the mean of the rows' fractions.
		return claims.ItemStat{Array: "zeros", Stat: mean}, true
	case "nn_accuracy":
		return claims.ItemStat{Array: "nn_correct", Stat: mean}, true
	case BackgroundNoise:
		return claims.ItemStat{Array: backgroundArray, Stat: mean}, true
	default:
		return claims.ItemStat{}, false
	}
	return claims.ItemStat{Array: "mse", Stat: f}, true
}

// meanCI renders the 95% interval of a cell's mean error metric: the BCa
// bootstrap of package stats over test items, each carrying its errors
// under every corruption draw (a cluster bootstrap: an item's draws share
// the item, so they are not independent samples, and resampling items
// covers the population of test inputs under the corruption
// distribution, which a claim about methods is about). It is
// claims.CellInterval with the stream of the paper table's interval of
// the same metric (tables.Paper), so the two tables print one interval.
func (in *instance) meanCI(r *report.Record, metric string) string {
	o := claims.Options{
		Items:   items,
		Repeats: len(in.noisy),
		Rand:    func(key string) *rand.Rand { return runner.NewRand(in.env.Config.Seed, key) },
	}
	e, _, why := claims.CellInterval(o, "table-ci:"+r.Key+":"+metric, r, metric)
	if why != "" {
		return "—"
	}
	return fmt.Sprintf("[%s, %s]", report.FormatFloat(e.CI.Lo, 4), report.FormatFloat(e.CI.Hi, 4))
}

// ciNote is the table caption's sentence on the intervals.
func ciNote(reps int) string {
	unit := "test items"
	if reps > 1 {
		unit = fmt.Sprintf("test items, each with its %d corruption draws", reps)
	}
	return fmt.Sprintf("The 95%% CI of the mean is a BCa bootstrap over %s (%d resamples, seeded).", unit, stats.DefaultResamples)
}
