package suite

import (
	"container/heap"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"

	"github.com/runexp/runexp/internal/safefs"
)

// Times holds the cost of each cell (runner.CellTime.Cost), by config
// name and cell key: from a previous suite.json (ReadTimes) or the cell cache
// (CacheWorkload).
type Times map[string]map[string]float64

// ReadTimes reads the cell times of a suite.json. A file written before
// suite.json had them gives no times and no error.
func ReadTimes(file string) (Times, error) {
	rep, err := ReadReport(file)
	if err != nil {
		return nil, err
	}
	t := Times{}
	for _, r := range rep.Runs {
		for _, c := range append(r.times(), r.SharedCellTimes...) {
			if t[r.Name] == nil {
				t[r.Name] = map[string]float64{}
			}
			t[r.Name][c.Key] = cellCost(c)
		}
	}
	return t, nil
}

// ReadReport reads a suite.json.
func ReadReport(file string) (*Report, error) {
	b, err := safefs.ReadFile(file, maxReportBytes)
	if err != nil {
		return nil, err
	}
	var rep Report
	if err := json.Unmarshal(b, &rep); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	return &rep, nil
}

// times returns the times of the config's cells: those computed, then
// those read from the cache.
func (r ConfigRun) times() []runner.CellTime {
	return append(r.CellTimes[:len(r.CellTimes):len(r.CellTimes)], r.CachedCellTimes...)
}

// cellCost is the time a cell occupies one worker (runner.CellTime.Cost).
func cellCost(c runner.CellTime) float64 { return c.Cost() }

// ConfigWork is the work of one config as the prediction sees it: its Start,
// its cells and its report, in seconds on one worker. Start and Report
// are wall seconds (they run inner goroutines the thread clock misses:
// the claims' bootstrap, GIST); cells are their cost
// (runner.CellTime.Cost).
type ConfigWork struct {
	Config        string
	Start, Report float64
	Cells         []float64
	Keys          []string
	// Cached marks, beside Cells, the cells whose time was recorded in
	// the cache when an earlier run computed them (nil: none).
	Cached []bool
}

// Workload is the loads of a suite.
type Workload []ConfigWork

// WorkloadOf is the workload recorded in a suite.json's runs: the cells
// computed and those read from the cache with the time recorded when they
// were computed, so that a resumed suite's file predicts the whole suite.
// A cell whose time is marked shared (runner.CellTime.Shared: served from
// another config's computation, or read from the cache by that config
// too) is that config's work, and counted there only, as the pool
// computes it.
func WorkloadOf(runs []ConfigRun) Workload {
	var w Workload
	for _, r := range runs {
		l := ConfigWork{Config: r.Name}
		if r.Start != nil {
			l.Start = r.Start.Seconds
		}
		if r.Report != nil {
			l.Report = r.Report.Seconds
		}
		for _, c := range r.times() {
			if c.Shared {
				continue
			}
			l.Cells = append(l.Cells, cellCost(c))
			l.Keys = append(l.Keys, c.Key)
			l.Cached = append(l.Cached, c.Cached)
		}
		w = append(w, l)
	}
	return w
}

// CacheWorkload is the workload of entries as the cell cache records it:
// each cell's time from its entry (runner.Cache.RecordedTime), whether or
// not the entry is still valid. It knows nothing of Start and report
// times; missing counts the cells whose time the cache does not hold. A
// cell whose cache key a config before it has too is that config's work
// (the pool computes it once): it is counted in total, and in missing if
// the key has no time, but not in the workload.
func CacheWorkload(entries []Entry, cacheDir string) (w Workload, missing, total int, err error) {
	cache := &runner.Cache{Dir: cacheDir}
	timed := map[string]bool{} // by the hash of the keys seen
	for _, e := range entries {
		plan, err := runner.Validate(e.Config)
		if err != nil {
			return nil, 0, 0, err
		}
		l := ConfigWork{Config: e.Config.Name}
		for _, cell := range plan.Cells {
			total++
			key, err := runner.NewCellKey(e.Config, plan.Kind, cell)
			if err != nil {
				return nil, 0, 0, err
			}
			h := key.Hash()
			if ok, seen := timed[h]; seen {
				if !ok {
					missing++
				}
				continue
			}
			t, ok := cache.RecordedTime(key)
			timed[h] = ok
			if !ok {
				missing++
				continue
			}
			l.Cells = append(l.Cells, cellCost(t))
			l.Keys = append(l.Keys, cell.Key)
		}
		w = append(w, l)
	}
	return w, missing, total, nil
}

// Work returns the total seconds of the workload on one worker.
func (w Workload) Work() float64 {
	var s float64
	for _, l := range w {
		s += l.Start + l.Report
		for _, c := range l.Cells {
			s += c
		}
	}
	return s
}

// CriticalPath is what bounds a suite's wall time from below whatever the
// workers: its longest cell, and its longest chain, a config's Start, its
// longest cell and its report, which run one after another.
type CriticalPath struct {
	Cell     string  `json:"cell_config"`
	CellKey  string  `json:"cell_key"`
	CellTime float64 `json:"cell_seconds"`
	// CellCached says the longest cell's time is the one its cache entry
	// recorded when an earlier run computed it.
	CellCached bool    `json:"cell_cached,omitempty"`
	Chain      string  `json:"chain_config"`
	ChainTime  float64 `json:"chain_seconds"`
	// The chain's parts.
	Start, Longest, Report float64
}

// Critical returns the workload's critical path.
func (w Workload) Critical() CriticalPath {
	var cp CriticalPath
	for _, l := range w {
		var m float64
		for i, c := range l.Cells {
			if c > cp.CellTime {
				cp.Cell, cp.CellKey, cp.CellTime = l.Config, l.Keys[i], c
				cp.CellCached = i < len(l.Cached) && l.Cached[i]
			}
			m = max(m, c)
		}
		if ch := l.Start + m + l.Report; ch > cp.ChainTime {
			cp.Chain, cp.ChainTime = l.Config, ch
			cp.Start, cp.Longest, cp.Report = l.Start, m, l.Report
		}
	}
	return cp
}

// longestCell names the longest cell and its time, and says where the
// time is the one recorded in the cache.
func (cp CriticalPath) longestCell() string {
	s := fmt.Sprintf("%.1f s (%s %s", cp.CellTime, cp.Cell, cp.CellKey)
	if cp.CellCached {
		s += ", recorded in the cache when computed"
	}
	return s + ")"
}

// Prediction is the wall time a workload is predicted to take on some
// workers, with the two lower bounds: the work shared evenly, and the
// critical chain.
type Prediction struct {
	Workers int     `json:"workers"`
	Seconds float64 `json:"seconds"`
	Even    float64 `json:"work_over_workers"`
	Chain   float64 `json:"critical_chain"`
}

// Predict simulates list scheduling of the workload on n workers: a
// config's Start, then its cells, then its report; whenever a worker is
// free it takes the ready task with the longest path to its config's end
// (a Start's path is the whole chain), as runner.Pool takes the longest
// cell first. Each task takes its recorded time on any worker, so the
// prediction holds where cells do not slow each other down (n at most
// the cores, enough memory bandwidth), the times were measured on the
// same kind of core, and on a quiet machine (a cell's cost takes its wall
// time where that is longer than its CPU time).
func (w Workload) Predict(n int) Prediction {
	p := Prediction{Workers: n, Even: w.Work() / float64(max(n, 1)), Chain: w.Critical().ChainTime}
	if n < 1 || len(w) == 0 {
		return p
	}
	type tk struct {
		cfg  int
		kind int // 0 start, 1 cell, 2 report
		dur  float64
		prio float64
	}
	longest := make([]float64, len(w))
	left := make([]int, len(w))
	var ready []tk
	for i, l := range w {
		for _, c := range l.Cells {
			longest[i] = max(longest[i], c)
		}
		left[i] = len(l.Cells)
		ready = append(ready, tk{cfg: i, kind: 0, dur: l.Start, prio: l.Start + longest[i] + l.Report})
	}
	pop := func() tk {
		b := 0
		for i := range ready {
			if ready[i].prio > ready[b].prio {
				b = i
			}
		}
		t := ready[b]
		ready[b] = ready[len(ready)-1]
		ready = ready[:len(ready)-1]
		return t
	}
	running := &events{}
	now, free := 0.0, n
	for len(ready) > 0 || running.Len() > 0 {
		for free > 0 && len(ready) > 0 {
			t := pop()
			heap.Push(running, event{end: now + t.dur, cfg: t.cfg, kind: t.kind})
			free--
		}
		e := heap.Pop(running).(event)
		now = e.end
		free++
		l := w[e.cfg]
		switch e.kind {
		case 0:
			for _, c := range l.Cells {
				ready = append(ready, tk{cfg: e.cfg, kind: 1, dur: c, prio: c + l.Report})
			}
			if len(l.Cells) == 0 {
				ready = append(ready, tk{cfg: e.cfg, kind: 2, dur: l.Report, prio: l.Report})
			}
		case 1:
			if left[e.cfg]--; left[e.cfg] == 0 {
				ready = append(ready, tk{cfg: e.cfg, kind: 2, dur: l.Report, prio: l.Report})
			}
		}
	}
	p.Seconds = now
	return p
}

type event struct {
	end       float64
	cfg, kind int
}

type events []event

func (e events) Len() int           { return len(e) }
func (e events) Less(i, j int) bool { return e[i].end < e[j].end }
func (e events) Swap(i, j int)      { e[i], e[j] = e[j], e[i] }
func (e *events) Push(x any)        { *e = append(*e, x.(event)) }
func (e *events) Pop() any {
	old := *e
	x := old[len(old)-1]
	*e = old[:len(old)-1]
	return x
}

// PredictionTable lists the predicted wall time at each worker count.
func PredictionTable(w Workload, workers []int) *report.Table {
	t := &report.Table{Title: "Predicted wall time (list scheduling of the recorded times)",
		Header: []string{"Workers", "Predicted s", "Work / workers s", "Critical chain s"}}
	ws := append([]int(nil), workers...)
	sort.Ints(ws)
	for _, n := range ws {
		p := w.Predict(n)
		t.Rows = append(t.Rows, []string{fmt.Sprint(n), fmt.Sprintf("%.1f", p.Seconds), fmt.Sprintf("%.1f", p.Even), fmt.Sprintf("%.1f", p.Chain)})
	}
	cp := w.Critical()
	t.Caption = fmt.Sprintf("%.1f s of work in %d configs; longest cell %s; longest chain %.1f s (%s: Start %.1f + cell %.1f + report %.1f).",
		w.Work(), len(w), cp.longestCell(), cp.ChainTime, cp.Chain, cp.Start, cp.Longest, cp.Report)
	return t
}

// maxReportBytes bounds a suite.json read back (under a megabyte for the
// whole suite).
const maxReportBytes = 256 << 20
