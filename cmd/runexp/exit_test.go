package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/runner"
)

func TestExitPrecedence(t *testing.T) {
	// docs/exit-status.md: 130, 2, 4, 3, 1, 0.
	order := []int{exitOK, exitClaim, exitIncomplete, exitCrash, exitUsage, exitInterrupted}
	for i, a := range order {
		for j, b := range order {
			want := a
			if j > i {
				want = b
			}
			if got := worse(a, b); got != want {
				t.Errorf("worse(%d, %d) = %d, want %d", a, b, got, want)
			}
		}
	}
	for _, tc := range []struct {
		s    runner.Summary
		want int
	}{
		{runner.Summary{}, exitOK},
		{runner.Summary{Unexpected: 2}, exitClaim},
		{runner.Summary{Unexpected: 1, NotEvaluated: 1}, exitIncomplete},
		{runner.Summary{Failed: 1}, exitIncomplete},
		{runner.Summary{Failed: 1, Crashed: 1, Unexpected: 1}, exitCrash},
	} {
		if got := summaryStatus(&tc.s); got != tc.want {
			t.Errorf("%+v: status %d, want %d", tc.s, got, tc.want)
		}
	}
}

// writeTiny writes the tiny two-estimator config with extra claims.
func writeTiny(t *testing.T, dir, claims string) string {
	t.Helper()
	f := filepath.Join(dir, "tiny.yaml")
	if err := os.WriteFile(f, []byte(tinyConfig+claims), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestRunExitStatus(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	for _, tc := range []struct {
		name, claims, stdout string
		want                 int
	}{
		{"as expected", "", "1 passed, 0 failed, 0 inconclusive, 0 not evaluated; 1 as expected", exitOK},
		{"expected failure", `  - id: hr-better-than-mika
    expect: fail
    because: "HR's median MSE 0.00113 against Mika's 0.00078 in this test's first run"
    check: {type: compare, metric: mse_median, left: {method: HR}, op: "<", right: {method: Mika}, for_all: [c]}
`, "1 passed, 1 failed, 0 inconclusive, 0 not evaluated; 2 as expected", exitOK},
		{"unexpected failure", `  - id: hr-better-than-mika
    check: {type: compare, metric: mse_median, left: {method: HR}, op: "<", right: {method: Mika}, for_all: [c]}
`, "tiny: claim hr-better-than-mika: FAIL, expected PASS", exitClaim},
		{"claim not evaluated", `  - id: which-trend
    check: {type: trend, metric: mse_median, along: c, direction: increasing}
`, "0 failed, 0 inconclusive, 1 not evaluated", exitIncomplete},
		// A claim that expects INCONCLUSIVE but could not be judged is
		// not evaluated, not inconclusive: the run is incomplete.
		{"expected inconclusive not evaluated", `  - id: which-trend
    expect: inconclusive
    because: "two methods at each c: the trend is undefined without grouping"
    check: {type: trend, metric: mse_median, along: c, direction: increasing}
`, "1 not evaluated; 1 as expected", exitIncomplete},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			code, stdout, stderr := runCLI("--out", filepath.Join(dir, "out"), "-j", "2", writeTiny(t, dir, tc.claims))
			if code != tc.want || !strings.Contains(stdout, tc.stdout) {
				t.Errorf("exit %d, want %d; stdout lacks %q?\n%s%s", code, tc.want, tc.stdout, stdout, stderr)
			}
		})
	}
}

// Shards of a config edited between them: merge exits 2 saying why.
func TestMergeRefusesShardsOfTwoConfigs(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	f := writeTiny(t, dir, "")
	if code, _, stderr := runCLI("--out", out, "--shard", "0/2", f); code != exitOK {
		t.Fatalf("shard 0: exit %d: %s", code, stderr)
	}
	os.WriteFile(f, []byte(strings.Replace(tinyConfig, "std: 0.1", "std: 0.3", 1)), 0o644)
	if code, _, stderr := runCLI("--out", out, "--shard", "1/2", f); code != exitOK {
		t.Fatalf("shard 1: exit %d: %s", code, stderr)
	}
	code, _, stderr := runCLI("merge", "--out", out, f)
	if code != exitUsage || !strings.Contains(stderr, "shards disagree on the config") {
		t.Errorf("merge of two configs' shards: exit %d, %s", code, stderr)
	}
	// Rerun shard 0 with the edited config: the shards agree, but
	// merging them under the original config is refused.
	runCLI("--out", out, "--shard", "0/2", f)
	// (exit 1: at noise 0.3 the claim hr-mse fails, unexpectedly.)
	if code, stdout, stderr := runCLI("merge", "--out", out, f); code != exitClaim || !strings.Contains(stdout, "merged 4 cells") {
		t.Errorf("merge of one config's shards: exit %d, %s%s", code, stdout, stderr)
	}
	os.WriteFile(f, []byte(tinyConfig), 0o644)
	code, _, stderr = runCLI("merge", "--out", out, f)
	if code != exitUsage || !strings.Contains(stderr, "the config changed since") {
		t.Errorf("merge under another config: exit %d, %s", code, stderr)
	}
}

func TestSuiteUsageErrors(t *testing.T) {
	dir := t.TempDir()
	writeTiny(t, dir, "")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"suite", "--configs", dir, "--only", "nothing-*"}, "matches none of the 1 configs"},
		{[]string{"suite", "--configs", filepath.Join(dir, "missing")}, "no configs in"},
		{[]string{"suite", "--configs", dir, "--baseline", filepath.Join(dir, "nope")}, "not a directory"},
		{[]string{"suite", "--configs", dir, "absent"}, "absent.yaml"},
	} {
		code, _, stderr := runCLI(tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
}
