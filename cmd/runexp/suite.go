package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
	"github.com/runexp/runexp/internal/suite"
)

// onlyFlag collects --only globs (repeatable, or comma-separated).
type onlyFlag []string

func (o *onlyFlag) String() string { return strings.Join(*o, ",") }
func (o *onlyFlag) Set(s string) error {
	for _, g := range strings.Split(s, ",") {
		if g = strings.TrimSpace(g); g != "" {
			if err := suite.CheckGlob(g); err != nil {
				return err
			}
			*o = append(*o, g)
		}
	}
	return nil
}

// suiteFlags are runexp suite's flags.
type suiteFlags struct {
	jobFlags
	baseline, writeBaseline, shard, predict string
	history                                 string
	only                                    onlyFlag
	merge, dryRun                           bool
	rtol, atol                              float64
}

func newSuiteCommand() (*command, *suiteFlags) {
	c := newCommand("suite", []string{"runexp suite [flags] [CONFIG...]"},
		`Runs every config of --configs once (or those named, or those --only
selects), in one process, so configs on the same data share derived features
and kernel PCA fits; then writes the results index, the scoreboard and
OUT/suite.json (with --with, OUT/with-SLUG/suite.json: the run's own folder),
and compares what ran with --baseline (docs/nightly.md). A collection, named
or selected by --only, stands for its configs.

`+configWords)
	f := &suiteFlags{}
	f.register(c, "the `DIR` of the configs (every *.yaml in it)",
		"only warnings, errors, one line per config and, on a config longer than a minute, a progress line a minute")
	fs := c.flags
	fs.Var(&f.only, "only", "run only the configs whose name, or the name of a collection that lists them, matches `GLOB` (repeatable or comma-separated, e.g. 'huang-*,table1')")
	fs.StringVar(&f.baseline, "baseline", "", "compare the configs run with this baseline `DIR` (a results root, e.g. baseline); exit 1 when anything moved (with --with, the configs' own methods: the added cells are listed apart)")
	fs.StringVar(&f.writeBaseline, "write-baseline", "", "after the run, write the records and claims of every config run into this `DIR` (refreshing a baseline)")
	fs.Float64Var(&f.rtol, "rtol", 1e-9, "relative tolerance `R` of the baseline comparison")
	fs.Float64Var(&f.atol, "atol", 1e-12, "absolute tolerance `A` of the baseline comparison")
	fs.StringVar(&f.shard, "shard", "", "run only shard `i/n` of the suite's cells (0 ≤ i < n; the cells of all configs numbered one after another, a cell several configs share once) and write their records for runexp suite --merge (docs/array-jobs.md)")
	fs.BoolVar(&f.merge, "merge", false, "assemble the shards of runexp suite --shard i/n (same configs and flags) into every config's outputs, the index, the scoreboard, the baseline comparison and suite.json")
	fs.StringVar(&f.predict, "predict", "", "print the wall time predicted on `N` workers (a comma-separated list; MxN for an array of M shards of N workers each) from the recorded CPU times of every unit of work, and exit: from the suite.json given as the one argument, else from the cell cache for the cells of the configs selected that a run would compute (cached cells cost nothing; runexp status says why each is computed)")
	fs.StringVar(&f.history, "history", "", "keep this night's suite.json, claim verdicts and headline metrics in `DIR` (DIR/nights/), then print the claims and headline metrics that moved on this night, each with its series over the last nights, and write DIR/index.html with every series (docs/nightly.md)")
	fs.BoolVar(&f.dryRun, "dry-run", false, "compute and write nothing: say which cells the cache serves and why each other one would be computed (runexp status)")
	return c, f
}

// cmdSuite runs every config of a directory once, in one process (so
// configs on the same data share derived features and model fits), writes
// one results index and suite.json with per-config and total wall times,
// and optionally compares what it ran with a committed baseline.
func cmdSuite(args []string, stdout, stderr io.Writer) int {
	c, f := newSuiteCommand()
	term, e, pos, code, done := f.open(c, "runexp suite", args, stdout, stderr)
	if done {
		return code
	}
	shard, err := f.parseShard()
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	if f.predict != "" {
		return cmdPredict(e, f, pos, stdout)
	}
	e, ctx, stop := f.begin(term, "runexp suite")
	defer stop()
	o, entries, err := f.options(e, term, pos, shard)
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	if f.dryRun {
		return dryRunEntries(e, stdout, entries, o.Run, f.jobs, false, f.quiet)
	}
	p := newPrinter(stdout)
	var rep *suite.Report
	err = f.drive(term, &o.Options, func(r suite.Result) { printSuiteConfig(e, p, r, shard) }, func() error {
		var err error
		if f.merge {
			rep, err = suite.MergeSuite(entries, o)
		} else {
			rep, err = suite.Suite(ctx, entries, o)
		}
		return err
	})
	if err != nil {
		if rep != nil {
			printStopped(e, p, rep, o.Run.OutRoot, shard)
		}
		return runError(e, err)
	}
	code = f.printReport(e, p, stdout, rep, o.Run.OutRoot, shard)
	if f.history != "" && !shard.Active() {
		code = suite.Worse(code, f.keepHistory(e, stdout, rep, entries, o.Run.OutRoot))
	}
	return code
}

// historyShown is how many nights the text view of --history shows.
const historyShown = 6

// keepHistory adds the suite to the history of --history (suite.KeepNight)
// and shows what moved on this night; a history that cannot be kept is a
// usage error (exit status 2), the night being lost otherwise.
func (f *suiteFlags) keepHistory(e *errOut, stdout io.Writer, rep *suite.Report, entries []suite.Entry, root string) int {
	if _, err := suite.KeepNight(f.history, root, rep, entries); err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	nights, err := suite.ReadHistory(f.history)
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	series := suite.HistorySeries(nights, report.CompareOptions{RelTol: f.rtol, AbsTol: f.atol})
	fmt.Fprintln(stdout)
	suite.WriteHistoryText(stdout, f.history, nights, series, historyShown)
	page, err := suite.WriteHistoryPage(f.history, nights, series)
	if err != nil {
		return e.fail(exitUsage, "--history: %v", err)
	}
	fmt.Fprintf(stdout, "history page: %s\n", page)
	return exitOK
}

// printStopped says where an interrupted suite kept the times of what
// finished before the stop (suite.Report.stopped).
func printStopped(e *errOut, p printer, rep *suite.Report, root string, shard runner.Shard) {
	for _, pr := range rep.Problems {
		e.err("%s", pr)
	}
	if len(rep.Problems) > 0 {
		return
	}
	file := filepath.Join(root, "suite.json")
	if shard.Active() {
		file = suite.ShardReport(root, shard)
	}
	finished := 0
	for _, r := range rep.Runs {
		if !r.Interrupted {
			finished++
		}
	}
	timed, _, cells := rep.Coverage()
	p.line(fmt.Sprintf("suite: interrupted after %.1f s; %d of %d configs finished, %d of %d cells have a time → %s (marked interrupted)",
		rep.Seconds, finished, len(rep.Runs), timed, cells, file))
}

// parseShard reads --shard, which excludes the comparisons: they belong
// to the --merge step.
func (f *suiteFlags) parseShard() (runner.Shard, error) {
	if f.shard == "" {
		return runner.Shard{}, nil
	}
	shard, err := runner.ParseShard(f.shard)
	if err != nil {
		return shard, err
	}
	if f.merge || f.writeBaseline != "" || f.baseline != "" {
		return shard, errors.New("--shard runs one task of an array: compare (--baseline, --write-baseline) in the --merge step")
	}
	return shard, nil
}

// options checks the flags, selects and validates every config (before
// any runs) and returns the suite's options and configs; every error is
// a usage error.
func (f *suiteFlags) options(e *errOut, tw *term, pos []string, shard runner.Shard) (suite.SuiteOptions, []suite.Entry, error) {
	var o suite.SuiteOptions
	with, root, err := f.with.resolve(f.out)
	if err == nil {
		err = f.prof.prepare()
	}
	switch {
	case err != nil:
		return o, nil, err
	case len(with) > 0 && f.writeBaseline != "":
		// A baseline holds the configs' own methods; added ones would
		// show as changes in every later comparison.
		return o, nil, errors.New("--with and --write-baseline exclude each other")
	case f.jobs < 1:
		return o, nil, fmt.Errorf("-j %d: want at least 1 worker", f.jobs)
	}
	log, err := newLogger(tw, f.logFormat, f.verbose, f.quiet)
	if err != nil {
		return o, nil, err
	}
	if len(pos) > 0 {
		if _, err := resolveConfigs(f.configs, pos); err != nil {
			return o, nil, err
		}
	}
	files, err := suite.Select(f.configs, pos, f.only)
	if err != nil {
		return o, nil, err
	}
	if f.baseline != "" {
		if fi, err := os.Stat(f.baseline); err != nil || !fi.IsDir() {
			return o, nil, fmt.Errorf("--baseline %s: not a directory", f.baseline)
		}
	}
	entries, err := loadEntries(e, files, with, f.allowExternal)
	if err != nil {
		return o, nil, err
	}
	o = suite.SuiteOptions{
		Options: suite.Options{
			Run: runner.Options{
				DataDir: f.data, OutRoot: root, CacheDir: cacheFor(f.cache, f.out), NoCache: f.noCache, Force: f.force,
				Workers: f.jobs, Log: log, Top: f.out, AllowExternal: f.allowExternal,
			},
			Shard:  shard,
			Around: f.prof.around(log),
		},
		ConfigsDir: f.configs, Out: f.out,
		Baseline: f.baseline, Compare: report.CompareOptions{RelTol: f.rtol, AbsTol: f.atol},
		WriteBaseline: f.writeBaseline,
	}
	return o, entries, nil
}

// printSuiteConfig prints one config's line as it completes.
func printSuiteConfig(e *errOut, p printer, r suite.Result, shard runner.Shard) {
	if r.Err != nil {
		e.err("%s: %v", r.Config.Name, r.Err)
		return
	}
	sum := r.Summary
	if shard.Active() {
		p.line(fmt.Sprintf("%s: shard %d/%d, %s, %.1f s", r.Config.Name, shard.Index, shard.Count, cellCounts(sum), r.Seconds))
		return
	}
	p.line(fmt.Sprintf("%s: %s, claims: %s, %.1f s", r.Config.Name, cellCounts(sum), claimCounts(sum), r.Seconds))
	printUnexpected(p, r.Config.Name, sum)
}

// printReport prints the suite's problems, its comparison with the
// baseline, its times and where it wrote, and returns its exit status.
func (f *suiteFlags) printReport(e *errOut, p printer, stdout io.Writer, rep *suite.Report, root string, shard runner.Shard) int {
	for _, pr := range rep.Problems {
		e.err("%s", pr)
	}
	if rep.Compared {
		fmt.Fprintln(stdout)
		title := "Changes against the baseline in " + filepath.Clean(f.baseline) + string(filepath.Separator)
		if err := report.NewDiff(rep.Changes).RenderText(stdout, title, diffWidth(stdout)); err != nil {
			e.err("%v", err)
		}
		if rep.DiffPage != "" {
			p.line("the changes as a page: " + rep.DiffPage)
		}
		if len(rep.NotCompared) > 0 {
			fmt.Fprintln(stdout)
			if err := forTerminal(suite.AddedTable(rep.NotCompared), stdout).RenderText(stdout); err != nil {
				e.err("%v", err)
			}
		}
	}
	if f.writeBaseline != "" {
		fmt.Fprintf(stdout, "baseline of %d configs written to %s: review it (git diff) before committing\n", len(rep.Runs), f.writeBaseline)
	}
	fmt.Fprintln(stdout)
	forTerminal(rep.TimesTable(), stdout).RenderText(stdout)
	if len(rep.PaperClaims) > 0 {
		// The summary leads with the papers' claims, the unit the
		// scoreboard and the reports count (rows are evidence).
		fmt.Fprintln(stdout)
		for _, l := range rep.PaperClaims {
			p.line(l)
		}
	}
	for _, l := range rep.Where() {
		p.line(l)
	}
	if shard.Active() {
		p.line(fmt.Sprintf("suite: shard %d/%d of %d configs, %.1f s, exit status %d (docs/exit-status.md) → %s; then runexp suite --merge",
			shard.Index, shard.Count, len(rep.Runs), rep.Seconds, rep.Status, suite.ShardReport(root, shard)))
		return rep.Status
	}
	p.line(fmt.Sprintf("suite: %d configs, %.1f s, exit status %d (docs/exit-status.md) → %s", len(rep.Runs), rep.Seconds, rep.Status, filepath.Join(root, "suite.json")))
	if why := incomplete(rep.Runs); why != "" {
		p.line("incomplete (exit status 3): " + why)
	}
	return rep.Status
}

// incomplete names what makes a suite incomplete (exit status 3): the
// claims not evaluated and the configs with failed cells, "" when none.
func incomplete(runs []suite.ConfigRun) string {
	var parts []string
	for _, r := range runs {
		for _, id := range r.NotEvaluatedIDs {
			parts = append(parts, r.Name+": claim "+id+" not evaluated")
		}
		if r.Failed > 0 {
			parts = append(parts, fmt.Sprintf("%s: %s failed", r.Name, count(r.Failed, "cell")))
		}
	}
	return strings.Join(parts, "; ")
}

// diffWidth is the width the changes are printed in: report.TextWidth
// (120), or a narrower terminal's.
func diffWidth(w io.Writer) int {
	if isTerminal(w) {
		return min(terminalWidth(w), report.TextWidth)
	}
	return report.TextWidth
}

// parsePredictList reads --predict's list: worker counts, and shard
// arrays SHARDSxWORKERS, each from 1 to suite.MaxPredictWorkers.
func parsePredictList(list string) (ns []int, arrays [][2]int, ok bool) {
	in := func(n int, err error) bool { return err == nil && n >= 1 && n <= suite.MaxPredictWorkers }
	for _, x := range strings.Split(list, ",") {
		x = strings.TrimSpace(x)
		if a, b, isArray := strings.Cut(x, "x"); isArray {
			m, err1 := strconv.Atoi(a)
			n, err2 := strconv.Atoi(b)
			if !in(m, err1) || !in(n, err2) {
				return nil, nil, false
			}
			arrays = append(arrays, [2]int{m, n})
			continue
		}
		n, err := strconv.Atoi(x)
		if !in(n, err) {
			return nil, nil, false
		}
		ns = append(ns, n)
	}
	return ns, arrays, true
}

// cmdPredict prints the wall time predicted at each worker count in
// f.predict (comma-separated) from recorded cell times: of the suite.json
// named by args when it is one file ending in .json, else of the cells of
// the configs selected that a run would compute, as the cell cache
// recorded them (suite.DryRun: cached cells cost nothing).
func cmdPredict(e *errOut, f *suiteFlags, args []string, stdout io.Writer) int {
	ns, arrays, ok := parsePredictList(f.predict)
	if !ok {
		return e.fail(exitUsage, "--predict %s: want worker counts from 1 to %d or shard arrays SHARDSxWORKERS (e.g. 16x2), comma-separated", f.predict, suite.MaxPredictWorkers)
	}
	var w suite.Workload
	var from string
	if len(args) == 1 && strings.HasSuffix(args[0], ".json") {
		rep, err := suite.ReadReport(args[0])
		if err != nil {
			return e.fail(exitUsage, "%v", err)
		}
		w = rep.Workload()
		if err := w.Check(); err != nil {
			return e.fail(exitUsage, "--predict: %s: %v", args[0], err)
		}
		from = fmt.Sprintf("%s (%d workers, %.1f s measured, utilisation %.0f%%", args[0], rep.Workers, rep.Seconds, 100*rep.Utilisation)
		if f := rep.Overhead(); f > 1 {
			from += fmt.Sprintf("; the tasks' CPU times × %.2f, the process's CPU over its tasks'", f)
		}
		from += ")"
		if timed, cached, cells := rep.Coverage(); cached > 0 || timed < cells {
			from += fmt.Sprintf("; %d of its %d cells have a time, %d of them recorded in the cache when an earlier run computed them", timed, cells, cached)
		}
		if rep.Interrupted {
			from += "; the suite was interrupted, so this predicts only the cells that have a time"
		}
	} else {
		files, err := suite.Select(f.configs, args, f.only)
		var entries []suite.Entry
		if err == nil {
			entries, err = suite.Load(files, nil, e.lines())
		}
		if err == nil {
			err = suite.CheckExternal(entries, f.allowExternal)
		}
		var dry *suite.DryRunReport
		cache := cacheFor(f.cache, f.out)
		if err == nil {
			dry, err = suite.DryRun(entries, runner.Options{DataDir: f.data, OutRoot: f.out, CacheDir: cache, NoCache: f.noCache, Force: f.force, AllowExternal: f.allowExternal})
		}
		if err != nil {
			return e.fail(exitUsage, "%v", err)
		}
		var unknown int
		w, unknown = dry.Workload()
		_, cached, run, distinct := dry.Counts()
		from = fmt.Sprintf("the cell cache %s: of the %d cells a run would compute (%d computations; %d cells are cached and cost nothing), %d have a recorded time; Start and report times are not in the cache", cache, run, distinct, cached, distinct-unknown)
	}
	if len(ns) > 0 {
		t := suite.PredictionTable(w, ns)
		t.Caption += " From " + from + "."
		if err := forTerminal(t, stdout).RenderText(stdout); err != nil {
			return e.fail(exitUsage, "%v", err)
		}
	}
	if len(arrays) > 0 {
		t := suite.ShardTable(w, arrays)
		t.Caption += " From " + from + "."
		if err := forTerminal(t, stdout).RenderText(stdout); err != nil {
			return e.fail(exitUsage, "%v", err)
		}
	}
	return exitOK
}
