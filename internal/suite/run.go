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
	// cache, workers, shard, log); Run sets With and Progress per config.
	Run runner.Options
	// Progress, when set, returns the progress callback of one config.
	Progress func(c *config.Config) func(done, total int)
	// Around, when set, is called before each config runs; the function
	// it returns is called when the config is done (a CPU profile per
	// config). An error stops Run before the config.
	Around func(c *config.Config) (after func(), err error)
	// Done, when set, is called with each config's result as it
	// completes.
	Done func(Result)
	// KeepGoing runs the remaining configs after one fails with an error
	// (a missing data file, say), as a suite does; otherwise Run stops
	// there and returns the error.
	KeepGoing bool
}

// Result is what one config's run gave.
type Result struct {
	Entry
	// Summary is nil when Err is set.
	Summary *runner.Summary
	Err     error
	// Seconds is the config's wall time; CPUSeconds the process's CPU
	// time (user and system, every thread) meanwhile.
	Seconds, CPUSeconds float64
}

// Status is the exit status the result earns (docs/exit-status.md).
func (r Result) Status() int {
	if r.Err != nil {
		return Usage
	}
	return SummaryStatus(r.Summary)
}

// Run runs the entries one after another and returns their results in
// order. When ctx is cancelled it returns the results so far and the
// *runner.InterruptedError of the config that was running; without
// KeepGoing, the first config that fails with an error ends the run with
// that error.
func Run(ctx context.Context, entries []Entry, o Options) ([]Result, error) {
	var res []Result
	for _, e := range entries {
		after := func() {}
		if o.Around != nil {
			a, err := o.Around(e.Config)
			if err != nil {
				return res, err
			}
			after = a
		}
		ro := o.Run
		ro.With = e.Added
		if o.Progress != nil {
			ro.Progress = o.Progress(e.Config)
		}
		t0, cpu0 := time.Now(), ProcessCPU()
		sum, err := runner.Run(ctx, e.Config, ro)
		after()
		r := Result{Entry: e, Summary: sum, Err: err, Seconds: time.Since(t0).Seconds(), CPUSeconds: ProcessCPU() - cpu0}
		var ie *runner.InterruptedError
		if errors.As(err, &ie) {
			return res, err
		}
		if err != nil && !o.KeepGoing {
			return res, err
		}
		res = append(res, r)
		if o.Done != nil {
			o.Done(r)
		}
	}
	return res, nil
}
