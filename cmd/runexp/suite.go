package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/runexp/runexp/internal/config"
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

// cmdSuite runs every config of a directory once, in one process (so
// configs on the same data share derived features and model fits), writes
// one results index and suite.json with per-config and total wall times,
// and optionally compares what it ran with a committed baseline.
func cmdSuite(args []string, stdout, stderr io.Writer) int {
	c := newCommand("suite", []string{"runexp suite [flags] [CONFIG...]"},
		`Runs every config of --configs once (or those named, or those --only
selects), in one process, so configs on the same data share derived features
and kernel PCA fits; then writes the results index, the scoreboard and
OUT/suite.json (with --with, OUT/with-SLUG/suite.json: the run's own folder),
and compares what ran with --baseline (docs/nightly.md). A collection, named
or selected by --only, stands for its configs.

`+configWords)
	fs := c.flags
	dir := fs.String("configs", "configs", "the `DIR` of the configs (every *.yaml in it)")
	var only onlyFlag
	fs.Var(&only, "only", "run only the configs whose name, or the name of a collection that lists them, matches `GLOB` (repeatable or comma-separated, e.g. 'huang-*,table1')")
	data := fs.String("data", "", "the data root `DIR` (default $RUNEXP_DATA)")
	out := fs.String("out", "results", "the results root `DIR`")
	jobs := fs.Int("j", runtime.GOMAXPROCS(0), "`N` cells computed at once")
	cache := fs.String("cache", "", "the cell cache `DIR` (default OUT/.cache)")
	noCache := fs.Bool("no-cache", false, "neither read nor write the cell cache")
	force := fs.Bool("force", false, "recompute every cell")
	baseline := fs.String("baseline", "", "compare the configs run with this baseline `DIR` (a results root, e.g. baseline); exit 1 when anything moved (with --with, the configs' own methods: the added cells are listed apart)")
	writeBaseline := fs.String("write-baseline", "", "after the run, write the records and claims of every config run into this `DIR` (refreshing a baseline)")
	rtol := fs.Float64("rtol", 1e-9, "relative tolerance `R` of the baseline comparison")
	atol := fs.Float64("atol", 1e-12, "absolute tolerance `A` of the baseline comparison")
	logFormat := fs.String("log-format", "text", "the log's `FORMAT` on stderr: text, or json (every stderr line a JSON record, errors included)")
	verbose := fs.Bool("v", false, "debug logging")
	var wo withOptions
	wo.register(fs)
	allowExternal := fs.Bool("allow-external", false, allowExternalUsage)
	quiet := fs.Bool("quiet", false, "only warnings, errors, one line per config and, on a config longer than a minute, a progress line a minute")
	c.alias("q", "quiet")
	var prof profiler
	prof.register(fs)
	shardFlag := fs.String("shard", "", "run only shard `i/n` of the suite's cells (0 ≤ i < n; the cells of all configs numbered one after another) and write their records for runexp suite --merge (docs/array-jobs.md)")
	merge := fs.Bool("merge", false, "assemble the shards of runexp suite --shard i/n (same configs and flags) into every config's outputs, the index, the scoreboard, the baseline comparison and suite.json")
	predict := fs.String("predict", "", "print the wall time predicted on `N` workers (a comma-separated list) from recorded cell times, and exit: from the suite.json given as the one argument, else from the cell cache for the configs selected")
	term := newTerm(stderr)
	e := newErrOut(term, "runexp suite", wantsJSON(args))
	term.json = wantsJSON(args)
	pos, code, done := c.start(args, stdout, e)
	if done {
		return code
	}
	if *logFormat != "text" && *logFormat != "json" {
		return e.fail(exitUsage, "--log-format %q: want text or json", *logFormat)
	}
	var shard runner.Shard
	if *shardFlag != "" {
		var err error
		if shard, err = runner.ParseShard(*shardFlag); err != nil {
			return e.fail(exitUsage, "%v", err)
		}
		if *merge || *writeBaseline != "" || *baseline != "" {
			return e.fail(exitUsage, "--shard runs one task of an array: compare (--baseline, --write-baseline) in the --merge step")
		}
	}
	if *predict != "" {
		return cmdPredict(e, *predict, *dir, *out, *cache, pos, only, stdout)
	}
	e = newErrOut(term, "runexp suite", *logFormat == "json")
	term.json = *logFormat == "json"
	with, root, err := wo.resolve(*out)
	if err == nil {
		err = prof.prepare()
	}
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	cacheDir := *cache // shared with the plain runs of --out, as in runexp run
	if cacheDir == "" {
		cacheDir = filepath.Join(*out, ".cache")
	}
	if len(with) > 0 && *writeBaseline != "" {
		// A baseline holds the configs' own methods; added ones would
		// show as changes in every later comparison.
		return e.fail(exitUsage, "--with and --write-baseline exclude each other")
	}
	if *jobs < 1 {
		return e.fail(exitUsage, "-j %d: want at least 1 worker", *jobs)
	}
	log, err := newLogger(term, *logFormat, *verbose, *quiet)
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	if len(pos) > 0 {
		if _, err := resolveConfigs(*dir, pos); err != nil {
			return e.fail(exitUsage, "%v", err)
		}
	}
	files, err := suite.Select(*dir, pos, only)
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	if *baseline != "" {
		if fi, err := os.Stat(*baseline); err != nil || !fi.IsDir() {
			return e.fail(exitUsage, "--baseline %s: not a directory", *baseline)
		}
	}
	// Every config is validated before any runs.
	entries, err := suite.Load(files, with, e.lines())
	if err == nil {
		err = suite.CheckExternal(entries, *allowExternal)
	}
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	ctx, stop := interrupts(e, *noCache)
	defer stop()
	outTTY := isTerminal(stdout)
	p := printer{w: stdout, width: terminalWidth(stdout), tty: outTTY}
	bars := newProgresses(func(cf *config.Config) *progress {
		return newProgress(term, progressLog(term, log, *logFormat, *quiet), cf.Name, *quiet, *logFormat == "json")
	})

	o := suite.SuiteOptions{
		Options: suite.Options{
			Run: runner.Options{
				DataDir: *data, OutRoot: root, CacheDir: cacheDir, NoCache: *noCache, Force: *force,
				Workers: *jobs, Log: log, Top: *out, AllowExternal: *allowExternal,
			},
			Shard:    shard,
			Around:   prof.around(log),
			Progress: bars.of,
			Done: func(r suite.Result) {
				bars.stop(r.Config)
				term.endBar()
				if r.Err != nil {
					e.err("%s: %v", r.Config.Name, r.Err)
					return
				}
				sum := r.Summary
				if shard.Active() {
					p.line(fmt.Sprintf("%s: shard %d/%d, %d cells (%d computed, %d cached, %d failed), %.1f s",
						r.Config.Name, shard.Index, shard.Count, sum.Cells, sum.Computed, sum.Cached, sum.Failed, r.Seconds))
					return
				}
				p.line(fmt.Sprintf("%s: %d cells (%d computed, %d cached, %d failed), claims: %s, %.1f s",
					r.Config.Name, sum.Cells, sum.Computed, sum.Cached, sum.Failed, claimCounts(sum), r.Seconds))
				printUnexpected(p, r.Config.Name, sum)
			},
		},
		ConfigsDir: *dir, Out: *out,
		Baseline: *baseline, Compare: report.CompareOptions{RelTol: *rtol, AbsTol: *atol},
		WriteBaseline: *writeBaseline,
	}
	var rep *suite.Report
	if *merge {
		rep = suite.MergeSuite(entries, o)
	} else {
		rep, err = suite.Suite(ctx, entries, o)
	}
	bars.stop(nil)
	term.endBar()
	if err != nil {
		var ie *runner.InterruptedError
		if errors.As(err, &ie) {
			return e.fail(exitInterrupted, "%v", err)
		}
		return e.fail(exitUsage, "%v", err)
	}
	for _, pr := range rep.Problems {
		e.err("%s", pr)
	}
	if rep.Compared {
		fmt.Fprintln(stdout)
		t := report.ChangesTable(rep.Changes)
		t.Title = "Changes against the baseline " + *baseline
		if err := t.RenderText(stdout); err != nil {
			e.err("%v", err)
		}
		if len(rep.NotCompared) > 0 {
			fmt.Fprintln(stdout)
			if err := suite.AddedTable(rep.NotCompared).RenderText(stdout); err != nil {
				e.err("%v", err)
			}
		}
	}
	if *writeBaseline != "" {
		fmt.Fprintf(stdout, "baseline of %d configs written to %s: review it (git diff) before committing\n", len(rep.Runs), *writeBaseline)
	}
	fmt.Fprintln(stdout)
	rep.TimesTable().RenderText(stdout)
	for _, l := range rep.Where() {
		p.line(l)
	}
	if shard.Active() {
		p.line(fmt.Sprintf("suite: shard %d/%d of %d configs, %.1f s, exit status %d (docs/exit-status.md) → %s; then runexp suite --merge",
			shard.Index, shard.Count, len(rep.Runs), rep.Seconds, rep.Status, suite.ShardReport(root, shard)))
		return rep.Status
	}
	p.line(fmt.Sprintf("suite: %d configs, %.1f s, exit status %d (docs/exit-status.md) → %s", len(rep.Runs), rep.Seconds, rep.Status, filepath.Join(root, "suite.json")))
	return rep.Status
}

// cmdPredict prints the wall time predicted at each worker count in list
// (comma-separated) from recorded cell times: of the suite.json named by
// args when it is one file ending in .json, else of the cell cache for
// the configs selected.
func cmdPredict(e *errOut, list, dir, out, cache string, args, only []string, stdout io.Writer) int {
	var ns []int
	for _, f := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return e.fail(exitUsage, "--predict %s: want worker counts ≥ 1, comma-separated", list)
		}
		ns = append(ns, n)
	}
	var w suite.Workload
	var from string
	if len(args) == 1 && strings.HasSuffix(args[0], ".json") {
		rep, err := suite.ReadReport(args[0])
		if err != nil {
			return e.fail(exitUsage, "%v", err)
		}
		w = suite.WorkloadOf(rep.Runs)
		from = fmt.Sprintf("%s (%d workers, %.1f s measured, utilisation %.0f%%)", args[0], rep.Workers, rep.Seconds, 100*rep.Utilisation)
	} else {
		files, err := suite.Select(dir, args, only)
		var entries []suite.Entry
		if err == nil {
			entries, err = suite.Load(files, nil, e.lines())
		}
		if err != nil {
			return e.fail(exitUsage, "%v", err)
		}
		if cache == "" {
			cache = filepath.Join(out, ".cache")
		}
		var missing, total int
		w, missing, total, err = suite.CacheWorkload(entries, cache)
		if err != nil {
			return e.fail(exitUsage, "%v", err)
		}
		from = fmt.Sprintf("the cell cache %s: %d of %d cells have a recorded time; Start and report times are not in the cache", cache, total-missing, total)
	}
	t := suite.PredictionTable(w, ns)
	t.Caption += " From " + from + "."
	if err := t.RenderText(stdout); err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	return exitOK
}
