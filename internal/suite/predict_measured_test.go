package suite

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/par"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// burnKind's cells spend fixed amounts of CPU time, measured on their
// threads' clocks: a cell of c = 1 … 4 spends c × 20 ms whole; c = 5 is
// 4 parts of 30 ms; c = 6 is a stage of 2 parts of 25 ms then one of 2
// parts of 25 ms; c = 7 spends 20 ms alone and then 16 × 60 ms in a
// parallel loop (par.Run), which borrows the pool's idle cores once the
// other cells are done.
type burnInstance struct{}

// burn spins until the calling thread has used d more CPU time.
func burn(d time.Duration) {
	t0 := par.ThreadCPU()
	for x := 1.0; par.ThreadCPU()-t0 < d; x = math.Sqrt(x + 1) {
	}
}

func burnParts(_ *config.Config, _ any, cell *runner.Cell) []int {
	switch cell.Params["c"] {
	case 5.0:
		return []int{4}
	case 6.0:
		return []int{2, 2}
	}
	return nil
}

type burnPart struct{ C float64 }

func (burnInstance) Parts() runner.Parts {
	return runner.PartsOf(func(c *runner.Cell) []int { return burnParts(nil, nil, c) },
		func(cell *runner.Cell, _, _ int, _ []burnPart) (burnPart, error) {
			d := 30 * time.Millisecond
			if cell.Params["c"] == 6.0 {
				d = 25 * time.Millisecond
			}
			burn(d)
			return burnPart{d.Seconds()}, nil
		},
		func(_ *runner.Cell, ps []burnPart, rec *report.Record) error {
			for _, p := range ps {
				rec.Metrics["cpu"] += p.C
			}
			return nil
		})
}

func (b burnInstance) Run(cell *runner.Cell, rec *report.Record) error {
	c := cell.Params["c"].(float64)
	switch {
	case burnParts(nil, nil, cell) != nil:
		return runner.RunParts(b, cell, rec)
	case c == 7:
		burn(20 * time.Millisecond)
		par.Run(16, func(next func() (int, bool)) {
			for _, ok := next(); ok; _, ok = next() {
				burn(60 * time.Millisecond)
			}
		})
	default:
		burn(time.Duration(c) * 20 * time.Millisecond)
	}
	rec.Metrics["cpu"] = c
	return nil
}

func (burnInstance) Report(*runner.Output, []report.Record) error { return nil }

var burnOnce sync.Once

// TestPredictMatchesPool: the prediction from a suite's own suite.json
// (its units' CPU times, their parallel loops) is within 15% of what the
// suite measured, at -j 1 and -j 2, on a suite of whole cells, parts,
// two stages and a parallel loop that borrows the idle core at the end.
//
// Robust to a loaded machine: a busy machine stretches wall seconds, not
// CPU seconds, so the measured side is in CPU terms too: the pool's
// measured span (its first Start to its last report) times the share of
// a core the run's threads got, ΣCPU / Σwall over the units that ran on
// one thread (no parallel loop). Where other
// processes take a fraction of every core, the wall and that share
// stretch alike. (The prediction is from CPU times, scaled by the
// process's CPU over its tasks' for the runtime's threads.) A load that
// changes within the run's seconds would still move it, and on a machine
// so busy that the run's threads get under half a core each the pool's
// own hand-offs (a few milliseconds of waiting for the scheduler between
// tasks) stretch its span beyond the share: such a run is not compared
// and the suite is run again, after a pause (four tries; none valid
// skips, saying the load). A miss is tried up to three times: a wrong
// model misses every time (the -j 2 schedule without lending the idle core
// to c = 7's loop predicts about 30% more).
func TestPredictMatchesPool(t *testing.T) {
	if !par.Measured {
		t.Skip("no thread CPU clocks on this system")
	}
	burnOnce.Do(func() {
		runner.RegisterKind(runner.Kind{Name: "burn-test", Doc: "spends fixed CPU times", Parts: burnParts,
			Start: func(*runner.Env, any) (runner.Instance, error) { return burnInstance{}, nil }})
		runner.RegisterDataset(runner.DatasetSpec{Name: "burn-none", Load: func(*runner.Env, *datasets.Root, any) (*runner.Data, error) { return &runner.Data{}, nil }})
	})
	src := func(cs string) string {
		return "title: t\npaper: none\nkind: burn-test\nseed: 1\ndataset: {name: burn-none}\nmodel: {kernel: gaussian, c: [" + cs + "]}\n"
	}
	dir, entries := writeSuite(t, "a", src("1, 2, 3, 4"), "b", src("5, 6"), "c", src("7"))
	// A first run builds what a process builds once (the code's
	// fingerprints), whose CPU would count as the runtime's overhead.
	predictMiss(t, dir, entries, 2)
	for _, workers := range []int{1, 2} {
		var misses []string
		valid := 0
		for range 4 {
			miss, share := predictMiss(t, dir, entries, workers)
			if share < 0.5 {
				time.Sleep(time.Second)
				continue
			}
			if valid++; miss == "" {
				misses = nil
				break
			}
			misses = append(misses, miss)
			if valid == 3 {
				break
			}
		}
		switch {
		case valid == 0:
			t.Skipf("-j %d: the machine gave the run under half a core in four attempts (load average %s): too busy to compare", workers, loadAverage())
		case len(misses) > 0:
			t.Error(strings.Join(misses, "\n"))
		}
	}
}

// loadAverage is /proc/loadavg's first three fields, or "unknown".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "unknown"
}

// predictMiss runs the suite on workers and returns "" when the
// prediction from its suite.json is within 15% of the measured side, or
// what missed, and the share of a core the run's threads got.
func predictMiss(t *testing.T, dir string, entries []Entry, workers int) (string, float64) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	o := suiteOptions(dir, out, workers)
	o.Run.NoCache = true
	rep, err := Suite(context.Background(), entries, o)
	if err != nil {
		t.Fatal(err)
	}
	w := WorkloadOf(rep.Runs).Scaled(rep.CPUSeconds / rep.CellCPUSeconds)
	got := w.Predict(workers).Seconds
	var cpu, wall float64
	began, ended := math.Inf(1), 0.0
	for _, r := range rep.Runs {
		began, ended = min(began, r.Began), max(ended, r.Ended)
		for _, c := range r.CellTimes {
			if c.Width < 2 {
				cpu, wall = cpu+c.CPUSeconds, wall+c.Seconds
			}
		}
	}
	// The pool's span: the suite's own work after it (the index, the
	// pages) is not the pool's.
	span := ended - began
	want := span * cpu / wall
	t.Logf("-j %d: predicted %.3f s, measured %.3f s (the pool's %.3f s at %.2f of a core)", workers, got, want, span, cpu/wall)
	if math.Abs(got-want) > 0.15*want {
		return fmt.Sprintf("-j %d: predicted %.3f s, measured %.3f s (the pool's %.3f s at %.2f of a core; CPU %.3f s, tasks %.3f s)", workers, got, want, span, cpu/wall, rep.CPUSeconds, rep.CellCPUSeconds), cpu / wall
	}
	return "", cpu / wall
}
