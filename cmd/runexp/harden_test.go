package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// TestHelpEverySubcommand: --help (and -h) print usage on stdout and
// exit 0 for every subcommand.
func TestHelpEverySubcommand(t *testing.T) {
	for _, args := range [][]string{
		{"--help"}, {"-h"}, {"help"}, {"run", "--help"}, {"validate", "--help"}, {"validate", "-h"},
		{"list", "--help"}, {"version", "--help"}, {"denoise", "--help"}, {"merge", "--help"},
		{"compare", "--help"}, {"--out", "x", "--help"},
	} {
		code, stdout, stderr := runCLI(args...)
		if code != exitOK || stdout == "" || strings.Contains(stderr, "no such file") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
	// A bad flag is still a usage error on stderr.
	code, _, stderr := runCLI("validate", "--nope")
	if code != exitUsage || !strings.Contains(stderr, "nope") {
		t.Errorf("validate --nope: exit %d, stderr %q", code, stderr)
	}
}

func TestVersionFlag(t *testing.T) {
	for _, a := range []string{"--version", "-version", "version"} {
		code, stdout, _ := runCLI(a)
		if code != exitOK || !strings.HasPrefix(stdout, "runexp ") || !strings.Contains(stdout, "revision") {
			t.Errorf("%s: exit %d, %q", a, code, stdout)
		}
	}
}

// TestTermLogAboveBar: on a terminal a log line clears the bar, prints on
// its own line and the bar is redrawn below it.
func TestTermLogAboveBar(t *testing.T) {
	var b bytes.Buffer
	tm := &term{w: &b, tty: true, width: 40}
	tm.drawBar(bar("fig3", 1, 7, "5s", "20s", tm.width))
	tm.Write([]byte("time=x level=INFO msg=\"fitting kernel PCA\"\n"))
	tm.endBar()
	out := b.String()
	i := strings.Index(out, "level=INFO")
	if i < 0 {
		t.Fatalf("no log line: %q", out)
	}
	if !strings.Contains(out[:i], clearLine+"time=x") {
		t.Errorf("the bar was not cleared before the log line: %q", out)
	}
	if !strings.Contains(out[i:], "\n"+"fig3 [") {
		t.Errorf("the bar was not redrawn below the log line: %q", out)
	}
	for _, line := range strings.Split(strings.ReplaceAll(out, clearLine, "\n"), "\n") {
		if strings.HasPrefix(line, "fig3") && len([]rune(line)) > 39 {
			t.Errorf("bar wider than the terminal: %q", line)
		}
	}
}

func TestFitAndBar(t *testing.T) {
	if got := fit("abcdef", 4); got != "abc…" {
		t.Errorf("fit = %q", got)
	}
	if got := fit("ab", 4); got != "ab" {
		t.Errorf("fit = %q", got)
	}
	for _, w := range []int{20, 40, 80, 200} {
		b := fit(bar("abrahamsen-hansen-fig3", 3, 7, "35s", "1m20s", w), w-1)
		if n := len([]rune(b)); n > w-1 {
			t.Errorf("width %d: bar of %d runes", w, n)
		}
	}
	os.Setenv("COLUMNS", "57")
	defer os.Unsetenv("COLUMNS")
	if w := terminalWidth(&bytes.Buffer{}); w != 57 {
		t.Errorf("COLUMNS=57: width %d", w)
	}
}

func TestPrintSummaryFits(t *testing.T) {
	var b bytes.Buffer
	s := &runner.Summary{Dir: "results/a-very-long-result-directory-name", Failed: 3}
	printSummary(&b, s, 30)
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if len([]rune(line)) > 30 {
			t.Errorf("line wider than 30: %q", line)
		}
	}
}

// TestPrintSummaryExpected: a known non-reproduction reads "FAIL
// (expected)" without the "!" that marks a verdict other than the
// expected one.
func TestPrintSummaryExpected(t *testing.T) {
	var b bytes.Buffer
	s := &runner.Summary{Dir: "r", Claims: []claims.Result{
		{ID: "c1", Status: claims.Pass, AsExpected: true},
		{ID: "c2", Status: claims.Fail, Expected: claims.Fail, AsExpected: true},
		{ID: "c3", Status: claims.Fail, Expected: claims.Pass},
		{ID: "c4", Status: claims.Pass, Expected: claims.Fail},
	}}
	printSummary(&b, s, 80)
	want := []string{"  PASS c1: ", "  FAIL (expected) c2: ", "! FAIL c3: ", "! PASS c4: "}
	lines := strings.Split(b.String(), "\n")
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d: %q, want it to begin %q", i, lines[i], w)
		}
	}
}

// TestPrintSummaryWrapIndent: a claim whose statement wraps keeps its
// indent on every continuation line (under the verdict, four columns in),
// so that only a claim's first line starts at the margin with its mark.
func TestPrintSummaryWrapIndent(t *testing.T) {
	var b bytes.Buffer
	s := &runner.Summary{Dir: "r", Claims: []claims.Result{
		{ID: "c1", Status: claims.Pass, AsExpected: true, Statement: "Ours has the lowest whole-face mean absolute error of all methods for every energy level and occlusion size, as the paper's Figure 5 says."},
		{ID: "c2", Status: claims.Fail, Expected: claims.Pass, Statement: "short"},
	}}
	printSummary(&b, s, 60)
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	if len(lines) < 4 {
		t.Fatalf("the long statement did not wrap:\n%s", b.String())
	}
	if !strings.HasPrefix(lines[0], "  PASS c1: ") {
		t.Errorf("first line %q", lines[0])
	}
	for _, l := range lines[1:] {
		if strings.HasPrefix(l, "! FAIL c2") || strings.HasPrefix(l, "  full tables") {
			break
		}
		if !strings.HasPrefix(l, "    ") || len([]rune(l)) > 59 {
			t.Errorf("continuation line %q: want it indented 4 columns and under 60", l)
		}
	}
}

// crashKind panics in every cell: the run is a crash (exit 4), not a
// config error, and still writes its report.
type crashKind struct{}

func (crashKind) Run(*runner.Cell, *report.Record) error {
	panic("index out of range [3] with length 3")
}
func (crashKind) Report(out *runner.Output, recs []report.Record) error {
	return nil
}

func init() {
	runner.RegisterKind(runner.Kind{
		Name:  "crash-test",
		Doc:   "test kind whose cells panic",
		Start: func(*runner.Env, any) (runner.Instance, error) { return crashKind{}, nil },
	})
}

func TestCrashExitStatus(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "crash.yaml")
	os.WriteFile(cfg, []byte("title: t\npaper: p\nkind: crash-test\ndataset: {name: two-rings}\nmodel: {kernel: gaussian, c: [1, 2]}\n"), 0o644)
	code, stdout, stderr := runCLI("--out", filepath.Join(dir, "out"), "--no-cache", "-q", cfg)
	if code != exitCrash {
		t.Fatalf("exit %d, want %d; stdout %q stderr %q", code, exitCrash, stdout, stderr)
	}
	if !strings.Contains(stderr, "recovered panic") {
		t.Errorf("stderr %q", stderr)
	}
	tables, err := os.ReadFile(filepath.Join(dir, "out", "crash", "tables.txt"))
	if err != nil || !bytes.Contains(tables, []byte("panic: index out of range")) {
		t.Errorf("tables.txt lacks the cause: %v\n%s", err, tables)
	}
	// --quiet: no info log lines.
	if strings.Contains(stderr, "level=INFO") {
		t.Errorf("--quiet printed info lines: %q", stderr)
	}
}
