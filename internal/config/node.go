package config

import (
	"fmt"
	"iter"
	"math"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Error is a config problem at a file and line.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	msg := cutMessage(e.Msg)
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, msg)
	}
	return fmt.Sprintf("%s: %s", e.File, msg)
}

// maxExactInt is the largest integer every float64 conversion keeps exact.
const maxExactInt = 1 << 53

// walker decodes yaml nodes by hand so every error has a line number and
// says what was expected.
type walker struct {
	file string
	// nodes counts the nodes value has visited, aliases expanded, against
	// MaxNodes.
	nodes int
}

// yamlError turns a parser error into FILE:LINE: form.
func yamlError(file string, err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	var line int
	if n, _ := fmt.Sscanf(msg, "line %d:", &line); n == 1 {
		if i := strings.Index(msg, ":"); i >= 0 {
			msg = strings.TrimSpace(msg[i+1:])
		}
		return &Error{File: file, Line: line, Msg: "not valid YAML: " + msg}
	}
	return &Error{File: file, Msg: "not valid YAML: " + msg}
}

func (w *walker) errf(n *yaml.Node, format string, args ...any) error {
	line := 0
	if n != nil {
		line = n.Line
	}
	return &Error{File: w.file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// entries yields a mapping node's keys and values in order.
func entries(n *yaml.Node) iter.Seq2[*yaml.Node, *yaml.Node] {
	return func(yield func(k, v *yaml.Node) bool) {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if !yield(n.Content[i], n.Content[i+1]) {
				return
			}
		}
	}
}

// fields reads a mapping node, rejecting keys not in allowed (nil allows
// any) and duplicates. It returns key → value node and key → key node.
func (w *walker) fields(n *yaml.Node, what string, allowed ...string) (map[string]*yaml.Node, map[string]*yaml.Node, error) {
	if n.Kind != yaml.MappingNode {
		return nil, nil, w.errf(n, "%s: want a mapping (key: value lines), got %s", what, describe(n))
	}
	vals := map[string]*yaml.Node{}
	keys := map[string]*yaml.Node{}
	for k, v := range entries(n) {
		if k.Kind != yaml.ScalarNode {
			return nil, nil, w.errf(k, "%s: keys must be plain names", what)
		}
		if _, dup := vals[k.Value]; dup {
			return nil, nil, w.errf(k, "%s: key %s appears twice", what, Quote(k.Value))
		}
		if allowed != nil && !contains(allowed, k.Value) {
			return nil, nil, w.errf(k, "%s: unknown key %s (expected one of: %s)", what, Quote(k.Value), strings.Join(allowed, ", "))
		}
		vals[k.Value] = v
		keys[k.Value] = k
	}
	return vals, keys, nil
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "nothing"
		case "!!str":
			return "the string " + Quote(n.Value)
		}
		return fmt.Sprintf("%s", n.Value)
	}
	return "an unknown node"
}

func (w *walker) str(n *yaml.Node, what string) (string, error) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return "", w.errf(n, "%s: want a string, got %s", what, describe(n))
	}
	return n.Value, nil
}

func (w *walker) float(n *yaml.Node, what string) (float64, error) {
	if n.Kind == yaml.ScalarNode && (n.Tag == "!!int" || n.Tag == "!!float") {
		var f float64
		if err := n.Decode(&f); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
			return f, nil
		}
	}
	return 0, w.errf(n, "%s: want a number, got %s", what, describe(n))
}

func (w *walker) int(n *yaml.Node, what string) (int, error) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!int" {
		var i int
		if err := n.Decode(&i); err == nil {
			return i, nil
		}
	}
	return 0, w.errf(n, "%s: want an integer, got %s", what, describe(n))
}

// floatList reads a number or a list of numbers (a grid axis), each
// passing ok; want says what ok accepts.
func (w *walker) floatList(n *yaml.Node, what string, ok func(float64) bool, want string) ([]float64, error) {
	return scalarList(w, n, what, w.float, ok, want)
}

// intList reads an integer or a list of integers, each at least min.
func (w *walker) intList(n *yaml.Node, what string, min int) ([]int, error) {
	return scalarList(w, n, what, w.int, func(v int) bool { return v >= min }, fmt.Sprintf("an integer ≥ %d", min))
}

// scalarList reads one scalar or a non-empty list of them, each by read
// and passing ok; want says what ok accepts.
func scalarList[T int | float64](w *walker, n *yaml.Node, what string, read func(*yaml.Node, string) (T, error), ok func(T) bool, want string) ([]T, error) {
	items := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		if len(n.Content) == 0 {
			return nil, w.errf(n, "%s: empty list", what)
		}
		items = n.Content
	}
	out := make([]T, len(items))
	for i, it := range items {
		v, err := read(it, what)
		if err != nil {
			return nil, err
		}
		if !ok(v) {
			return nil, w.errf(it, "%s: %v is impossible, want %s", what, v, want)
		}
		out[i] = v
	}
	return out, nil
}

// value converts a node to plain Go values: int, float64, string, bool, nil,
// []any or map[string]any.
func (w *walker) value(n *yaml.Node, what string) (any, error) {
	w.nodes++
	if w.nodes > MaxNodes {
		return nil, w.errf(n, "%s: the config expands to more than %d YAML nodes (nested aliases?); a config this large is refused before it is built", what, MaxNodes)
	}
	switch n.Kind {
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return nil, nil
		case "!!bool":
			b, err := strconv.ParseBool(n.Value)
			if err != nil {
				var v bool
				if err := n.Decode(&v); err != nil {
					return nil, w.errf(n, "%s: bad boolean %s", what, Quote(n.Value))
				}
				return v, nil
			}
			return b, nil
		case "!!int":
			var i int
			if err := n.Decode(&i); err != nil || i > maxExactInt || i < -maxExactInt {
				// Beyond 2^53 an integer does not survive the float64
				// a number parameter passes through: 2^63−1 would come
				// back as −2^63.
				return nil, w.errf(n, "%s: integer %s out of range (want |n| ≤ 2^53)", what, n.Value)
			}
			return i, nil
		case "!!float":
			var f float64
			if err := n.Decode(&f); err != nil {
				return nil, w.errf(n, "%s: bad number %s", what, Quote(n.Value))
			}
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, w.errf(n, "%s: %s is not a finite number", what, n.Value)
			}
			return f, nil
		default:
			return n.Value, nil
		}
	case yaml.SequenceNode:
		out := make([]any, len(n.Content))
		for i, c := range n.Content {
			v, err := w.value(c, what)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case yaml.MappingNode:
		vals, _, err := w.fields(n, what)
		if err != nil {
			return nil, err
		}
		out := make(map[string]any, len(vals))
		for k, c := range vals {
			v, err := w.value(c, what+"."+k)
			if err != nil {
				return nil, err
			}
			out[k] = v
		}
		return out, nil
	case yaml.AliasNode:
		return w.value(n.Alias, what)
	}
	return nil, w.errf(n, "%s: unsupported YAML node", what)
}

// Section is a free-form mapping whose keys are checked by its consumer (a
// dataset, an experiment kind, an estimator); it remembers lines so the
// consumer's complaints still point into the file.
type Section struct {
	Values map[string]any
	file   string
	line   int
	lines  map[string]int
}

func (w *walker) section(n *yaml.Node, what string) (Section, error) {
	s := Section{Values: map[string]any{}, file: w.file, line: n.Line, lines: map[string]int{}}
	vals, keys, err := w.fields(n, what)
	if err != nil {
		return s, err
	}
	for k, v := range vals {
		x, err := w.value(v, what+"."+k)
		if err != nil {
			return s, err
		}
		s.Values[k] = x
		s.lines[k] = keys[k].Line
	}
	return s, nil
}

// Keys returns the section's keys, sorted.
func (s Section) Keys() []string {
	k := make([]string, 0, len(s.Values))
	for x := range s.Values {
		k = append(k, x)
	}
	sort.Strings(k)
	return k
}

// Line returns the line of key in the file, or the section's line when
// the key is absent.
func (s Section) Line(key string) int {
	if l, ok := s.lines[key]; ok {
		return l
	}
	return s.line
}

// Has reports whether key is set.
func (s Section) Has(key string) bool { _, ok := s.Values[key]; return ok }

// Errorf returns an error placed at key's line (or the section's when the
// key is absent).
func (s Section) Errorf(key, format string, args ...any) error {
	line, ok := s.lines[key]
	if !ok {
		line = s.line
	}
	return &Error{File: s.file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// Reader returns a typed accessor that records the first error and the
// keys it has consumed, so a consumer can reject the keys it did not read.
func (s Section) Reader(what string) *Reader {
	return &Reader{s: s, what: what, used: map[string]bool{}}
}

// Reader reads typed values from a Section, checking types and ranges.
type Reader struct {
	s    Section
	what string
	used map[string]bool
	err  error
}

func (r *Reader) fail(key, format string, args ...any) {
	if r.err == nil {
		r.err = r.s.Errorf(key, "%s.%s: %s", r.what, key, fmt.Sprintf(format, args...))
	}
}

// Number returns a number of a config, or of a record's parameters, as a
// float64: YAML and JSON give integral numbers as int. ok is false for
// anything else.
func Number(v any) (f float64, ok bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	}
	return 0, false
}

// value marks key as read and returns its value, if present.
func (r *Reader) value(key string) (any, bool) {
	r.used[key] = true
	v, present := r.s.Values[key]
	return v, present
}

// typed reads key as a T: def and false when it is absent, or when it is
// not a T, which is recorded as an error saying it should be want.
func typed[T any](r *Reader, key string, def T, want string) (T, bool) {
	v, present := r.value(key)
	if !present {
		return def, false
	}
	x, ok := v.(T)
	if !ok {
		r.fail(key, "want %s, got %v", want, v)
		return def, false
	}
	return x, true
}

// Float reads a number, def when absent; ok checks the range described by
// want.
func (r *Reader) Float(key string, def float64, ok func(float64) bool, want string) float64 {
	v, present := r.value(key)
	if !present {
		return def
	}
	f, isNum := Number(v)
	if !isNum {
		r.fail(key, "want a number (%s), got %v", want, v)
		return def
	}
	if ok != nil && !ok(f) {
		r.fail(key, "%v is impossible, want %s", f, want)
	}
	return f
}

// Int reads an integer ≥ min, def when absent.
func (r *Reader) Int(key string, def, min int) int {
	i, ok := typed(r, key, def, fmt.Sprintf("an integer ≥ %d", min))
	if ok && i < min {
		r.fail(key, "%d is impossible, want an integer ≥ %d", i, min)
	}
	return i
}

// IntIn reads an integer in [min, max], def when absent: for counts
// that size something (figure columns), so a huge one fails here instead
// of allocating.
func (r *Reader) IntIn(key string, def, min, max int) int {
	i := r.Int(key, def, min)
	if i > max {
		r.fail(key, "%d is too large, want an integer in [%d, %d]", i, min, max)
	}
	return i
}

// String reads a string, def when absent; enum (if any) lists allowed
// values.
func (r *Reader) String(key, def string, enum ...string) string {
	s, ok := typed(r, key, def, "a string")
	if ok && len(enum) > 0 && !contains(enum, s) {
		r.fail(key, "want one of %s, got %s", strings.Join(enum, ", "), Quote(s))
	}
	return s
}

// Floats reads a list of numbers of length n (n < 0: any length ≥ 1), def
// when absent.
func (r *Reader) Floats(key string, def []float64, n int) []float64 {
	v, present := r.value(key)
	if !present {
		return def
	}
	l, ok := v.([]any)
	if !ok {
		l = []any{v}
	}
	if (n >= 0 && len(l) != n) || len(l) == 0 {
		if n < 0 {
			r.fail(key, "want a list of numbers, got %v", v)
		} else {
			r.fail(key, "want a list of %d numbers, got %v", n, v)
		}
		return def
	}
	out := make([]float64, len(l))
	for i, x := range l {
		var isNum bool
		if out[i], isNum = Number(x); !isNum {
			r.fail(key, "want numbers, got %v", x)
			return def
		}
	}
	return out
}

// Bool reads a boolean, def when absent (or when not a boolean, the error
// recorded).
func (r *Reader) Bool(key string, def bool) bool {
	b, _ := typed(r, key, def, "true or false")
	return b
}

// Err returns the first error, or an error for the first key no accessor
// asked for.
func (r *Reader) Err() error {
	if r.err != nil {
		return r.err
	}
	for _, k := range r.s.Keys() {
		if !r.used[k] {
			var known []string
			for u := range r.used {
				known = append(known, u)
			}
			sort.Strings(known)
			return r.s.Errorf(k, "%s: unknown key %s (expected one of: %s)", r.what, Quote(k), strings.Join(known, ", "))
		}
	}
	return nil
}

// Touch marks key as read by a consumer that decodes it itself.
func (r *Reader) Touch(key string) { r.used[key] = true }

// Fail records an error at key unless one is already recorded.
func (r *Reader) Fail(key, format string, args ...any) { r.fail(key, format, args...) }
