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
	"github.com/runexp/runexp/internal/report"
)

// The detectors below compute, from one config's records, facts a referee
// would otherwise find only by reading the tables closely; the Discussion
// states each with its numbers. Each is a function of the config and its
// records alone, and says nothing where its condition does not hold.

// fact is a detector's finding: its sentence, and the numbers in it that
// it computed (a sum over cells) rather than copied from the records.
type fact struct {
	Text    string
	Derived []string
}

// facts wraps sentences that copy every number they hold.
func facts(texts ...string) []fact {
	out := make([]fact, len(texts))
	for i, t := range texts {
		out[i] = fact{Text: t}
	}
	return out
}

// senses returns, for each metric the config's checks compare with a
// direction, whether lower is better: the sense (min or max) of its best
// checks. A metric that one best check reads with min and another with
// max (a check that names the worst method, as Huang's c4 does) has no
// direction the detectors can rely on, and is left out.
func senses(c *config.Config) map[string]bool {
	seen := map[string]map[string]bool{}
	for _, cl := range c.Claims {
		if t, _ := cl.Check.Values["type"].(string); t != "best" {
			continue
		}
		m, _ := cl.Check.Values["metric"].(string)
		s, _ := cl.Check.Values["sense"].(string)
		if s != "min" && s != "max" {
			continue
		}
		if seen[m] == nil {
			seen[m] = map[string]bool{}
		}
		seen[m][s] = true
	}
	out := map[string]bool{}
	for m, ss := range seen {
		if len(ss) == 1 {
			out[m] = ss["min"]
		}
	}
	return out
}

// inputLabel is the label of the config's method that scores the noisy
// input itself (the identity estimator), "" when it has none.
func inputLabel(c *config.Config) string {
	for _, m := range c.Methods {
		if m.Name == "identity" {
			if m.Label != "" {
				return m.Label
			}
			return "Base Line"
		}
	}
	return ""
}

// gridKey is the values of the model's axes at a record (the cell of the
// grid apart from the method), for matching a method's cell with the
// noisy input's.
func gridKey(c *config.Config, r report.Record) string {
	var parts []string
	for _, k := range axisParams(c) {
		if k == "method" {
			continue
		}
		if v, ok := r.Params[k]; ok {
			parts = append(parts, k+"="+paramText(v))
		}
	}
	return strings.Join(parts, ",")
}

// worseThanInput finds the methods that score worse than the noisy input
// they de-noise at every cell of the grid, on a metric whose direction a
// check states: the identity method's score at the same cell, or, where
// the records score the input under noisy_Q_G beside Q_mean_G, that.
func worseThanInput(c *config.Config, recs []report.Record) []fact {
	var out []string
	sense := senses(c)
	var metrics []string
	for m := range sense {
		metrics = append(metrics, m)
	}
	sort.Strings(metrics)
	varying := strings.Join(withoutMethod(varyingAxes(recs, axisParams(c))), " and ")
	where := "at every cell"
	if varying != "" {
		where = "at every " + varying
	}
	for _, m := range metrics {
		w := worseOn(c, recs, m, sense[m])
		if len(w.names) == 0 {
			continue
		}
		slices.Sort(w.inputs)
		inText := rangeText(w.inputs[0], w.inputs[len(w.inputs)-1])
		out = append(out, fmt.Sprintf("On `%s` (%s is better), %s %s worse than the noisy input %s (%s: %s) %s: %s.",
			m, betterWord(sense[m]), joinAnd(w.names), isAre(len(w.names), "scores", "score"), isAre(len(w.names), "it de-noises", "they de-noise"), w.input, inText, where, strings.Join(w.spans, "; ")))
	}
	return facts(out...)
}

// worse is worseOn's finding on one metric: the methods worse than the
// input at every cell, each with its range, the input's name and values.
type worse struct {
	names, spans []string
	input        string
	inputs       []float64
}

// worseOn compares each method's score on metric m with the noisy
// input's at the same cell (lower better when lower is set).
func worseOn(c *config.Config, recs []report.Record, m string, lower bool) worse {
	isWorse := func(v, input float64) bool {
		if lower {
			return v > input
		}
		return v < input
	}
	in := inputLabel(c)
	// The fact is a composed sentence (its metric a code span): a
	// label's backticks would pair with the project's.
	w := worse{input: report.NoCode(in)}
	// The noisy input's score per cell (identity), or per record
	// (noisy_ metric).
	inputAt := map[string]float64{}
	for _, r := range recs {
		if in != "" && fmt.Sprint(r.Params["method"]) == in {
			if v, ok := r.Metrics[m]; ok && r.Status != report.StatusFailed {
				inputAt[gridKey(c, r)] = v
			}
		}
	}
	noisyMetric := ""
	if len(inputAt) == 0 {
		if q, g, ok := strings.Cut(m, "_mean_"); ok {
			noisyMetric = "noisy_" + q + "_" + g
			w.input = "the noisy input (" + noisyMetric + ")"
		}
	}
	type span struct {
		lo, hi float64
		n      int
		all    bool
	}
	byMethod := map[string]*span{}
	var order []string
	for _, r := range recs {
		label := fmt.Sprint(r.Params["method"])
		v, ok := r.Metrics[m]
		if label == in || r.Status == report.StatusFailed || !ok || math.IsNaN(v) {
			continue
		}
		var input float64
		if noisyMetric != "" {
			input, ok = r.Metrics[noisyMetric]
		} else {
			input, ok = inputAt[gridKey(c, r)]
		}
		if !ok {
			continue
		}
		if !slices.Contains(w.inputs, input) {
			w.inputs = append(w.inputs, input)
		}
		s := byMethod[label]
		if s == nil {
			s = &span{lo: v, hi: v, all: true}
			byMethod[label] = s
			order = append(order, label)
		}
		s.lo, s.hi, s.n = math.Min(s.lo, v), math.Max(s.hi, v), s.n+1
		s.all = s.all && isWorse(v, input)
	}
	for _, l := range order {
		if s := byMethod[l]; s.all && s.n > 0 {
			w.names = append(w.names, report.NoCode(l))
			w.spans = append(w.spans, report.NoCode(l)+" "+rangeText(s.lo, s.hi))
		}
	}
	return w
}

// flatFraction and movingFraction bound flatOverGrid: a method whose
// metric stays within 15% of its mean over the grid (its range over its
// mean) while another's range is its mean or more (a factor 2 and over)
// does not follow the grid's settings (A&H Fig. 4's Dambreville at
// 0.54–0.62 where Kwok–Tsang goes from 0.6 to 0.15).
const (
	flatFraction   = 0.15
	movingFraction = 1
)

// flatOverGrid finds the methods whose score on a metric a check reads is
// the same, within flatFraction of its mean, at every cell of a grid of
// three or more cells over which another method's moves by more than
// movingFraction: their output does not follow the kernel's width or the
// subspace the grid varies.
func flatOverGrid(c *config.Config, recs []report.Record) []fact {
	var out []fact
	axes := withoutMethod(varyingAxes(recs, axisParams(c)))
	if len(axes) == 0 {
		return nil
	}
	for _, m := range figureMetrics(c, recs) {
		type stat struct {
			lo, hi, sum float64
			n           int
		}
		st := map[string]*stat{}
		var order []string
		for _, r := range recs {
			v, ok := r.Metrics[m]
			if !ok || r.Status == report.StatusFailed || math.IsNaN(v) || math.IsInf(v, 0) {
				continue
			}
			l := fmt.Sprint(r.Params["method"])
			s := st[l]
			if s == nil {
				s = &stat{lo: v, hi: v}
				st[l] = s
				order = append(order, l)
			}
			s.lo, s.hi, s.sum, s.n = math.Min(s.lo, v), math.Max(s.hi, v), s.sum+v, s.n+1
		}
		rel := func(s *stat) float64 {
			mean := s.sum / float64(s.n)
			if mean == 0 {
				return math.Inf(1)
			}
			return (s.hi - s.lo) / math.Abs(mean)
		}
		moving := false
		for _, l := range order {
			if st[l].n >= 3 && rel(st[l]) > movingFraction {
				moving = true
			}
		}
		if !moving {
			continue
		}
		for _, l := range order {
			s := st[l]
			if s.n < 3 || rel(s) >= flatFraction || l == inputLabel(c) {
				// The noisy input scored as a method is the same at
				// every cell by construction.
				continue
			}
			out = append(out, fact{Text: fmt.Sprintf("%s's `%s` stays at %s over all %d of its cells (%s), while another method's moves by a factor 2 or more: its output does not follow the settings the grid varies.",
				report.NoCode(l), m, rangeText(s.lo, s.hi), s.n, joinAnd(axes)), Derived: []string{strconv.Itoa(s.n)}})
		}
	}
	return out
}

// capMetric matches the metrics that count the fits or rows an iterative
// solver left at its iteration cap.
var capMetric = regexp.MustCompile(`^nonconverged_(rows|fits)(_[a-z0-9]+)?$`)

// capsHit finds the methods whose iterative solver stopped at its
// iteration cap without converging in some cell: how many fits or rows,
// in how many cells, and the cap (max_iter) where the cells record it.
func capsHit(c *config.Config, recs []report.Record) []fact {
	type hit struct {
		total float64
		cells int
		what  string
		caps  []string
	}
	hits := map[string]*hit{}
	var order []string
	for _, r := range recs {
		if r.Status == report.StatusFailed {
			continue
		}
		l := fmt.Sprint(r.Params["method"])
		if _, ok := r.Params["method"]; !ok {
			l = c.Name
		}
		for _, m := range sortedMetrics(r.Metrics) {
			v := r.Metrics[m]
			mm := capMetric.FindStringSubmatch(m)
			if mm == nil || !(v > 0) {
				continue
			}
			h := hits[l]
			if h == nil {
				h = &hit{what: mm[1]}
				hits[l] = h
				order = append(order, l)
			}
			h.total += v
			h.cells++
			if mi, ok := r.Params["max_iter"]; ok && !slices.Contains(h.caps, paramText(mi)) {
				h.caps = append(h.caps, paramText(mi))
			}
		}
	}
	var parts, derived []string
	for _, l := range order {
		h := hits[l]
		total := strconv.FormatFloat(h.total, 'f', -1, 64)
		what := h.what
		if h.total == 1 {
			what = strings.TrimSuffix(what, "s")
		}
		s := fmt.Sprintf("%s: %s %s at the cap", l, total, what)
		if len(h.caps) > 0 {
			s += " (max_iter " + strings.Join(h.caps, ", ") + ")"
		}
		if h.cells > 1 {
			s += fmt.Sprintf(" over %d cells", h.cells)
			derived = append(derived, total, strconv.Itoa(h.cells))
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return nil
	}
	return []fact{{Text: "Iterative solvers stopped at their iteration cap without converging (the records' nonconverged counts; their results are those of the last iterate): " + strings.Join(parts, "; ") + ".", Derived: derived}}
}

// withoutMethod drops "method" from a list of axes.
func withoutMethod(axes []string) []string {
	var out []string
	for _, a := range axes {
		if a != "method" {
			out = append(out, a)
		}
	}
	return out
}

func sortedMetrics(m map[string]float64) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// rangeText is "v" or "lo–hi", four significant digits.
func rangeText(lo, hi float64) string {
	a, b := report.FormatFloat(lo, 4), report.FormatFloat(hi, 4)
	if a == b {
		return a
	}
	return a + "–" + b
}

func betterWord(lower bool) string {
	if lower {
		return "lower"
	}
	return "higher"
}

func isAre(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// joinAnd joins names as a sentence lists them: "a", "a and b", "a, b
// and c".
func joinAnd(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
