package report

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// CellLabels returns a short label for each of one config's cells, given
// their parameters (Record.Params): the parameters whose values differ
// among the cells, as "name=value" joined by " ", the method first, then
// by name. A cell key repeats every parameter of the config (a hundred
// characters); the label keeps what tells the cells apart. Cells that
// differ in no parameter (a config of one cell) are labelled by their
// method, or "(the one cell)".
func CellLabels(params []map[string]any) []string {
	var ls labelSet
	for _, p := range params {
		ls.add(p)
	}
	keys := ls.keys()
	out := make([]string, len(params))
	for i, p := range params {
		out[i] = cellLabel(p, keys)
	}
	return out
}

// labelSet gathers, one cell at a time, what tells a config's cells
// apart: each parameter's distinct values (two are enough to know that it
// varies) and the sets of parameter names the cells have (a parameter
// some cells lack tells them apart too). It holds no cell, so that a
// comparison of millions of records labels its changes in bounded
// memory.
type labelSet struct {
	values map[string][]string // parameter → up to two distinct label values
	names  map[string][]string // the names of a cell's parameters, joined → the names
}

func (s *labelSet) add(p map[string]any) {
	if s.values == nil {
		s.values, s.names = map[string][]string{}, map[string][]string{}
	}
	names := make([]string, 0, len(p))
	for k, v := range p {
		names = append(names, k)
		if vs := s.values[k]; len(vs) < 2 {
			if lv := labelValue(v); !slices.Contains(vs, lv) {
				s.values[k] = append(vs, lv)
			}
		}
	}
	sort.Strings(names)
	if sig := strings.Join(names, "\x00"); s.names[sig] == nil {
		s.names[sig] = names
	}
}

// keys returns the parameters that tell the cells apart, the method
// first, then by name.
func (s *labelSet) keys() []string {
	var keys []string
	for k, vs := range s.values {
		missing := false
		for _, names := range s.names {
			if !slices.Contains(names, k) {
				missing = true
				break
			}
		}
		if len(vs) > 1 || missing {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if (keys[i] == MethodParam) != (keys[j] == MethodParam) {
			return keys[i] == MethodParam
		}
		return keys[i] < keys[j]
	})
	return keys
}

// cellLabel is the label of a cell with parameters p, keys being those
// that tell the cells apart (labelSet.keys).
func cellLabel(p map[string]any, keys []string) string {
	var parts []string
	for _, k := range keys {
		v, ok := p[k]
		if !ok {
			continue
		}
		parts = append(parts, k+"="+labelValue(v))
	}
	switch {
	case len(parts) > 0:
		return strings.Join(parts, " ")
	case p[MethodParam] != nil:
		return MethodParam + "=" + labelValue(p[MethodParam])
	}
	return "(the one cell)"
}

// labelValue writes a parameter value as a label shows it: numbers in
// their shortest form, everything else as Go prints it.
func labelValue(v any) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		if x == "" || strings.ContainsAny(x, " =") {
			return strconv.Quote(x)
		}
		return x
	}
	return fmt.Sprint(v)
}

// AddedRow is an estimator added on the command line (WithSpec) as pages
// and reports show it: its label, its --with spec as given, the
// parameters the spec and the defaults set, and those it reported it ran
// with, each "name=value" joined by ", ".
type AddedRow struct {
	Label, Spec, Params, Ran string
	// Quoted is Spec quoted for a POSIX shell (ShellQuote).
	Quoted string
}

// AddedRows returns the rows of the estimators with added (those a
// config skipped say why in Ran).
func AddedRows(with []WithSpec) []AddedRow {
	var out []AddedRow
	for _, w := range with {
		r := AddedRow{Label: w.Label, Spec: w.Spec, Quoted: ShellQuote(w.Spec), Params: ParamList(w.Params), Ran: ParamList(w.Ran)}
		switch {
		case w.Skipped != "":
			r.Ran = "skipped in this config: " + w.Skipped
		case r.Ran == "":
			r.Ran = Dash
		}
		if r.Params == "" {
			r.Params = Dash
		}
		out = append(out, r)
	}
	return out
}

// ParamList writes parameters as "name=value" joined by ", ", in name
// order; a list of values (one parameter reported with several) as
// "name=a|b".
func ParamList(p map[string]any) string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		v := p[k]
		if l, ok := v.([]any); ok {
			vs := make([]string, len(l))
			for j, x := range l {
				vs[j] = listValue(x)
			}
			parts[i] = k + "=" + strings.Join(vs, "|")
			continue
		}
		parts[i] = k + "=" + listValue(v)
	}
	return strings.Join(parts, ", ")
}

// ShellQuote quotes s for a POSIX shell: as it is when it holds only
// characters no shell reads specially, else in single quotes (a single
// quote inside written '\”).
func ShellQuote(s string) string {
	safe := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=,+@%", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// listValue writes a parameter value as ParamList shows it: numbers in
// their shortest form, strings as they are ("" for the empty string).
func listValue(v any) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		if x == "" {
			return `""`
		}
		return x
	}
	return fmt.Sprint(v)
}

// Short cuts s to at most n runes on one line (its runs of white space
// made one space), ending a cut text with "…": a statement or a note
// quoted in a table cell.
func Short(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}
