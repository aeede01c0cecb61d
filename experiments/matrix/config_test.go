package matrix

import (
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/runner"
)

const head = `title: t
paper: p
kind: matrix
dataset: {name: synthetic-images, width: 4, height: 4}
`

const bench = `    - {name: b, corruption: {type: gaussian, std: 0.1}, range: [0, 1], c: 2, components: 3}
`

// all_estimators adds every registered de-noiser or pre-imager with its
// defaults, except the excluded ones and those the config lists already.
func TestAllEstimators(t *testing.T) {
	src := head + "methods:\n  - {name: mika, params: {max_iter: 5}}\nexperiment:\n  all_estimators: true\n  benchmarks:\n" + bench
	c, err := config.Parse("m.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	plan, err := runner.Validate(c)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, cell := range plan.Cells {
		got[cell.Method.Spec.Name]++
	}
	for _, s := range methods.All() {
		want := 1
		excluded := false
		for _, x := range defaultExclude {
			excluded = excluded || x == s.Name
		}
		if excluded || !s.Can(methods.Denoises) {
			want = 0
		}
		if got[s.Name] != want {
			t.Errorf("%s: %d cells, want %d", s.Name, got[s.Name], want)
		}
	}
	if got["external"] != 0 || got["impute-mean"] != 0 {
		t.Errorf("external or a mask-only imputer entered: %v", got)
	}
	for _, cell := range plan.Cells {
		if cell.Method.Spec.Name == "mika" && cell.Method.Params.Int("max_iter") != 5 {
			t.Errorf("the config's mika entry was replaced by the default one")
		}
	}
	// Validating again adds nothing.
	n := len(c.Methods)
	if _, err := runner.Validate(c); err != nil || len(c.Methods) != n {
		t.Errorf("second validation: %d methods, want %d (%v)", len(c.Methods), n, err)
	}
}

func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"experiment:\n  benchmarks:\n" + bench, "list estimators"},
		{"methods: [{name: identity}]\nexperiment: {}\n", "want a list of benchmarks"},
		{"methods: [{name: identity}]\nexperiment:\n  benchmarks: [1]\n", "want a mapping"},
		{"methods: [{name: identity}]\nexperiment:\n  benchmarks:\n" + bench + bench, "used twice"},
		{"methods: [{name: identity}]\nexperiment:\n  benchmarks:\n    - {name: B, corruption: {type: gaussian, std: 0.1}, range: [0, 1], c: 2, components: 3}\n", "lower-case"},
		{"methods: [{name: identity}]\nexperiment:\n  benchmarks:\n    - {name: b, corruption: {type: gaussian, std: 0.1}, range: [1, 0], c: 2, components: 3}\n", "hi > lo"},
		{"methods: [{name: identity}]\nexperiment:\n  benchmarks:\n    - {name: b, corruption: {type: gaussian, std: 0.1}, range: [0, 1], c: 2, components: 3, energy: 0.9}\n", "exactly one of components"},
		{"methods: [{name: identity}]\nexperiment:\n  benchmarks:\n    - {name: b, corruption: {type: gaussian, std: 0.1}, range: [0, 1], c: 2, gamma: 1, components: 3}\n", "exactly one Gaussian width"},
		{"methods: [{name: identity}]\nexperiment:\n  benchmarks:\n    - {name: b, corruption: {type: gaussian, std: 0.1}, range: [0, 1], c: wide, components: 3}\n", "sigma: mean-distance"},
		{"methods: [{name: identity}]\nexperiment:\n  benchmarks:\n    - {name: b, corruption: {type: gaussian, std: 0.1}, range: [0, 1], c: -1, components: 3}\n", "b: "},
		{"methods: [{name: identity}]\nexperiment:\n  benchmarks:\n    - {name: b, corruption: {type: blur}, range: [0, 1], c: 2, components: 3}\n", "want one of"},
		{"methods: [{name: identity}]\nexperiment:\n  benchmarks:\n    - {name: b, corruption: {type: gaussian}, range: [0, 1], c: 2, components: 3}\n", "std: missing"},
		{"methods: [{name: identity}]\nexperiment:\n  benchmarks:\n    - {name: b, corruption: gaussian, range: [0, 1], c: 2, components: 3}\n", "want a mapping with a type"},
		{"methods: [{name: identity}]\nexperiment:\n  benchmarks:\n    - {name: b, dataset: {name: nope}, corruption: {type: gaussian, std: 0.1}, range: [0, 1], c: 2, components: 3}\n", "unknown dataset"},
		{"methods: [{name: identity}]\nexperiment:\n  benchmarks:\n    - {name: b, dataset: {name: synthetic-images, colour: red}, corruption: {type: gaussian, std: 0.1}, range: [0, 1], c: 2, components: 3}\n", "colour"},
		{"methods: [{name: identity}]\nexperiment:\n  benchmarks:\n    - {name: b, extra: 1, corruption: {type: gaussian, std: 0.1}, range: [0, 1], c: 2, components: 3}\n", "unknown key"},
		{"methods: [{name: identity}]\nexperiment:\n  exclude: external\n  benchmarks:\n" + bench, "want a list of estimator names"},
		{"methods: [{name: identity}]\nexperiment:\n  exclude: [1]\n  benchmarks:\n" + bench, "not an estimator name"},
		{"methods: [{name: identity}]\nmodel: {kernel: gaussian, c: 2, components: 3}\nexperiment:\n  benchmarks:\n" + bench, "not in model"},
		{"methods: [{name: identity}]\nexperiment:\n  method_test: 3\n  benchmarks:\n" + bench, "want {estimator"},
		{"methods: [{name: identity}]\nexperiment:\n  method_test: {mika: 1}\n  benchmarks:\n" + bench, "integer ≥ 2"},
		{"methods: [{name: impute-mean}, {name: identity}]\nexperiment:\n  level: 2\n  benchmarks:\n" + bench, "level"},
	} {
		c, err := config.Parse("m.yaml", []byte(head+tc.body))
		if err == nil {
			_, err = runner.Validate(c)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one containing %q", tc.body, err, tc.want)
		}
	}
}

// An occlusion that does not fit the images fails at start with the
// benchmark's name; black occlusions and exclude lists parse.
func TestStartErrors(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	src := head + "methods: [{name: identity}]\nexperiment:\n  exclude: [external]\n  benchmarks:\n" +
		"    - {name: big, corruption: {type: black-occlusion, min_side: 5, max_side: 9, stretch: true}, range: [0, 1], c: 2, components: 3}\n"
	c, err := config.Parse("m.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	plan, err := runner.Validate(c)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plan.Start(runner.NewEnv(c, "", nil)); err == nil || !strings.Contains(err.Error(), "benchmark big") {
		t.Errorf("start: %v, want an error naming benchmark big", err)
	}
}

// A claim or reference value naming a metric no benchmark of the config
// records is refused at its line, with the declared name it is closest to
// (metricNames): mse_c where the benchmark is b.
func TestUndeclaredMetricRefused(t *testing.T) {
	body := "methods: [{name: identity}]\nexperiment:\n  benchmarks:\n" + bench
	for _, tc := range []struct{ extra, want string }{
		{"claims:\n  - id: typo\n    check: {type: value, metric: mse_c, where: {method: Base Line}, op: \"<\", value: 1}\n",
			`m.yaml:11: claim typo: metric: "mse_c" is not a metric this experiment records; did you mean mse_b?`},
		{"reference:\n  - {source: s, metric: failed_c, cell: {method: Base Line}, value: 0}\n",
			`m.yaml:10: reference[0]: metric "failed_c" is not a metric this experiment records; did you mean failed_b?`},
	} {
		c, err := config.Parse("m.yaml", []byte(head+body+tc.extra))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := runner.Validate(c); err == nil || err.Error() != tc.want {
			t.Errorf("error %v, want %s", err, tc.want)
		}
	}
	c, err := config.Parse("m.yaml", []byte(head+body+"claims:\n  - id: ok\n    check: {type: value, metric: mse_b, where: {method: Base Line}, op: \"<\", value: 1}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runner.Validate(c); err != nil {
		t.Errorf("a claim on mse_b: %v", err)
	}
}
