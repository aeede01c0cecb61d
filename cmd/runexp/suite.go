package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

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
	fs := flag.NewFlagSet("runexp suite", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("configs", "configs", "directory of configs (every *.yaml in it)")
	var only onlyFlag
	fs.Var(&only, "only", "run only configs whose name matches GLOB (repeatable or comma-separated, e.g. 'huang-*,zheng-lai-table1')")
	data := fs.String("data", "", "data root (default $RUNEXP_DATA)")
	out := fs.String("out", "results", "results root")
	jobs := fs.Int("j", runtime.GOMAXPROCS(0), "parallel cells")
	cache := fs.String("cache", "", "cell cache directory (default OUT/.cache)")
	noCache := fs.Bool("no-cache", false, "neither read nor write the cell cache")
	force := fs.Bool("force", false, "recompute every cell")
	baseline := fs.String("baseline", "", "compare the configs run with this baseline (a results root, e.g. baseline); exit 1 when anything moved (with --with, the configs' own methods: the added cells are listed apart)")
	writeBaseline := fs.String("write-baseline", "", "after the run, write the records and claims of every config run into this directory (refreshing a baseline)")
	rtol := fs.Float64("rtol", 1e-9, "relative tolerance of the baseline comparison")
	atol := fs.Float64("atol", 1e-12, "absolute tolerance of the baseline comparison")
	logFormat := fs.String("log-format", "text", "log format: text or json")
	verbose := fs.Bool("v", false, "debug logging")
	var wo withOptions
	wo.register(fs)
	quiet := fs.Bool("quiet", false, "only warnings, errors and one summary line per config")
	fs.BoolVar(quiet, "q", false, "same as --quiet")
	var prof profiler
	prof.register(fs)
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	with, root, err := wo.resolve(*out)
	if err == nil {
		err = prof.prepare()
	}
	if err != nil {
		fmt.Fprintln(stderr, "runexp suite:", err)
		return exitUsage
	}
	cacheDir := *cache // shared with the plain runs of --out, as in runexp run
	if cacheDir == "" {
		cacheDir = filepath.Join(*out, ".cache")
	}
	if len(with) > 0 && *writeBaseline != "" {
		// A baseline holds the configs' own methods; added ones would
		// show as changes in every later comparison.
		fmt.Fprintln(stderr, "runexp suite: --with and --write-baseline exclude each other")
		return exitUsage
	}
	if *jobs < 1 {
		fmt.Fprintf(stderr, "runexp suite: -j %d: want at least 1 worker\n", *jobs)
		return exitUsage
	}
	term := newTerm(stderr)
	log, err := newLogger(term, *logFormat, *verbose, *quiet)
	if err != nil {
		fmt.Fprintln(stderr, "runexp suite:", err)
		return exitUsage
	}
	files, err := suite.Select(*dir, fs.Args(), only)
	if err != nil {
		fmt.Fprintln(stderr, "runexp suite:", err)
		return exitUsage
	}
	if *baseline != "" {
		if fi, err := os.Stat(*baseline); err != nil || !fi.IsDir() {
			fmt.Fprintf(stderr, "runexp suite: --baseline %s: not a directory\n", *baseline)
			return exitUsage
		}
	}
	// Every config is validated before any runs.
	entries, err := suite.Load(files, with, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "runexp suite:", err)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	o := suite.SuiteOptions{
		Options: suite.Options{
			Run: runner.Options{
				DataDir: *data, OutRoot: root, CacheDir: cacheDir, NoCache: *noCache, Force: *force,
				Workers: *jobs, Log: log,
			},
			Around: prof.around(log),
			Done: func(r suite.Result) {
				term.endBar()
				if r.Err != nil {
					fmt.Fprintf(stderr, "runexp suite: %s: %v\n", r.Config.Name, r.Err)
					return
				}
				sum := r.Summary
				fmt.Fprintf(stdout, "%s: %d cells (%d computed, %d cached, %d failed), claims: %s, %.1f s\n",
					r.Config.Name, sum.Cells, sum.Computed, sum.Cached, sum.Failed, claimCounts(sum), r.Seconds)
				printUnexpected(stdout, r.Config.Name, sum)
			},
		},
		ConfigsDir: *dir, Out: *out,
		Baseline: *baseline, Compare: report.CompareOptions{RelTol: *rtol, AbsTol: *atol},
		WriteBaseline: *writeBaseline,
	}
	if !*quiet {
		o.Progress = func(c *config.Config) func(done, total int) { return newProgress(term, log, c.Name).update }
	}
	rep, err := suite.Suite(ctx, entries, o)
	if err != nil {
		term.endBar()
		fmt.Fprintln(stderr, "\nrunexp suite:", err)
		var ie *runner.InterruptedError
		if errors.As(err, &ie) {
			return exitInterrupted
		}
		return exitUsage
	}
	for _, p := range rep.Problems {
		fmt.Fprintln(stderr, "runexp suite:", p)
	}
	if rep.Compared {
		fmt.Fprintln(stdout)
		t := report.ChangesTable(rep.Changes)
		t.Title = "Changes against the baseline " + *baseline
		if err := t.RenderText(stdout); err != nil {
			fmt.Fprintln(stderr, "runexp suite:", err)
		}
		if len(rep.NotCompared) > 0 {
			fmt.Fprintln(stdout)
			if err := suite.AddedTable(rep.NotCompared).RenderText(stdout); err != nil {
				fmt.Fprintln(stderr, "runexp suite:", err)
			}
		}
	}
	if *writeBaseline != "" {
		fmt.Fprintf(stdout, "baseline of %d configs written to %s: review it (git diff) before committing\n", len(rep.Runs), *writeBaseline)
	}
	fmt.Fprintln(stdout)
	rep.TimesTable().RenderText(stdout)
	fmt.Fprintf(stdout, "suite: %d configs, %.1f s, exit status %d (docs/exit-status.md)\n", len(rep.Runs), rep.Seconds, rep.Status)
	return rep.Status
}
