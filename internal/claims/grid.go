package claims

import (
	"fmt"
	"sort"
	"strings"

	"github.com/runexp/runexp/internal/config"
)

// Grid is the set of parameter values a config's cells take: parameter
// name → canonical values (config.FormatValue), the method labels under
// "method".
type Grid map[string]map[string]bool

// Add records one cell's parameters.
func (g Grid) Add(params map[string]any) {
	for k, v := range params {
		if g[k] == nil {
			g[k] = map[string]bool{}
		}
		g[k][config.FormatValue(v)] = true
	}
}

func (g Grid) values(k string) string {
	var vs []string
	for v := range g[k] {
		vs = append(vs, v)
	}
	sort.Strings(vs)
	if len(vs) > 12 {
		vs = append(vs[:12], "…")
	}
	return strings.Join(vs, ", ")
}

func (g Grid) names() string {
	var ns []string
	for k := range g {
		ns = append(ns, k)
	}
	sort.Strings(ns)
	return strings.Join(ns, ", ")
}

// checkParam reports a parameter name the grid lacks.
func (g Grid) checkParam(name string) error {
	if _, ok := g[name]; !ok {
		return fmt.Errorf("unknown parameter %q (the cells have: %s)", name, g.names())
	}
	return nil
}

// CheckSelector reports the first parameter of sel the grid lacks, or a
// value (or list element) absent from that parameter's values. A claim or
// reference value selecting nothing is always a typo: it could only be
// NOT-EVALUATED or "no such cell" at run time.
func (g Grid) CheckSelector(sel map[string]any) error {
	keys := make([]string, 0, len(sel))
	for k := range sel {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := g.checkParam(k); err != nil {
			return err
		}
		alts, isList := sel[k].([]any)
		if !isList {
			alts = []any{sel[k]}
		}
		for _, a := range alts {
			if v := config.FormatValue(a); !g[k][v] {
				return fmt.Errorf("%s: %s is not in the grid (values: %s)", k, v, g.values(k))
			}
		}
	}
	return nil
}

// CheckGrid checks that every parameter and value the claim's check names
// exists among the cells, with the error at the offending key's line.
func CheckGrid(cl config.Claim, g Grid) error {
	sp, err := parse(cl.Check)
	if err != nil {
		return err
	}
	s := cl.Check
	sels := map[string]map[string]any{"where": sp.where, "left": sp.left, "right": sp.right, "against": sp.against}
	if sp.given != nil {
		sels["given"] = sp.given.sel
	}
	for key, sel := range sels {
		if err := g.CheckSelector(sel); err != nil {
			return s.Errorf(key, "claim %s: %s: %v", cl.ID, key, err)
		}
	}
	names := map[string][]string{"group": sp.group, "for_all": sp.forAll}
	if sp.along != "" {
		names["along"] = []string{sp.along}
	}
	if sp.typ == "best" {
		names["among"] = []string{sp.among}
	}
	for key, ns := range names {
		for _, n := range ns {
			if err := g.checkParam(n); err != nil {
				return s.Errorf(key, "claim %s: %s: %v", cl.ID, key, err)
			}
		}
	}
	if sp.typ == "best" && sp.winner != "" && g[sp.among] != nil && !g[sp.among][sp.winner] {
		return s.Errorf("winner", "claim %s: winner: %s is not a value of %s (values: %s)", cl.ID, sp.winner, sp.among, g.values(sp.among))
	}
	return nil
}

// MetricChecker reports whether a metric name can appear in a config's
// records; nil when the kind does not say.
type MetricChecker func(name string) bool

// CheckMetric checks the claim's metric against known, when known.
func CheckMetric(cl config.Claim, known MetricChecker) error {
	if known == nil {
		return nil
	}
	sp, err := parse(cl.Check)
	if err != nil {
		return err
	}
	if !known(sp.metric) {
		return cl.Check.Errorf("metric", "claim %s: metric: %q is not a metric this experiment records", cl.ID, sp.metric)
	}
	return nil
}
