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
	f, ok := spreadStats[report.Metric(metric)]
	if !ok {
		return claims.ItemStat{}, false
	}
	return claims.ItemStat{Array: "spread", Stat: f, Unit: "test inputs (each started from the same training points)"}, true
}

// spreadStats are the statistics of the spreads behind each spread
// metric: those of metrics.Summarize, which Run records.
var spreadStats = map[report.Metric]func(*report.Record, []float64) float64{
	SpreadMean:   claims.StatOf(metrics.Mean),
	SpreadP5:     claims.PercentileOf(0.05),
	SpreadMedian: claims.PercentileOf(0.5),
	SpreadP95:    claims.PercentileOf(0.95),
}
