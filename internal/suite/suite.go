package suite

import (
	"context"
	"log/slog"
	"time"

	"github.com/runexp/runexp/internal/report"
)

// SuiteOptions control Suite.
type SuiteOptions struct {
	Options
	// ConfigsDir is the folder of the configs, for the scoreboard.
	ConfigsDir string
	// Out is the results root (--out); Run.OutRoot is Out itself or,
	// with --with, a folder inside it.
	Out string
	// Baseline, when set, is a results root the runs are compared with
	// (Compare's tolerances); with --with, the added cells are set aside.
	Baseline string
	Compare  report.CompareOptions
	// WriteBaseline, when set, receives the records and claims of every
	// config run (a baseline refresh).
	WriteBaseline string
}

// Suite runs the entries (KeepGoing: a config that fails is recorded and
// the rest run), then writes the scoreboard and the indexes, compares
// with the baseline, writes the baseline asked for and suite.json. It
// returns an error only when interrupted (a *runner.InterruptedError);
// every other problem is in the report: a config's error in its run, a
// comparison or writing problem in Problems, and each counts in Status.
func Suite(ctx context.Context, entries []Entry, o SuiteOptions) (*Report, error) {
	rep := &Report{Started: time.Now(), Workers: o.Run.Workers, Baseline: o.Baseline, Manifest: report.NewManifest()}
	o.KeepGoing = true
	results, err := Run(ctx, entries, o.Options)
	if err != nil {
		return nil, err
	}
	code := OK
	for _, r := range results {
		cr := NewConfigRun(r)
		code = Worse(code, cr.Status)
		rep.Runs = append(rep.Runs, cr)
	}
	log := o.Run.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	// The records and their own pages are written: a page that links
	// them failing is logged, not fatal.
	if b, file, err := WriteScoreboard(o.ConfigsDir, o.Run.OutRoot); err != nil {
		log.Warn("scoreboard not written", "err", err)
	} else {
		if len(b.Untitled) > 0 {
			log.Warn("scoreboard: paper titles not found, those papers are headed by their ids", "papers", len(b.Untitled), "first", b.Untitled[0])
		}
		log.Info("scoreboard", "file", file)
	}
	if pages, err := WriteIndexes(o.Out, o.Run.OutRoot); err != nil {
		log.Warn("results index not written", "err", err)
	} else {
		for _, p := range pages {
			log.Info("results index", "file", p)
		}
	}
	rep.Seconds = time.Since(rep.Started).Seconds()
	if o.Baseline != "" {
		ch, err := CompareBaseline(o.Baseline, rep.Runs, o.Compare)
		if err == nil {
			ch, rep.NotCompared, err = SetAsideAdded(ch, rep.Runs, entries)
		}
		if err != nil {
			rep.Problems = append(rep.Problems, err.Error())
			code = Worse(code, Usage)
		} else {
			rep.Changes, rep.Compared = ch, true
			if len(ch) > 0 {
				code = Worse(code, Changed)
			}
		}
	}
	if o.WriteBaseline != "" {
		if err := WriteBaselines(rep.Runs, o.WriteBaseline); err != nil {
			rep.Problems = append(rep.Problems, err.Error())
			code = Worse(code, Usage)
		}
	}
	rep.Status = code
	if err := rep.Write(o.Run.OutRoot); err != nil {
		rep.Problems = append(rep.Problems, err.Error())
		rep.Status = Worse(rep.Status, Usage)
	}
	return rep, nil
}
