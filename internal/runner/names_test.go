package runner_test

import (
	"context"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/runner"
)

// Claims and reference values naming a parameter, value or estimator the
// grid lacks are validate errors at their line (issue 13): at run time
// they could only be NOT-EVALUATED or match no cell.
func TestValidateRejectsNamesOutsideTheGrid(t *testing.T) {
	for _, tc := range []struct{ old, new, want string }{
		{"where: {c: 1}", "where: {c: 1.5}", "fake.yaml:17: claim draws-positive: where: c: 1.5 is not in the grid (values: 1, 10, 11"},
		{"where: {c: 1}", "where: {width: 1}", `fake.yaml:17: claim draws-positive: where: unknown parameter "width"`},
		{"where: {c: 1}", "where: {method: Mika}", "fake.yaml:17: claim draws-positive: where: method: Mika is not in the grid (values: Mika et al.)"},
		{"where: {c: 1}", "where: {c: [1, 99]}", "where: c: 99 is not in the grid"},
		{"where: {c: 1}", "where: {c: 1}, against: {c: 99}", "fake.yaml:17: claim draws-positive: against: c: 99 is not in the grid"},
		{"type: value, metric: draw, where: {c: 1}, op: \">\", value: 0", "type: trend, metric: draw, along: sigma, direction: increasing", `fake.yaml:17: claim draws-positive: along: unknown parameter "sigma"`},
		{"type: value, metric: draw, where: {c: 1}, op: \">\", value: 0", "type: best, metric: draw, among: method, winner: Tikhonov", "claim draws-positive: winner: Tikhonov is not a value of method"},
	} {
		src := strings.Replace(fakeConfig, tc.old, tc.new, 1)
		_, err := runner.Validate(parse(t, src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.new, err, tc.want)
		}
	}
	ref := fakeConfig + "reference:\n  - {source: s, metric: draw, cell: {c: 2, max_iter: 30}, value: 1}\n"
	if _, err := runner.Validate(parse(t, ref)); err == nil || !strings.Contains(err.Error(), "fake.yaml:19: reference[0].cell: max_iter: 30 is not in the grid (values: 10, 20)") {
		t.Errorf("reference outside the grid: %v", err)
	}
	ok := fakeConfig + "reference:\n  - {source: s, metric: draw, cell: {c: 2, max_iter: 20, method: Mika et al.}, value: 1}\n"
	if _, err := runner.Validate(parse(t, ok)); err != nil {
		t.Errorf("a reference inside the grid: %v", err)
	}
}

// A claim's expectation decides what counts: a failure expected with
// expect: fail is as expected; an unexpected verdict and a claim that
// cannot be evaluated each have their own count (exit statuses 1 and 3),
// also when the claim expects INCONCLUSIVE: not evaluated is not
// inconclusive.
func TestExpectedVerdicts(t *testing.T) {
	claimsOf := func(extra string) *runner.Summary {
		src := strings.Replace(fakeConfig, "claims:\n", "claims:\n"+extra, 1)
		c := parse(t, src)
		c.Outputs.Dir = t.TempDir()
		s, err := runner.Run(context.Background(), c, runner.Options{Workers: 2, CacheDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := claimsOf(`  - id: draws-below-zero
    expect: fail
    because: "draws are uniform on [0, 1)"
    check: {type: value, metric: draw, where: {c: 2}, op: "<", value: 0}
`)
	if s.Unexpected != 0 || s.NotEvaluated != 0 {
		t.Errorf("expected verdicts: %d unexpected, %d not evaluated; want 0, 0: %+v", s.Unexpected, s.NotEvaluated, s.Claims)
	}
	for _, r := range s.Claims {
		if !r.AsExpected {
			t.Errorf("claim %s: %s, expected %s, marked unexpected", r.ID, r.Status, r.Expected)
		}
	}
	if s.Claims[0].Expected != claims.Fail || s.Claims[0].Because == "" {
		t.Errorf("expectations not carried into the results: %+v", s.Claims[0])
	}
	s = claimsOf(`  - id: expected-to-fail-but-holds
    expect: fail
    because: "a test"
    check: {type: value, metric: draw, where: {c: 2}, op: ">", value: 0}
  - id: misspelt-metric
    check: {type: value, metric: drwa, where: {c: 2}, op: ">", value: 0}
  - id: no-such-trend
    expect: inconclusive
    because: "two cells at each c"
    check: {type: trend, metric: draw, along: c, direction: increasing}
`)
	if s.Unexpected != 1 || s.NotEvaluated != 2 {
		t.Errorf("unexpected verdicts: %d unexpected, %d not evaluated; want 1, 2", s.Unexpected, s.NotEvaluated)
	}
	if s.Claims[2].Expected != claims.Inconclusive || s.Claims[2].AsExpected {
		t.Errorf("an expected INCONCLUSIVE that could not be evaluated: %+v", s.Claims[2])
	}
	if s.Failed != failing {
		t.Errorf("%d failed cells, want %d", s.Failed, failing)
	}
}

// MetricNames matches names exactly and patterns with each * standing for
// any run of characters, the empty one included.
func TestMetricNamesMatch(t *testing.T) {
	n := runner.MetricNames{"mse_mean", "diag_*_mean", "err_*", "*_raw", "a*b*c"}
	for name, want := range map[string]bool{
		"mse_mean": true, "mse_mea": false, "mse_mean_": false,
		"diag_iter_mean": true, "diag__mean": true, "diag_mean": false, "diag_x_mean_y": false,
		"err_": true, "err_p0.3": true, "er": false,
		"mse_raw": true, "_raw": true, "raw": false,
		"abc": true, "axxbyyc": true, "acb": false, "abcbc": true, "abcb": false,
	} {
		if got := n.Match(name); got != want {
			t.Errorf("Match(%q) = %v, want %v", name, got, want)
		}
	}
	if (runner.MetricNames{}).Match("") || (runner.MetricNames(nil)).Match("x") {
		t.Error("no names match something")
	}
}
