package runner

import (
	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/config"
)

// checkNames rejects claims and reference values that name a parameter,
// a value or an estimator label absent from the grid, or a metric the
// kind cannot record, at their file:line: at run time they could only be
// NOT-EVALUATED or match no cell. A kind's metrics are what it declares
// (Kind.Metrics) or else what its code writes into records, read off the
// embedded sources (codefp.Index.Metrics).
func checkNames(c *config.Config, k *Kind, opts any, cells []*Cell) error {
	g := claims.Grid{}
	for _, cell := range cells {
		g.Add(cell.Params)
	}
	var known claims.MetricChecker
	if k.Metrics != nil {
		known = func(name string) bool { return k.Metrics(opts, name) }
	} else if m, err := CodeMetrics(k.File); err != nil {
		return err
	} else if m != nil && !m.Open {
		known = m.Match
	}
	for _, cl := range c.Claims {
		if err := claims.CheckGrid(cl, g); err != nil {
			return err
		}
		if err := claims.CheckMetric(cl, known); err != nil {
			return err
		}
	}
	for i, ref := range c.Reference {
		if err := g.CheckSelector(ref.Cell); err != nil {
			return c.Errorf(ref.Line, "reference[%d].cell: %v", i, err)
		}
		if known != nil {
			for _, m := range []string{ref.Metric, ref.Std} {
				if m == "" {
					continue
				}
				if !known(m) {
					return c.Errorf(ref.Line, "reference[%d]: metric %q is not a metric this experiment records", i, m)
				}
			}
		}
	}
	return nil
}
