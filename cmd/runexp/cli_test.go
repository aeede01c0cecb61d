package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/runexp/runexp/internal/runner"
)

// TestHelpWalk: every subcommand's --help (and -h, and runexp help SUB)
// exits 0, writes on stdout only, and starts with the synopsis of its
// positional arguments; its flags are shown with double dashes.
func TestHelpWalk(t *testing.T) {
	synopsis := map[string]string{
		"run":             "Usage: runexp [flags] CONFIG...",
		"validate":        "Usage: runexp validate [flags] CONFIG...",
		"list":            "Usage: runexp list [flags] [estimators|kinds|datasets|configs]...",
		"version":         "Usage: runexp version",
		"denoise":         "Usage: runexp denoise --train T.csv --input X.csv --output Z.csv [flags]",
		"merge":           "Usage: runexp merge [flags] CONFIG...",
		"compare":         "Usage: runexp compare [flags] OLD NEW",
		"suite":           "Usage: runexp suite [flags] [CONFIG...]",
		"check-estimator": "Usage: runexp check-estimator [flags] NAME",
		"scoreboard":      "Usage: runexp scoreboard [flags] RESULTS_ROOT",
		"report":          "Usage: runexp report [flags] PAPER...",
		"help":            "Usage: runexp help [COMMAND]",
		"status":          "Usage: runexp status [flags] CONFIG...",
		"completion":      "Usage: runexp completion bash|zsh|fish",
	}
	for _, sub := range commands {
		want, ok := synopsis[sub]
		if !ok {
			t.Errorf("subcommand %s has no synopsis in this test", sub)
			continue
		}
		for _, args := range [][]string{{sub, "--help"}, {sub, "-h"}, {"help", sub}} {
			if sub == "help" && args[0] == "help" && args[1] == "help" {
				args = []string{"help", "--help"}
			}
			code, stdout, stderr := runCLI(args...)
			if code != exitOK || stderr != "" {
				t.Errorf("%v: exit %d, stderr %q; want 0 and nothing on stderr", args, code, stderr)
			}
			if first, _, _ := strings.Cut(stdout, "\n"); first != want {
				t.Errorf("%v: first line %q, want %q", args, first, want)
			}
			if strings.Contains(stdout, "Usage of ") {
				t.Errorf("%v: a raw flag dump (Usage of …)", args)
			}
		}
	}
	// Flags with two dashes but the one-letter ones; no Go-style "  -out".
	_, stdout, _ := runCLI("suite", "--help")
	for _, want := range []string{"  --baseline DIR", "  --only GLOB", "  -j N", "  -q, --quiet"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("suite --help lacks %q", want)
		}
	}
	if strings.Contains(stdout, "\n  -baseline") {
		t.Error("suite --help shows -baseline with one dash")
	}
	// runexp --help: the commands, scoreboard among them, and the run flags.
	_, stdout, _ = runCLI("--help")
	for _, want := range []string{"Usage: runexp [flags] CONFIG...", "  scoreboard [flags] ROOT", "Run flags:", "  --out DIR"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("runexp --help lacks %q", want)
		}
	}
}

// An unknown flag is one line on stderr that says where to read more,
// not the whole help.
func TestUnknownFlagOneLine(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"validate", "--maxcells", "3", "x.yaml"}, "runexp validate: unknown flag --maxcells (did you mean --max-cells?); see runexp validate --help"},
		{[]string{"--nope", "x.yaml"}, "runexp: unknown flag --nope; see runexp --help"},
		{[]string{"compare", "--rtl", "1", "a", "b"}, "runexp compare: unknown flag --rtl (did you mean --rtol?); see runexp compare --help"},
		{[]string{"merge", "--out"}, "runexp merge: flag --out needs a value (DIR); see runexp merge --help"},
		{[]string{"-j", "x", "a.yaml"}, `runexp: -j x: parse error; see runexp --help`},
	} {
		code, stdout, stderr := runCLI(tc.args...)
		if code != exitUsage || stdout != "" || stderr != tc.want+"\n" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and the one line %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
}

// Flags may follow the configs (runexp CONFIG --out DIR), precede a
// subcommand (runexp -q validate), and "--" ends them.
func TestFlagsAnywhere(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	out := filepath.Join(t.TempDir(), "DIR")
	code, stdout, stderr := runCLI("../../configs/abrahamsen-hansen-fig3.yaml", "--out", out, "-q")
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "abrahamsen-hansen-fig3", "records.jsonl")); err != nil {
		t.Errorf("runexp CONFIG --out DIR did not write DIR/abrahamsen-hansen-fig3: %v", err)
	}
	// validate after its argument, and a run flag before a subcommand.
	if code, stdout, stderr := runCLI("validate", "../../configs/abrahamsen-hansen-fig2.yaml", "--max-cells", "1000"); code != exitOK || !strings.Contains(stdout, ": ok") {
		t.Errorf("validate CONFIG --max-cells: exit %d\n%s%s", code, stdout, stderr)
	}
	if code, stdout, stderr := runCLI("--configs", "../../configs", "validate", "abrahamsen-hansen-fig2"); code != exitOK || !strings.Contains(stdout, ": ok") {
		t.Errorf("--configs DIR validate NAME: exit %d\n%s%s", code, stdout, stderr)
	}
	if code, stdout, stderr := runCLI("-q", "validate", "../../configs/abrahamsen-hansen-fig2.yaml"); code != exitUsage || !strings.Contains(stderr, "runexp validate: unknown flag -q") {
		t.Errorf("-q validate: exit %d, want the flag checked by validate\n%s%s", code, stdout, stderr)
	}
	// After "--" a flag-like argument is a config.
	if code, _, stderr := runCLI("validate", "--", "--max-cells"); code != exitUsage || !strings.Contains(stderr, "no config --max-cells") {
		t.Errorf("validate -- --max-cells: exit %d, stderr %q", code, stderr)
	}
	// A bare name is configs/NAME.yaml (here --configs ../../configs).
	if code, stdout, stderr := runCLI("validate", "abrahamsen-hansen-fig2", "--configs", "../../configs"); code != exitOK || !strings.Contains(stdout, "abrahamsen-hansen-fig2.yaml: ok") {
		t.Errorf("validate NAME: exit %d\n%s%s", code, stdout, stderr)
	}
}

// A misspelt subcommand is named as one; a config that does not exist
// gets the closest configs and collections.
func TestSuggestions(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"valdiate", "../../configs/abrahamsen-hansen-fig3.yaml"}, `runexp: unknown command "valdiate"; did you mean validate?`},
		{[]string{"scorebord", "results"}, `did you mean scoreboard?`},
		{[]string{"frobnicate"}, `runexp: "frobnicate" is neither a command nor a config (no configs/frobnicate.yaml): runexp --help lists the commands, runexp list configs the configs`},
		// configs/table2.yaml is a collection (every paper's Table 2):
		// a name that is not there stands in for the example.
		{[]string{"--configs", "../../configs", "../../configs/zheng-table2.yaml"}, "did you mean zheng-lai-table2, zheng-lpkpca-table2"},
		{[]string{"--configs", "../../configs", "../../configs/table7.yaml"}, "did you mean table1 or table2?"},
		{[]string{"validate", "--configs", "../../configs", "huang-tabel1"}, "no config huang-tabel1 (../../configs/huang-tabel1.yaml); did you mean huang-table1"},
		{[]string{"help", "sutie"}, `unknown command "sutie"; did you mean suite?`},
		{[]string{"list", "config"}, `nothing to list as "config"; did you mean configs?`},
	} {
		code, _, stderr := runCLI(tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
	// The listing the messages point to.
	code, stdout, _ := runCLI("list", "configs", "--configs", "../../configs")
	if code != exitOK || !strings.Contains(stdout, "zheng-lai-table2 ") || !strings.Contains(stdout, "Collections") || !strings.Contains(stdout, "zheng-lai-table1, huang-table1, nguyen-table1, zheng-lpkpca-table1") {
		t.Errorf("list configs: exit %d\n%s", code, stdout)
	}
}

// Unknown names inside a config: FILE:LINE: and the closest valid ones.
func TestConfigSuggestions(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, old, new, want string
	}{
		{"kind", "kind: denoise", "kind: denoize", `tiny.yaml:3: kind: unknown experiment kind "denoize"; did you mean denoise?`},
		{"dataset", "name: synthetic-images", "name: synthetic-image", `tiny.yaml:6: dataset: unknown dataset "synthetic-image"; did you mean synthetic-images?`},
		{"estimator", "- name: mika", "- name: mikka", `tiny.yaml:21: methods[0]: unknown estimator "mikka"; did you mean mika?`},
		{"metric", "metric: mse_median", "metric: mse_medain", `tiny.yaml:28: claim hr-mse: metric: "mse_medain" is not a metric this experiment records; did you mean mse_median`},
		{"metric unlike any", "metric: mse_median", "metric: kappa", `is not a metric this experiment records; it records `},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := filepath.Join(dir, "tiny.yaml")
			src := strings.Replace(tinyConfig, tc.old, tc.new, 1)
			if src == tinyConfig {
				t.Fatalf("%q is not in the config", tc.old)
			}
			os.WriteFile(f, []byte(src), 0o644)
			code, _, stderr := runCLI("validate", f)
			if code != exitUsage || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want %q", code, stderr, tc.want)
			}
		})
	}
}

// With --log-format json every stderr line is a JSON record, the fatal
// error a level=ERROR record with the exit status.
func TestJSONStderr(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte(strings.Replace(tinyConfig, "kind: denoise", "kind: denoize", 1)), 0o644)
	for _, tc := range []struct {
		name string
		env  string
		args []string
		want string
	}{
		{"missing data root", "", []string{"--log-format", "json", "--out", filepath.Join(dir, "out"), "../../configs/abrahamsen-hansen-fig6.yaml"}, "no data root"},
		{"data root that does not exist", filepath.Join(dir, "nowhere"), []string{"../../configs/abrahamsen-hansen-fig6.yaml", "--out", filepath.Join(dir, "out"), "--log-format=json"}, "does not exist"},
		{"config error", "", []string{"--log-format", "json", bad}, `unknown experiment kind \"denoize\"`},
		{"flag error", "", []string{"--log-format", "json", "--nope", bad}, "unknown flag --nope"},
		{"suite config error", "", []string{"suite", "--log-format", "json", "--out", filepath.Join(dir, "out"), bad}, `unknown experiment kind \"denoize\"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("RUNEXP_DATA", tc.env)
			code, _, stderr := runCLI(tc.args...)
			if code != exitUsage {
				t.Errorf("exit %d, want 2", code)
			}
			lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
			for _, l := range lines {
				var rec map[string]any
				if err := json.Unmarshal([]byte(l), &rec); err != nil {
					t.Errorf("stderr line is not JSON: %q (%v)", l, err)
				}
			}
			var last map[string]any
			json.Unmarshal([]byte(lines[len(lines)-1]), &last)
			if last["level"] != "ERROR" || last["exit_status"] != float64(exitUsage) || !strings.Contains(lines[len(lines)-1], tc.want) {
				t.Errorf("last line %q: want a level ERROR record with exit_status 2 saying %q", lines[len(lines)-1], tc.want)
			}
		})
	}
}

// Result folders are created like files, honouring the umask: 0755 and
// 0644 under umask 022, 0775 and 0664 under 002 (a group that publishes
// the results).
func TestResultModesHonourUmask(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	for _, tc := range []struct {
		umask           int
		dir, file, root fs.FileMode
	}{
		{0o022, 0o755, 0o644, 0o755},
		{0o002, 0o775, 0o664, 0o775},
	} {
		old := syscall.Umask(tc.umask)
		out := filepath.Join(t.TempDir(), "results")
		code, _, stderr := runCLI("-q", "--out", out, "../../configs/abrahamsen-hansen-fig3.yaml")
		syscall.Umask(old)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		check := func(path string, want fs.FileMode) {
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := fi.Mode().Perm(); got != want {
				t.Errorf("umask %03o: %s has mode %03o, want %03o", tc.umask, path, got, want)
			}
		}
		check(out, tc.root)
		check(filepath.Join(out, "abrahamsen-hansen-fig3"), tc.dir)
		check(filepath.Join(out, "abrahamsen-hansen-fig3", "records.jsonl"), tc.file)
		check(filepath.Join(out, "index.html"), tc.file)
	}
}

// The first interrupt is acknowledged at once, saying how many cells run
// and whether the finished ones are kept; the context is cancelled.
func TestInterruptAcknowledged(t *testing.T) {
	for _, tc := range []struct{ noCache, force bool }{{false, false}, {true, false}, {false, true}} {
		noCache := tc.noCache
		var b bytes.Buffer
		e := newErrOut(&b, "runexp", false)
		ctx, stop := interrupts(e, noCache, tc.force)
		if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(5 * time.Second):
			t.Fatal("SIGINT did not cancel the run within 5 s")
		}
		stop()
		want := "runexp: stopping: 0 cells running, finished cells are kept (cached: the same command resumes)"
		switch {
		case noCache:
			want = "runexp: stopping: 0 cells running, finished cells are not kept (--no-cache)"
		case tc.force:
			// --force recomputes cached cells: the same command does
			// not resume (issue #46).
			want = "runexp: stopping: 0 cells running, finished cells are kept (cached: the same command without --force resumes; with it, every cell is computed again)"
		}
		if !strings.HasPrefix(b.String(), want) {
			t.Errorf("no-cache %v, force %v: %q, want it to start with %q", noCache, tc.force, b.String(), want)
		}
	}
	// What the run says when it has stopped: the truth about the cache.
	if msg := (&runner.InterruptedError{Done: 3, Total: 7, NoCache: true}).Error(); strings.Contains(msg, "cached,") || !strings.Contains(msg, "nothing was cached") {
		t.Errorf("--no-cache interruption: %q", msg)
	}
	if msg := (&runner.InterruptedError{Done: 3, Total: 7, Force: true}).Error(); strings.Contains(msg, "so the same command resumes") || !strings.Contains(msg, "without --force resumes") {
		t.Errorf("--force interruption: %q", msg)
	}
}

// The time left counts down between cells, and keeps moving (up) once the
// estimate has run out with cells still running.
func TestETAMoves(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := &progress{start: t0, lastCell: t0.Add(20 * time.Second), first: 0, done: 2, total: 6}
	// 10 s per cell, 4 left: 40 s from the last cell.
	var got []string
	for _, s := range []int{20, 21, 30, 50, 59, 80, 100} {
		got = append(got, p.eta(t0.Add(time.Duration(s)*time.Second)))
	}
	// From 50 s the countdown (10 s at 50 s) meets half the cells left
	// times the mean so far (4/2 × 50/2 = 50 s), which then grows.
	want := []string{"40s", "39s", "30s", "50s", "59s", "1m20s", "1m40s"}
	if !slices.Equal(got, want) {
		t.Errorf("ETA over time %v, want %v", got, want)
	}
	p = &progress{start: t0, lastCell: t0, done: 0, total: 3}
	if e := p.eta(t0.Add(time.Minute)); e != "?" {
		t.Errorf("no cell done yet: ETA %q, want ?", e)
	}
}

// TestETAFromCosts checks the estimate against the matrix of issue 39 on
// 2 workers: 15 cells, 13 computed in 90 s and the last two recorded at
// 293 s and 10 s. From the counts the estimate was 2 × 90/13 ≈ 14 s; from
// the recorded costs it is the longest cell left, 293 s (more than the
// 303/2 s the two workers share), scaled by how long the 169 s of work
// done took on the 2 workers (90 s against 84.5 s: 1.065), 312 s, counting
// down: 212 s at 190 s. Once the prediction has run out (at 410 s, the
// cell overdue) the count-based figure takes over and grows: half the 2
// cells left at 410/13 s each, 32 s; without recorded costs (the grid's
// size) it is the count-based one throughout. With many cells left, the
// work spread over the workers decides: 6 cells of 100 s on 2 workers,
// 300 s.
func TestETAFromCosts(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	p := &progress{start: t0, lastCell: at(90), done: 13, total: 15}
	if e := p.eta(at(90)); e != "14s" {
		t.Errorf("from counts: ETA %q, want 14s (2 × 90/13)", e)
	}
	p.setWork(runner.Work{Done: 169, Left: 303, Longest: 293, Workers: 2, Recorded: true})
	for s, want := range map[int]string{90: "5m12s", 190: "3m32s", 410: "32s"} {
		if e := p.eta(at(s)); e != want {
			t.Errorf("from costs at %d s: ETA %q, want %s", s, e, want)
		}
	}
	p.setWork(runner.Work{Done: 13, Left: 2, Longest: 1, Workers: 2})
	if e := p.eta(at(90)); e != "14s" {
		t.Errorf("grid size: ETA %q, want the count-based 14s", e)
	}
	p = &progress{start: t0, lastCell: at(0), done: 0, total: 6}
	p.setWork(runner.Work{Left: 600, Longest: 100, Workers: 2, Recorded: true})
	if e := p.eta(at(0)); e != "5m0s" {
		t.Errorf("6 × 100 s on 2 workers: ETA %q, want 5m0s", e)
	}
}

// TestETAConverges: costs recorded on a machine three times faster than
// this one (nguyen-table1's "1–8 min" for 21 minutes): before any unit
// lands the estimate is the recorded one, a third of the truth; from the
// first units it is scaled by the wall time they took and says the time
// left, whatever the machine, and counts to 0 with the last unit.
func TestETAConverges(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	const units, cost, slow, workers = 10, 60.0, 3.0, 2
	p := &progress{start: t0, lastCell: t0, total: units}
	p.setWork(runner.Work{Left: units * cost, Longest: cost, Workers: workers, Recorded: true})
	if e := p.eta(t0); e != "5m0s" {
		t.Errorf("before any unit: %q, want the recorded 5m0s", e)
	}
	// Two units land every 180 s (60 s recorded, three times slower).
	for done := 2; done < units; done += 2 {
		now := t0.Add(time.Duration(float64(done/2)*cost*slow) * time.Second)
		p.done, p.lastCell = done, now
		p.setWork(runner.Work{Done: float64(done) * cost, Left: float64(units-done) * cost, Longest: cost, Workers: workers, Recorded: true})
		truth := time.Duration(float64((units-done)/2)*cost*slow) * time.Second
		if e := p.eta(now); e != truth.String() {
			t.Errorf("%d of %d units done: ETA %q, want %s", done, units, e, truth)
		}
	}
}

// Human log lines round their numbers; on a terminal they and the
// per-config summary are wrapped to the width, never wider.
func TestTerminalLinesFit(t *testing.T) {
	var b bytes.Buffer
	tm := &term{w: &b, tty: true, width: 80}
	log, err := newLogger(tm, "text", false, false)
	if err != nil {
		t.Fatal(err)
	}
	log.Info("done", "dir", "results/abrahamsen-hansen-fig6", "cells", 3, "computed", 3, "cached", 0, "failed", 0, "claims_failed", 0, "seconds", 24.113013197)
	log.Info("fitting kernel PCA", "data", "lgdenoise-train", "kernel", "gaussian(c=3.333e+07)", "c", 3.3333333333333336e+07)
	out := b.String()
	for _, want := range []string{"seconds=24.11", "c=3.333e+07", "time="} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "24.113013197") || strings.Contains(out, "T") && strings.Contains(out, "time=2") {
		t.Errorf("unrounded number or full date on a terminal:\n%s", out)
	}
	var s bytes.Buffer
	p := printer{w: &s, width: 80, tty: true}
	p.line("zheng-lpkpca-table1-lambdascan: 11 cells (11 computed, 0 cached, 0 failed), claims: 1 passed, 2 failed, 0 inconclusive, 0 not evaluated; 3 as expected → results/zheng-lpkpca-table1-lambdascan")
	for _, w := range []int{80, 120} {
		b.Reset()
		tm.width = w
		log.Info("preparing", "config", "configs/zheng-lpkpca-table3-subsets123-labelgraph.yaml", "kind", "classify", "cells", 12, "cached", 0, "note", strings.Repeat("word ", 40))
		for _, text := range []string{b.String(), s.String()} {
			for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
				if n := len([]rune(l)); n > w-1 && !(w == 120 && text == s.String()) {
					t.Errorf("width %d: a line of %d runes: %q", w, n, l)
				}
			}
		}
	}
}

// On a terminal text lines are wrapped, JSON records never (each must
// parse on its own line).
func TestTermKeepsJSONWhole(t *testing.T) {
	var b bytes.Buffer
	tm := &term{w: &b, tty: true, width: 40, json: true}
	rec := `{"level":"ERROR","msg":"` + strings.Repeat("a long message ", 10) + `","exit_status":2}` + "\n"
	tm.Write([]byte(rec))
	if b.String() != rec {
		t.Errorf("a JSON record was rewritten on a terminal: %q", b.String())
	}
	b.Reset()
	tm.json = false
	tm.Write([]byte("time=x level=INFO msg=" + strings.Repeat("word ", 20) + "\n"))
	for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if len(l) > 39 {
			t.Errorf("text line of %d runes at width 40: %q", len(l), l)
		}
	}
}

// With --quiet a long run prints a progress line a minute, a short one
// none; piped without --quiet, one every 10 s and one at the end.
func TestProgressLines(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		quiet bool
		at    []int // seconds after the start
		final bool
		want  int
	}{
		{true, []int{30, 59}, false, 0},
		{true, []int{30, 61, 90, 122}, false, 2},
		{true, []int{5}, true, 0},
		{false, []int{5, 11, 15, 22}, false, 2},
		{false, []int{5}, true, 1},
	} {
		var b bytes.Buffer
		log, _ := newLogger(&b, "text", false, false)
		p := newProgress(&term{w: &b}, log, "fig4", tc.quiet, false)
		p.started, p.start, p.lastCell, p.lastLine, p.total, p.done = true, t0, t0, t0, 10, 1
		for i, s := range tc.at {
			if tc.final && i == len(tc.at)-1 {
				p.done = p.total
			}
			p.show(t0.Add(time.Duration(s)*time.Second), tc.final && i == len(tc.at)-1)
		}
		if got := strings.Count(b.String(), "msg=progress"); got != tc.want {
			t.Errorf("quiet %v at %v: %d progress lines, want %d\n%s", tc.quiet, tc.at, got, tc.want, b.String())
		}
	}
}
