package runner

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/suggest"
)

// checkNames rejects claims and reference values that name a parameter,
// a value or an estimator label absent from the grid, or a metric the
// kind cannot record (one declared names does not match), at their
// file:line: at run time they could only be NOT-EVALUATED or match no
// cell. names nil (a kind that declares none) checks no metric name.
func checkNames(c *config.Config, names MetricNames, cells []*Cell) error {
	g := claims.Grid{}
	for _, cell := range cells {
		g.Add(cell.Params)
	}
	var known claims.MetricChecker
	// valid lists the metric names (patterns with * for the parts built
	// at run time) for the hint of an error.
	var valid []string
	if names != nil {
		known = names.Match
		for _, n := range names {
			valid = append(valid, string(n))
		}
	}
	for _, cl := range c.Claims {
		if err := claims.CheckGrid(cl, g); err != nil {
			return err
		}
		if err := claims.CheckMetric(cl, known); err != nil {
			name, _ := cl.Check.Values["metric"].(string)
			return withHint(err, metricHint(name, valid))
		}
		if known == nil {
			continue
		}
		// A {metric:NAME} of a because: or defect text the kind
		// cannot record would leave the text stating what was not
		// measured.
		for _, t := range []struct {
			key, text string
			line      int
		}{{"because", cl.Because, cl.Line}, {"defect", cl.DefectEvidence, cl.DefectLine}} {
			refs, _ := claims.References(t.text) // claims.Check reports a malformed one
			for _, ref := range refs {
				if m, ok := strings.CutPrefix(ref, "metric:"); ok && !known(m) {
					return c.Errorf(t.line, "claim %s: %s: {metric:%s} is not a metric this experiment records%s", cl.ID, t.key, m, metricHint(m, valid))
				}
			}
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

// MetricNames are the metric names a kind declares for one config
// (Kind.Metrics): names, and patterns in which each * stands for any
// run of characters (a part of the name only known at run time).
type MetricNames []report.Metric

// Match reports whether name is one of n or matches one of its patterns.
func (n MetricNames) Match(name string) bool {
	for _, m := range n {
		if globMatch(string(m), name) {
			return true
		}
	}
	return false
}

// globMatch reports whether name matches pattern, whose each * stands
// for any run of characters, possibly empty.
func globMatch(pattern, name string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == name
	}
	if !strings.HasPrefix(name, parts[0]) {
		return false
	}
	name = name[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(name, p)
		if i < 0 {
			return false
		}
		name = name[i+len(p):]
	}
	return len(name) >= len(last) && strings.HasSuffix(name, last)
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
