package common

import "github.com/runexp/runexp/internal/report"

// The metrics several kinds record under the same names (denoise, robust,
// stability, local-minima), each kind listing those it writes among its
// own (runner.Kind.Metrics).
const (
	// NumComponents is the number of kernel PCA components a cell used
	// (its model point's, or the count its energy gives).
	NumComponents report.Metric = "components"
	// FailedRows counts the rows (inputs, starts) whose estimate failed.
	FailedRows report.Metric = "failed_rows"
	// NonconvergedRows counts the rows an iteration stopped at its
	// budget without converging.
	NonconvergedRows report.Metric = "nonconverged_rows"
)
