package suite

import (
	"context"
	"errors"
	"time"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/runner"
)

// Options control Run.
type Options struct {
	// Run holds what every config shares (data root, results root,
	// cache, workers, shard, log); Run sets With, Progress and Estimate
	// per config.
	Run runner.Options
	// Progress, when set, returns the progress callback of one config.
	Progress func(c *config.Config) func(done, total int)
	// Work, when set, returns the predicted-cost callback of one config
	// (runner.Options.Work).
	Work func(c *config.Config) func(runner.Work)
	// Around, when set, is called before each config runs; the function
	// it returns is called when the config is done (a CPU profile per
	// config). An error stops Run before the config. A profile is of the
	// whole process, so with Around the configs run one after another,
	// each on the whole pool, instead of sharing one.
	Around func(c *config.Config) (after func(), err error)
	// Done, when set, is called with each config's result as it
	// completes.
	Done func(Result)
	// KeepGoing runs the remaining configs after one fails with an error
	// (a missing data file, say), as a suite does; otherwise Run stops
	// there and returns the error.
	KeepGoing bool
	// Times, when set, holds the cost of the cells in an earlier run (a
	// previous suite.json), for cells whose cache entry does not record
	// it: the longest go first.
	Times Times
	// Ahead bounds the configs started beyond the workers
	// (runner.Pool.Ahead).
	Ahead int
	// Shard, when active, runs one shard of the suite's cells: the cells
	// of all configs numbered one after another (shard.go).
	Shard runner.Shard
}

// Result is what one config's run gave.
type Result struct {
	Entry
	// Summary is nil when Err is set.
	Summary *runner.Summary
	Err     error
	// Seconds is the config's wall time, from its Start to its report
	// written; the configs of one pool overlap. CPUSeconds is the CPU
	// time of its tasks (Start, cells with the helpers they borrowed,
	// report) as their threads' clocks measured it (package par): it
	// misses goroutines a task starts by other means. Began and Ended
	// are the offsets of its Start and of its end from the start of the
	// run, in seconds.
	Seconds, CPUSeconds float64
	Began, Ended        float64
	// ProcessCPUSeconds is the process's CPU time while the config ran,
	// where nothing else did (configs run one after another, with
	// Around); 0 otherwise. Beside CPUSeconds it says what the threads'
	// clocks missed.
	ProcessCPUSeconds float64
	// Interrupted marks a config the run stopped before it finished (or
	// started): its Summary is runner.Job.Interrupted's, the cells read
	// from the cache and those that finished before the stop, with their
	// times; it has no report.
	Interrupted bool
}

// taskCPU is the CPU time of a summary's tasks as their threads' clocks
// measured it.
func taskCPU(sum *runner.Summary) float64 {
	if sum == nil {
		return 0
	}
	s := sum.Start.CPUSeconds + sum.Report.CPUSeconds
	for _, t := range sum.Times {
		s += t.CPUSeconds
	}
	return s
}

// Status is the exit status the result earns (docs/exit-status.md).
func (r Result) Status() int {
	if r.Interrupted {
		return Interrupted
	}
	if r.Err != nil {
		return Usage
	}
	return SummaryStatus(r.Summary)
}

// Run runs the entries' cells in one pool (runner.Pool) and returns
// their results in the entries' order, each config's also to Done as it
// completes. When ctx is cancelled it returns a *runner.InterruptedError
// and a result for every entry: those that completed, and the others
// marked Interrupted with what they had finished (not passed to Done);
// without KeepGoing, the first config that fails with an error ends the
// run with that error.
func Run(ctx context.Context, entries []Entry, o Options) ([]Result, error) {
	if o.Around != nil {
		return runSerial(ctx, entries, o)
	}
	return runPool(ctx, entries, o, time.Now())
}

// runPool is Run in one pool; t0 is the start of the run, which the
// results' Began and Ended count from.
func runPool(ctx context.Context, entries []Entry, o Options, t0 time.Time) ([]Result, error) {
	byJob := map[*runner.Job]int{}
	var jobs []*runner.Job
	done := make([]*Result, len(entries))
	closeAll := func() {
		for _, j := range jobs {
			j.Close()
		}
	}
	var numbers [][]int
	if o.Shard.Active() {
		var err error
		if numbers, err = shardNumbers(entries); err != nil {
			return nil, err
		}
	}
	for i, e := range entries {
		ro := o.runOptions(e)
		if o.Shard.Active() {
			ro.Shard = runner.Shard{Index: o.Shard.Index, Count: o.Shard.Count, Numbers: numbers[i]}
		}
		j, err := runner.Prepare(e.Config, ro)
		if err != nil {
			r := Result{Entry: e, Err: err}
			if !o.KeepGoing {
				closeAll()
				return nil, err
			}
			done[i] = &r
			if o.Done != nil {
				o.Done(r)
			}
			continue
		}
		byJob[j] = i
		jobs = append(jobs, j)
	}
	p := &runner.Pool{Workers: o.Run.Workers, Ahead: o.Ahead, Grace: o.Run.Grace, StopOnError: !o.KeepGoing, Log: o.Run.Log,
		Done: func(j *runner.Job, sum *runner.Summary, err error) {
			i := byJob[j]
			r := Result{Entry: entries[i], Summary: sum, Err: err}
			r.span(j, t0)
			done[i] = &r
			// Without KeepGoing a config's error ends the run: Run
			// returns it, as it would have before running the rest.
			if o.Done != nil && (err == nil || o.KeepGoing) {
				o.Done(r)
			}
		}}
	err := p.Run(ctx, jobs)
	if isInterrupted(err) {
		// What the configs not completed had finished: their times
		// outlive the stop in suite.json.
		for _, j := range jobs {
			if i := byJob[j]; done[i] == nil {
				r := Result{Entry: entries[i], Summary: j.Interrupted(), Interrupted: true}
				r.span(j, t0)
				done[i] = &r
			}
		}
	}
	var res []Result
	for _, r := range done {
		if r != nil {
			res = append(res, *r)
		}
	}
	return res, err
}

// span sets r's wall time, offsets and CPU time from job j's (t0: the
// start of the run).
func (r *Result) span(j *runner.Job, t0 time.Time) {
	if began, ended := j.Span(); !began.IsZero() {
		if ended.IsZero() {
			ended = time.Now()
		}
		r.Seconds = ended.Sub(began).Seconds()
		r.Began, r.Ended = began.Sub(t0).Seconds(), ended.Sub(t0).Seconds()
	}
	r.CPUSeconds = taskCPU(r.Summary)
}

// runOptions are the runner's options for entry e.
func (o *Options) runOptions(e Entry) runner.Options {
	ro := o.Run
	ro.With = e.Added
	if o.Progress != nil {
		ro.Progress = o.Progress(e.Config)
	}
	if o.Work != nil {
		ro.Work = o.Work(e.Config)
	}
	if t := o.Times[e.Config.Name]; t != nil {
		ro.Estimate = func(key string) (float64, bool) {
			s, ok := t[key]
			return s, ok
		}
	}
	return ro
}

// runSerial runs the entries one after another, each in a pool of its
// own, with Around about each. Interrupted, it returns as Run does: the
// config running marked Interrupted with what it finished, and those
// after it marked Interrupted with nothing.
func runSerial(ctx context.Context, entries []Entry, o Options) ([]Result, error) {
	if o.Shard.Active() {
		return nil, errors.New("a suite's shard runs its configs in one pool: no per-config profile (--cpuprofile)")
	}
	t0 := time.Now()
	one := o
	one.Done = nil // called here, with the process's CPU time
	var res []Result
	for k, e := range entries {
		after, err := o.Around(e.Config)
		if err != nil {
			return res, err
		}
		t1, cpu0 := time.Now(), ProcessCPU()
		rs, err := runPool(ctx, []Entry{e}, one, t0)
		after()
		if isInterrupted(err) {
			res = append(res, rs...)
			for _, e := range entries[k+1:] {
				res = append(res, notStarted(e))
			}
			return res, err
		}
		if err != nil && !o.KeepGoing || len(rs) != 1 {
			return res, err
		}
		r := rs[0]
		r.Seconds, r.ProcessCPUSeconds = time.Since(t1).Seconds(), ProcessCPU()-cpu0
		r.Began, r.Ended = t1.Sub(t0).Seconds(), time.Since(t0).Seconds()
		res = append(res, r)
		if o.Done != nil {
			o.Done(r)
		}
	}
	return res, nil
}

// notStarted is the result of an entry an interrupted run never started:
// its cells, none finished.
func notStarted(e Entry) Result {
	r := Result{Entry: e, Interrupted: true, Summary: &runner.Summary{}}
	if cells, err := runner.Cells(e.Config); err == nil {
		r.Summary.Cells = len(cells)
	}
	return r
}
