package claims

import (
	"fmt"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/stats"
)

// Involves reports whether a claim's check reads metric of rec: the
// check's metric is metric and rec is among the cells it selects (its
// where, and for a compare or ratio check its left or right). A claim
// whose check does not parse involves no cell.
func Involves(cl config.Claim, rec *report.Record, metric string) bool {
	sp, err := parse(cl.Check)
	if err != nil || sp.metric != metric || !Matches(rec, sp.where) {
		return false
	}
	if sp.typ == "compare" || sp.typ == "ratio" {
		return Matches(rec, sp.left) || Matches(rec, sp.right)
	}
	return true
}

// CellInterval returns the 95% interval of one cell's metric from the
// cell's per-item scores, built as a value check's interval is (o.Items
// says how the metric follows from them; o.Rand(key) seeds a bootstrap),
// with the method's description; or, when there is none, why. A metric
// that is a paired statistic within the record (Paired) gets its
// t-interval over items, a mean over few items (MeanT) Student's
// t-interval, any other a BCa bootstrap over test items of the statistic
// itself.
func CellInterval(o Options, key string, rec *report.Record, metric string) (est stats.Estimate, method, why string) {
	if rec.Status == report.StatusFailed {
		return stats.Estimate{}, "", "the cell failed"
	}
	if o.Items == nil {
		return stats.Estimate{}, "", "the experiment records no per-item scores"
	}
	st, ok := o.Items(rec, metric)
	if !ok {
		return stats.Estimate{}, "", fmt.Sprintf("%s has no per-item scores", metric)
	}
	if st.Paired != nil {
		return st.Paired.interval(rec, metric, ciLevel)
	}
	if est, method, why, ok := tDiff(o, metric, rec, nil, 1, 1); ok {
		return est, method, why
	}
	est, unit, why := bootCells(o, key, metric, [][]*report.Record{{rec}}, nil, func(v [][]float64) float64 { return v[0][0] })
	if why != "" {
		return stats.Estimate{}, "", why
	}
	return est, ciMethodOne(est.Repeats, unit), ""
}
