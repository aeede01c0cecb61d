package runner

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"runtime"
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
	kind taskKind
	js   *jobState
	t    int // the cell's index in the job's todo list
}

type taskResult struct {
	task
	sum *Summary
	err error
}

type jobState struct {
	j       *Job
	order   int
	pending []int // todo indexes not yet dispatched, longest first
	running int   // tasks of the job running now
	state   jobPhase
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
		js := &jobState{j: j, order: i, pending: make([]int, len(j.todo))}
		for t := range js.pending {
			js.pending[t] = t
		}
		sort.SliceStable(js.pending, func(a, b int) bool { return j.est[js.pending[a]] > j.est[js.pending[b]] })
		s.states = append(s.states, js)
		s.queue = append(s.queue, js)
	}
	sort.SliceStable(s.queue, func(a, b int) bool { return s.queue[a].longest() > s.queue[b].longest() })
	return s
}

// pick chooses the next task, or reports false when none can start now:
// a report first (it frees the config's data), then a Start when the
// started configs cannot keep every worker busy, then the longest cell.
func (s *scheduler) pick() (task, bool) {
	for _, js := range s.states {
		if js.state == open && len(js.pending) == 0 && js.running == 0 {
			return task{kind: taskFinish, js: js}, true
		}
	}
	var cells, promised int
	for _, js := range s.states {
		switch js.state {
		case open:
			cells += len(js.pending)
		case starting:
			promised += len(js.j.todo)
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
		return task{kind: taskCell, js: best, t: best.pending[0]}, true
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
	case taskFinish:
		t.js.state = finishing
	}
	t.js.running++
}

// land records a task that came back.
func (s *scheduler) land(r taskResult) {
	js := r.js
	js.running--
	switch {
	case r.kind == taskStart && r.err == nil:
		js.state = open
	case r.kind == taskStart, r.kind == taskFinish:
		s.complete(js, r.sum, r.err)
	}
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
			log.Warn("stopping without the tasks still running; every finished cell is cached", "running", running)
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
		var done, total int
		for _, js := range s.states {
			d, n := js.j.progress()
			done += d
			total += n
		}
		return &InterruptedError{Done: done, Total: total}
	}
	return nil
}

// worker runs tasks on its own OS thread, so that the thread's CPU clock
// measures them, with the thread bound to an account of the pool's lender
// while it runs a cell, so that the cell's inner loops borrow idle cores
// (par.Run).
func worker(tasks <-chan task, results chan<- taskResult, lender *par.Lender) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for t := range tasks {
		r := taskResult{task: t}
		j := t.js.j
		switch t.kind {
		case taskStart:
			r.err = j.Start()
		case taskCell:
			acct := lender.NewAccount()
			unbind := par.Bind(acct)
			j.runCell(t.t, acct)
			unbind()
		case taskFinish:
			r.sum, r.err = j.Finish()
		}
		results <- r
	}
}
