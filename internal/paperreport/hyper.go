package paperreport

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// setting is one hyperparameter of a config as its cells ran it: the
// value of each record of Method ("" for the model's own settings, which
// every method shares) for Name, read from the records: the cell's
// parameter, or, where the experiment tuned it on validation data, the
// tuned value the cell recorded (metric tuned_NAME) with the grid it was
// chosen from. Values lists the distinct values with the cells each
// holds ("at energy 0.8, 0.95") where they differ over the grid.
type setting struct {
	Method, Name string
	Values       []settingValue
	// Tuned marks a value chosen on validation data; Grid is the
	// config's grid it was chosen from (experiment.tune).
	Tuned bool
	Grid  string
	// Derived says how a value recorded as a metric follows from a rule
	// of the config ("1 × the mean pairwise distance"), "" for none.
	Derived string
}

// settingValue is one value of a setting and where it holds: the values
// of the grid's other axes at those cells, "" where it holds at every
// cell of its method.
type settingValue struct {
	Value float64
	Text  string // the value as printed: a number's shortest form, or a string parameter
	At    []string
}

// settingMetric matches the metrics that record a setting a cell used
// rather than a result: the components kept, the kernel width and the
// neighbour count a rule of the config derives from the data (per group
// where the model is fitted per group: sigma_happy), the mean pairwise
// distance a relative width multiplies.
var settingMetric = regexp.MustCompile(`^(components|sigma|neighbors)(_[a-z0-9]+)?$|^mean_distance$`)

// axisParams are the record parameters that are the model's and the
// grid's, not a method's: shown once, as the model's settings.
func axisParams(c *config.Config) []string {
	ax := []string{"kernel", "components", "energy", "method"}
	if c.Model.WidthName != "" {
		ax = append(ax, c.Model.WidthName)
	}
	return ax
}

// settingsOf reads the settings of config c from its records: first the
// model's (kernel, width, subspace, and the settings recorded as metrics),
// then each method's parameters in the records' method order, tuned ones
// replaced by the tuned values the cells recorded.
func settingsOf(c *config.Config, recs []report.Record) []setting {
	g := settingsGrid{c: c, recs: recs, ax: axisParams(c)}
	g.varying = varyingAxes(recs, g.ax)
	out := g.modelSettings()
	for _, label := range methodLabels(c, recs) {
		out = append(out, g.methodSettings(label)...)
	}
	return out
}

// settingsGrid is a config's records with the grid's axes (ax) and those
// of them that vary over the records (varying), which name the cells a
// value holds at.
type settingsGrid struct {
	c           *config.Config
	recs        []report.Record
	ax, varying []string
}

// usedRecord reports whether a record's values were used (its cell did not fail).
func usedRecord(r report.Record) bool { return r.Status != report.StatusFailed }

// at names the cell of r by the varying axes but skip.
func (g settingsGrid) at(r report.Record, skip string) []string {
	var s []string
	for _, k := range g.varying {
		if k == skip || k == "method" {
			continue
		}
		if v, has := r.Params[k]; has {
			s = append(s, k+" "+paramText(v))
		}
	}
	return s
}

// modelSettings are the model's settings: the parameters of the grid's
// axes, then the metrics that record a setting a cell used.
func (g settingsGrid) modelSettings() []setting {
	c, recs := g.c, g.recs
	var out []setting
	for _, k := range g.ax {
		if k == "method" {
			continue
		}
		vals := collect(recs, func(r report.Record) (any, bool) {
			v, has := r.Params[k]
			return v, has && usedRecord(r)
		}, func(r report.Record) []string { return nil })
		if len(vals) == 0 {
			continue
		}
		s := setting{Name: k, Values: vals}
		if k == c.Model.WidthName && k == "sigma" && fmt.Sprint(c.Experiment.Values["width"]) == "mean-distance" {
			s.Derived = "relative: σ is this multiple of the mean pairwise distance of the training images (experiment.width: mean-distance; the distance is recorded as mean_distance)"
		}
		out = append(out, s)
	}
	var metricNames []string
	for _, r := range recs {
		for m := range r.Metrics {
			if settingMetric.MatchString(m) && !slices.Contains(metricNames, m) {
				metricNames = append(metricNames, m)
			}
		}
	}
	sort.Strings(metricNames)
	for _, m := range metricNames {
		if m == "components" && slices.ContainsFunc(out, func(s setting) bool { return s.Name == "components" }) {
			continue // the grid's own axis, already shown
		}
		vals := collect(recs, func(r report.Record) (any, bool) {
			v, has := r.Metrics[m]
			return measuredValue(v), has && usedRecord(r) && !math.IsNaN(v)
		}, func(r report.Record) []string { return g.at(r, m) })
		if len(vals) == 0 {
			continue
		}
		s := setting{Name: m + " (recorded)", Values: vals}
		if m == "mean_distance" && c.Model.WidthName == "sigma" {
			s.Derived = "σ = " + floats(c.Model.Widths) + " × this distance"
		}
		out = append(out, s)
	}
	return out
}

// methodSettings are method label's parameters that are not the grid's,
// each a tuned value with its grid where the cells record one
// (tuned_NAME), else the cell's parameter.
func (g settingsGrid) methodSettings(label string) []setting {
	mine := func(r report.Record) bool { return fmt.Sprint(r.Params["method"]) == label }
	var names []string
	for _, r := range g.recs {
		if !mine(r) {
			continue
		}
		for k := range r.Params {
			if !slices.Contains(g.ax, k) && !slices.Contains(names, k) {
				names = append(names, k)
			}
		}
		for m := range r.Metrics {
			if k, found := strings.CutPrefix(m, "tuned_"); found && !slices.Contains(names, k) {
				names = append(names, k)
			}
		}
	}
	sort.Strings(names)
	var out []setting
	for _, k := range names {
		tuned := slices.ContainsFunc(g.recs, func(r report.Record) bool {
			_, has := r.Metrics["tuned_"+k]
			return has && mine(r)
		})
		get := func(r report.Record) (any, bool) {
			if !mine(r) || !usedRecord(r) {
				return nil, false
			}
			if tuned {
				v, has := r.Metrics["tuned_"+k]
				return v, has
			}
			v, has := r.Params[k]
			return v, has
		}
		s := setting{Method: label, Name: k, Values: collect(g.recs, get, func(r report.Record) []string { return g.at(r, "") })}
		if k == "start" {
			// A kind that starts every iteration itself (runner.Needs.Starts)
			// leaves the method's start rule, recorded at its default, unused.
			if kind, ok := runner.LookupKind(g.c.Kind); ok && kind.Needs.Starts != "" {
				for i := range s.Values {
					s.Values[i].Text += " (not used: the experiment starts from " + kind.Needs.Starts + ")"
				}
			}
		}
		if zero := zeroMeaning(g.c, label, k); zero != "" {
			for i, v := range s.Values {
				if v.Value == 0 && v.Text == "0" {
					s.Values[i].Text += " (" + zero + ")"
				}
			}
		}
		if tuned {
			// A tuned_ metric records the value a cell used (the model's
			// width always); it was chosen on validation data only when
			// the config's grid offered more than one.
			if grid := tuneGrid(g.c, label, k); strings.Contains(grid, ",") {
				s.Tuned, s.Grid = true, grid
			}
		}
		out = append(out, s)
	}
	return out
}

// varyingAxes are the axes of ax whose parameter takes more than one
// value over recs.
func varyingAxes(recs []report.Record, ax []string) []string {
	var out []string
	for _, k := range ax {
		seen := map[string]bool{}
		for _, r := range recs {
			if v, ok := r.Params[k]; ok {
				seen[paramText(v)] = true
			}
		}
		if len(seen) > 1 {
			out = append(out, k)
		}
	}
	return out
}

// collect returns the distinct values get reads from recs, in the order
// first read, each with the cells it holds at (where) when the values
// differ.
func collect(recs []report.Record, get func(report.Record) (any, bool), where func(report.Record) []string) []settingValue {
	var vals []settingValue
	for _, r := range recs {
		v, ok := get(r)
		if !ok {
			continue
		}
		t := paramText(v)
		i := slices.IndexFunc(vals, func(s settingValue) bool { return s.Text == t })
		if i < 0 {
			f, _ := paramNumber(v)
			vals = append(vals, settingValue{Value: f, Text: t})
			i = len(vals) - 1
		}
		for _, a := range where(r) {
			if !slices.Contains(vals[i].At, a) {
				vals[i].At = append(vals[i].At, a)
			}
		}
	}
	if len(vals) == 1 {
		vals[0].At = nil
	}
	return vals
}

// measuredValue is a setting the cells measured rather than were given (a
// mean pairwise distance, a width derived from it): the report prints it
// to 4 significant digits, since its last digits are noise to a reader.
type measuredValue float64

// paramText is a parameter or metric value as the report prints it: a
// given number in its shortest form (the value the config wrote), a
// measured one to 4 significant digits, else its text.
func paramText(v any) string {
	switch x := v.(type) {
	case measuredValue:
		return strconv.FormatFloat(float64(x), 'g', 4, 64)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case int:
		return strconv.Itoa(x)
	}
	return fmt.Sprint(v)
}

// zeroMeaning is what the value 0 of parameter k of the method labelled
// label stands for (methods.Param.Zero: "neighbors 0" is every training
// point, not none), "" where 0 is itself or the method is not the
// config's.
func zeroMeaning(c *config.Config, label, k string) string {
	for _, m := range c.Methods {
		spec, ok := methods.Lookup(m.Name)
		if !ok || (m.Label != label && !(m.Label == "" && (spec.Title == label || m.Name == label))) {
			continue
		}
		for _, p := range spec.Params {
			if p.Name == k {
				return p.Zero
			}
		}
	}
	return ""
}

// methodLabels are the labels of the methods the records hold, in the
// order first recorded.
func methodLabels(c *config.Config, recs []report.Record) []string {
	var out []string
	for _, r := range recs {
		m, ok := r.Params["method"]
		if !ok {
			continue
		}
		if s := fmt.Sprint(m); !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// tuneGrid is the grid of parameter k the config's experiment.tune gives
// method label, as a list ("{1e-05, 3e-05, 0.0001}"), "" when none does.
func tuneGrid(c *config.Config, label, k string) string {
	tl, _ := c.Experiment.Values["tune"].([]any)
	for _, e := range tl {
		m, _ := e.(map[string]any)
		if m == nil || fmt.Sprint(m["method"]) != label {
			continue
		}
		g, ok := m[k]
		if !ok {
			continue
		}
		vs, isList := g.([]any)
		if !isList {
			vs = []any{g}
		}
		parts := make([]string, len(vs))
		for i, v := range vs {
			parts[i] = paramText(v)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return ""
}

// settingText is a setting as a line of the report: its name, its value
// or values with where each holds, and, for a tuned one, the grid.
func settingText(s setting) string {
	var vals []string
	for _, v := range s.Values {
		t := v.Text
		if len(v.At) > 0 {
			t += " (" + strings.Join(v.At, ", ") + ")"
		}
		vals = append(vals, t)
	}
	line := s.Name + " " + strings.Join(vals, "; ")
	if s.Tuned {
		line += ", tuned on validation data"
		if s.Grid != "" {
			line += " from " + s.Grid
		}
	}
	if s.Derived != "" {
		line += ": " + s.Derived
	}
	return line
}
