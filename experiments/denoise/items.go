package denoise

import (
	"math"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
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
	pct := func(p float64) func(*report.Record, []float64) float64 {
		return func(_ *report.Record, x []float64) float64 { return metrics.Percentile(x, p) }
	}
	mean := func(x []float64) float64 { return metrics.Summarize(x).Mean }
	pixels := func(r *report.Record) float64 { return math.Round(r.Metrics["sse_mean"] / r.Metrics["mse_mean"]) }
	var f func(*report.Record, []float64) float64
	switch metric {
	case "mse_mean":
		f = func(_ *report.Record, x []float64) float64 { return mean(x) }
	case "mse_p5":
		f = pct(0.05)
	case "mse_median":
		f = pct(0.5)
	case "mse_p95":
		f = pct(0.95)
	case "band_width":
		f = func(_ *report.Record, x []float64) float64 { return metrics.Percentile(x, 0.95) - metrics.Percentile(x, 0.05) }
	case "mse255_mean":
		f = func(_ *report.Record, x []float64) float64 { return mean(x) * 255 * 255 }
	case "sse_mean":
		f = func(r *report.Record, x []float64) float64 { return mean(x) * pixels(r) }
	case "sse_median":
		f = func(r *report.Record, x []float64) float64 { return metrics.Percentile(x, 0.5) * pixels(r) }
	default:
		return claims.ItemStat{}, false
	}
	return claims.ItemStat{Array: "mse", Stat: f}, true
}
