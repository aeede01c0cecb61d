package runner

import (
	"fmt"
	"log/slog"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/par"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/safefs"
)

// CellTime is how long one computed cell took: wall seconds, and CPU
// seconds of the thread that ran it and of the helpers it borrowed
// (package par). Time spent in goroutines the cell started by other means
// (gonum's parallel Dgemm) is not in CPUSeconds.
type CellTime struct {
	Key string `json:"key"`
	// Part and Parts name the unit of a cell computed in parts
	// (parts.go): part Part of Parts; Parts is 0 for a cell computed
	// whole, and for the time a cell's own cache entry records (the sum
	// of its parts').
	Part  int `json:"part,omitempty"`
	Parts int `json:"parts,omitempty"`
	// Stage is the part's stage (Cell.Stages): its parts wait for every
	// part of the earlier stages.
	Stage      int     `json:"stage,omitempty"`
	Seconds    float64 `json:"seconds"`
	CPUSeconds float64 `json:"cpu_seconds"`
	// ParallelCPUSeconds is the part of CPUSeconds spent in the unit's
	// parallel loops (package par: on its own thread inside them, and
	// its helpers'), and Width the items of its widest loop: how many
	// idle cores it could use, and for how much of its work
	// (suite.Workload.Predict).
	ParallelCPUSeconds float64 `json:"parallel_cpu_seconds,omitempty"`
	Width              int     `json:"width,omitempty"`
	// HelperCPUSeconds is the part of CPUSeconds its helpers used, on
	// the cores it borrowed: the rest is its own thread's.
	HelperCPUSeconds float64 `json:"helper_cpu_seconds,omitempty"`
	// Began and Ended are when the unit ran, in seconds since 1970
	// (UTC): a suite's timeline, which times alone cannot draw.
	Began float64 `json:"began,omitempty"`
	Ended float64 `json:"ended,omitempty"`
	// Cached marks the time of a cell this run read from the cache: the
	// time recorded in its entry when an earlier run computed it, not a
	// measurement of this run (Summary.CachedTimes).
	Cached bool `json:"cached,omitempty"`
	// Shared marks the time of a cell that another config of the same
	// pool has too, with the same cell cache key, and whose time counts
	// with that config's: a cell this config was served from the other's
	// computation (Pool; Summary.SharedTimes), or one both read from the
	// cache (marked in every config but the first, in Summary.CachedTimes).
	// The pool computes such a cell once, and the suite's predictions
	// count it once.
	Shared bool `json:"shared,omitempty"`
}

// Cost is the work of the unit, as the pool's order and the suite's
// prediction take it: its CPU seconds, its thread's and its helpers'
// (every product's, package linalg), which a busy machine does not
// stretch as it stretches wall seconds; its wall seconds where no CPU
// time was measured (a system without thread clocks, or a time recorded
// before). A unit's wall time also counts its waits (on a fit another
// unit was computing, on a busy machine's CPU), which the prediction's
// schedule models instead.
func (t CellTime) Cost() float64 {
	if t.CPUSeconds > 0 {
		return t.CPUSeconds
	}
	return t.Seconds
}

// Unit is the key of the unit the time is of (UnitKey).
func (t CellTime) Unit() string { return UnitKey(t.Key, t.Part, t.Parts) }

// Phase is how long a config's Start (data, corruption) or report stage
// took: wall seconds and the CPU seconds of the thread that ran it.
type Phase struct {
	Seconds    float64 `json:"seconds"`
	CPUSeconds float64 `json:"cpu_seconds"`
	// ParallelCPUSeconds and Width are CellTime's: the phase's parallel
	// loops (GIST descriptors, the claims).
	ParallelCPUSeconds float64 `json:"parallel_cpu_seconds,omitempty"`
	Width              int     `json:"width,omitempty"`
}

// Job is one config's run split into the phases a pool of cells needs.
// Prepare validates the config, locks its result directory and looks its
// cells up in the cache, without reading data; Start prepares the
// experiment (data, corruption); each cell left to compute then runs on
// any worker (runCell), and Finish writes the report, or a shard's
// records, once the last cell has landed. Run does all of it for one
// config; a Pool does it for many, with the cells of every config in one
// worker pool.
type Job struct {
	Config *config.Config
	opt    Options
	plan   *Plan
	log    *slog.Logger
	dir    string
	cache  *Cache
	top    string // the folder every write stays below (Options.top)

	closeOnce sync.Once
	release   func()

	env  *Env
	inst Instance

	cells []*Cell // the cells of this run: all, or those with a unit in the shard
	keys  []CellKey
	recs  []report.Record // per cell, once known
	// parts holds, per cell computed in parts, its parts' records; nil
	// for a cell computed whole.
	parts []*partState
	todo  []unit    // the units to compute
	est   []float64 // per todo: the recorded cost (CellTime.Cost), 0 if unknown
	sum   Summary   // counts and cached cells' times known at Prepare
	// cachedKeys is the unit key of each of sum.CachedTimes.
	cachedKeys []CellKey
	// units counts the units of the run: cells computed whole, and the
	// run's parts of the others.
	units int

	// mu guards what an interrupted job is read for (Interrupted) while
	// tasks the pool abandoned may still run.
	mu       sync.Mutex
	done     int
	cacheErr error
	// cacheLost counts the computed cells whose cache entry could not
	// be written (cacheErr is the first error).
	cacheLost int
	times     []CellTime // per todo, filled as cells land or are served
	landed    []bool     // per todo: computed here
	served    []bool     // per todo: served from another job's computation (serve)
	began     time.Time
	start     Phase
	startEnd  bool // Start returned (start is its time)
	ended     time.Time

	rep     Phase
	started bool
}

// Prepare validates c, locks its result directory (unless it is a shard,
// whose tasks write side by side) and looks its cells up in the cache;
// it reads no data. The job holds the lock until Close.
func Prepare(c *config.Config, opt Options) (*Job, error) {
	plan, err := Validate(c)
	if err != nil {
		return nil, err
	}
	log := opt.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if ext := ExternalCommands(c); len(ext) > 0 && !opt.AllowExternal {
		return nil, &ExternalNotAllowedError{File: c.File, Commands: ext}
	}
	j := &Job{Config: c, opt: opt, plan: plan, log: log, dir: ResultDir(c, opt.OutRoot), release: func() {}}
	top, err := checkConfined(c, j.dir, opt)
	if err != nil {
		return nil, err
	}
	j.top = top
	// Shards of an array job write their own files side by side; every
	// other run is the one writer of its result directory.
	if !opt.Shard.Active() {
		release, err := acquireLock(top, j.dir)
		if err != nil {
			return nil, err
		}
		j.release = release
		cleanStale(j.dir)
	}
	if err := j.openCache(); err != nil {
		j.Close()
		return nil, err
	}
	in := opt.Shard.selection(plan.Cells)
	for _, cell := range plan.Cells {
		if in[cell.Index] != nil {
			j.cells = append(j.cells, cell)
		}
	}
	j.env = plan.env(c, opt.DataDir, log)
	if j.cache != nil {
		j.env.CacheDir = j.cache.Dir
	}
	j.recs = make([]report.Record, len(j.cells))
	sel := make([][]bool, len(j.cells))
	for i, cell := range j.cells {
		sel[i] = in[cell.Index]
	}
	l, err := lookupCells(c, plan.Kind, j.cells, sel, j.cache, opt.Force, j.env, j.recs)
	if err != nil {
		j.Close()
		return nil, err
	}
	j.keys, j.todo, j.parts, j.cachedKeys, j.units = l.keys, l.todo, l.parts, l.cachedKeys, l.units
	todoCells := len(l.todoCells)
	j.sum = Summary{Dir: j.dir, Cells: len(j.cells), Cached: len(j.cells) - todoCells, Computed: todoCells, CacheRejected: l.rejected, CachedTimes: l.cached, Reasons: l.reasons}
	j.keepExplanations(l.todoCells)
	j.done = j.units - len(j.todo)
	j.estimate()
	log.Info("preparing", "config", c.File, "kind", c.Kind, "cells", len(j.cells), "cached", j.sum.Cached)
	return j, nil
}

// keepExplanations keeps in the cache what a later run needs to say why
// it recomputes a cell (Reason): the key each cached cell has now, and
// the declarations of the code the cells to compute run. An error only
// costs a later explanation, and is not one of the run.
func (j *Job) keepExplanations(todoCells []int) {
	if j.cache == nil {
		return
	}
	todo := make([]bool, len(j.cells))
	var cells []*Cell
	for _, i := range todoCells {
		todo[i] = true
		cells = append(cells, j.cells[i])
	}
	for i, cell := range j.cells {
		if !todo[i] {
			j.cache.remember(j.Config.Name, cell.Key, j.keys[i])
		}
	}
	if len(cells) > 0 {
		j.cache.keepCodeOf(j.plan.Kind, j.Config.Dataset.Name, cells)
	}
}

// openCache sets the job's cell cache, unless caching is off. The cache
// policy: a --cache folder typed on the command line is the user's, like
// --out, and used as given; one inside the run's top folder (the default
// OUT/.cache) is checked like every folder there. Below the cache folder
// nothing is followed (Cache.Put).
func (j *Job) openCache() error {
	if j.opt.NoCache {
		return nil
	}
	cd := j.opt.cacheDir()
	if err := checkCacheDir(cd); err != nil {
		return err
	}
	if rel, err := filepath.Rel(j.top, cd); err == nil && filepath.IsLocal(rel) {
		if err := safefs.CheckUnder(j.top, cd); err != nil {
			return fmt.Errorf("cell cache: %w", err)
		}
	}
	j.cache = &Cache{Dir: cd}
	j.cache.sweepTemps()
	return nil
}

// estimate sets the recorded cost of each cell still to compute: from
// the cache entry of the same key, else from Options.Estimate.
func (j *Job) estimate() {
	j.times = make([]CellTime, len(j.todo))
	j.landed = make([]bool, len(j.todo))
	j.served = make([]bool, len(j.todo))
	j.est = make([]float64, len(j.todo))
	for t, u := range j.todo {
		cell := j.cells[u.cell]
		n := cell.parts()
		if u.part < 0 {
			n = 0
		}
		j.times[t] = CellTime{Key: cell.Key, Part: max(u.part, 0), Parts: n}
		if u.part >= 0 {
			j.times[t].Stage = stageOf(cell.Stages, u.part)
		}
		j.est[t] = j.recordedCost(u, n)
	}
}

// recordedCost is the cost recorded for unit u of a cell of n parts (0:
// whole): in the unit's cache entry, else Options.Estimate's; for a part
// without either, the cell's recorded cost shared evenly among its parts.
func (j *Job) recordedCost(u unit, n int) float64 {
	cell := j.cells[u.cell]
	if j.cache != nil {
		if ct, ok := j.cache.RecordedTime(u.key); ok {
			return ct.Cost()
		}
	}
	if j.opt.Estimate != nil {
		if s, ok := j.opt.Estimate(UnitKey(cell.Key, max(u.part, 0), n)); ok {
			return s
		}
	}
	if n == 0 {
		return 0
	}
	if j.cache != nil {
		if ct, ok := j.cache.RecordedTime(j.keys[u.cell]); ok {
			return ct.Cost() / float64(n)
		}
	}
	if j.opt.Estimate != nil {
		if s, ok := j.opt.Estimate(cell.Key); ok {
			return s / float64(n)
		}
	}
	return 0
}

// todoCells counts the cells with a unit to compute.
func (j *Job) todoCells() int {
	n, last := 0, -1
	for _, u := range j.todo {
		if u.cell != last {
			n, last = n+1, u.cell
		}
	}
	return n
}

// Close releases the result directory's lock and the job's memo entries
// (Memo). It is safe to call more than once.
func (j *Job) Close() {
	j.closeOnce.Do(func() {
		j.release()
		// The config's shared fits and derived data go with it, unless
		// another config running still holds them.
		j.env.releaseMemo()
	})
}

// Dir is the job's result directory.
func (j *Job) Dir() string { return j.dir }

// Cells returns the number of cells of the run (the shard's, for a
// shard) and how many of them are still to compute.
func (j *Job) Cells() (all, todo int) { return len(j.cells), j.todoCells() }

// Estimates returns the recorded cost (CellTime.Cost) of each cell still
// to compute (0 where none is known): from the cache entry of the same key
// (written by an earlier run and now stale, or passed over by --force),
// else from Options.Estimate.
func (j *Job) Estimates() []float64 { return append([]float64(nil), j.est...) }

// emptyShard reports whether the job is a shard that selected no cell:
// it writes an empty shard file and needs no data.
func (j *Job) emptyShard() bool { return j.opt.Shard.Active() && len(j.cells) == 0 }

// Start prepares the experiment: the kind's Start (data, corruption) and
// the check of the model against the data.
func (j *Job) Start() error { return j.startOn(nil) }

// startOn is Start on a pool worker, with acct bound to its thread: the
// Start's time counts the CPU of the helpers its inner loops borrowed.
func (j *Job) startOn(acct *par.Account) error {
	t0, c0 := time.Now(), par.ThreadCPU()
	j.mu.Lock()
	j.began = t0
	j.mu.Unlock()
	defer func() {
		p := phaseSince(t0, c0, acct)
		j.mu.Lock()
		j.start, j.startEnd = p, true
		j.mu.Unlock()
	}()
	if j.emptyShard() {
		j.started = true
		return nil
	}
	inst, err := j.plan.Start(j.env)
	if err != nil {
		return err
	}
	if err := j.env.checkComponents(); err != nil {
		return err
	}
	j.inst = inst
	j.started = true
	j.reportWork()
	j.combineCached()
	if j.opt.Progress != nil {
		j.opt.Progress(j.done, j.units)
	}
	return nil
}

// reportWork calls Options.Work with the predicted work of the cells
// computed (or served) so far and of those still to compute: each cell's
// recorded cost (Estimates), a cell without one counted at the mean of
// those with one, or every cell at 1 when none has one (the grid's size;
// Work.Recorded false).
func (j *Job) reportWork() {
	if j.opt.Work == nil {
		return
	}
	var known, sum float64
	for _, e := range j.est {
		if e > 0 {
			known++
			sum += e
		}
	}
	w := Work{Workers: j.opt.Workers, Recorded: known > 0}
	fill := 1.0
	if known > 0 {
		fill = sum / known
	}
	j.mu.Lock()
	for t, e := range j.est {
		if e <= 0 {
			e = fill
		}
		if j.landed[t] || j.served[t] {
			w.Done += e
		} else {
			w.Left += e
			w.Longest = max(w.Longest, e)
		}
	}
	j.mu.Unlock()
	j.opt.Work(w)
}

// Work is a config's work as Options.Work reports it: the predicted cost
// of the cells computed so far (Done) and still to compute (Left), the
// longest of those (Longest), in seconds of one worker when Recorded
// (the cells' recorded times), else in cells; and the workers.
type Work struct {
	Done, Left, Longest float64
	Workers             int
	Recorded            bool
}

// runCell computes the t-th unit left to compute (a cell, or a part of
// one), stores its record and caches it. It is called from a pool worker
// locked to its thread, with acct bound to it (par.Bind). When share is
// set (another job of the pool has the same key) it returns the cache
// entry of the record (encodeEntry), written or not, for the pool to
// serve the other job from; nil for a failed unit, which each job
// computes itself.
func (j *Job) runCell(t int, acct *par.Account, share bool) (entry []byte) {
	u := j.todo[t]
	cell := j.cells[u.cell]
	running.Add(1)
	t0, c0 := time.Now(), par.ThreadCPU()
	var r report.Record
	if u.part < 0 {
		r = runCell(j.inst, cell, j.log)
	} else {
		r = j.runPart(cell, u)
	}
	running.Add(-1)
	ct := j.times[t]
	t1 := time.Now()
	ct.Seconds = t1.Sub(t0).Seconds()
	ct.Began, ct.Ended = unixSeconds(t0), unixSeconds(t1)
	if c1 := par.ThreadCPU(); c0 >= 0 && c1 >= c0 {
		ct.CPUSeconds = (c1 - c0 + acct.HelperCPU()).Seconds()
		ct.ParallelCPUSeconds, ct.Width, ct.HelperCPUSeconds = acct.ParallelCPU().Seconds(), acct.Width(), acct.HelperCPU().Seconds()
	}
	j.log.Debug("cell done", "config", j.Config.Name, "key", r.Key, "status", r.Status, "seconds", ct.Seconds, "cpu_seconds", ct.CPUSeconds)
	var err error
	if j.cache != nil || share {
		// b is nil for a failed cell: never cached, never shared. Without
		// a cache, an entry that cannot be made is only not shared.
		b, encErr := encodeEntry(u.key, j.env.DataFiles(), r, &ct)
		if encErr == nil && share {
			entry = b
		}
		if j.cache != nil {
			err = encErr
			if err == nil && b != nil {
				err = j.cache.putEntry(u.key, b)
			}
			if err == nil && b != nil && u.part < 0 {
				j.cache.remember(j.Config.Name, cell.Key, j.keys[u.cell]) // for explanations only
			}
		}
	}
	j.mu.Lock()
	if err != nil {
		if j.cacheErr == nil {
			j.cacheErr = err
		}
		j.cacheLost++
	}
	j.times[t], j.landed[t] = ct, true
	j.mu.Unlock()
	j.store(u, r, ct)
	return entry
}

func unixSeconds(t time.Time) float64 { return float64(t.UnixNano()) / 1e9 }

// runPart computes part u.part of the cell from the records of its
// earlier stages' parts, which have all landed.
func (j *Job) runPart(cell *Cell, u unit) report.Record {
	p, ok := j.inst.(Parted)
	if !ok {
		return report.Record{Key: UnitKey(cell.Key, u.part, cell.parts()), Status: report.StatusFailed,
			Error: fmt.Sprintf("runner: kind %s computes its cells in parts, but its instance has no Parts", j.plan.Kind.Name)}
	}
	if got := normalStages(p.Parts().stages(cell)); total(got) != cell.parts() || len(got) != len(cell.Stages) {
		return report.Record{Key: UnitKey(cell.Key, u.part, cell.parts()), Status: report.StatusFailed,
			Error: fmt.Sprintf("runner: kind %s gives cell %s the stages %v, its plan %v (a bug)", j.plan.Kind.Name, cell.Key, got, cell.Stages)}
	}
	first := stageStart(cell.Stages, stageOf(cell.Stages, u.part))
	j.mu.Lock()
	prev := append([]report.Record(nil), j.parts[u.cell].recs[:first]...)
	j.mu.Unlock()
	earlier := make([][]byte, len(prev))
	for k, pr := range prev {
		if pr.Status == report.StatusFailed {
			// The cell fails with this error whatever the later
			// stages give (combineParts).
			return report.Record{Key: UnitKey(cell.Key, u.part, cell.parts()), Status: report.StatusFailed, Error: pr.Error}
		}
		b, err := partPayload(pr)
		if err != nil {
			return report.Record{Key: UnitKey(cell.Key, u.part, cell.parts()), Status: report.StatusFailed, Error: err.Error()}
		}
		earlier[k] = b
	}
	return runPart(p.Parts(), cell, u.part, earlier, j.log)
}

// store keeps the record of unit u, computed or served: a cell's record,
// or a part's, which completes the cell's record when it is the last of
// its parts (combine).
func (j *Job) store(u unit, r report.Record, ct CellTime) {
	j.mu.Lock()
	last := false
	if u.part < 0 {
		j.recs[u.cell] = r
	} else {
		ps := j.parts[u.cell]
		ps.recs[u.part], ps.times[u.part] = r, ct
		ps.left--
		last = ps.left == 0 && ps.whole()
	}
	j.done++
	d := j.done
	j.mu.Unlock()
	if last {
		j.combine(u.cell)
	}
	j.reportWork()
	if j.opt.Progress != nil {
		j.opt.Progress(d, j.units)
	}
}

// combine sets the record of cell i from its parts' records, all of them
// there, and caches it with the sum of its parts' times.
func (j *Job) combine(i int) {
	cell := j.cells[i]
	ps := j.parts[i]
	p, ok := j.inst.(Parted)
	var r report.Record
	if ok {
		r = combineParts(p.Parts(), cell, ps.recs, j.log)
	} else {
		r = report.Record{Key: cell.Key, Seed: cell.Seed, Params: cell.Params, Metrics: map[string]float64{}, Status: report.StatusFailed,
			Error: fmt.Sprintf("runner: kind %s computes its cells in parts, but its instance has no Parts", j.plan.Kind.Name)}
	}
	ct := CellTime{Key: cell.Key}
	for _, t := range ps.times {
		ct.Seconds += t.Seconds
		ct.CPUSeconds += t.CPUSeconds
	}
	var err error
	if j.cache != nil {
		err = j.cache.PutTimed(j.keys[i], j.env.DataFiles(), r, &ct)
		if err == nil && r.Status != report.StatusFailed {
			j.cache.remember(j.Config.Name, cell.Key, j.keys[i]) // for explanations only
		}
	}
	j.mu.Lock()
	if err != nil {
		if j.cacheErr == nil {
			j.cacheErr = err
		}
		j.cacheLost++
	}
	j.recs[i] = r
	j.mu.Unlock()
}

// combineCached combines the cells whose parts were all read from the
// cache (Start: combining needs the instance).
func (j *Job) combineCached() {
	for i, ps := range j.parts {
		if ps != nil && j.recs[i].Key == "" && ps.left == 0 && ps.whole() {
			j.combine(i)
		}
	}
}

// blocked reports whether the t-th unit left to compute waits for the
// parts of an earlier stage of its cell.
func (j *Job) blocked(t int) bool {
	u := j.todo[t]
	if u.part < 0 {
		return false
	}
	first := stageStart(j.cells[u.cell].Stages, stageOf(j.cells[u.cell].Stages, u.part))
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, r := range j.parts[u.cell].recs[:first] {
		if r.Key == "" {
			return true
		}
	}
	return false
}

// serve fills the t-th unit left to compute from entry, the cache entry
// of the same key that another job of the pool computed (runCell), as a
// cache hit fills it: through the checks Get makes (decodeEntry), so
// the record is the one a cache hit gives. It reports false when the
// entry does not serve (it was computed on other data): the unit is then
// computed here.
func (j *Job) serve(t int, entry []byte) bool {
	u := j.todo[t]
	cell := j.cells[u.cell]
	r, timing, ok, rej := decodeEntry("the entry of another config", entry, u.key, dataSum(j.env))
	if !ok {
		if rej != nil {
			j.log.Info("cell computed by another config does not serve; computing it", "config", j.Config.Name, "cell", u.key.Cell, "reason", rej.Reason)
		}
		return false
	}
	ct := j.times[t]
	if timing != nil {
		ct.Seconds, ct.CPUSeconds, ct.ParallelCPUSeconds, ct.Width = timing.Seconds, timing.CPUSeconds, timing.ParallelCPUSeconds, timing.Width
	}
	ct.Shared = true
	j.mu.Lock()
	j.times[t], j.served[t] = ct, true
	j.mu.Unlock()
	j.log.Debug("cell served", "config", j.Config.Name, "key", cell.Key)
	if j.cache != nil && u.part < 0 {
		j.cache.remember(j.Config.Name, cell.Key, j.keys[u.cell]) // for explanations only
	}
	j.store(u, r, ct)
	return true
}

// Finish writes the report (or the shard's records) from every cell's
// record and returns the run's summary. Every cell must have landed.
func (j *Job) Finish() (*Summary, error) { return j.finishOn(nil) }

// finishOn is Finish on a pool worker, with acct bound to its thread (startOn).
func (j *Job) finishOn(acct *par.Account) (*Summary, error) {
	t0, c0 := time.Now(), par.ThreadCPU()
	defer func() {
		j.mu.Lock()
		j.ended = time.Now()
		j.mu.Unlock()
	}()
	// A cache that could not take an entry (a full disk) does not cost
	// the results: they are written from the records in memory, and the
	// run is incomplete (status 3), naming what was not written.
	var lost string
	if j.cacheErr != nil {
		lost = fmt.Sprintf("cell cache: %d computed cells not written to the cache %s (%v); the results are written from them, and a rerun computes those cells again", j.cacheLost, j.cache.Dir, j.cacheErr)
		j.log.Error("cell cache not written", "config", j.Config.Name, "cells", j.cacheLost, "err", j.cacheErr)
	}
	// Each record says which code computed it: the code part of its
	// key, whether it was computed here, read from the cache or served.
	for i := range j.recs {
		j.recs[i].Code = j.keys[i].CodeFingerprint()
	}
	shared := j.timesOf(true, false)
	computed, nShared := j.counts()
	var sum *Summary
	if j.opt.Shard.Active() {
		s := j.sum
		s.Computed, s.Shared = computed, nShared
		sum = &s
		f := j.opt.Shard.file(j.dir)
		fp, err := PlanFingerprints(j.Config, j.plan.Kind, j.plan.Cells)
		if err != nil {
			return nil, err
		}
		if err := safefs.MkdirUnder(j.top, filepath.Dir(f)); err != nil {
			return nil, err
		}
		recs := j.shardRecords()
		if err := writeShard(f, j.Config, j.opt.Shard, fp, j.opt.With, j.env.DataFiles(), recs); err != nil {
			return nil, err
		}
		failed, crashed := map[string]bool{}, map[string]bool{}
		for _, r := range recs {
			cell, _, _, _ := partOfKey(r.Key)
			failed[cell] = failed[cell] || r.Status == report.StatusFailed
			crashed[cell] = crashed[cell] || isPanic(r)
		}
		for cell := range failed {
			if failed[cell] {
				sum.Failed++
			}
			if crashed[cell] {
				sum.Crashed++
			}
		}
		sum.Outputs = []string{filepath.ToSlash(filepath.Join("shards", filepath.Base(f)))}
		j.log.Info("shard done", "config", j.Config.Name, "shard", fmt.Sprintf("%d/%d", j.opt.Shard.Index, j.opt.Shard.Count), "cells", len(j.cells), "file", f)
	} else {
		for i, r := range j.recs {
			if r.Key == "" {
				return nil, fmt.Errorf("runner: %s: cell %s has no record (its parts did not all land)", j.Config.Name, j.cells[i].Key)
			}
		}
		rep, err := finish(j.top, j.dir, j.Config, j.env, j.inst, j.recs, j.opt.Workers, j.began, j.opt.With, j.opt.Stdout, j.log)
		if err != nil {
			return nil, err
		}
		rep.Cached, rep.Computed, rep.Shared, rep.CacheRejected = j.sum.Cached, computed, nShared, j.sum.CacheRejected
		j.log.Info("done", "dir", j.dir, "cells", len(j.recs), "computed", rep.Computed, "cached", rep.Cached, "shared", rep.Shared, "failed", rep.Failed, "claims_failed", rep.ClaimsFailed(), "seconds", time.Since(j.began).Seconds())
		sum = rep
	}
	if lost != "" {
		sum.ReportErrors = append(sum.ReportErrors, lost)
	}
	j.rep = phaseSince(t0, c0, acct)
	sum.Times, sum.CachedTimes, sum.SharedTimes = j.timesOf(false, false), j.sum.CachedTimes, shared
	sum.Start, sum.Report = j.start, j.rep
	sum.Reasons = j.sum.Reasons
	// The report is written: the prepared data can go.
	j.inst, j.recs = nil, nil
	return sum, nil
}

// phaseSince is the wall time since t0 and the calling thread's CPU time
// since it read c0 (0 where the clock cannot be read), with the CPU time
// of acct's helpers (nil: none).
func phaseSince(t0 time.Time, c0 time.Duration, acct *par.Account) Phase {
	p := Phase{Seconds: time.Since(t0).Seconds()}
	if c1 := par.ThreadCPU(); c0 >= 0 && c1 >= c0 {
		p.CPUSeconds = (c1 - c0).Seconds()
		if acct != nil {
			p.CPUSeconds += acct.HelperCPU().Seconds()
			p.ParallelCPUSeconds, p.Width = acct.ParallelCPU().Seconds(), acct.Width()
		}
	}
	return p
}

// timesOf returns, in grid order (a cell's parts in part order), the
// times of the units computed here (of every unit left to compute, or
// only of those that landed) or of those served from another job's
// computation. The caller holds j.mu where a unit may still land.
func (j *Job) timesOf(served, landedOnly bool) []CellTime {
	var out []CellTime
	for t, ct := range j.times {
		if j.served[t] == served && (served || !landedOnly || j.landed[t]) {
			out = append(out, ct)
		}
	}
	return out
}

// counts returns how many cells of the run were computed here (a unit
// of theirs landed) and how many were served from other configs'
// computations alone, of those whose units are all done. The caller
// holds j.mu where a unit may still land.
func (j *Job) counts() (computed, shared int) {
	for t := 0; t < len(j.todo); {
		i := j.todo[t].cell
		done, landed, served := true, false, false
		for ; t < len(j.todo) && j.todo[t].cell == i; t++ {
			done = done && (j.landed[t] || j.served[t])
			landed = landed || j.landed[t]
			served = served || j.served[t]
		}
		switch {
		case !done:
		case landed:
			computed++
		case served:
			shared++
		}
	}
	return computed, shared
}

// shardRecords is what a shard's file holds: the record of every cell of
// the run that has one, and for a cell computed in parts whose record
// the shard cannot make (another shard has some of its parts) the
// records of its parts in the shard, in grid and part order.
func (j *Job) shardRecords() []report.Record {
	var out []report.Record
	for i, r := range j.recs {
		if r.Key != "" || j.parts[i] == nil {
			out = append(out, r)
			continue
		}
		for k, pr := range j.parts[i].recs {
			if j.parts[i].in[k] && pr.Key != "" {
				out = append(out, pr)
			}
		}
	}
	return out
}

// Interrupted is the summary of a job the pool stopped before it
// finished (Pool.Run returned an *InterruptedError without calling Done
// for it): its cells read from the cache with their recorded times, the
// cells that landed before the stop (Computed) and those served from
// another config's computation (Shared) with their times, and its Start's
// time if Start had returned. Cells − Cached − Computed − Shared cells
// did not finish. It is safe to call while tasks the pool abandoned still
// run.
func (j *Job) Interrupted() *Summary {
	j.mu.Lock()
	defer j.mu.Unlock()
	s := Summary{Dir: j.dir, Cells: j.sum.Cells, Cached: j.sum.Cached, CacheRejected: j.sum.CacheRejected, CachedTimes: j.sum.CachedTimes, Reasons: j.sum.Reasons}
	s.Times, s.SharedTimes = j.timesOf(false, true), j.timesOf(true, false)
	s.Computed, s.Shared = j.counts()
	if j.startEnd {
		s.Start = j.start
	}
	return &s
}

// Span returns when the job's Start began and its Finish ended (zero
// times before then).
func (j *Job) Span() (began, ended time.Time) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.began, j.ended
}

// progress returns the cells done (cached included) and the total.
func (j *Job) progress() (done, total, cellsDone, cells int) {
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, r := range j.recs {
		if r.Key != "" {
			cellsDone++
		}
	}
	return j.done, j.units, cellsDone, len(j.recs)
}
