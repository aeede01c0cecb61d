package suite

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// stopKind's cells with c ≥ 3 block until release is closed: they stand
// for the cells a SIGTERM arrives in the middle of. When blocked of them
// hold every worker, it calls stop (the signal).
type stopKind struct {
	workers int32
	blocked atomic.Int32
	release chan struct{}
	stop    func()
}

var stopping atomic.Pointer[stopKind]

func (k *stopKind) Run(cell *runner.Cell, rec *report.Record) error {
	rec.Metrics["draw"] = cell.Rand().Float64()
	if c, _ := cell.Params["c"].(float64); c >= 3 {
		if k.blocked.Add(1) == k.workers {
			k.stop()
		}
		<-k.release
	}
	return nil
}

func (*stopKind) Report(*runner.Output, []report.Record) error { return nil }

func init() {
	runner.RegisterKind(runner.Kind{Name: "suite-stop-test", Doc: "cells with c ≥ 3 block until released (suite's tests)",
		Start: func(*runner.Env, any) (runner.Instance, error) { return stopping.Load(), nil }})
}

// An interrupted suite writes suite.json with what it has, marked so: the
// configs that completed, with their cell times, and the others marked
// interrupted with the times of the cells they finished and the count of
// those they did not. Config a has two quick cells and two that block;
// b two quick cells. The quick cells are recorded as the longest, so on
// two workers they go first: a's two, then (a3 blocking one worker) b's
// Start, cells and report, then a4 blocks the other worker, and the run
// is stopped. In one pool b completes; with a per-config profile
// (Around: one config after another) b never starts.
func TestInterruptedSuiteKeepsTimes(t *testing.T) {
	for _, serial := range []bool{false, true} {
		name := "pool"
		if serial {
			name = "serial"
		}
		t.Run(name, func(t *testing.T) { interruptedSuite(t, serial) })
	}
}

// stopSuite writes configs a (c = 1…4, seed 1) and b (c = 1, 2, seed 2:
// other cache keys) of the kind suite-stop-test, and returns them, the
// times that make their quick cells go first, and the keys of those.
func stopSuite(t *testing.T) (dir string, entries []Entry, times Times, quick map[string][]string) {
	dir = filepath.Join(t.TempDir(), "configs")
	os.MkdirAll(dir, 0o755)
	for i, c := range []string{"[1, 2, 3, 4]", "[1, 2]"} {
		src := fmt.Sprintf("title: stop\npaper: none\nkind: suite-stop-test\nseed: %d\ndataset: {name: synthetic-images}\nmodel: {kernel: gaussian, c: %s, components: 1}\n", i+1, c)
		if err := os.WriteFile(filepath.Join(dir, string(rune('a'+i))+".yaml"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := Select(dir, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if entries, err = Load(files, nil, io.Discard); err != nil {
		t.Fatal(err)
	}
	times, quick = Times{}, map[string][]string{}
	for _, e := range entries {
		cells, err := runner.Cells(e.Config)
		if err != nil {
			t.Fatal(err)
		}
		times[e.Config.Name] = map[string]float64{}
		for _, c := range cells {
			if c.Params["c"].(float64) < 3 {
				times[e.Config.Name][c.Key] = 100
				quick[e.Config.Name] = append(quick[e.Config.Name], c.Key)
			} else {
				times[e.Config.Name][c.Key] = 1
			}
		}
	}
	return dir, entries, times, quick
}

// stopRun runs stopSuite's configs on workers workers, with edit applied
// to the options, and stops the run when blocked cells hold every worker.
// The cells it abandons are then released; the test's cleanup waits for
// them to be cached (cached entries in all) before the folders go.
func stopRun(t *testing.T, workers, cached int, edit func(*SuiteOptions)) (out string, quick map[string][]string, rep *Report, err error) {
	dir, entries, times, quick := stopSuite(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	k := &stopKind{workers: int32(workers), release: make(chan struct{}), stop: cancel}
	stopping.Store(k)
	out = filepath.Join(t.TempDir(), "out")
	o := suiteOptions(dir, out, workers)
	o.Times = times
	o.Run.Grace = 50 * time.Millisecond
	edit(&o)
	rep, err = Suite(ctx, entries, o)
	close(k.release)
	t.Cleanup(func() { waitCached(t, filepath.Join(out, ".cache"), cached) })
	return out, quick, rep, err
}

func interruptedSuite(t *testing.T, serial bool) {
	out, quick, rep, err := stopRun(t, 2, 4+2*btoi(!serial), func(o *SuiteOptions) {
		if serial {
			o.Around = func(*config.Config) (func(), error) { return func() {}, nil }
		}
	})
	var ie *runner.InterruptedError
	if !errors.As(err, &ie) || rep == nil {
		t.Fatalf("Suite returned %v, %v; want its report and an interruption", rep, err)
	}

	back, err := ReadReport(filepath.Join(out, "suite.json"))
	if err != nil {
		t.Fatalf("an interrupted suite wrote no suite.json: %v", err)
	}
	if !back.Interrupted || back.Status != Interrupted || len(back.Runs) != 2 {
		t.Fatalf("suite.json: interrupted %v, status %d, %d runs; want true, %d, 2", back.Interrupted, back.Status, len(back.Runs), Interrupted)
	}
	a, b := back.Runs[0], back.Runs[1]
	if !a.Interrupted || a.Status != Interrupted || a.Cells != 4 || a.Computed != 2 || a.Unfinished != 2 || a.Start == nil || a.Report != nil {
		t.Errorf("a: interrupted %v, status %d, %d cells, %d computed, %d unfinished, start %v, report %v; want true, 130, 4, 2, 2, a Start and no report",
			a.Interrupted, a.Status, a.Cells, a.Computed, a.Unfinished, a.Start, a.Report)
	}
	checkTimes(t, "a", a.CellTimes, quick["a"])
	if serial {
		if !b.Interrupted || b.Status != Interrupted || b.Cells != 2 || b.Computed != 0 || b.Unfinished != 2 || len(b.CellTimes) != 0 || b.Start != nil {
			t.Errorf("b (never started): %+v; want interrupted, 2 cells unfinished, no times", b)
		}
	} else {
		if b.Interrupted || b.Status != OK || b.Computed != 2 || b.Report == nil {
			t.Errorf("b (completed): interrupted %v, status %d, %d computed, report %v", b.Interrupted, b.Status, b.Computed, b.Report)
		}
		checkTimes(t, "b", b.CellTimes, quick["b"])
	}
	if timed, _, cells := back.Coverage(); timed != 4-2*btoi(serial) || cells != 6 {
		t.Errorf("%d of %d cells timed", timed, cells)
	}
	if back.Critical == nil || len(back.Predicted) != len(PredictAt)+len(PredictArrays) {
		t.Errorf("critical path %v, %d predictions: want them from the finished cells", back.Critical, len(back.Predicted))
	}
	// The next run orders its cells by these times.
	if got, err := ReadTimes(filepath.Join(out, "suite.json")); err != nil || len(got["a"]) != 2 {
		t.Errorf("ReadTimes: %v, %v", got, err)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// checkTimes fails unless ts are measured times of the cells keys, in
// their order, none of them cached.
func checkTimes(t *testing.T, name string, ts []runner.CellTime, keys []string) {
	t.Helper()
	var got []string
	for _, c := range ts {
		got = append(got, c.Key)
		if c.Seconds <= 0 || c.Cached {
			t.Errorf("%s: cell time %+v", name, c)
		}
	}
	if !slices.Equal(got, keys) {
		t.Errorf("%s: times of cells %q, want the finished %q", name, got, keys)
	}
}

// waitCached waits for n entries in the cell cache dir, and for the n
// key hashes the cache remembers after storing each (last/): an
// abandoned cell writes that file after its entry, and the test's
// folders must not be removed under it.
func waitCached(t *testing.T, dir string, n int) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		files, _ := filepath.Glob(filepath.Join(dir, "cells", "*", "*.json"))
		last, _ := filepath.Glob(filepath.Join(dir, "last", "*", "[0-9a-f]*"))
		if len(files) >= n && len(last) >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("%d cache entries and %d remembered keys, want %d", len(files), len(last), n)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A suite shard stopped by a signal writes its times report, marked
// interrupted, as the suite does suite.json. Shard 0 of 2 on one worker
// has a1, a3 and b1 (cells numbered across the configs, a's then b's):
// a1 runs, a3 blocks the worker, and the run is stopped before b starts.
func TestInterruptedShardKeepsTimes(t *testing.T) {
	shard := runner.Shard{Index: 0, Count: 2}
	out, quick, _, err := stopRun(t, 1, 2, func(o *SuiteOptions) { o.Shard = shard })
	var ie *runner.InterruptedError
	if !errors.As(err, &ie) {
		t.Fatalf("Suite returned %v; want an interruption", err)
	}
	back, err := ReadReport(ShardReport(out, shard))
	if err != nil {
		t.Fatalf("an interrupted shard wrote no times: %v", err)
	}
	if !back.Interrupted || back.Status != Interrupted || len(back.Runs) != 2 {
		t.Fatalf("shard report: interrupted %v, status %d, %d runs", back.Interrupted, back.Status, len(back.Runs))
	}
	a, b := back.Runs[0], back.Runs[1]
	if !a.Interrupted || a.Cells != 2 || a.Computed != 1 || a.Unfinished != 1 {
		t.Errorf("a: %+v; want interrupted, 1 of 2 cells computed", a)
	}
	checkTimes(t, "a", a.CellTimes, quick["a"][:1])
	if !b.Interrupted || b.Cells != 1 || b.Computed != 0 || b.Unfinished != 1 || b.Start != nil {
		t.Errorf("b: %+v; want interrupted before it started", b)
	}
}
