package missing

import (
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
)

// The metrics of a record (one imputer) that do not depend on p(del).
const (
	// NonconvergedFits counts the fits, over every repetition, that
	// stopped at their iteration budget.
	NonconvergedFits report.Metric = "nonconverged_fits"
	// FailedRepetitions counts the repetitions the imputer failed on.
	FailedRepetitions report.Metric = "failed_repetitions"
)

// errMean and errStd are the mean and the standard deviation of the
// squared error over the repetitions at the deletion probability p:
// err_mean_p05 and err_std_p05 for 0.05 (pname).
func errMean(p float64) report.Metric { return report.Metric("err_mean_" + pname(p)) }
func errStd(p float64) report.Metric  { return report.Metric("err_std_" + pname(p)) }

// metricNames lists the metrics every record of a config with options o
// holds (runner.Kind.Metrics).
func metricNames(_ *config.Config, o options) []report.Metric {
	names := []report.Metric{NonconvergedFits, FailedRepetitions}
	for _, p := range o.pdel {
		names = append(names, errMean(p), errStd(p))
	}
	return names
}
