package suite

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/runexp/runexp/internal/paperreport"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
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
// returns an error only when interrupted (a *runner.InterruptedError),
// and then also the report it wrote to suite.json, marked Interrupted,
// with what finished before the stop (Report.stopped); every other
// problem is in the report: a config's error in its run, a comparison or
// writing problem in Problems, and each counts in Status.
func Suite(ctx context.Context, entries []Entry, o SuiteOptions) (*Report, error) {
	rep := &Report{Started: time.Now(), Workers: o.Run.Workers, Baseline: o.Baseline, Manifest: report.NewManifest()}
	cpu0 := ProcessCPU()
	o.KeepGoing = true
	if o.Times == nil {
		// The previous suite's cell times (or the baseline's) order the
		// cells whose cache entries do not record theirs (--no-cache,
		// --force, new code, a fresh results folder).
		o.Times, _, _ = EarlierTimes(entries, Earlier{Baseline: o.Baseline, OutRoot: o.Run.OutRoot})
	}
	if o.Shard.Active() {
		return runShard(ctx, entries, o, rep, cpu0)
	}
	// The scoreboard after the runs needs the paper values: without them
	// the suite would compute everything and then fail, so it fails
	// first.
	if _, err := SuitePaperValues(o.ConfigsDir); err != nil {
		return nil, err
	}
	results, err := Run(ctx, entries, o.Options)
	if isInterrupted(err) {
		rep.stopped(results, cpu0, func() error { return rep.Write(o.Run.OutRoot) })
		return rep, err
	}
	if err != nil {
		return nil, err
	}
	for _, r := range results {
		rep.Runs = append(rep.Runs, NewConfigRun(r))
	}
	rep.finish(o, entries, cpu0)
	return rep, nil
}

func isInterrupted(err error) bool {
	var ie *runner.InterruptedError
	return errors.As(err, &ie)
}

// stopped fills in the report of a suite stopped by a signal from the
// results Run returned (every config: those completed, and those marked
// interrupted with the cells they finished) and writes it with write, so
// that the times measured before the stop are kept; a writing problem
// goes to Problems. It compares nothing and writes no index, scoreboard
// or baseline: the stop is to be quick, and they would be of part of the
// suite.
func (rep *Report) stopped(results []Result, cpu0 float64, write func() error) {
	rep.Interrupted, rep.Status = true, Interrupted
	for _, r := range results {
		rep.Runs = append(rep.Runs, NewConfigRun(r))
	}
	rep.Seconds = time.Since(rep.Started).Seconds()
	rep.measure(cpu0)
	if err := write(); err != nil {
		rep.Problems = append(rep.Problems, err.Error())
	}
}

// finish does what follows the runs: the scoreboard, the indexes, the
// comparison with the baseline, the baseline asked for and suite.json
// with the times; it sets Status.
func (rep *Report) finish(o SuiteOptions, entries []Entry, cpu0 float64) {
	code := OK
	for _, r := range rep.Runs {
		code = Worse(code, r.Status)
	}
	log := o.Run.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	// The records are written: a page that links them failing is
	// logged, not fatal. The run pages come first, so that every verdict
	// of the scoreboard links its claim's row on its run's page; the
	// index again after it, to link it and show each paper's headline.
	if _, err := WriteIndexes(o.Out, o.Run.OutRoot, nil); err != nil {
		log.Warn("run pages not written", "err", err)
	}
	var papers []report.IndexPaper
	if b, file, err := WriteScoreboard(o.ConfigsDir, o.Run.OutRoot); err != nil {
		// Totals over a different set of claims would read as a
		// different result: the run is a usage error until the paper
		// values are found.
		log.Warn("scoreboard not written", "err", err)
		rep.Problems = append(rep.Problems, "scoreboard not written: "+err.Error())
		code = Worse(code, Usage)
	} else {
		if len(b.Untitled) > 0 {
			log.Warn("scoreboard: paper titles not found, those papers are headed by their ids", "papers", len(b.Untitled), "first", b.Untitled[0])
		}
		rep.PaperClaims = b.ClaimLines()
		papers = Headlines(b)
		log.Info("scoreboard", "file", file)
	}
	if pages, err := WriteIndexes(o.Out, o.Run.OutRoot, papers); err != nil {
		log.Warn("results index not written", "err", err)
	} else {
		for _, p := range pages {
			log.Info("results index", "file", p)
		}
	}
	rep.Seconds = time.Since(rep.Started).Seconds()
	rep.measure(cpu0)
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
			if page, err := writeDiffPage(o.Run.OutRoot, o.Baseline, ch); err != nil {
				rep.Problems = append(rep.Problems, err.Error())
				code = Worse(code, Usage)
			} else {
				rep.DiffPage = page
			}
		}
	}
	if o.WriteBaseline != "" {
		if err := WriteBaselines(rep.Runs, entries, o.WriteBaseline); err != nil {
			rep.Problems = append(rep.Problems, err.Error())
			code = Worse(code, Usage)
		}
	}
	rep.Status = code
	if err := rep.Write(o.Run.OutRoot); err != nil {
		rep.Problems = append(rep.Problems, err.Error())
		rep.Status = Worse(rep.Status, Usage)
	}
	rep.reports(o, entries, papers, log)
}

// reports writes a report per paper run, from the results just written
// and suite.json, and the index again (with the papers' headlines) to
// link them; a failure is a problem of the run, recorded in suite.json.
func (rep *Report) reports(o SuiteOptions, entries []Entry, papers []report.IndexPaper, log *slog.Logger) {
	files, err := WriteReports(o.ConfigsDir, o.Run.OutRoot, entries)
	for _, f := range files {
		log.Info("paper report", "file", f)
	}
	if len(files) > 0 {
		if _, err := WriteIndexes(o.Out, o.Run.OutRoot, papers); err != nil {
			log.Warn("results index not written", "err", err)
		}
	}
	if err != nil {
		log.Warn("paper reports not written", "err", err)
		rep.Problems = append(rep.Problems, "paper reports not written: "+err.Error())
		rep.Status = Worse(rep.Status, Usage)
		if err := rep.Write(o.Run.OutRoot); err != nil {
			rep.Problems = append(rep.Problems, err.Error())
		}
	}
}

// WriteReports writes root/reports/PAPER/{REPORT.md,report.html,
// metadata.yaml} (internal/paperreport) for each paper whose configs
// among entries cite its paper-values file, and returns the pages
// written (report.html).
func WriteReports(configs, root string, entries []Entry) ([]string, error) {
	var papers []string
	for _, e := range entries {
		c := e.Config
		for _, cl := range c.Claims {
			if strings.Contains(cl.Source, "paper-values/"+c.Paper+".yaml") && !slices.Contains(papers, c.Paper) {
				papers = append(papers, c.Paper)
			}
		}
	}
	if len(papers) == 0 {
		return nil, nil
	}
	slices.Sort(papers)
	pv, err := SuitePaperValues(configs)
	if err != nil {
		return nil, err
	}
	var pages []string
	for _, p := range papers {
		files, err := paperreport.WriteUnder(paperreport.Options{Configs: configs, Root: root, PaperValues: pv}, p, root, filepath.Join(root, "reports", p))
		if err != nil {
			return pages, err
		}
		for _, f := range files {
			if filepath.Base(f) == "report.html" {
				pages = append(pages, f)
			}
		}
	}
	return pages, nil
}

// PredictAt are the worker counts suite.json predicts wall times for;
// PredictArrays the shard arrays (shards × workers each).
var (
	PredictAt     = []int{1, 2, 4, 8, 16, 64}
	PredictArrays = [][2]int{{4, 2}, {16, 2}, {64, 1}}
)

// measure fills in the process's CPU time since cpu0, the utilisation,
// the critical path and the predictions.
func (rep *Report) measure(cpu0 float64) {
	rep.CPUSeconds = ProcessCPU() - cpu0
	rep.CellCPUSeconds = 0
	for _, r := range rep.Runs {
		rep.CellCPUSeconds += r.CPUSeconds
	}
	if rep.Seconds > 0 && rep.Workers > 0 {
		rep.Utilisation = rep.CPUSeconds / (rep.Seconds * float64(rep.Workers))
	}
	w := rep.Workload()
	if cp := w.Critical(); cp.CellTime > 0 {
		rep.Critical = &cp
		rep.Predicted = nil
		for _, n := range PredictAt {
			rep.Predicted = append(rep.Predicted, w.Predict(n))
		}
		for _, a := range PredictArrays {
			rep.Predicted = append(rep.Predicted, w.PredictShards(a[0], a[1]))
		}
	}
}

// Workload is the report's workload (WorkloadOf), every task's CPU time
// scaled by the process's over its tasks' (Overhead).
func (rep *Report) Workload() Workload {
	return WorkloadOf(rep.Runs).Scaled(rep.Overhead())
}

// Overhead is the process's CPU time over its tasks' (at least 1; 1 where
// either is unknown): the garbage collector's and the runtime's threads,
// which no task's clock sees but which take the cores while tasks run.
func (rep *Report) Overhead() float64 {
	if rep.CPUSeconds <= 0 || rep.CellCPUSeconds <= 0 {
		return 1
	}
	return max(1, rep.CPUSeconds/rep.CellCPUSeconds)
}
