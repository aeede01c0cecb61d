package codefp

import (
	"slices"
	"testing"
	"testing/fstest"
)

// metricsOf returns the metric names of the one-file package whose body
// (after a rec type with a Metrics map) is body, at path.
func metricsOf(t *testing.T, path, body string) *MetricNames {
	t.Helper()
	fsys := fstest.MapFS{path: {Data: []byte("package k\n\nimport \"fmt\"\n\nvar _ = fmt.Sprint\n\ntype rec struct{ Metrics map[string]float64 }\n\n" + body + "\n")}}
	ix, err := New(fsys, mod, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := ix.Metrics(path)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestMetricNamesLiteralMap checks a Metrics map assigned whole from a
// literal: its keys are the names, and a literal key with a computed part
// is a pattern.
func TestMetricNamesLiteralMap(t *testing.T) {
	m := metricsOf(t, "experiments/k/k.go", `func f(r *rec, s string) {
	r.Metrics = map[string]float64{"mse": 1, "ape_" + s: 2}
}`)
	if m.Open {
		t.Fatalf("open (%s)", m.Why)
	}
	if want := []string{"mse", "ape_*"}; !slices.Equal(m.Patterns, want) {
		t.Errorf("patterns %q, want %q", m.Patterns, want)
	}
	for name, want := range map[string]bool{"mse": true, "ape_": true, "ape_x": true, "mse2": false, "xmse": false} {
		if m.Match(name) != want {
			t.Errorf("Match(%q) = %t, want %t", name, !want, want)
		}
	}
}

// TestMetricNamesOpening checks the writes that cannot be read as
// patterns: each opens the set (any name matches), and Why names the
// file and line of the first such write, so a user of `runexp validate`
// can see why a misspelt metric was let through.
func TestMetricNamesOpening(t *testing.T) {
	for _, tc := range []struct {
		name, body, why string
	}{
		{"assigned from a call", "func f(r *rec) {\n\tr.Metrics = map[string]float64{}\n\tr.Metrics = g()\n}\nfunc g() map[string]float64 { return nil }", "experiments/k/k.go:11:2"},
		{"two values from one call", "func f(r *rec) {\n\tvar n int\n\tr.Metrics, n = g()\n\t_ = n\n}\nfunc g() (map[string]float64, int) { return nil, 0 }", "experiments/k/k.go:11:2"},
		{"a key all wildcard", "func f(r *rec, a, b string) {\n\tr.Metrics[a+b] = 1\n}", "experiments/k/k.go:10:2"},
		{"Sprintf of a non-literal format", "func f(r *rec, format string) {\n\tr.Metrics[fmt.Sprintf(format, 1)] = 1\n}", "experiments/k/k.go:10:2"},
	} {
		m := metricsOf(t, "experiments/k/k.go", tc.body)
		if !m.Open || !m.Match("anything_at_all") {
			t.Errorf("%s: not open (patterns %q)", tc.name, m.Patterns)
			continue
		}
		if m.Why != tc.why {
			t.Errorf("%s: Why = %q, want %q", tc.name, m.Why, tc.why)
		}
	}
}

// TestMetricNamesReadsDoNotOpen checks that reading the map (len, delete,
// an index on the right) is not a write: the set stays closed.
func TestMetricNamesReadsDoNotOpen(t *testing.T) {
	m := metricsOf(t, "experiments/k/k.go", `func f(r *rec) int {
	r.Metrics["a"] = 1
	delete(r.Metrics, "a")
	x := r.Metrics["b"]
	_ = x
	return len(r.Metrics)
}`)
	if m.Open {
		t.Errorf("open by a read (%s)", m.Why)
	}
	if !slices.Equal(m.Patterns, []string{"a"}) {
		t.Errorf("patterns %q, want [a]", m.Patterns)
	}
}

// TestMetricNamesSprintfVerbs checks the format verbs Sprintf keys use:
// each verb, with its flags and width, is one wildcard ("err_%.2f_%03d"
// → "err_*_*"), and a literal "*" is dropped from a key, so that it
// cannot act as a wildcard.
func TestMetricNamesSprintfVerbs(t *testing.T) {
	m := metricsOf(t, "experiments/k/k.go", `func f(r *rec, x float64, n int) {
	r.Metrics[fmt.Sprintf("err_%.2f_%03d", x, n)] = 1
	r.Metrics[fmt.Sprintf("q%v", n)+"_mean"] = 1
	r.Metrics["star*name"] = 1
}`)
	if m.Open {
		t.Fatalf("open (%s)", m.Why)
	}
	if want := []string{"err_*_*", "q*_mean", "starname"}; !slices.Equal(m.Patterns, want) {
		t.Errorf("patterns %q, want %q", m.Patterns, want)
	}
	for name, want := range map[string]bool{"err_0.10_003": true, "err_": false, "q5_mean": true, "q5_std": false, "starname": true, "star*name": false} {
		if m.Match(name) != want {
			t.Errorf("Match(%q) = %t, want %t", name, !want, want)
		}
	}
}

// TestMetricNamesOnlyExperiments checks that only the experiments write
// records: the same writes outside experiments/ (internal/report decodes
// records into the map) give no pattern and do not open the set.
func TestMetricNamesOnlyExperiments(t *testing.T) {
	m := metricsOf(t, "internal/report/r.go", "func f(r *rec, k string) {\n\tr.Metrics[k] = 1\n\tr.Metrics[\"x\"] = 2\n}")
	if m.Open || len(m.Patterns) != 0 || m.Match("x") {
		t.Errorf("outside experiments/: open %t, patterns %q", m.Open, m.Patterns)
	}
}
