package localminima

import (
	"github.com/runexp/runexp/experiments/internal/common"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
)

// The metrics of a record (one kernel width), besides common's
// NumComponents, FailedRows and NonconvergedRows; the package comment
// says how the solutions are counted.
const (
	// X0Cost is the cost R(x0) of the noisy point itself (eq. 11).
	X0Cost report.Metric = "x0_cost"
	// DistinctPreimages is the number of clusters among the solutions.
	DistinctPreimages report.Metric = "distinct_preimages"
	// LargestClusterFraction is the share of the solutions in the
	// largest cluster.
	LargestClusterFraction report.Metric = "largest_cluster_fraction"
	// CostMin, CostMax and CostMedian summarise the solutions' costs
	// R(z).
	CostMin    report.Metric = "cost_min"
	CostMax    report.Metric = "cost_max"
	CostMedian report.Metric = "cost_median"
	// MeanDistanceToX0 is the solutions' mean input-space distance to
	// the noisy point.
	MeanDistanceToX0 report.Metric = "mean_distance_to_x0"
)

// metricNames lists the metrics a record can hold (runner.Kind.Metrics);
// a cell whose every start failed stops after the row counts.
func metricNames(*config.Config, options) []report.Metric {
	return []report.Metric{common.NumComponents, common.FailedRows, common.NonconvergedRows, X0Cost,
		DistinctPreimages, LargestClusterFraction, CostMin, CostMax, CostMedian, MeanDistanceToX0}
}
