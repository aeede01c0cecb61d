package runner

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/suggest"
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
	// valid lists the metric names (or, read off the code, patterns with
	// * for the parts built at run time) for the hint of an error.
	var valid []string
	if k.Metrics != nil {
		valid = k.Metrics(opts)
		known = func(name string) bool { return slices.Contains(valid, name) }
	} else if m, err := CodeMetrics(k.File); err != nil {
		return err
	} else if m != nil && !m.Open {
		known, valid = m.Match, m.Patterns
	}
	for _, cl := range c.Claims {
		if err := claims.CheckGrid(cl, g); err != nil {
			return err
		}
		if err := claims.CheckMetric(cl, known); err != nil {
			name, _ := cl.Check.Values["metric"].(string)
			return withHint(err, metricHint(name, valid))
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
					return c.Errorf(ref.Line, "reference[%d]: metric %q is not a metric this experiment records%s", i, m, metricHint(m, valid))
				}
			}
		}
	}
	return nil
}

// metricHint names, for a metric the experiment does not record, the
// closest it does, or else the first of them all (patterns keep a * where
// the code builds the name at run time).
func metricHint(name string, valid []string) string {
	if len(valid) == 0 {
		return ""
	}
	trimmed := make([]string, len(valid))
	byTrim := map[string]string{}
	for i, v := range valid {
		trimmed[i] = strings.TrimRight(v, "*")
		byTrim[trimmed[i]] = v
	}
	if close := suggest.Closest(name, trimmed, 5); len(close) > 0 {
		for i, c := range close {
			close[i] = byTrim[c]
		}
		return "; did you mean " + suggest.Or(close) + "?"
	}
	sorted := slices.Sorted(slices.Values(valid))
	const most = 12
	if len(sorted) > most {
		return fmt.Sprintf("; it records %s, … (%d names)", strings.Join(sorted[:most], ", "), len(sorted))
	}
	return "; it records " + strings.Join(sorted, ", ")
}

// withHint appends hint to the message of a config error (which keeps its
// FILE:LINE:), or to any other error's text.
func withHint(err error, hint string) error {
	if hint == "" {
		return err
	}
	var ce *config.Error
	if errors.As(err, &ce) {
		e := *ce
		e.Msg += hint
		return &e
	}
	return fmt.Errorf("%w%s", err, hint)
}
