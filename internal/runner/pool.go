package runner

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"runtime"
	"slices"
	"sort"
	"time"

	"github.com/runexp/runexp/internal/par"
)

// DefaultGrace is how long a stopped pool waits for the tasks already
// running before it returns without them: schedulers give a task 30 s
// between SIGTERM and SIGKILL (Slurm's KillWait, Kubernetes'
// terminationGracePeriodSeconds), and a task must be gone well before.
const DefaultGrace = 5 * time.Second

// Pool runs the cells of many configs in one pool of workers. A config's
// Start (its data) runs as a task of the pool too, when the configs
// already started cannot keep every worker busy; at most Workers + Ahead
// configs are started and not yet finished at once, so that the data of
// every config is not held at the same time. Among the started configs
// the longest cell goes first, by the time recorded for it
// (Job.Estimates); configs are started in the order of their longest
// cell, longest first, and in the order given where nothing is recorded.
// A config's report is written by the worker that is free after its last
// cell has landed, and Done is called with it.
//
// Records do not depend on the order: every cell has its own stream, and
// shared fits are keyed by content (Memo).
//
// A cell whose cache key (CellKey) another config of the pool also has
// left to compute is computed once: configs that differ only in options
// their records do not depend on (RegisterReportOnly) or in some of their
// methods share such cells, and every job looks its cells up in the
// cache before any is computed. The first job to take the cell computes
// it; a job that takes it while it runs sets it aside and its worker
// takes other work, and is served when it lands; a job that takes it
// later is served at once. A job is served the cell's cache entry,
// through the checks of a cache hit (Job.serve), whether or not the
// cache is on; a failed cell is never an entry, so each job then
// computes the cell itself and records its own failure.
type Pool struct {
	// Workers is the number of cells computed at once (≤ 0: GOMAXPROCS).
	Workers int
	// Ahead bounds the configs started beyond Workers (≤ 0: 1).
	Ahead int
	// Grace is how long a stop waits for running tasks (0: DefaultGrace).
	// Cells still running then are abandoned; every finished cell is
	// already in the cache.
	Grace time.Duration
	// StopOnError stops the pool when a config fails (its Start or its
	// report), as runexp does with several configs; otherwise the pool
	// goes on with the others, as runexp suite does.
	StopOnError bool
	Log         *slog.Logger
	// Done is called with each config's outcome as it completes, from
	// one goroutine at a time.
	Done func(j *Job, sum *Summary, err error)
}

type taskKind int

const (
	taskStart taskKind = iota
	taskCell
	taskFinish
)

type task struct {
	kind  taskKind
	js    *jobState
	t     int  // the cell's index in the job's todo list
	share bool // another job has the cell's key: return its entry
}

type taskResult struct {
	task
	sum   *Summary
	err   error
	entry []byte // of a shared cell (Job.runCell)
}

type jobState struct {
	j       *Job
	order   int
	pending []int // todo indexes not yet dispatched, longest first
	// blocked holds the todo indexes of parts that wait for an earlier
	// stage of their cell (Job.blocked), in todo order.
	blocked []int
	running int // tasks of the job running now
	waiting int // cells set aside until another job's same cell lands
	state   jobPhase
	// shares holds, per todo index, the state of a cell whose key
	// another job has too (nil for the others).
	shares []*share
}

// share is a cell key that several jobs of the pool have left to compute.
type share struct {
	owner   *jobState // the job computing it now, nil when none is
	ownerT  int
	entry   []byte // its cache entry, once a job computed it (Job.runCell)
	waiters []cellRef
	left    int // the jobs' cells of the key not yet computed or served
}

// resolved records that one of the key's cells was computed or served,
// and lets the entry go with the last.
func (sh *share) resolved() {
	if sh.left--; sh.left == 0 {
		sh.entry = nil
	}
}

// cellRef is a job's cell, by its index in the job's todo list.
type cellRef struct {
	js *jobState
	t  int
}

type jobPhase int

const (
	queued jobPhase = iota
	starting
	open // started; cells pending or running
	finishing
	finished
)

// longest is the recorded cost of the job's longest pending cell.
func (js *jobState) longest() float64 {
	if len(js.pending) == 0 {
		return 0
	}
	return js.j.est[js.pending[0]]
}

// scheduler decides which task a free worker takes; Run's loop hands the
// tasks out and reports what comes back.
type scheduler struct {
	p              *Pool
	workers, ahead int
	states         []*jobState // in the jobs' order
	queue          []*jobState // not started, longest cell first
	started        int         // started and not finished
	firstErr       error
}

func newScheduler(p *Pool, jobs []*Job, workers, ahead int) *scheduler {
	s := &scheduler{p: p, workers: workers, ahead: ahead}
	for i, j := range jobs {
		js := &jobState{j: j, order: i}
		for t := range j.todo {
			if j.blocked(t) {
				js.blocked = append(js.blocked, t)
			} else {
				js.pending = append(js.pending, t)
			}
		}
		sort.SliceStable(js.pending, func(a, b int) bool { return js.before(js.pending[a], js.pending[b]) })
		s.states = append(s.states, js)
		s.queue = append(s.queue, js)
	}
	sort.SliceStable(s.queue, func(a, b int) bool { return s.queue[a].longest() > s.queue[b].longest() })
	findShares(s.states)
	return s
}

// before reports whether todo cell a goes before b: longer first, then in
// the grid's order.
func (js *jobState) before(a, b int) bool {
	ea, eb := js.j.est[a], js.j.est[b]
	return ea > eb || ea == eb && a < b
}

// findShares sets the shares of the cells whose cache key more than one
// cell of the jobs has left to compute, and marks Shared the time of a
// cell read from the cache whose key a job before has read too: the
// suite counts it once, as a run that computes it does.
func findShares(states []*jobState) {
	byHash := map[string][]cellRef{}
	cached := map[string]bool{}
	for _, js := range states {
		js.shares = make([]*share, len(js.j.todo))
		for t, u := range js.j.todo {
			h := u.key.Hash()
			byHash[h] = append(byHash[h], cellRef{js, t})
		}
		for k, key := range js.j.cachedKeys {
			h := key.Hash()
			js.j.sum.CachedTimes[k].Shared = cached[h]
			cached[h] = true
		}
	}
	for _, refs := range byHash {
		if len(refs) < 2 {
			continue
		}
		sh := &share{left: len(refs)}
		for _, r := range refs {
			r.js.shares[r.t] = sh
		}
	}
}

// pick chooses the next task, or reports false when none can start now:
// a report first (it frees the config's data), then a Start when the
// started configs cannot keep every worker busy, then the longest cell.
// A shared cell that another job computed is served on the way, and one
// that another job is computing set aside (settle).
func (s *scheduler) pick() (task, bool) {
	for {
		t, ok := s.pickOnce()
		if !ok || t.kind != taskCell || !s.settle(t.js, t.t) {
			return t, ok
		}
	}
}

// settle serves the job's pending cell t, the first of its pending
// cells, from another job's computation of the same key, or sets it
// aside while another job computes it, and reports whether it did either.
func (s *scheduler) settle(js *jobState, t int) bool {
	sh := js.shares[t]
	switch {
	case sh == nil:
		return false
	case sh.entry != nil && js.j.serve(t, sh.entry):
		sh.resolved()
	case sh.owner != nil:
		sh.waiters = append(sh.waiters, cellRef{js, t})
		js.waiting++
	default:
		return false
	}
	js.pending = js.pending[1:]
	js.release()
	return true
}

func (s *scheduler) pickOnce() (task, bool) {
	for _, js := range s.states {
		if js.state == open && len(js.pending) == 0 && len(js.blocked) == 0 && js.running == 0 && js.waiting == 0 {
			return task{kind: taskFinish, js: js}, true
		}
	}
	var cells, promised int
	for _, js := range s.states {
		switch js.state {
		case open:
			cells += len(js.pending)
		case starting:
			promised += len(js.pending)
		}
	}
	if len(s.queue) > 0 && s.started < s.workers+s.ahead && cells+promised < s.workers {
		return task{kind: taskStart, js: s.queue[0]}, true
	}
	var best *jobState
	for _, js := range s.states {
		if js.state != open || len(js.pending) == 0 {
			continue
		}
		if best == nil || js.longest() > best.longest() || (js.longest() == best.longest() && js.order < best.order) {
			best = js
		}
	}
	if best != nil {
		t := best.pending[0]
		return task{kind: taskCell, js: best, t: t, share: best.shares[t] != nil}, true
	}
	return task{}, false
}

// commit records that t was handed to a worker.
func (s *scheduler) commit(t task) {
	switch t.kind {
	case taskStart:
		s.queue = s.queue[1:]
		t.js.state = starting
		s.started++
	case taskCell:
		t.js.pending = t.js.pending[1:]
		if sh := t.js.shares[t.t]; sh != nil && sh.owner == nil {
			sh.owner, sh.ownerT = t.js, t.t
		}
	case taskFinish:
		t.js.state = finishing
	}
	t.js.running++
}

// land records a task that came back.
func (s *scheduler) land(r taskResult) {
	js := r.js
	js.running--
	if r.kind == taskCell {
		s.landShared(r)
	}
	for _, o := range s.states {
		o.release()
	}
	switch {
	case r.kind == taskStart && r.err == nil:
		js.state = open
	case r.kind == taskStart, r.kind == taskFinish:
		s.complete(js, r.sum, r.err)
	}
}

// landShared keeps the entry of a shared cell that landed and, when its
// job was the one computing it for the others, serves the jobs that set
// the cell aside; a job the entry does not serve (a failed cell: no
// entry) takes its cell back, to compute it itself.
func (s *scheduler) landShared(r taskResult) {
	sh := r.js.shares[r.t]
	if sh == nil {
		return
	}
	if r.entry != nil {
		sh.entry = r.entry
	}
	defer sh.resolved()
	if sh.owner != r.js || sh.ownerT != r.t {
		return
	}
	sh.owner = nil
	for _, w := range sh.waiters {
		w.js.waiting--
		if sh.entry != nil && w.js.j.serve(w.t, sh.entry) {
			sh.resolved()
		} else {
			w.js.requeue(w.t)
		}
	}
	sh.waiters = nil
}

// release moves the parts whose earlier stages have all landed from
// blocked to pending.
func (js *jobState) release() {
	if len(js.blocked) == 0 {
		return
	}
	kept := js.blocked[:0]
	for _, t := range js.blocked {
		if js.j.blocked(t) {
			kept = append(kept, t)
		} else {
			js.requeue(t)
		}
	}
	js.blocked = kept
}

// requeue puts todo cell t back among the pending cells, in its place.
func (js *jobState) requeue(t int) {
	k := sort.Search(len(js.pending), func(k int) bool { return js.before(t, js.pending[k]) })
	js.pending = slices.Insert(js.pending, k, t)
}

func (s *scheduler) complete(js *jobState, sum *Summary, err error) {
	js.state = finished
	s.started--
	js.j.Close()
	if err != nil && s.p.StopOnError && s.firstErr == nil {
		s.firstErr = err
	}
	if s.p.Done != nil {
		s.p.Done(js.j, sum, err)
	}
}

func (s *scheduler) allFinished() bool {
	for _, js := range s.states {
		if js.state != finished {
			return false
		}
	}
	return true
}

// Run runs every job and closes it. It returns the first error of a
// config when StopOnError is set, an *InterruptedError when ctx is
// cancelled (after at most Grace for the running tasks), and nil
// otherwise: each config's outcome goes to Done.
func (p *Pool) Run(ctx context.Context, jobs []*Job) error {
	workers := cmp.Or(max(p.Workers, 0), runtime.GOMAXPROCS(0))
	grace := cmp.Or(max(p.Grace, 0), DefaultGrace)
	log := p.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := newScheduler(p, jobs, workers, cmp.Or(max(p.Ahead, 0), 1))

	lender := par.NewLender()
	tasks := make(chan task)
	// Abandoned tasks finish after Run returned: the buffer takes their
	// results without a reader.
	results := make(chan taskResult, workers)
	for range workers {
		go worker(tasks, results, lender)
	}
	defer close(tasks)

	// idle counts the workers without a task; unoffered those of them
	// whose core is not lent to inner loops (par.Run) yet: a worker that
	// just came back is given the next task before its core is offered.
	idle, unoffered, running := workers, workers, 0
	stopping := false
	var stopTimer <-chan time.Time
	interrupt := ctx.Done()
	for {
		if !stopping && (s.firstErr != nil || ctx.Err() != nil) {
			stopping, interrupt = true, nil
			lender.Want(0)
			stopTimer = time.After(grace)
		}
		want := 0
		for !stopping && idle > 0 {
			t, ok := s.pick()
			if !ok {
				break
			}
			if unoffered > 0 {
				unoffered--
			} else if !lender.Take() {
				// Every idle core is lent: a helper is to leave after
				// its current item, which signals Freed.
				want = 1
				break
			}
			s.commit(t)
			idle--
			running++
			tasks <- t
		}
		for ; unoffered > 0; unoffered-- {
			lender.Offer()
		}
		lender.Want(want)
		if running == 0 {
			break
		}
		select {
		case r := <-results:
			running--
			idle++
			unoffered++
			s.land(r)
		case <-lender.Freed():
		case <-interrupt:
		case <-stopTimer:
			kept := "every finished cell is cached"
			for _, js := range s.states {
				if js.j.opt.NoCache {
					kept = "no finished cell is kept (--no-cache)"
				}
			}
			log.Warn("stopping without the tasks still running; "+kept, "running", running)
			running = 0
		}
	}
	return s.outcome(ctx, stopping)
}

// outcome closes the jobs no abandoned task still uses and returns what
// Run returns once nothing runs.
func (s *scheduler) outcome(ctx context.Context, stopping bool) error {
	if !stopping && !s.allFinished() {
		// Nothing runs and nothing can start: a bug in pick.
		return errors.New("runner: the pool stopped with configs left to run")
	}
	// Jobs whose tasks were abandoned keep their lock until the process
	// exits (a lock of a dead process is taken over by the next run).
	for _, js := range s.states {
		if js.running == 0 {
			js.j.Close()
		}
	}
	if s.firstErr != nil {
		return s.firstErr
	}
	if ctx.Err() != nil {
		ie := &InterruptedError{}
		for _, js := range s.states {
			ud, un, cd, cn := js.j.progress()
			ie.UnitsDone += ud
			ie.Units += un
			ie.Done += cd
			ie.Total += cn
		}
		for _, js := range s.states {
			ie.NoCache = ie.NoCache || js.j.opt.NoCache
			ie.Force = ie.Force || js.j.opt.Force
		}
		return ie
	}
	return nil
}

// worker runs tasks on its own OS thread, so that the thread's CPU clock
// measures them, with the thread bound to an account of the pool's lender
// while it runs a task, so that the task's inner loops (a cell's rows,
// a Start's GIST descriptors, a report's claims, a large product's
// blocks) borrow idle cores (par.Run) and their CPU time counts in the
// task's.
func worker(tasks <-chan task, results chan<- taskResult, lender *par.Lender) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for t := range tasks {
		r := taskResult{task: t}
		j := t.js.j
		acct := lender.NewAccount()
		unbind := par.Bind(acct)
		switch t.kind {
		case taskStart:
			r.err = j.startOn(acct)
		case taskCell:
			r.entry = j.runCell(t.t, acct, t.share)
		case taskFinish:
			r.sum, r.err = j.finishOn(acct)
		}
		unbind()
		results <- r
	}
}
