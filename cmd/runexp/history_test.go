package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp"
	"github.com/runexp/runexp/internal/codefp/codefptest"
	"github.com/runexp/runexp/internal/runner"
)

// TestHistoryTwoNights (issue 47): runexp suite --history DIR keeps each
// night and shows, after the second, the claim whose verdict changed and
// the headline metrics that moved, each with its series over the nights,
// and writes DIR/index.html with every series. Each night is marked with
// the fingerprints of its configs, code and data: a third night with
// Mika's code edited marks the code, as the second marks the config.
func TestHistoryTwoNights(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	cfgs, hist := t.TempDir(), filepath.Join(t.TempDir(), "history")
	out := filepath.Join(t.TempDir(), "out")
	write := func(src string) {
		if err := os.WriteFile(filepath.Join(cfgs, "tiny.yaml"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(tinyConfig)
	code, stdout, stderr := runCLI("suite", "--configs", cfgs, "--out", out, "-q", "--history", hist)
	if code != exitOK || !strings.Contains(stdout, "history: 1 night in "+hist) {
		t.Fatalf("first night: exit %d\n%s%s", code, stdout, stderr)
	}
	// The second night: more noise (every metric moves) and the claim's
	// bound below what HR reaches (its verdict changes).
	write(strings.NewReplacer("std: 0.1", "std: 0.2", `value: 0.002}`, `value: 0.000001}`).Replace(tinyConfig))
	code, stdout, stderr = runCLI("suite", "--configs", cfgs, "--out", out, "-q", "--history", hist)
	if code != exitClaim {
		t.Fatalf("second night: exit %d, want %d\n%s%s", code, exitClaim, stdout, stderr)
	}
	for _, want := range []string{"history: 2 nights in " + hist, "  tiny claim hr-mse: PASS → FAIL [config changed]\n", "  tiny mse_median · HR: ", "  tiny mse_median · Mika: ", "history page: " + filepath.Join(hist, "index.html")} {
		if !strings.Contains(stdout, want) {
			t.Errorf("second night: no %q in\n%s", want, stdout)
		}
	}
	nights, err := filepath.Glob(filepath.Join(hist, "nights", "*.json"))
	if err != nil || len(nights) != 2 {
		t.Errorf("nights kept: %v %v, want 2", nights, err)
	}
	page, err := os.ReadFile(filepath.Join(hist, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), `<tr class="moved"><td>claim hr-mse</td><td>PASS</td><td>FAIL</td></tr>`) {
		t.Errorf("the history page lacks the claim's series:\n%s", page)
	}
	// The second night's config was edited: its line marks the config's
	// fingerprint, names the config, and each moved series says so.
	nightLines := func(out string) []string {
		var ls []string
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, ": config ") && strings.Contains(l, " code ") && strings.Contains(l, " data ") {
				ls = append(ls, l)
			}
		}
		return ls
	}
	ls := nightLines(stdout)
	if len(ls) != 2 || strings.Contains(ls[0], "*") || !strings.Contains(ls[1], "*") || !strings.Contains(ls[1], "(config changed: tiny)") ||
		strings.Contains(ls[1], "code changed") {
		t.Errorf("second night: the nights' inputs %q, want the config marked changed on the second", ls)
	}
	if !strings.Contains(stdout, "tiny claim hr-mse: PASS → FAIL [config changed]") {
		t.Errorf("second night: the moved claim does not say the config changed:\n%s", stdout)
	}

	// The third night: the same config, Mika's code edited.
	restore, err := runner.UseSources(codefptest.Edited(t, runexp.Sources, "internal/methods/mika.go", `"unknown start rule %q (want one of %v)"`, `"unknown start rule %q (want one of: %v)"`))
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runCLI("suite", "--configs", cfgs, "--out", out, "-q", "--history", hist)
	restore()
	if code != exitClaim {
		t.Fatalf("third night: exit %d\n%s%s", code, stdout, stderr)
	}
	ls = nightLines(stdout)
	if len(ls) != 3 || !strings.Contains(ls[2], "(code changed: tiny)") || strings.Contains(ls[2], "config changed") {
		t.Errorf("third night: the nights' inputs %q, want the code marked changed on the third", ls)
	}
	page, err = os.ReadFile(filepath.Join(hist, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(page), `class="changed" title="code changed: tiny"`); n != 2 {
		t.Errorf("the history page marks the code change %d times, want 2 (the inputs, the config's table)", n)
	}
	t.Logf("third night:\n%s", stdout)
}

// TestSuiteNamesNotEvaluated (issue 47): a suite whose exit status is 3
// because a claim could not be evaluated says which, on its last line.
func TestSuiteNamesNotEvaluated(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	cfgs := t.TempDir()
	writeTiny(t, cfgs, `  - id: which-trend
    check: {type: trend, metric: mse_median, along: c, direction: increasing}
`)
	code, stdout, stderr := runCLI("suite", "--configs", cfgs, "--out", t.TempDir(), "-q")
	if code != exitIncomplete || !strings.Contains(stdout, "\nincomplete (exit status 3): tiny: claim which-trend not evaluated\n") {
		t.Errorf("exit %d, want %d naming the claim\n%s%s", code, exitIncomplete, stdout, stderr)
	}
}
