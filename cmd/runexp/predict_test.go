package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// predictSuiteJSON is a suite.json of two configs: a (Start 1 s, cells of
// 4 s wall but 5 s CPU and 2 s, report 1 s) and b (one 3 s cell).
const predictSuiteJSON = `{"workers": 2, "seconds": 8, "utilisation": 0.75, "runs": [
 {"name": "a", "start": {"seconds": 1}, "report": {"seconds": 1},
  "cell_times": [{"key": "a1", "seconds": 4, "cpu_seconds": 5}, {"key": "a2", "seconds": 2}]},
 {"name": "b", "cell_times": [{"key": "b1", "seconds": 3}]}]}`

// predictRows are the rows --predict 1,2,8 (in any order) prints for
// predictSuiteJSON's times (TestSuitePredict derives them).
var predictRows = []string{
	"│ 1 │ 12.0 │ 12.0 │ 7.0 │",
	"│ 2 │ 7.0 │ 6.0 │ 7.0 │",
	"│ 8 │ 7.0 │ 1.5 │ 7.0 │",
}

// TestSuitePredict runs `runexp suite --predict` on a recorded suite.json.
// Derived by hand: the work is 1 + 5 + 2 + 1 + 3 = 12 s (a cell costs the
// larger of wall and CPU); one worker takes all of it; two workers by
// list scheduling, longest chain first: a's Start 0–1 beside b's cell
// 0–3, a1 1–6, a2 3–5, a's report 6–7, so 7 s, the critical chain
// (1 + 5 + 1); eight workers cannot beat the chain either.
func TestSuitePredict(t *testing.T) {
	f, stdout, flat := predictFrom(t, predictSuiteJSON, "8, 1,2")
	for _, want := range append(predictRows,
		"12.0 s of work in 2 configs; longest cell 5.0 s (a a1); longest chain 7.0 s (a: Start 1.0 + cell 5.0 + report 1.0).",
		"From "+f+" (2 workers, 8.0 s measured, utilisation 75%).",
	) {
		if !strings.Contains(flat, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	// Rows in increasing worker count, whatever the order given.
	if i1, i8 := strings.Index(flat, "│ 1 │"), strings.Index(flat, "│ 8 │"); i1 < 0 || i8 < i1 {
		t.Errorf("rows not sorted by workers:\n%s", stdout)
	}
}

// predictFrom runs runexp suite --predict list on a file holding
// suiteJSON, and returns the file, the output and the output with its
// runs of spaces made one.
func predictFrom(t *testing.T, suiteJSON, list string) (file, stdout, flat string) {
	t.Helper()
	file = filepath.Join(t.TempDir(), "suite.json")
	if err := os.WriteFile(file, []byte(suiteJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI("suite", "--predict", list, file)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	return file, stdout, strings.Join(strings.Fields(stdout), " ")
}

// TestSuitePredictRefusals: worker counts that are not integers ≥ 1, an
// unreadable or malformed suite.json, and --shard with a comparison are
// usage errors that say what was wanted.
func TestSuitePredictRefusals(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"suite", "--predict", "0", bad}, "--predict 0: want worker counts from 1 to 4096 or shard arrays SHARDSxWORKERS (e.g. 16x2), comma-separated"},
		{[]string{"suite", "--predict", "2,x", bad}, "--predict 2,x: want worker counts from 1 to 4096 or shard arrays SHARDSxWORKERS (e.g. 16x2), comma-separated"},
		{[]string{"suite", "--predict", "2", bad}, bad + ": unexpected end of JSON input"},
		{[]string{"suite", "--predict", "4097", bad}, "--predict 4097: want worker counts from 1 to 4096"},
		{[]string{"suite", "--predict", "2x100000", bad}, "--predict 2x100000: want worker counts from 1 to 4096"},
		{[]string{"suite", "--predict", "2", filepath.Join(dir, "none.json")}, "none.json: no such file"},
		{[]string{"suite", "--shard", "0/2", "--baseline", dir}, "--shard runs one task of an array: compare (--baseline, --write-baseline) in the --merge step"},
		{[]string{"suite", "--shard", "0/2", "--write-baseline", dir}, "compare (--baseline, --write-baseline) in the --merge step"},
		{[]string{"suite", "--shard", "2/2"}, `--shard "2/2": want i/n with 0 ≤ i < n (e.g. 0/4)`},
	} {
		code, _, stderr := runCLI(c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", c.args, code, stderr, exitUsage, c.want)
		}
	}
}

// TestSuitePredictCached: the suite.json of TestSuitePredict as a
// resumed suite writes it, a's cells read from the cache with the times
// recorded when they were computed and b's interrupted, predicts the
// same walls, and says where its times came from.
func TestSuitePredictCached(t *testing.T) {
	resumed := `{"workers": 2, "seconds": 8, "utilisation": 0.75, "interrupted": true, "runs": [
 {"name": "a", "cells": 2, "cached": 2, "start": {"seconds": 1}, "report": {"seconds": 1},
  "cached_cell_times": [{"key": "a1", "seconds": 4, "cpu_seconds": 5, "cached": true}, {"key": "a2", "seconds": 2, "cached": true}]},
 {"name": "b", "cells": 2, "computed": 1, "interrupted": true, "unfinished": 1, "cell_times": [{"key": "b1", "seconds": 3}]}]}`
	f, stdout, flat := predictFrom(t, resumed, "1,2,8")
	for _, want := range append(predictRows,
		"longest cell 5.0 s (a a1, recorded in the cache when computed);",
		"From "+f+" (2 workers, 8.0 s measured, utilisation 75%); 3 of its 4 cells have a time, 2 of them recorded in the cache when an earlier run computed them;"+
			" the suite was interrupted, so this predicts only the cells that have a time.",
	) {
		if !strings.Contains(flat, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
}

// TestSuitePredictShards: MxN predicts an array of M shards of N workers.
// Derived by hand for predictSuiteJSON: the units are numbered a1 0,
// a2 1, b1 2, so of two shards of one worker the first runs a's Start
// (1 s), a1 (5 s) and b1 (3 s), 9 s, the second a's Start and a2, 3 s;
// the merge then runs a's Start and report (1 + 1 s): 11 s.
func TestSuitePredictShards(t *testing.T) {
	_, stdout, flat := predictFrom(t, predictSuiteJSON, "2x1")
	if want := "│ 2 │ 1 │ 11.0 │ 6.0 │ 7.0 │"; !strings.Contains(flat, want) {
		t.Errorf("output lacks %q:\n%s", want, stdout)
	}
}

// TestSuitePredictAbsurdTimes: a suite.json whose times no run could
// have recorded (1e300 s, negative) is refused
// at once, naming the config and unit, where its simulation used to spin
// forever on an infinite sum; the times of a sound one still predict.
func TestSuitePredictAbsurdTimes(t *testing.T) {
	dir := t.TempDir()
	for i, c := range []struct{ json, want string }{
		{strings.ReplaceAll(predictSuiteJSON, `"seconds": 4, "cpu_seconds": 5`, `"seconds": 1e300, "cpu_seconds": 1e300`),
			"config a, unit a1: time 1e+300 s is not a time (want 0 to 1e+07 s)"},
		{strings.ReplaceAll(predictSuiteJSON, `"start": {"seconds": 1}`, `"start": {"seconds": 1e300}`),
			"config a: Start time 1e+300 s is not a time"},
		{strings.ReplaceAll(predictSuiteJSON, `{"key": "b1", "seconds": 3}`, `{"key": "b1", "seconds": -3}`),
			"config b, unit b1: time -3 s is not a time"},
	} {
		file := filepath.Join(dir, fmt.Sprintf("suite-%d.json", i))
		if err := os.WriteFile(file, []byte(c.json), 0o644); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		var code int
		var stderr string
		go func() {
			defer close(done)
			code, _, stderr = runCLI("suite", "--predict", "1,2,16x2", file)
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("case %d: --predict still running after 20 s", i)
		}
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("case %d: exit %d, stderr %q; want %d and %q", i, code, stderr, exitUsage, c.want)
		}
	}
}
