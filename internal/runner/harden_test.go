package runner_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// panicReport is a kind whose Report adds a table, writes one figure
// name that is not a plain name, then panics: the rest of the report must
// still be written.
type panicReport struct{ fakeKind }

func (panicReport) Report(out *runner.Output, recs []report.Record) error {
	out.Tables = append(out.Tables, &report.Table{Title: "partial", Header: []string{"n"}, Rows: [][]string{{fmt.Sprint(len(recs))}}})
	os.WriteFile(out.Path("../escape.txt"), []byte("x"), 0o644)
	os.WriteFile(out.Path("kept.txt"), []byte("x"), 0o644)
	out.Path("never-written") // asked for, never written: not an output
	var m map[string]int
	m["x"] = 1 // a nil-map write: a bug in the kind
	return nil
}

func init() {
	runner.RegisterKind(runner.Kind{
		Name:  "panic-report-test",
		Doc:   "test kind whose report panics",
		Start: func(env *runner.Env, _ any) (runner.Instance, error) { return panicReport{}, nil },
	})
}

func TestReportPanicRecovered(t *testing.T) {
	c := parse(t, strings.Replace(fakeConfig, "kind: fake-test", "kind: panic-report-test", 1))
	root := t.TempDir()
	c.Outputs.Dir = filepath.Join(root, "res")
	var logb bytes.Buffer
	sum, err := runner.Run(context.Background(), c, runner.Options{Workers: 2, NoCache: true, Log: slog.New(slog.NewTextHandler(&logb, nil))})
	if err != nil {
		t.Fatal(err)
	}
	// One cell (c = 13, two max_iter values × two component counts)
	// panics in Run, and the report panics once.
	if sum.Crashed != 4+1 {
		t.Errorf("Crashed = %d, want 5 (4 cell panics and the report's)", sum.Crashed)
	}
	txt, err := os.ReadFile(filepath.Join(c.Outputs.Dir, "tables.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"partial", "Failed and partial cells", "panic: boom", "Report problems", "assignment to entry in nil map", "The paper's claims", `output "../escape.txt" refused`} {
		if !bytes.Contains(txt, []byte(want)) {
			t.Errorf("tables.txt lacks %q", want)
		}
	}
	if !strings.Contains(logb.String(), "goroutine") {
		t.Errorf("the log holds no stack:\n%s", logb.String())
	}
	if _, err := os.Stat(filepath.Join(root, "escape.txt")); err == nil {
		t.Errorf("a refused output name was written outside the result folder")
	}
	var man report.Manifest
	b, err := os.ReadFile(filepath.Join(c.Outputs.Dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &man); err != nil {
		t.Fatal(err)
	}
	for _, f := range man.Outputs {
		if _, err := os.Stat(filepath.Join(c.Outputs.Dir, f)); err != nil {
			t.Errorf("manifest lists %s, which does not exist", f)
		}
	}
	if !contains(man.Outputs, "kept.txt") || contains(man.Outputs, "never-written") {
		t.Errorf("manifest outputs %v: want kept.txt listed and never-written not", man.Outputs)
	}
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func TestResultDirConfined(t *testing.T) {
	out := t.TempDir()
	c := parse(t, fakeConfig)
	// A config built by a program can still name a relative directory
	// that escapes: Run refuses it.
	c.Outputs.Dir = "../elsewhere"
	_, err := runner.Run(context.Background(), c, runner.Options{OutRoot: out, NoCache: true})
	if err == nil || !strings.Contains(err.Error(), "not inside --out") {
		t.Errorf("outputs.dir ../elsewhere: err %v", err)
	}
	// A result folder that is a symbolic link is refused.
	target := t.TempDir()
	c.Outputs.Dir = ""
	if err := os.Symlink(target, filepath.Join(out, c.Name)); err != nil {
		t.Skip(err)
	}
	_, err = runner.Run(context.Background(), c, runner.Options{OutRoot: out, NoCache: true})
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("symlinked result folder: err %v", err)
	}
	if ents, _ := os.ReadDir(target); len(ents) != 0 {
		t.Errorf("wrote %d entries through the link", len(ents))
	}
	if dir := runner.ResultDir(c, out); dir != filepath.Join(out, "fake") {
		t.Errorf("ResultDir = %s", dir)
	}
}

// TestReportReplacesFolder checks that a report replaces the result folder
// as a whole: a file of an older run is gone, shards stay, and the
// staging folders of an interrupted report are cleaned up or, if the
// result folder was moved aside and not replaced, put back.
func TestReportReplacesFolder(t *testing.T) {
	out := t.TempDir()
	c := parse(t, fakeConfig)
	dir := runner.ResultDir(c, out)
	for _, d := range []string{dir, filepath.Join(dir, "shards")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "old-figure.png"), []byte("old"), 0o644)
	os.WriteFile(filepath.Join(dir, "shards", "shard-0-of-2.jsonl"), []byte("{}"), 0o644)
	stale := filepath.Join(out, ".fake.staging-123")
	os.MkdirAll(stale, 0o755)
	if _, err := runner.Run(context.Background(), c, runner.Options{OutRoot: out, NoCache: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "old-figure.png")); err == nil {
		t.Errorf("a file of the older run survived the report")
	}
	if _, err := os.Stat(filepath.Join(dir, "shards", "shard-0-of-2.jsonl")); err != nil {
		t.Errorf("shards lost: %v", err)
	}
	ents, _ := os.ReadDir(out)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".staging-") || strings.Contains(e.Name(), ".old-") || strings.HasSuffix(e.Name(), ".lock") {
			t.Errorf("left behind: %s", e.Name())
		}
	}

	// Killed between moving the folder aside and moving the new one in:
	// the next run finds the old complete set and starts from it.
	aside := filepath.Join(out, ".fake.old-999")
	if err := os.Rename(dir, aside); err != nil {
		t.Fatal(err)
	}
	if _, err := runner.Run(context.Background(), c, runner.Options{OutRoot: out, NoCache: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "manifest.json")); err != nil {
		t.Errorf("after recovery: %v", err)
	}
	if _, err := os.Stat(aside); err == nil {
		t.Errorf("the moved-aside folder was left")
	}
}

func TestResultsLock(t *testing.T) {
	out := t.TempDir()
	c := parse(t, fakeConfig)
	lock := filepath.Join(out, ".fake.lock")
	host, _ := os.Hostname()

	// A live holder (this test process, holding the lock on a
	// descriptor as a run does) is named in the error.
	live := fmt.Sprintf(`{"pid":%d,"host":%q,"start":"2026-01-02T03:04:05Z"}`, os.Getpid(), host)
	os.WriteFile(lock, []byte(live), 0o644)
	held, err := os.Open(lock)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(held.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	_, err = runner.Run(context.Background(), c, runner.Options{OutRoot: out, NoCache: true})
	var le *runner.LockError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) || !strings.Contains(err.Error(), host) {
		t.Fatalf("live lock: err %v", err)
	}

	held.Close()

	// A lock file no process holds (its run was killed) is taken over,
	// whatever it names.
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip(err)
	}
	dead := fmt.Sprintf(`{"pid":%d,"host":%q,"start":"2026-01-02T03:04:05Z"}`, cmd.Process.Pid, host)
	os.WriteFile(lock, []byte(dead), 0o644)
	if _, err := runner.Run(context.Background(), c, runner.Options{OutRoot: out, NoCache: true}); err != nil {
		t.Fatalf("stale lock not taken over: %v", err)
	}
	if _, err := os.Stat(lock); err == nil {
		t.Errorf("lock left after the run")
	}

	// Shards of an array job do not take the lock.
	os.WriteFile(lock, []byte(live), 0o644)
	if _, err := runner.Run(context.Background(), c, runner.Options{OutRoot: out, NoCache: true, Shard: runner.Shard{Index: 0, Count: 2}}); err != nil {
		t.Errorf("shard blocked by the lock: %v", err)
	}
	os.Remove(lock)
}

func TestMaxCells(t *testing.T) {
	// 10⁴ widths × 10³ components = 10⁷ cells: refused before expanding.
	var ws, qs []string
	for i := 1; i <= 10000; i++ {
		ws = append(ws, fmt.Sprint(i))
	}
	for i := 1; i <= 1000; i++ {
		qs = append(qs, fmt.Sprint(i))
	}
	src := fmt.Sprintf("title: t\npaper: p\nkind: fake-test\ndataset: {name: none-test}\nmodel:\n  kernel: gaussian\n  c: [%s]\n  components: [%s]\n", strings.Join(ws, ", "), strings.Join(qs, ", "))
	c, err := config.Parse("big.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	_, err = runner.Validate(c)
	if err == nil || !strings.Contains(err.Error(), "--max-cells") {
		t.Fatalf("10⁷ cells: err %v", err)
	}
	defer func(n int) { runner.MaxCells = n }(runner.MaxCells)
	runner.MaxCells = 30
	if _, err := runner.Validate(parse(t, fakeConfig)); err == nil {
		t.Errorf("60 cells passed a bound of 30")
	}
	runner.MaxCells = 60
	if _, err := runner.Validate(parse(t, fakeConfig)); err != nil {
		t.Errorf("60 cells refused at a bound of 60: %v", err)
	}
}
