package suite

import (
	"encoding/json"
	"fmt"
	"slices"
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
	return rep.Times(), nil
}

// Times returns the cost of every unit of work of the suite's configs,
// computed or read from the cache, by config and unit key.
func (rep *Report) Times() Times {
	t := Times{}
	for _, r := range rep.Runs {
		for _, c := range append(r.times(), r.SharedCellTimes...) {
			if t[r.Name] == nil {
				t[r.Name] = map[string]float64{}
			}
			t[r.Name][c.Unit()] = cellCost(c)
		}
	}
	return t
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
// its units of work (cells, or the parts of a cell computed in parts) and
// its report, in CPU seconds on one core (runner.CellTime.Cost: wall
// seconds where no CPU time was measured). Cells, Keys and Cached hold,
// unit by unit, Units' Cost, key (runner.UnitKey) and Cached; StartShape
// and ReportShape the parallel loops of the Start and the report.
type ConfigWork struct {
	Config        string
	Start, Report float64
	Cells         []float64
	Keys          []string
	// Cached marks, beside Cells, the units whose time was recorded in
	// the cache when an earlier run computed them (nil: none).
	Cached []bool
	// Units describes each unit beyond its cost; nil when only Cells is
	// known (units of one stage, with no parallel loops).
	Units                   []Unit
	StartShape, ReportShape Shape
}

// Unit is a unit of work beyond its cost: the cell it is of, its part
// and stage (the parts of a stage wait for those of the stages before),
// and its parallel loops.
type Unit struct {
	Cell               string
	Part, Parts, Stage int
	Shape
}

// Shape is what a task's parallel loops (package par) allow: the
// fraction of its work inside them, and the items of the widest, the
// most cores it can use at once.
type Shape struct {
	Parallel float64
	Width    int
}

func shapeOf(cpu, parallel float64, width int) Shape {
	if cpu <= 0 || width < 2 {
		return Shape{}
	}
	return Shape{Parallel: min(max(parallel/cpu, 0), 1), Width: width}
}

func phaseCost(p *runner.Phase) (float64, Shape) {
	if p == nil {
		return 0, Shape{}
	}
	c := p.CPUSeconds
	if c <= 0 {
		c = p.Seconds
	}
	return c, shapeOf(p.CPUSeconds, p.ParallelCPUSeconds, p.Width)
}

// Workload is the loads of a suite.
type Workload []ConfigWork

// WorkloadOf is the workload recorded in a suite.json's runs: the units
// computed and those read from the cache with the time recorded when they
// were computed, so that a resumed suite's file predicts the whole suite.
// A unit whose time is marked shared (runner.CellTime.Shared: served from
// another config's computation, or read from the cache by that config
// too) is that config's work, and counted there only, as the pool
// computes it.
func WorkloadOf(runs []ConfigRun) Workload {
	var w Workload
	for _, r := range runs {
		l := ConfigWork{Config: r.Name}
		l.Start, l.StartShape = phaseCost(r.Start)
		l.Report, l.ReportShape = phaseCost(r.Report)
		for _, c := range r.times() {
			if c.Shared {
				continue
			}
			l.add(c)
		}
		w = append(w, l)
	}
	return w
}

// add appends the unit whose time is c.
func (l *ConfigWork) add(c runner.CellTime) {
	l.Cells = append(l.Cells, cellCost(c))
	l.Keys = append(l.Keys, c.Unit())
	l.Cached = append(l.Cached, c.Cached)
	l.Units = append(l.Units, Unit{Cell: c.Key, Part: c.Part, Parts: c.Parts, Stage: c.Stage, Shape: shapeOf(c.CPUSeconds, c.ParallelCPUSeconds, c.Width)})
}

// CacheWorkload is the workload of entries as the cell cache records it:
// each unit's time from its entry (runner.Cache.RecordedTime), whether or
// not the entry is still valid; a cell computed in parts counts its
// parts' times, or its own entry's shared evenly among its parts when
// they have none. It knows nothing of Start and report times; missing
// counts the cells whose time the cache does not hold. A cell whose
// cache key a config before it has too is that config's work (the pool
// computes it once): it is counted in total, and in missing if the key
// has no time, but not in the workload.
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
			ts, ok := cachedUnits(cache, key, cell)
			timed[h] = ok
			if !ok {
				missing++
				continue
			}
			for _, t := range ts {
				l.add(t)
			}
		}
		w = append(w, l)
	}
	return w, missing, total, nil
}

// cachedUnits returns the times the cache records of the cell's units
// (runner.CachedUnitTimes).
func cachedUnits(cache *runner.Cache, key runner.CellKey, cell *runner.Cell) ([]runner.CellTime, bool) {
	whole, wholeOK := cache.RecordedTime(key)
	return runner.CachedUnitTimes(cache, key, cell, whole, wholeOK)
}

// Cells returns how many cells the workload holds.
func (w Workload) Cells() int {
	n := 0
	for _, l := range w {
		n += len(l.Cells)
	}
	return n
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

// Scaled returns the workload with the cost of every task this run
// measured multiplied by f: the process's CPU time over its tasks'
// (Report.CPUSeconds over CellCPUSeconds), for the garbage collector and
// the runtime, whose threads no task's clock sees but which take the
// cores as the tasks run. A unit whose time was read from the cache
// (Cached) keeps it: this run's ratio says nothing of the run that
// computed it, and on a warm cache, where the tasks measured are few,
// it would multiply every cached unit by the process's whole start-up.
func (w Workload) Scaled(f float64) Workload {
	out := make(Workload, len(w))
	for i, l := range w {
		l.Start *= f
		l.Report *= f
		l.Cells = slices.Clone(l.Cells)
		for k := range l.Cells {
			if k < len(l.Cached) && l.Cached[k] {
				continue
			}
			l.Cells[k] *= f
		}
		out[i] = l
	}
	return out
}

// CriticalPath is what bounds a suite's wall time from below whatever the
// workers: its longest unit, and its longest chain, a config's Start, its
// longest unit and its report, which run one after another.
type CriticalPath struct {
	Cell     string  `json:"cell_config"`
	CellKey  string  `json:"cell_key"`
	CellTime float64 `json:"cell_seconds"`
	// CellCached says the longest unit's time is the one its cache entry
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

// longestCell names the longest unit and its time, and says where the
// time is the one recorded in the cache.
func (cp CriticalPath) longestCell() string {
	s := fmt.Sprintf("%.1f s (%s %s", cp.CellTime, cp.Cell, cp.CellKey)
	if cp.CellCached {
		s += ", recorded in the cache when computed"
	}
	return s + ")"
}

// Prediction is the wall time a workload is predicted to take on some
// workers (in Shards shards of Workers workers each, when Shards is set),
// with two bounds: the work shared evenly, and the critical chain (a
// bound where no idle core is lent to the chain's longest unit).
type Prediction struct {
	Workers int     `json:"workers"`
	Shards  int     `json:"shards,omitempty"`
	Seconds float64 `json:"seconds"`
	Even    float64 `json:"work_over_workers"`
	Chain   float64 `json:"critical_chain"`
}

// Predict simulates runner.Pool on n workers (predict_sim.go): configs
// started when those started cannot keep every worker busy (at most n + 1
// at once, the longest unit first), then the longest ready unit of any
// started config, a config's report as soon as its last unit lands, the
// parts of a later stage once the earlier stages' have; and the cores of
// idle workers lent to running tasks with parallel loops (package par),
// each sped up by Amdahl's law over its measured parallel fraction, up
// to its widest loop's items. Each task takes its recorded CPU time on a
// core, so the prediction holds where tasks do not slow each other down
// (n at most the cores, enough memory bandwidth) and the times were
// measured on the same kind of core; CPU time is what a busy machine
// does not stretch.
func (w Workload) Predict(n int) Prediction {
	p := Prediction{Workers: n, Even: w.Work() / float64(max(n, 1)), Chain: w.Critical().ChainTime}
	if n < 1 || len(w) == 0 {
		return p
	}
	p.Seconds = simulate(w, n)
	return p
}

// PredictShards predicts an array of m shards (runexp suite --shard i/m)
// of n workers each, then the merge: each shard runs the units its
// number selects (runner.Shard: the units numbered one after another in
// the suite's order, a cell of several stages under one number) and
// every config's Start, and the array ends with its slowest shard; the
// merge (runexp suite --merge) then runs every config's Start and report
// one after another.
func (w Workload) PredictShards(m, n int) Prediction {
	p := Prediction{Workers: n, Shards: m, Even: w.Work() / float64(max(n*m, 1)), Chain: w.Critical().ChainTime}
	if n < 1 || m < 1 || len(w) == 0 {
		return p
	}
	shards := make([]Workload, m)
	next := 0
	var merge float64
	for _, l := range w {
		merge += l.Start + l.Report
		parts := make([]ConfigWork, m)
		for i := range parts {
			parts[i] = ConfigWork{Config: l.Config, Start: l.Start, StartShape: l.StartShape}
		}
		staged := map[string]bool{} // cells of several stages: one number
		for k := range l.Cells {
			if u := l.unit(k); u.Stage > 0 {
				staged[u.Cell] = true
			}
		}
		num := map[string]int{}
		for k, c := range l.Cells {
			u := l.unit(k)
			i, ok := num[u.Cell]
			if !ok || !staged[u.Cell] {
				i = next % m
				next++
				num[u.Cell] = i
			}
			parts[i].Cells = append(parts[i].Cells, c)
			parts[i].Keys = append(parts[i].Keys, l.Keys[k])
			parts[i].Units = append(parts[i].Units, u)
		}
		for i := range parts {
			shards[i] = append(shards[i], parts[i])
		}
	}
	for _, s := range shards {
		p.Seconds = max(p.Seconds, simulate(s, n))
	}
	p.Seconds += merge
	return p
}

// unit returns unit k's description (a unit of one stage, without
// parallel loops, where Units is not known).
func (l *ConfigWork) unit(k int) Unit {
	if k < len(l.Units) {
		return l.Units[k]
	}
	return Unit{Cell: l.Keys[k]}
}

// ShardTable lists the predicted wall time of shard arrays, each
// {shards, workers per shard} (PredictShards).
func ShardTable(w Workload, arrays [][2]int) *report.Table {
	t := &report.Table{Title: "Predicted wall time of shard arrays (runexp suite --shard i/M on M nodes, then --merge)",
		Header: []string{"Shards", "Workers each", "Predicted s", "Work / workers s", "Critical chain s"}}
	for _, a := range arrays {
		p := w.PredictShards(a[0], a[1])
		t.Rows = append(t.Rows, []string{fmt.Sprint(a[0]), fmt.Sprint(a[1]), fmt.Sprintf("%.1f", p.Seconds), fmt.Sprintf("%.1f", p.Even), fmt.Sprintf("%.1f", p.Chain)})
	}
	t.Caption = "Each shard starts every config it has units of and computes them in its own pool; the merge then runs every config's Start and report in one process."
	return t
}

// PredictionTable lists the predicted wall time at each worker count.
func PredictionTable(w Workload, workers []int) *report.Table {
	t := &report.Table{Title: "Predicted wall time (the pool simulated on the recorded CPU times)",
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

// MaxTaskSeconds bounds the time one task (a config's Start or report, a
// cell or a part of one) may record for a prediction to read it, as the
// cache bounds the times its entries record: 115 days. A longer one is
// no measurement but a damaged or forged file, and the simulation's
// arithmetic (finite sums of every task's time) needs bounded inputs.
const MaxTaskSeconds = runner.MaxRecordedSeconds

// MaxPredictWorkers bounds the worker and shard counts a prediction
// simulates: the simulation lends each idle worker's core at every
// step, so its time grows with them.
const MaxPredictWorkers = 4096

// Check returns an error naming the first time of w that is not a time
// a run could have recorded: negative, not finite, or above
// MaxTaskSeconds; or a parallel fraction outside [0, 1].
func (w Workload) Check() error {
	bad := func(v float64) bool { return !(v >= 0 && v <= MaxTaskSeconds) } // NaN fails both
	for _, l := range w {
		switch {
		case bad(l.Start):
			return fmt.Errorf("config %s: Start time %g s is not a time (want 0 to %g s)", l.Config, l.Start, float64(MaxTaskSeconds))
		case bad(l.Report):
			return fmt.Errorf("config %s: report time %g s is not a time (want 0 to %g s)", l.Config, l.Report, float64(MaxTaskSeconds))
		}
		for _, s := range []Shape{l.StartShape, l.ReportShape} {
			if err := s.check(); err != nil {
				return fmt.Errorf("config %s: %v", l.Config, err)
			}
		}
		for k, c := range l.Cells {
			if bad(c) {
				return fmt.Errorf("config %s, unit %s: time %g s is not a time (want 0 to %g s)", l.Config, l.Keys[k], c, float64(MaxTaskSeconds))
			}
			if k < len(l.Units) {
				if err := l.Units[k].Shape.check(); err != nil {
					return fmt.Errorf("config %s, unit %s: %v", l.Config, l.Keys[k], err)
				}
			}
		}
	}
	return nil
}

func (s Shape) check() error {
	if !(s.Parallel >= 0 && s.Parallel <= 1) || s.Width < 0 {
		return fmt.Errorf("parallel fraction %g over %d items is not a measurement (want a fraction in [0, 1])", s.Parallel, s.Width)
	}
	return nil
}
