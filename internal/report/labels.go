package report

import (
	"fmt"
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
	values := map[string]map[string]bool{}
	for _, p := range params {
		for k, v := range p {
			if values[k] == nil {
				values[k] = map[string]bool{}
			}
			values[k][labelValue(v)] = true
		}
	}
	var keys []string
	for k, vs := range values {
		// A parameter some cells lack tells them apart too.
		missing := false
		for _, p := range params {
			if _, ok := p[k]; !ok {
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
	out := make([]string, len(params))
	for i, p := range params {
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
			out[i] = strings.Join(parts, " ")
		case p[MethodParam] != nil:
			out[i] = MethodParam + "=" + labelValue(p[MethodParam])
		default:
			out[i] = "(the one cell)"
		}
	}
	return out
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
