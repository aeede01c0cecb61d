package stability

import (
	"github.com/runexp/runexp/experiments/internal/common"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
)

// The metrics of a record (one method at one c), besides common's
// NumComponents, FailedRows and NonconvergedRows: the mean and the 5th,
// 50th and 95th percentiles of the spreads of the test inputs that kept
// two solutions.
const (
	SpreadMean   report.Metric = "spread_mean"
	SpreadP5     report.Metric = "spread_p5"
	SpreadMedian report.Metric = "spread_median"
	SpreadP95    report.Metric = "spread_p95"
)

// metricNames lists the metrics a record can hold (runner.Kind.Metrics);
// a cell where no input kept two solutions stops after the row counts.
func metricNames(*config.Config, options) []report.Metric {
	return []report.Metric{common.NumComponents, common.FailedRows, common.NonconvergedRows,
		SpreadMean, SpreadP5, SpreadMedian, SpreadP95}
}
