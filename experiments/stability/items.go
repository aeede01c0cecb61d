package stability

import (
	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
)

// items declares the spread metrics as statistics of the per-input
// spreads (Arrays["spread"], NaN for an input left with fewer than two
// solutions): spread_mean their mean, spread_p5, spread_median and
// spread_p95 their percentiles. Every estimator and kernel width starts
// from the same training points for the same noisy inputs, so the arrays
// pair across cells, and claims comparing them ("Tikhonov's spread is
// below Mika's at every c", "Mika's spread grows as c shrinks") get paired
// bootstrap intervals over the test inputs.
func items(_ *report.Record, metric string) (claims.ItemStat, bool) {
	pct := func(p float64) func(*report.Record, []float64) float64 {
		return func(_ *report.Record, x []float64) float64 { return metrics.Percentile(x, p) }
	}
	var f func(*report.Record, []float64) float64
	switch metric {
	case "spread_mean":
		f = func(_ *report.Record, x []float64) float64 { return metrics.Mean(x) }
	case "spread_p5":
		f = pct(0.05)
	case "spread_median":
		f = pct(0.5)
	case "spread_p95":
		f = pct(0.95)
	default:
		return claims.ItemStat{}, false
	}
	return claims.ItemStat{Array: "spread", Stat: f, Unit: "test inputs (each started from the same training points)"}, true
}
