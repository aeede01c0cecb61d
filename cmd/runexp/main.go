// Command runexp regenerates the tables and figures of kernel PCA pre-image
// papers from YAML configs, with the papers' own numbers beside ours.
//
// Usage:
//
//	runexp [flags] CONFIG...          run experiments (same as runexp run)
//	runexp validate CONFIG...         check configs without running
//	runexp list                       estimators, experiment kinds, datasets
//	runexp version                    build information
//	runexp denoise [flags]            apply an estimator to your own CSV data
//	runexp merge CONFIG...            assemble the shards of an array job
//	runexp compare OLD NEW            cells and claims that moved (nightly diffs)
//	runexp suite [flags] [CONFIG...]  every config once, compared with a baseline
//	runexp scoreboard RESULTS_ROOT    claims × readings, REPRODUCIBILITY.md
//
// Exit status (docs/exit-status.md): 0 as expected, 1 changed (a verdict
// differs from its expectation, a compared value moved, or a denoised row
// failed), 2 usage, config or data error, 3 incomplete (failed cells or
// claims not evaluated), 4 crash, 130 interrupted.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"

	_ "github.com/runexp/runexp/experiments"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
	"github.com/runexp/runexp/internal/suite"
)

// parseFlags parses args into fs. -h, -help or --help print fs's usage on
// stdout and give ok false with status 0; a bad flag prints the error and
// the usage on stderr and gives status 2.
func parseFlags(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (code int, ok bool) {
	usage := fs.Usage
	if usage == nil {
		usage = func() {
			fmt.Fprintf(fs.Output(), "Usage of %s:\n", fs.Name())
			fs.PrintDefaults()
		}
	}
	fs.Usage = func() {}
	fs.SetOutput(stderr)
	err := fs.Parse(args)
	fs.Usage = usage
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.SetOutput(stdout)
		usage()
		return exitOK, false
	case err != nil:
		usage()
		return exitUsage, false
	}
	return exitOK, true
}

// wantsHelp reports whether args ask for help before anything else.
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "-h", "-help", "--help":
			return true
		case "--":
			return false
		}
	}
	return false
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "run":
		return cmdRun(args[1:], stdout, stderr)
	case "validate":
		return cmdValidate(args[1:], stdout, stderr)
	case "list":
		if wantsHelp(args[1:]) {
			fmt.Fprintln(stdout, "Usage: runexp list\n\nLists the registered estimators with their parameters, the experiment kinds and the datasets.")
			return exitOK
		}
		return cmdList(stdout)
	case "version", "--version", "-version":
		if wantsHelp(args[1:]) {
			fmt.Fprintln(stdout, "Usage: runexp version (or runexp --version)\n\nPrints the module version, VCS revision, Go version and key dependencies.")
			return exitOK
		}
		return cmdVersion(stdout)
	case "denoise":
		return cmdDenoise(args[1:], stdout, stderr)
	case "merge":
		return cmdMerge(args[1:], stdout, stderr)
	case "compare":
		return cmdCompare(args[1:], stdout, stderr)
	case "suite":
		return cmdSuite(args[1:], stdout, stderr)
	case "check-estimator":
		return cmdCheckEstimator(args[1:], stdout, stderr)
	case "scoreboard":
		return cmdScoreboard(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		usage(stdout)
		return exitOK
	}
	return cmdRun(args, stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprint(w, `runexp regenerates kernel PCA pre-image experiments from YAML configs.

Usage:
  runexp [flags] CONFIG...     run experiments (same as runexp run)
  runexp --version             build information (same as runexp version)
  runexp validate CONFIG...    check configs without running
  runexp list                  estimators, experiment kinds, datasets
  runexp version               build information
  runexp denoise [flags]       apply an estimator to your own CSV data
  runexp merge [--out DIR] [--with SPEC] CONFIG...   assemble the shards of an array job
  runexp compare [--rtol R --atol A] [--complete] OLD NEW   cells and claims that moved (exit 1)
  runexp suite [--only GLOB] [--baseline DIR] [CONFIG...]    every config once (docs/nightly.md)
  runexp check-estimator NAME|--command CMD   conformance kit, a verdict per check (exit 1)
  runexp scoreboard [--configs DIR] [--out FILE.md] [--html FILE] RESULTS_ROOT   claims × readings (REPRODUCIBILITY.md)

Run flags:
  --data DIR        data root (default $RUNEXP_DATA)
  --out DIR         results root (default results)
  -j N              parallel cells (default GOMAXPROCS)
  --cache DIR       cell cache (default OUT/.cache); finished cells are reused
  --no-cache        neither read nor write the cache
  --force           recompute every cell
  --shard i/n       run shard i of n (0 ≤ i < n); then runexp merge
  --log-format F    text or json (default text)
  -v                debug logging
  -q, --quiet       only warnings, errors and one summary line per config
  --max-cells N     refuse configs with more than N cells (default 100000)
  --cpuprofile DIR  write a CPU profile of each config to DIR/NAME.pprof
                    (also for suite; docs/performance.md reads them)
  --with SPEC       add an estimator to every config whose kind can use it
                    (repeatable): NAME or NAME:key=value,key=value, values
                    YAML scalars, label= sets the label; e.g. --with
                    learned:alpha=0.01 or --with 'external:command=python3
                    my.py,label=Mine'. Claims and paper values ignore its
                    records; tables and figures show them. Results go to
                    OUT/with-SLUG/ (SLUG from the specs), the cache stays
                    OUT/.cache; each manifest.json lists the specs.
  --with-dir NAME   the folder inside OUT for a --with run's results
                    instead of with-SLUG; '.' is OUT itself (replacing the
                    configs' own result folders)

On a terminal the progress bar redraws below the log lines and the
summary fits the terminal's width (COLUMNS); the full tables are in
each result folder's tables.txt. Piped, stdout gets the full tables.

Exit status (docs/exit-status.md): 0 as expected, 1 changed (a claim's
verdict differs from its expectation; compare: something moved), 2 usage,
config or data error, 3 incomplete (failed cells, claims not evaluated),
4 crash, 130 interrupted (finished cells are cached: rerun to resume).
`)
}

func cmdRun(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("runexp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "", "data root (default $RUNEXP_DATA)")
	out := fs.String("out", "results", "results root")
	jobs := fs.Int("j", runtime.GOMAXPROCS(0), "parallel cells")
	logFormat := fs.String("log-format", "text", "log format: text or json")
	verbose := fs.Bool("v", false, "debug logging")
	cache := fs.String("cache", "", "cell cache directory (default OUT/.cache)")
	noCache := fs.Bool("no-cache", false, "neither read nor write the cell cache")
	force := fs.Bool("force", false, "recompute every cell, replacing cached ones")
	shardFlag := fs.String("shard", "", "run only shard i/n of the cells (0 ≤ i < n) and write its records for runexp merge")
	var wo withOptions
	wo.register(fs)
	quiet := fs.Bool("quiet", false, "only warnings, errors and one summary line per config")
	fs.BoolVar(quiet, "q", false, "same as --quiet")
	maxCells := fs.Int("max-cells", runner.DefaultMaxCells, "refuse configs with more than this many cells")
	var prof profiler
	prof.register(fs)
	fs.Usage = func() { usage(fs.Output()) }
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	with, root, err := wo.resolve(*out)
	if err != nil {
		fmt.Fprintln(stderr, "runexp:", err)
		return exitUsage
	}
	// A --with run writes under root but shares the cache of --out, so
	// the configs' own cells computed by a plain run are not redone.
	cacheDir := *cache
	if cacheDir == "" {
		cacheDir = filepath.Join(*out, ".cache")
	}
	if *maxCells < 1 {
		fmt.Fprintf(stderr, "runexp: --max-cells %d: want at least 1\n", *maxCells)
		return exitUsage
	}
	runner.MaxCells = *maxCells
	var shard runner.Shard
	if *shardFlag != "" {
		var err error
		if shard, err = runner.ParseShard(*shardFlag); err != nil {
			fmt.Fprintln(stderr, "runexp:", err)
			return exitUsage
		}
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "runexp: no config given (try configs/abrahamsen-hansen-fig3.yaml)")
		return exitUsage
	}
	if *jobs < 1 {
		fmt.Fprintf(stderr, "runexp: -j %d: want at least 1 worker\n", *jobs)
		return exitUsage
	}
	if err := prof.prepare(); err != nil {
		fmt.Fprintln(stderr, "runexp:", err)
		return exitUsage
	}
	term := newTerm(stderr)
	log, err := newLogger(term, *logFormat, *verbose, *quiet)
	if err != nil {
		fmt.Fprintln(stderr, "runexp:", err)
		return exitUsage
	}
	// On a terminal the full tables (hundreds of characters wide) stay in
	// the files and a summary that fits is printed instead.
	outTTY := isTerminal(stdout)
	tables := stdout
	if *quiet || outTTY {
		tables = nil
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	// Validate every config before running any, so a typo in the last
	// one does not surface after an hour of the first.
	entries, err := suite.Load(fs.Args(), with, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "runexp:", err)
		return exitUsage
	}
	code := exitOK
	o := suite.Options{
		Run: runner.Options{
			DataDir: *data, OutRoot: root, CacheDir: cacheDir, NoCache: *noCache, Force: *force,
			Shard: shard, Workers: *jobs, Log: log, Stdout: tables,
		},
		Around: prof.around(log),
		Done: func(r suite.Result) {
			term.endBar()
			sum := r.Summary
			code = worse(code, summaryStatus(sum))
			if shard.Active() {
				fmt.Fprintf(stdout, "%s: shard %d/%d, %d cells (%d computed, %d cached, %d failed) → %s\n", r.Config.Name, shard.Index, shard.Count, sum.Cells, sum.Computed, sum.Cached, sum.Failed, sum.Outputs[0])
				return
			}
			if outTTY && !*quiet {
				printSummary(stdout, sum, terminalWidth(stdout))
			}
			fmt.Fprintf(stdout, "%s: %d cells (%d computed, %d cached, %d failed), claims: %s → %s\n", r.Config.Name, sum.Cells, sum.Computed, sum.Cached, sum.Failed, claimCounts(sum), sum.Dir)
			for _, e := range sum.ReportErrors {
				fmt.Fprintf(stderr, "runexp: %s: %s\n", r.Config.Name, e)
			}
			if sum.Crashed > 0 {
				fmt.Fprintf(stderr, "runexp: %s: %d recovered panic(s), a bug in runexp: the stack is in the log, the cause in the failed cells' table\n", r.Config.Name, sum.Crashed)
			}
			printUnexpected(stdout, r.Config.Name, sum)
		},
	}
	if !*quiet {
		o.Progress = func(c *config.Config) func(done, total int) { return newProgress(term, log, c.Name).update }
	}
	if _, err := suite.Run(ctx, entries, o); err != nil {
		term.endBar()
		var ie *runner.InterruptedError
		if errors.As(err, &ie) {
			fmt.Fprintln(stderr, "\nrunexp:", err)
			return exitInterrupted
		}
		fmt.Fprintln(stderr, "runexp:", err)
		return exitUsage
	}
	if !shard.Active() {
		writeIndexes(*out, root, log)
	}
	return code
}

// writeIndexes refreshes the index of root, where the runs wrote, and of
// out when root is a --with folder inside it (suite.WriteIndexes). A
// broken sibling result directory must not fail a run that succeeded,
// so problems are logged.
func writeIndexes(out, root string, log *slog.Logger) {
	pages, err := suite.WriteIndexes(out, root)
	for _, p := range pages {
		log.Info("results index", "file", p)
	}
	if err != nil {
		log.Warn("results index not written", "err", err)
	}
}

func cmdCompare(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("runexp compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rtol := fs.Float64("rtol", 1e-9, "relative tolerance: a metric moved if |new−old| > atol + rtol·|old|")
	atol := fs.Float64("atol", 1e-12, "absolute tolerance")
	md := fs.Bool("markdown", false, "print the changes as a Markdown table")
	complete := fs.Bool("complete", false, "count runs of OLD that NEW lacks as changes (default: compare only the runs NEW has, as a partial suite run needs)")
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() != 2 {
		fmt.Fprintln(stderr, "runexp compare: want OLD_RESULTS NEW_RESULTS (a result directory or a results root each)")
		return exitUsage
	}
	ch, err := report.CompareResults(fs.Arg(0), fs.Arg(1), report.CompareOptions{RelTol: *rtol, AbsTol: *atol, Partial: !*complete})
	if err != nil {
		fmt.Fprintln(stderr, "runexp compare:", err)
		return exitUsage
	}
	t := report.ChangesTable(ch)
	if *md {
		err = t.RenderMarkdown(stdout)
	} else {
		err = t.RenderText(stdout)
	}
	if err != nil {
		fmt.Fprintln(stderr, "runexp compare:", err)
		return exitUsage
	}
	if len(ch) > 0 {
		return exitClaim
	}
	return exitOK
}

func cmdMerge(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("runexp merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "", "data root (default $RUNEXP_DATA)")
	out := fs.String("out", "results", "results root the shards wrote into")
	var wo withOptions
	wo.register(fs)
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "runexp merge: no config given")
		return exitUsage
	}
	// The shards of a --with run are merged with the same --with flags:
	// they rebuild the cells and find the shards' folder.
	with, root, err := wo.resolve(*out)
	if err != nil {
		fmt.Fprintln(stderr, "runexp merge:", err)
		return exitUsage
	}
	code := exitOK
	for _, path := range fs.Args() {
		c, err := config.Load(path)
		var added []report.WithSpec
		if err == nil {
			added, err = suite.AddWith(c, with, stderr)
		}
		if err != nil {
			fmt.Fprintln(stderr, "runexp merge:", err)
			return exitUsage
		}
		sum, err := runner.MergeShards(c, runner.Options{DataDir: *data, OutRoot: root, Stdout: stdout, With: added})
		if err != nil {
			fmt.Fprintln(stderr, "runexp merge:", err)
			return exitUsage
		}
		fmt.Fprintf(stdout, "%s: merged %d cells (%d failed), claims: %s → %s\n", c.Name, sum.Cells, sum.Failed, claimCounts(sum), sum.Dir)
		printUnexpected(stdout, c.Name, sum)
		code = worse(code, summaryStatus(sum))
	}
	writeIndexes(*out, root, slog.New(slog.NewTextHandler(stderr, nil)))
	return code
}

func claimCounts(s *runner.Summary) string {
	if len(s.Claims) == 0 {
		return "none"
	}
	n := map[string]int{}
	for _, c := range s.Claims {
		n[c.Status]++
	}
	return fmt.Sprintf("%d passed, %d failed, %d inconclusive, %d not evaluated; %d as expected", n["PASS"], n["FAIL"], n["INCONCLUSIVE"], n["NOT-EVALUATED"], len(s.Claims)-s.Unexpected-s.NotEvaluated)
}

// printUnexpected lists the claims whose verdict is not the expected one.
func printUnexpected(w io.Writer, name string, s *runner.Summary) {
	for _, c := range s.Claims {
		if !c.AsExpected {
			fmt.Fprintf(w, "  %s: claim %s: %s, expected %s: %s\n", name, c.ID, c.Status, c.Expected, c.Evidence)
		}
	}
}

func newLogger(w io.Writer, format string, verbose, quiet bool) (*slog.Logger, error) {
	opts := &slog.HandlerOptions{Level: slog.LevelInfo}
	switch {
	case verbose:
		opts.Level = slog.LevelDebug
	case quiet:
		opts.Level = slog.LevelWarn
	}
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("--log-format %q: want text or json", format)
}

func cmdValidate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("runexp validate", flag.ContinueOnError)
	maxCells := fs.Int("max-cells", runner.DefaultMaxCells, "refuse configs with more than this many cells")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: runexp validate [--max-cells N] CONFIG...\n\nChecks configs (keys, types, values, names, bounds, estimator parameters, claims)\nwithout loading data or running; errors read FILE:LINE: what was found and expected.")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	runner.MaxCells = *maxCells
	args = fs.Args()
	if len(args) == 0 {
		fmt.Fprintln(stderr, "runexp validate: no config given")
		return exitUsage
	}
	code := exitOK
	for _, path := range args {
		c, err := config.Load(path)
		var cells []*runner.Cell
		if err == nil {
			var plan *runner.Plan
			if plan, err = runner.Validate(c); err == nil {
				cells = plan.Cells
			}
		}
		if err != nil {
			fmt.Fprintln(stderr, err)
			code = exitUsage
			continue
		}
		fmt.Fprintf(stdout, "%s: ok (%s, %d cells, %d claims)\n", path, c.Kind, len(cells), len(c.Claims))
	}
	return code
}

func cmdList(w io.Writer) int {
	fmt.Fprintln(w, "Estimators:")
	for _, s := range methods.All() {
		fmt.Fprintf(w, "  %-14s %s — %s\n", s.Name, s.Title, s.Doc)
		for _, p := range s.Params {
			fmt.Fprintf(w, "      %-12s %-8s default %v  %s\n", p.Name, p.Kind, p.Default, p.Doc)
		}
	}
	fmt.Fprintln(w, "\nExperiment kinds:")
	for _, k := range runner.Kinds() {
		fmt.Fprintf(w, "  %-14s %s\n", k.Name, k.Doc)
	}
	fmt.Fprintln(w, "\nDatasets:")
	for _, d := range runner.Datasets() {
		root := ""
		if d.NeedsRoot {
			root = " [data root]"
		}
		fmt.Fprintf(w, "  %-14s %s%s\n", d.Name, d.Doc, root)
	}
	return exitOK
}

func cmdVersion(w io.Writer) int {
	m := report.NewManifest()
	fmt.Fprintf(w, "runexp %s (%s, revision %s) %s %s/%s\n", m.Version, m.Module, m.Revision, m.GoVersion, m.GOOS, m.GOARCH)
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if strings.HasPrefix(d.Path, "gonum.org/") || strings.Contains(d.Path, "tablewriter") || strings.Contains(d.Path, "yaml") {
				fmt.Fprintf(w, "  %s %s\n", d.Path, d.Version)
			}
		}
	}
	return exitOK
}
