package config

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

func sqrt(v float64) float64 { return math.Sqrt(v) }

// ModelPoint is one point of the model grid.
type ModelPoint struct {
	Kernel    string
	WidthName string  // "c", "gamma", "sigma" or ""
	Width     float64 // in the WidthName parameterisation
	Degree    int
	Offset    float64
	// Components is the PC count, or 0 when Energy is used instead.
	Components int
	// Energy is the eigenvalue fraction, or 0 when Components is used.
	Energy float64
}

// Params returns the point's grid values as a flat map (for keys, records
// and reference selection).
func (p ModelPoint) Params() map[string]any {
	m := map[string]any{}
	if p.Kernel != "" {
		m["kernel"] = p.Kernel
	}
	if p.WidthName != "" {
		m[p.WidthName] = p.Width
	}
	if p.Kernel == "polynomial" {
		m["degree"] = p.Degree
		m["offset"] = p.Offset
	}
	if p.Components > 0 {
		m["components"] = p.Components
	}
	if p.Energy > 0 {
		m["energy"] = p.Energy
	}
	return m
}

// ModelGrid expands the model section into its points: widths × subspace
// sizes, in the order written.
func (c *Config) ModelGrid() []ModelPoint {
	m := c.Model
	widths := m.Widths
	if len(widths) == 0 {
		widths = []float64{0}
	}
	type size struct {
		q int
		e float64
	}
	var sizes []size
	for _, q := range m.Components {
		sizes = append(sizes, size{q: q})
	}
	for _, e := range m.Energy {
		sizes = append(sizes, size{e: e})
	}
	if len(sizes) == 0 {
		sizes = []size{{}}
	}
	var out []ModelPoint
	for _, w := range widths {
		for _, s := range sizes {
			p := ModelPoint{Kernel: m.Kernel, Degree: m.Degree, Offset: m.Offset, Components: s.q, Energy: s.e}
			if m.WidthName != "" {
				p.WidthName, p.Width = m.WidthName, w
			}
			out = append(out, p)
		}
	}
	return out
}

// MethodPoint is one point of a method's parameter grid, with raw values.
type MethodPoint struct {
	// Index is the method's position in the config's methods list.
	Index  int
	Name   string
	Label  string
	Params map[string]any
}

// Expand returns the cartesian product of the list-valued parameters of m:
// keys in sorted order, the last key varying fastest, and each list's
// values in the order written.
func (m Method) Expand(index int) []MethodPoint {
	keys := m.Params.Keys()
	points := []map[string]any{{}}
	for _, k := range keys {
		vals, ok := m.Params.Values[k].([]any)
		if !ok {
			vals = []any{m.Params.Values[k]}
		}
		var next []map[string]any
		for _, p := range points {
			for _, v := range vals {
				q := make(map[string]any, len(p)+1)
				for a, b := range p {
					q[a] = b
				}
				q[k] = v
				next = append(next, q)
			}
		}
		points = next
	}
	out := make([]MethodPoint, len(points))
	for i, p := range points {
		out[i] = MethodPoint{Index: index, Name: m.Name, Label: m.Label, Params: p}
	}
	return out
}

// CanonicalKey renders a flat parameter map as a string that does not
// depend on key order or on how numbers were written: keys sorted, floats
// in Go's shortest round-trip form, integers as integers.
func CanonicalKey(params map[string]any) string {
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(FormatValue(params[k]))
	}
	return b.String()
}

// FormatValue renders a parameter value canonically. Integral numbers
// print as integers whether they were written 1 or 1.0 (and −0 as 0);
// strings that would read as another type, or that hold separators or
// spaces, are quoted, so "1" and 1, or ["a b"] and [a, b], stay distinct.
func FormatValue(v any) string { return formatValue(v, false) }

// formatValue quotes strings with spaces only inside lists, where a space
// separates elements; at the top level "Mika et al." reads unambiguously.
func formatValue(v any, inList bool) string {
	switch x := v.(type) {
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e18 {
			return strconv.FormatInt(int64(x), 10)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case int:
		return strconv.Itoa(x)
	case string:
		if needsQuote(x) || (inList && strings.ContainsAny(x, " \t")) {
			return strconv.Quote(x)
		}
		return x
	case bool:
		return strconv.FormatBool(x)
	case nil:
		return "null"
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = formatValue(e, true)
		}
		return "[" + strings.Join(parts, " ") + "]"
	case map[string]any:
		return "{" + CanonicalKey(x) + "}"
	}
	return fmt.Sprint(v)
}

func needsQuote(s string) bool {
	if s == "" || s == "null" || strings.ContainsAny(s, ",=[]{}\"") {
		return true
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return true
	}
	_, err := strconv.ParseBool(s)
	return err == nil
}
