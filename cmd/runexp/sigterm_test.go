package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
	"github.com/runexp/runexp/internal/suite"
)

// slowKind's cells with c < 3 finish at once; the others take an hour,
// unless RUNEXP_TEST_SLOW=0: they stand for cells a scheduler's SIGTERM
// arrives in the middle of, which the runner cannot interrupt.
type slowKind struct{}

func (slowKind) Run(cell *runner.Cell, rec *report.Record) error {
	rec.Metrics["draw"] = cell.Rand().Float64()
	if c, _ := cell.Params["c"].(float64); c >= 3 && os.Getenv("RUNEXP_TEST_SLOW") != "0" {
		time.Sleep(time.Hour)
	}
	return nil
}

func (slowKind) Report(out *runner.Output, recs []report.Record) error { return nil }

func init() {
	runner.RegisterKind(runner.Kind{
		Name:  "slow-test",
		Doc:   "test kind with cells that take an hour",
		Start: func(*runner.Env, any) (runner.Instance, error) { return slowKind{}, nil },
	})
}

// TestSIGTERMStopsWithinGrace is what a scheduler's SIGTERM (Slurm's
// scancel or a requeue, a Kubernetes pod eviction) needs: a suite whose
// running cells take an hour exits within 10 s with status 130, keeping
// every finished cell, and the times of the finished cells in a
// suite.json marked interrupted; run again (the requeued task), it
// computes only the cells that had not finished, and its suite.json
// carries the first run's times of the cells it read from the cache.
func TestSIGTERMStopsWithinGrace(t *testing.T) {
	if testing.Short() {
		t.Skip("runs runexp as a child process")
	}
	dir := t.TempDir()
	cfgs := filepath.Join(dir, "configs")
	os.MkdirAll(cfgs, 0o755)
	// Two configs of 4 cells each (other seeds, so other cache keys): 2
	// quick and 2 slow cells in each.
	for i, name := range []string{"a", "b"} {
		src := fmt.Sprintf("title: t\npaper: p\nkind: slow-test\nseed: %d\ndataset: {name: two-rings}\nmodel: {kernel: gaussian, c: [1, 2, 3, 4]}\n", i+1)
		if err := os.WriteFile(filepath.Join(cfgs, name+".yaml"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "out")
	args := []string{"suite", "--configs", cfgs, "--out", out, "-j", "2"}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "RUNEXP_TEST_AS_MAIN=1", "RUNEXP_DATA=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The quick cells of both configs are cached and both workers hold
	// a slow cell: the four quick cells go first only if the runner
	// reaches them before the slow ones take both workers, so wait for
	// what is cached, whatever it is, and for a slow cell to be running.
	cache := filepath.Join(out, ".cache")
	deadline := time.Now().Add(60 * time.Second)
	for countCached(cache) < 2 {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no cell cached within 60 s: %s", stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond)
	before := countCached(cache)
	t0 := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		took := time.Since(t0)
		if took > 10*time.Second {
			t.Errorf("exited %v after SIGTERM, want within 10 s", took)
		}
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != exitInterrupted {
			t.Errorf("exit %v, want status %d\n%s", err, exitInterrupted, stderr.String())
		}
		t.Logf("exited %v after SIGTERM with %d of 8 cells cached", took.Round(time.Millisecond), before)
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("still running 20 s after SIGTERM\n%s", stderr.String())
	}
	if n := countCached(cache); n != before {
		t.Errorf("%d cells cached after the stop, %d before it: a slow cell finished?", n, before)
	}
	stopped, err := suite.ReadReport(filepath.Join(out, "suite.json"))
	if err != nil {
		t.Fatalf("the interrupted suite wrote no suite.json: %v", err)
	}
	finished := map[string]runner.CellTime{}
	for _, r := range stopped.Runs {
		for _, c := range r.CellTimes {
			finished[r.Name+" "+c.Key] = c
		}
		if !r.Interrupted || r.Unfinished != r.Cells-r.Computed-r.Cached {
			t.Errorf("%s: interrupted %v, %d of %d cells unfinished (%d computed, %d cached)", r.Name, r.Interrupted, r.Unfinished, r.Cells, r.Computed, r.Cached)
		}
	}
	if !stopped.Interrupted || stopped.Status != exitInterrupted || len(finished) != before {
		t.Errorf("suite.json: interrupted %v, status %d, %d cell times; want true, %d, and the %d cells cached",
			stopped.Interrupted, stopped.Status, len(finished), exitInterrupted, before)
	}
	if !strings.Contains(stdout.String(), "suite: interrupted after ") {
		t.Errorf("stdout does not say where the times went:\n%s", stdout.String())
	}

	// The requeued task: the slow cells are quick now, and only they run.
	t.Setenv("RUNEXP_TEST_SLOW", "0")
	t.Setenv("RUNEXP_DATA", "")
	code, so, se := runCLI(append(args, "-q")...)
	if code != exitOK {
		t.Fatalf("rerun: exit %d\n%s%s", code, so, se)
	}
	computed := 0
	for _, l := range strings.Split(so, "\n") {
		var name string
		var cells, comp int
		if _, err := fmt.Sscanf(l, "%s %d cells (%d computed", &name, &cells, &comp); err == nil {
			computed += comp
		}
	}
	if computed != 8-before {
		t.Errorf("the rerun computed %d cells, want the %d unfinished ones\n%s", computed, 8-before, so)
	}
	resumed, err := suite.ReadReport(filepath.Join(out, "suite.json"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range resumed.Runs {
		for _, c := range r.CachedCellTimes {
			n++
			want := finished[r.Name+" "+c.Key]
			want.Cached = true
			if c != want {
				t.Errorf("%s: cached cell time %+v, want the interrupted run's %+v", r.Name, c, want)
			}
		}
	}
	if resumed.Interrupted || n != before {
		t.Errorf("the rerun's suite.json: interrupted %v, %d cached cell times; want false and %d", resumed.Interrupted, n, before)
	}
}
