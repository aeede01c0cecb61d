package suite

import (
	"errors"
	"testing"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/runner"
)

// A config that would stop on its data computes nothing: its cells are
// counted stopped and left out of the workload, and a cell it shares
// with a later config is that config's to compute. Configs a (stops; x
// 4 s, y 2 s), b (x 4 s, shared with a; z cached) and c (w, no time):
// the workload is b's x alone, 1 cell of unknown time, 2 stopped.
func TestDryRunStopped(t *testing.T) {
	plan := func(name string, stop bool, cells ...runner.CellPlan) ConfigPlan {
		p := ConfigPlan{Config: &config.Config{Name: name}, Cells: cells, Shared: make([]bool, len(cells))}
		if stop {
			p.Data.Err = errors.New("datasets: no data root")
		}
		return p
	}
	cell := func(key, dataset string, cost float64, cached bool) runner.CellPlan {
		return runner.CellPlan{Cell: &runner.Cell{Key: key}, Key: runner.CellKey{Cell: key, Dataset: dataset}, Cost: cost, Cached: cached}
	}
	x := cell("x", "d", 4, false)
	rep := &DryRunReport{Configs: []ConfigPlan{
		plan("a", true, x, cell("y", "d", 2, false)),
		plan("b", false, x, cell("z", "d", 1, true)),
		plan("c", false, cell("w", "e", 0, false)),
	}}
	rep.Configs[1].Shared[0] = true // as DryRun marks it: a had x first
	if got := rep.Stopped(); got != 2 {
		t.Errorf("Stopped: %d cells, want 2 (a's x and y)", got)
	}
	w, unknown := rep.Workload()
	if w.Cells() != 1 || w.Work() != 4 || unknown != 1 {
		t.Errorf("Workload: %d cells, %g s of work, %d unknown; want b's x (4 s) and c's w unknown", w.Cells(), w.Work(), unknown)
	}
}
