package report_test

import (
	"fmt"

	"github.com/runexp/runexp/internal/report"
)

// A kind declares its metric names once, as constants, and writes and
// reads records through them.
func ExampleRecord_Set() {
	const mseMean report.Metric = "mse_mean"
	var rec report.Record
	rec.Set(mseMean, 0.25)
	v, ok := rec.Lookup("mse_median")
	fmt.Println(rec.Get(mseMean), rec.Metrics, v, ok)
	// Output: 0.25 map[mse_mean:0.25] 0 false
}
