// Command runexp regenerates the tables and figures of kernel PCA pre-image
// papers from YAML configs, with the papers' own numbers beside ours.
//
// Usage (runexp [flags] CONFIG... is runexp run):
//
//	runexp run [flags] CONFIG...       run experiments (the default command)
//	runexp status [flags] CONFIG...    what a run would compute, and why (also run --dry-run)
//	runexp validate [flags] CONFIG...  check configs without running
//	runexp list [WHAT...]              estimators, experiment kinds, datasets, configs
//	runexp version                     build information (also runexp --version)
//	runexp denoise [flags]             apply an estimator to your own CSV data
//	runexp merge [flags] CONFIG...     assemble the shards of an array job
//	runexp compare [flags] OLD NEW     cells and claims that moved (exit 1)
//	runexp suite [flags] [CONFIG...]   every config once, compared with a baseline
//	runexp check-estimator NAME        conformance kit, a verdict per check (exit 1)
//	runexp scoreboard [flags] ROOT     claims × readings (REPRODUCIBILITY.md)
//	runexp report [flags] PAPER...     a reproduction report per paper
//	runexp help [COMMAND]              this text, or a command's
//
// A CONFIG is a file, a collection of configs (configs/table1.yaml) or a
// bare name in the configs folder; flags may come anywhere, -- ends them.
//
// Exit status (docs/exit-status.md): 0 as expected, 1 changed (a verdict
// differs from its expectation, a compared value moved, or a denoised row
// failed), 2 usage, config or data error, 3 incomplete (failed cells or
// claims not evaluated), 4 crash, 130 interrupted.
package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "github.com/runexp/runexp/experiments"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
	"github.com/runexp/runexp/internal/safefs"
	"github.com/runexp/runexp/internal/suggest"
	"github.com/runexp/runexp/internal/suite"
)

// commandFunc runs one subcommand on its arguments; it returns the exit
// status.
type commandFunc func(args []string, stdout, stderr io.Writer) int

// commands lists the subcommands, for help and suggestions, and
// commandFuncs runs them; both are filled by init from one table, since
// help dispatches through run, which reads commandFuncs (a package
// variable's initializer could not refer to them).
var (
	commands     []string
	commandFuncs = map[string]commandFunc{}
)

// commandEntry is one command of commandTable: its name, the synopsis of
// its arguments, what it does in a few words, and its function.
type commandEntry struct {
	name, args, short string
	run               commandFunc
}

// commandTable is the one list of runexp's commands: overview (runexp
// --help) prints it, and TestCommandsListedOnce holds the package comment
// and the README's table of commands to it. init fills it, since help
// dispatches through it (a package variable's initializer could not
// refer to cmdHelp).
var commandTable []commandEntry

func init() {
	commandTable = []commandEntry{
		{"run", "[flags] CONFIG...", "run experiments (the default command)", cmdRun},
		{"status", "[flags] CONFIG...", "what a run would compute, and why (also run --dry-run)", cmdStatus},
		{"validate", "[flags] CONFIG...", "check configs without running", cmdValidate},
		{"list", "[WHAT...]", "estimators, experiment kinds, datasets, configs", cmdList},
		{"version", "", "build information (also runexp --version)", cmdVersion},
		{"denoise", "[flags]", "apply an estimator to your own CSV data", cmdDenoise},
		{"merge", "[flags] CONFIG...", "assemble the shards of an array job", cmdMerge},
		{"compare", "[flags] OLD NEW", "cells and claims that moved (exit 1)", cmdCompare},
		{"suite", "[flags] [CONFIG...]", "every config once, compared with a baseline", cmdSuite},
		{"check-estimator", "NAME", "conformance kit, a verdict per check (exit 1)", cmdCheckEstimator},
		{"scoreboard", "[flags] ROOT", "claims × readings (REPRODUCIBILITY.md)", cmdScoreboard},
		{"report", "[flags] PAPER...", "a reproduction report per paper", cmdReport},
		{"help", "[COMMAND]", "this text, or a command's", cmdHelp},
	}
	for _, c := range commandTable {
		commands = append(commands, c.name)
		commandFuncs[c.name] = c.run
	}
}

// commandLines are the lines of commandTable as --help and the package
// comment show them: "  NAME ARGS   SHORT", the short texts aligned.
func commandLines(indent string) []string {
	width := 0
	for _, c := range commandTable {
		width = max(width, len(strings.TrimSpace(c.name+" "+c.args)))
	}
	var out []string
	for _, c := range commandTable {
		out = append(out, fmt.Sprintf("%s%-*s  %s", indent, width, strings.TrimSpace(c.name+" "+c.args), c.short))
	}
	return out
}

func isCommand(s string) bool {
	_, ok := commandFuncs[s]
	return ok
}

func main() {
	os.Exit(mainStatus(os.Args[1:], os.Stderr, func() int { return run(os.Args[1:], os.Stdout, os.Stderr) }))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		overview(stderr)
		return exitUsage
	}
	switch args[0] {
	case "--version", "-version":
		return cmdVersion(args[1:], stdout, stderr)
	case "-h", "-help", "--help":
		overview(stdout)
		return exitOK
	}
	sub, rest := subcommand(args)
	return commandFuncs[sub](rest, stdout, stderr)
}

// subcommand returns the subcommand args name and the arguments left for
// it: the first argument when it is a subcommand; when flags come first
// (runexp -q suite), the first argument that is neither a flag nor a
// run flag's value, if it is a subcommand; else run, with every argument.
func subcommand(args []string) (string, []string) {
	if isCommand(args[0]) {
		return args[0], args[1:]
	}
	if !strings.HasPrefix(args[0], "-") {
		return "run", args
	}
	c, _ := newRunCommand()
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if len(a) < 2 || a[0] != '-' {
			if isCommand(a) {
				return a, append(slices.Clone(args[:i]), args[i+1:]...)
			}
			break
		}
		name, _, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f := c.flags.Lookup(name)
		if f == nil || hasVal {
			continue
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
			i++ // the flag's value
		}
	}
	return "run", args
}

// overview is runexp --help: every command, the run command's flags and
// the exit statuses.
func overview(w io.Writer) {
	c, _ := newRunCommand()
	fmt.Fprintf(w, `Usage: runexp [flags] CONFIG...
       runexp COMMAND [flags] [ARGS...]

runexp regenerates kernel PCA pre-image experiments from YAML configs.

Commands:
%s

%s

Run flags:
%s
%s
`, strings.Join(commandLines("  "), "\n"), configWords, c.flagHelp(), strings.TrimRight(c.footer, "\n"))
}

// configWords says what a CONFIG argument may be, in every command's help.
const configWords = `CONFIG is a config file (configs/abrahamsen-hansen-fig3.yaml), a
collection of configs (configs/table1.yaml: every paper's Table 1) or a
name in the configs folder (huang-table1 = configs/huang-table1.yaml);
runexp list configs lists them. Flags may come before or after the
arguments; -- ends them. runexp COMMAND --help describes each command.`

func cmdHelp(args []string, stdout, stderr io.Writer) int {
	c := newCommand("help", []string{"runexp help [COMMAND]"}, "Describes runexp, or one of its commands (the same as runexp COMMAND --help).")
	e, pos, code, done := c.begin(args, stdout, stderr)
	if done {
		return code
	}
	switch {
	case len(pos) == 0:
		overview(stdout)
		return exitOK
	case len(pos) > 1:
		return e.fail(exitUsage, "want at most one COMMAND; see runexp help --help")
	case !isCommand(pos[0]):
		return e.fail(exitUsage, "unknown command %q%s; runexp --help lists them", pos[0], suggest.Hint(pos[0], commands, 1))
	case pos[0] == "help":
		c.usage(stdout)
		return exitOK
	}
	return run([]string{pos[0], "--help"}, stdout, stderr)
}

// runFlags are the run command's flags.
// jobFlags are the flags runexp run and runexp suite share: where the
// data, results and cache are, how many cells run at once, the log, and
// the estimators added or allowed.
type jobFlags struct {
	configs, data, out, cache, logFormat string
	jobs                                 int
	verbose, quiet, noCache, force       bool
	allowExternal                        bool
	with                                 withOptions
	prof                                 profiler
}

// register declares the shared flags on c; configsDoc and quietDoc say
// what --configs and --quiet mean to the command.
func (f *jobFlags) register(c *command, configsDoc, quietDoc string) {
	fs := c.flags
	fs.StringVar(&f.configs, "configs", "configs", configsDoc)
	fs.StringVar(&f.data, "data", "", "the data root `DIR` (default $RUNEXP_DATA; runexp list marks the datasets that need it)")
	fs.StringVar(&f.out, "out", "results", "the results root `DIR`")
	fs.IntVar(&f.jobs, "j", runtime.GOMAXPROCS(0), "`N` cells computed at once")
	fs.StringVar(&f.cache, "cache", "", "the cell cache `DIR` (default OUT/.cache); finished cells are reused")
	fs.BoolVar(&f.noCache, "no-cache", false, "neither read nor write the cell cache")
	fs.BoolVar(&f.force, "force", false, "recompute every cell, replacing cached ones")
	fs.StringVar(&f.logFormat, "log-format", "text", "the log's `FORMAT` on stderr: text, or json (every stderr line a JSON record, errors included)")
	fs.BoolVar(&f.verbose, "v", false, "debug logging")
	fs.BoolVar(&f.quiet, "quiet", false, quietDoc)
	c.alias("q", "quiet")
	fs.BoolVar(&f.allowExternal, "allow-external", false, allowExternalUsage)
	f.with.register(fs)
	f.prof.register(fs)
}

type runFlags struct {
	jobFlags
	shard    string
	maxCells int
	// dryRun and listCached are runexp status's (and run --dry-run's).
	dryRun, listCached bool
}

func newRunCommand() (*command, *runFlags) {
	c := newCommand("run", []string{"runexp [flags] CONFIG...", "runexp run [flags] CONFIG..."},
		"Runs every cell of each config not already cached, then writes its result folder\n(OUT/NAME: figures, tables, records, claims, manifest) and the results index.\nA collection runs each of its configs and writes the scoreboard of the set.\n\n"+configWords)
	f := &runFlags{}
	f.register(c, "the `DIR` a config's bare name is looked up in",
		"only warnings, errors, one summary line per config and, on a run longer than a minute, a progress line a minute")
	fs := c.flags
	fs.StringVar(&f.shard, "shard", "", "run only shard `i/n` of the cells (0 ≤ i < n), then runexp merge (docs/array-jobs.md)")
	fs.IntVar(&f.maxCells, "max-cells", runner.DefaultMaxCells, "refuse configs with more than `N` cells")
	fs.BoolVar(&f.dryRun, "dry-run", false, "compute and write nothing: say which cells the cache serves and why each other one would be computed (runexp status)")
	c.footer = `On a terminal the progress bar (cells done, time spent, time left) redraws
below the log lines, log lines and summaries are wrapped to the terminal's
width (COLUMNS, else the terminal's own) and the full tables stay in each
result folder's tables.txt; piped, stdout gets the full tables and stderr a
progress line every 10 seconds.

Exit status (docs/exit-status.md): 0 as expected, 1 changed (a claim's
verdict differs from its expectation; compare: something moved), 2 usage,
config or data error, 3 incomplete (failed cells, claims not evaluated),
4 crash, 130 interrupted (finished cells are cached, unless --no-cache:
the same command resumes). A first interrupt (Ctrl-C, SIGTERM) stops once
the running cells finish; a second exits at once.`
	return c, f
}

// resolveConfigs turns the CONFIG arguments into files (suite.Resolve).
// A first argument that is a bare word close to a command was a
// misspelt command, and is reported as one.
func resolveConfigs(dir string, args []string) ([]string, error) {
	files, err := suite.ResolveAll(dir, args)
	var nf *suite.NotFoundError
	if err == nil || !errors.As(err, &nf) || nf.Arg != args[0] || !suite.IsName(args[0]) || strings.HasPrefix(args[0], "-") || strings.Contains(args[0], ".") {
		return files, err
	}
	if c := suggest.Closest(args[0], commands, 1); len(c) > 0 {
		return nil, fmt.Errorf("unknown command %q; did you mean %s? (runexp --help lists the commands)", args[0], c[0])
	}
	if len(nf.Closest) == 0 {
		return nil, fmt.Errorf("%q is neither a command nor a config (no %s): runexp --help lists the commands, runexp list configs the configs", args[0], nf.File)
	}
	return nil, err
}

func cmdRun(args []string, stdout, stderr io.Writer) int {
	c, f := newRunCommand()
	c.path = "runexp"
	term, e, pos, code, done := f.open(c, "runexp", args, stdout, stderr)
	if done {
		return code
	}
	e, ctx, stop := f.begin(term, "runexp")
	defer stop()
	o, entries, err := f.options(e, term, pos, stdout)
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	if f.dryRun {
		return dryRunEntries(e, stdout, entries, o.Run, f.jobs, false, f.quiet)
	}
	code = exitOK
	p := newPrinter(stdout)
	err = f.drive(term, &o, func(r suite.Result) {
		code = worse(code, summaryStatus(r.Summary))
		f.printConfig(e, p, r, o.Run.Shard)
	}, func() error {
		_, err := suite.Run(ctx, entries, o)
		return err
	})
	if err != nil {
		return runError(e, err)
	}
	if !o.Run.Shard.Active() {
		writePages(p, entries, f.out, o.Run.OutRoot, o.Run.Log)
	}
	return code
}

// options checks the flags and validates every config before any runs,
// so a typo in the last one does not surface after an hour of the first;
// every error is a usage error.
func (f *runFlags) options(e *errOut, tw *term, pos []string, stdout io.Writer) (suite.Options, []suite.Entry, error) {
	var o suite.Options
	with, root, err := f.with.resolve(f.out)
	if err != nil {
		return o, nil, err
	}
	if f.maxCells < 1 {
		return o, nil, fmt.Errorf("--max-cells %d: want at least 1", f.maxCells)
	}
	runner.MaxCells = f.maxCells
	var shard runner.Shard
	if f.shard != "" {
		if shard, err = runner.ParseShard(f.shard); err != nil {
			return o, nil, err
		}
	}
	switch {
	case len(pos) == 0:
		return o, nil, errors.New("no config given (try runexp configs/abrahamsen-hansen-fig3.yaml; runexp list configs lists them)")
	case f.jobs < 1:
		return o, nil, fmt.Errorf("-j %d: want at least 1 worker", f.jobs)
	}
	if err := f.prof.prepare(); err != nil {
		return o, nil, err
	}
	files, err := resolveConfigs(f.configs, pos)
	if err != nil {
		return o, nil, err
	}
	log, err := newLogger(tw, f.logFormat, f.verbose, f.quiet)
	if err != nil {
		return o, nil, err
	}
	entries, err := loadEntries(e, files, with, f.allowExternal)
	if err != nil {
		return o, nil, err
	}
	// On a terminal the full tables (hundreds of characters wide) stay in
	// the files and a summary that fits is printed instead.
	tables := stdout
	if f.quiet || isTerminal(stdout) {
		tables = nil
	}
	// A --with run writes under root but shares the cache of --out, so
	// the configs' own cells computed by a plain run are not redone.
	o = suite.Options{
		Run: runner.Options{
			DataDir: f.data, OutRoot: root, CacheDir: cacheFor(f.cache, f.out), NoCache: f.noCache, Force: f.force,
			Shard: shard, Workers: f.jobs, Log: log, Stdout: tables, Top: f.out, AllowExternal: f.allowExternal,
		},
		Around: f.prof.around(log),
	}
	return o, entries, nil
}

// cellCounts says where a run's cells came from: "N cells (C computed,
// K cached, F failed)", with ", S shared" after the cached where other
// configs of the pool computed some of them (runner.Summary.Shared).
func cellCounts(sum *runner.Summary) string {
	shared := ""
	if sum.Shared > 0 {
		shared = fmt.Sprintf(", %d shared", sum.Shared)
	}
	return fmt.Sprintf("%d cells (%d computed, %d cached%s, %d failed)", sum.Cells, sum.Computed, sum.Cached, shared, sum.Failed)
}

// printConfig prints one config's summary as it completes.
func (f *runFlags) printConfig(e *errOut, p printer, r suite.Result, shard runner.Shard) {
	sum := r.Summary
	if shard.Active() {
		fmt.Fprintf(p.w, "%s: shard %d/%d, %s → %s\n", r.Config.Name, shard.Index, shard.Count, cellCounts(sum), sum.Outputs[0])
		return
	}
	if p.tty && !f.quiet {
		printSummary(p.w, sum, p.width)
	}
	p.line(fmt.Sprintf("%s: %s, claims: %s → %s", r.Config.Name, cellCounts(sum), claimCounts(sum), sum.Dir))
	for _, x := range sum.ReportErrors {
		e.err("%s: %s", r.Config.Name, x)
	}
	if sum.Crashed > 0 {
		e.err("%s: %d recovered panic(s), a bug in runexp: the stack is in the log, the cause in the failed cells' table", r.Config.Name, sum.Crashed)
	}
	printUnexpected(p, r.Config.Name, sum)
}

// checkLogFormat refuses a --log-format other than text and json.
func checkLogFormat(format string) error {
	if format != "text" && format != "json" {
		return fmt.Errorf("--log-format %q: want text or json", format)
	}
	return nil
}

// cacheFor is the cell cache folder: --cache, else OUT/.cache, shared by
// the plain runs of --out and the --with runs inside it.
func cacheFor(cache, out string) string {
	if cache == "" {
		return filepath.Join(out, ".cache")
	}
	return cache
}

// loadEntries validates every config (suite.Load) and refuses those whose
// methods run an external command without leave.
func loadEntries(e *errOut, files []string, with []*suite.With, allowExternal bool) ([]suite.Entry, error) {
	entries, err := suite.Load(files, with, e.lines())
	if err == nil {
		err = suite.CheckExternal(entries, allowExternal)
	}
	return entries, err
}

// open starts a run or suite command: its terminal, its error output in
// the format args ask for, and its arguments; done is set, with the exit
// status in code, when it has nothing left to do (--help, a usage error).
func (f *jobFlags) open(c *command, name string, args []string, stdout, stderr io.Writer) (tw *term, e *errOut, pos []string, code int, done bool) {
	tw = newTerm(stderr)
	e = newErrOut(tw, name, wantsJSON(args))
	tw.json = wantsJSON(args)
	if pos, code, done = c.start(args, stdout, e); done {
		return tw, e, pos, code, done
	}
	if err := checkLogFormat(f.logFormat); err != nil {
		return tw, e, pos, e.fail(exitUsage, "%v", err), true
	}
	return tw, e, pos, code, false
}

// begin writes errors and the log in the format asked for from now on,
// and catches interrupts until stop: the first cancels ctx, a second
// exits at once.
func (f *jobFlags) begin(tw *term, name string) (e *errOut, ctx context.Context, stop func()) {
	e = newErrOut(tw, name, f.logFormat == "json")
	tw.json = f.logFormat == "json"
	ctx, stop = interrupts(e, f.noCache, f.force)
	return e, ctx, stop
}

// newPrinter prints to w, wrapping to its width when it is a terminal.
func newPrinter(w io.Writer) printer {
	return printer{w: w, width: terminalWidth(w), tty: isTerminal(w)}
}

// drive runs run with a progress bar per config on tw, calling done
// with each config's result as it completes.
func (f *jobFlags) drive(tw *term, o *suite.Options, done func(suite.Result), run func() error) error {
	bars := newProgresses(func(cf *config.Config) *progress {
		return newProgress(tw, progressLog(tw, o.Run.Log, f.logFormat, f.quiet), cf.Name, f.quiet, f.logFormat == "json")
	})
	o.Progress = bars.of
	o.Work = bars.work
	o.Done = func(r suite.Result) {
		bars.stop(r.Config)
		tw.endBar()
		done(r)
	}
	// An external estimator's batch folders (and the processes still
	// running in them) that a runexp killed on this host left in TMPDIR
	// are nobody's: removed before this run adds its own.
	if n := methods.SweepStaleBatches(); n > 0 && o.Run.Log != nil {
		o.Run.Log.Info("removed batch folders of external estimators left by killed runs", "folders", n)
	}
	err := run()
	bars.stop(nil)
	tw.endBar()
	return err
}

// runError is the exit of a run or suite that stopped with err.
func runError(e *errOut, err error) int {
	var ie *runner.InterruptedError
	if errors.As(err, &ie) {
		return e.fail(exitInterrupted, "%v", err)
	}
	return e.fail(exitUsage, "%v%s", err, dataRootHint(err))
}

// writePages writes the pages of the results under root: the index and
// the run pages (writeIndexes), then, when some of the configs run came
// from collections, the scoreboard, whose verdicts link the run pages,
// with each collection's line printed (suite.WriteSets), and the index
// again to link it and show the papers' headlines.
func writePages(p printer, entries []suite.Entry, out, root string, log *slog.Logger) {
	writeIndexes(out, root, nil, log)
	sets, file, b, err := suite.WriteSets(entries, root)
	if err != nil {
		log.Warn("scoreboard not written", "err", err)
		return
	}
	for _, s := range sets {
		p.line(s.Line() + " → " + file)
	}
	if b != nil {
		writeIndexes(out, root, suite.Headlines(b), log)
	}
}

// interrupts returns a context cancelled at the first SIGINT or SIGTERM,
// which it acknowledges at once on e (how many cells are running, and
// whether the finished ones are kept); a second signal exits at once with
// status 130. stop releases the signals.
func interrupts(e *errOut, noCache, force bool) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sig := make(chan os.Signal, 2)
	quit := make(chan struct{})
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	if forwardedInterrupt != nil {
		signal.Notify(sig, forwardedInterrupt)
	}
	go func() {
		var first os.Signal
		select {
		case first = <-sig:
		case <-quit:
			return
		}
		at := time.Now()
		kept := "finished cells are kept (cached: the same command resumes)"
		switch {
		case noCache:
			kept = "finished cells are not kept (--no-cache)"
		case force:
			kept = "finished cells are kept (cached: the same command without --force resumes; with it, every cell is computed again)"
		}
		e.warn("stopping: %d cells running, %s; interrupt again to exit at once", runner.RunningCells(), kept)
		cancel()
		for {
			select {
			case s := <-sig:
				// One interrupt sent to both of runexp's processes (a
				// terminal's Ctrl-C, a scheduler's SIGTERM to a job)
				// arrives here directly and from the supervisor.
				if (s == forwardedInterrupt) != (first == forwardedInterrupt) && time.Since(at) < time.Second {
					continue
				}
				exitNow(e.fail(exitInterrupted, "second interrupt: exiting without waiting for the running cells"))
			case <-quit:
			}
			return
		}
	}()
	return ctx, func() {
		signal.Stop(sig)
		close(quit)
		cancel()
	}
}

// exitNow ends the process (a variable, so that a test can see the call).
var exitNow = os.Exit

// writeIndexes refreshes the index of root, where the runs wrote, and of
// out when root is a --with folder inside it (suite.WriteIndexes). A
// broken sibling result directory must not fail a run that succeeded,
// so problems are logged.
func writeIndexes(out, root string, papers []report.IndexPaper, log *slog.Logger) {
	pages, err := suite.WriteIndexes(out, root, papers)
	for _, p := range pages {
		log.Info("results index", "file", p)
	}
	if err != nil {
		log.Warn("results index not written", "err", err)
	}
}

func cmdCompare(args []string, stdout, stderr io.Writer) int {
	c := newCommand("compare", []string{"runexp compare [flags] OLD NEW"},
		`Compares two results (a result folder each, or a results root each, its run
folders matched by name): cells whose metrics moved beyond the tolerance,
cells and runs on one side only, claims whose verdict changed. Exit status 1
when anything changed, 0 when nothing did. By default only the runs NEW holds
are compared (a partial run is no change); --complete counts the runs of OLD
that NEW lacks. Against a --with folder (runexp compare OUT OUT/with-SLUG) the
added estimator's cells are the new cells, and a run whose --with estimators
were all skipped is not listed when OLD lacks it (nothing was added to it).

The changes are laid out per config: the claims whose verdict changed first
(with the moved metrics their evidence names), then the metrics that moved,
largest relative change first, each with old, new, delta and ratio at the
precision that tells old from new, its cell named by the parameters that
differ within the config; then the other changes (status, new or missing
cells and runs). Lines fit 120 columns (a terminal's width on a terminal).`)
	fs := c.flags
	rtol := fs.Float64("rtol", 1e-9, "relative tolerance `R`: a metric moved if |new−old| > atol + rtol·|old|")
	atol := fs.Float64("atol", 1e-12, "absolute tolerance `A`")
	md := fs.Bool("markdown", false, "print the changes as a Markdown table (one row per change) instead of the diff laid out per config")
	page := fs.String("html", "", "also write the changes as an HTML page to `FILE`")
	complete := fs.Bool("complete", false, "count runs of OLD that NEW lacks as changes (default: compare only the runs NEW has, as a partial suite run needs)")
	e, pos, code, done := c.begin(args, stdout, stderr)
	if done {
		return code
	}
	if len(pos) != 2 {
		return e.fail(exitUsage, "want OLD NEW (a result folder each, or a results root each); see runexp compare --help")
	}
	cmp, err := report.Compare(pos[0], pos[1], report.CompareOptions{RelTol: *rtol, AbsTol: *atol, Partial: !*complete})
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	ch := cmp.Changes
	notCompared := ""
	if n := len(cmp.NotCompared); n > 0 {
		notCompared = fmt.Sprintf("Not compared: %d runs of %s that %s lacks, in which every --with estimator was skipped (their cells are the configs' own): %s.", n, pos[1], pos[0], strings.Join(cmp.NotCompared, ", "))
	}
	title := "Changes from " + pos[0] + " to " + pos[1]
	if *md {
		t := report.ChangesTable(ch)
		if notCompared != "" {
			t.Caption += " " + notCompared
		}
		err = t.RenderMarkdown(stdout)
	} else {
		err = report.NewDiff(ch).RenderText(stdout, title, diffWidth(stdout))
		if err == nil && notCompared != "" {
			fmt.Fprintln(stdout, report.Wrap(notCompared, diffWidth(stdout)))
		}
	}
	if err == nil && *page != "" {
		var b bytes.Buffer
		if err = report.NewDiff(ch).RenderHTML(&b, title); err == nil {
			err = report.WriteFileAtomic(*page, b.Bytes())
		}
	}
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	if len(ch) > 0 {
		return exitClaim
	}
	return exitOK
}

func cmdMerge(args []string, stdout, stderr io.Writer) int {
	c := newCommand("merge", []string{"runexp merge [flags] CONFIG..."},
		"Assembles the records every shard of each config wrote (runexp --shard i/n)\ninto the outputs one run writes, byte for byte (docs/array-jobs.md). Shards\nof a --with run are merged with the same --with flags.\n\n"+configWords)
	fs := c.flags
	dir := fs.String("configs", "configs", "the `DIR` a config's bare name is looked up in")
	data := fs.String("data", "", "the data root `DIR` (default $RUNEXP_DATA)")
	out := fs.String("out", "results", "the results root `DIR` the shards wrote into")
	var wo withOptions
	wo.register(fs)
	e, pos, code, done := c.begin(args, stdout, stderr)
	if done {
		return code
	}
	if len(pos) == 0 {
		return e.fail(exitUsage, "no config given; see runexp merge --help")
	}
	// The shards of a --with run are merged with the same --with flags:
	// they rebuild the cells and find the shards' folder.
	with, root, err := wo.resolve(*out)
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	files, err := resolveConfigs(*dir, pos)
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	entries, err := suite.Load(files, with, e.lines())
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	// All or nothing: every config's shards verify before any output is
	// written.
	for _, en := range entries {
		if err := runner.VerifyShards(en.Config, runner.Options{DataDir: *data, OutRoot: root, Top: *out, With: en.Added}); err != nil {
			return e.fail(exitUsage, "%v; merge refused, nothing written (every previous output is as it was)", err)
		}
	}
	code = exitOK
	for _, en := range entries {
		sum, err := runner.MergeShards(en.Config, runner.Options{DataDir: *data, OutRoot: root, Top: *out, Stdout: stdout, With: en.Added})
		if err != nil {
			return e.fail(exitUsage, "%v", err)
		}
		fmt.Fprintf(stdout, "%s: merged %d cells (%d failed), claims: %s → %s\n", en.Config.Name, sum.Cells, sum.Failed, claimCounts(sum), sum.Dir)
		printUnexpected(printer{w: stdout}, en.Config.Name, sum)
		code = worse(code, summaryStatus(sum))
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	writePages(printer{w: stdout}, entries, *out, root, log)
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

// printer writes lines on stdout; on a terminal it wraps them to its
// width with a hanging indent, so that no line wraps in the middle of a
// word or breaks a redrawn progress bar.
type printer struct {
	w     io.Writer
	width int
	tty   bool
}

func (p printer) line(s string) {
	if !p.tty {
		fmt.Fprintln(p.w, s)
		return
	}
	for _, l := range wrap(s, p.width-1, "    ") {
		fmt.Fprintln(p.w, l)
	}
}

// printUnexpected lists the claims whose verdict is not the expected one.
func printUnexpected(p printer, name string, s *runner.Summary) {
	for _, c := range s.Claims {
		if !c.AsExpected {
			p.line(fmt.Sprintf("  %s: claim %s: %s, expected %s: %s", name, c.ID, c.Status, c.Expected, c.Evidence))
		}
	}
}

// newLogger returns the log of a run on w: slog's JSON records, or its
// text lines with numbers rounded for a reader (humanAttrs).
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
		t, ok := w.(*term)
		opts.ReplaceAttr = humanAttrs(ok && t.tty || isTerminal(w))
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("--log-format %q: want text or json", format)
}

// progressLog is the logger progress lines go to: the run's own, or with
// --quiet (which shows warnings only) one of the same format that shows
// them.
func progressLog(w io.Writer, log *slog.Logger, format string, quiet bool) *slog.Logger {
	if !quiet {
		return log
	}
	l, err := newLogger(w, format, false, false)
	if err != nil {
		return log
	}
	return l
}

// humanAttrs rounds a text log's numbers for a reader (the JSON log keeps
// every digit): floats to 4 significant digits, durations to the
// millisecond; on a terminal the time is the clock time alone.
func humanAttrs(tty bool) func(groups []string, a slog.Attr) slog.Attr {
	return func(groups []string, a slog.Attr) slog.Attr {
		if tty && len(groups) == 0 && a.Key == slog.TimeKey && a.Value.Kind() == slog.KindTime {
			return slog.String(slog.TimeKey, a.Value.Time().Format(time.TimeOnly))
		}
		switch a.Value.Kind() {
		case slog.KindFloat64:
			return slog.String(a.Key, strconv.FormatFloat(a.Value.Float64(), 'g', 4, 64))
		case slog.KindDuration:
			return slog.Duration(a.Key, a.Value.Duration().Round(time.Millisecond))
		}
		return a
	}
}

func cmdValidate(args []string, stdout, stderr io.Writer) int {
	c := newCommand("validate", []string{"runexp validate [flags] CONFIG..."},
		"Checks configs (keys, types, values, names, bounds, estimator parameters,\nclaims) without loading data, running or reading the cell cache (runexp status\nreads it: which cells a run would compute, and why); errors read FILE:LINE:\nwhat was found and what was expected. A collection is checked member by member, each listed.\nA config with cells of a config before it (the same cell cache keys: one\nrunexp suite computes them once) says how many, and the last line counts the\ndistinct cells.\n\n"+configWords)
	dir := c.flags.String("configs", "configs", "the `DIR` a config's bare name is looked up in")
	maxCells := c.flags.Int("max-cells", runner.DefaultMaxCells, "refuse configs with more than `N` cells")
	allowExternal := c.flags.Bool("allow-external", false, "read the scripts of the commands a config's external methods run, for their cells' cache keys (without it they are only stat'ed)")
	paperValues := c.flags.String("paper-values", "", "the `DIR` of the paper-values files the ambiguity ids of reads: and ambiguities: are checked against (default: shared/paper-values beside the checkout or above it, or beside $RUNEXP_DATA)")
	e, pos, code, done := c.begin(args, stdout, stderr)
	if done {
		return code
	}
	runner.MaxCells = *maxCells
	if len(pos) == 0 {
		return e.fail(exitUsage, "no config given; see runexp validate --help")
	}
	ambs := ambiguityChecker{given: *paperValues, known: map[string][]string{}, bad: map[string]error{}}
	code = exitOK
	tally := keyTally{first: map[string]string{}, files: map[string]bool{}}
	for _, arg := range pos {
		files, err := resolveConfigs(*dir, []string{arg})
		var xs []suite.Expanded
		var cols []*config.Collection
		if err == nil {
			xs, cols, err = suite.Expand(files)
		}
		if err != nil {
			fmt.Fprintln(stderr, err)
			code = exitUsage
			continue
		}
		if len(cols) > 0 {
			fmt.Fprintf(stdout, "%s: collection %s, %d configs:\n", files[0], cols[0].Name, len(xs))
		}
		indent := ""
		if len(cols) > 0 {
			indent = "  "
		}
		for _, x := range xs {
			if !validateOne(x.File, indent, &ambs, &tally, *allowExternal, stdout, stderr) {
				code = exitUsage
			}
		}
	}
	if tally.configs > 1 && tally.shared > 0 {
		fmt.Fprintf(stdout, "%d configs, %d cells with %d distinct cache keys: in one runexp suite, %d cells are served from another config's computation\n",
			tally.configs, tally.cells, len(tally.first), tally.shared)
	}
	return code
}

// validateOne checks one config for validate, printing its line (and
// its notes: ambiguities read, cells shared with earlier configs,
// commands run) under indent; false when it is refused.
func validateOne(file, indent string, ambs *ambiguityChecker, tally *keyTally, allowExternal bool, stdout, stderr io.Writer) bool {
	cf, err := config.Load(file)
	var plan *runner.Plan
	if err == nil {
		plan, err = runner.Validate(cf)
	}
	if err == nil {
		err = runner.CheckExternalFiles(cf)
	}
	var ambNote string
	if err == nil {
		ambNote, err = ambs.check(cf)
	}
	if err != nil {
		fmt.Fprintln(stderr, indent+err.Error())
		return false
	}
	mem := ""
	if est := plan.Estimate; est != nil {
		mem = fmt.Sprintf(", %d points × %d, memory ≤ %s", est.Points, est.Dim, runner.Bytes(est.Bytes))
	}
	fmt.Fprintf(stdout, "%s%s: ok (%s, %s, %s%s)\n", indent, file, cf.Kind, count(len(plan.Cells), "cell"), count(len(cf.Claims), "claim"), mem)
	if ambNote != "" {
		fmt.Fprintf(stdout, "%s  %s\n", indent, ambNote)
	}
	ok := true
	ext := runner.ExternalCommands(cf)
	if len(ext) > 0 && !allowExternal {
		// The cache keys of its cells cover its scripts' contents: a
		// config that runs commands is read no further than its files'
		// stat without leave.
		fmt.Fprintf(stdout, "%s  cache keys not compared with other configs' (they read the scripts of its commands: --allow-external)\n", indent)
	} else if line, err := tally.add(cf, plan); err != nil {
		fmt.Fprintln(stderr, indent+err.Error())
		ok = false
	} else if line != "" {
		fmt.Fprintf(stdout, "%s  %s\n", indent, line)
	}
	// A config that runs commands is code: say which, before anyone
	// runs it.
	for _, ec := range ext {
		fmt.Fprintf(stdout, "%s  %s:%d: method %s runs the command %q (only with --allow-external)\n", indent, file, ec.Line, ec.Method, ec.Command)
	}
	return ok
}

// ambiguityChecker checks the ambiguity ids a config names (reads:,
// ambiguities:) against its paper's paper-values file, found once per
// paper (suite.FindPaperValues from the config's folder, or --paper-values).
type ambiguityChecker struct {
	given string
	known map[string][]string // by paper; nil when its file was not found
	bad   map[string]error    // by paper: its file is there but unreadable
}

// check returns the config's error for an unknown id, or a note when its
// ids could not be checked (no paper values found).
func (a ambiguityChecker) check(c *config.Config) (string, error) {
	if c.Reads == "" && len(c.Ambiguities) == 0 {
		return "", nil
	}
	ids, seen := a.known[c.Paper]
	if !seen {
		dir, err := suite.FindPaperValues(filepath.Dir(c.File), a.given)
		var special *safefs.NotRegularError
		if errors.As(err, &special) {
			a.bad[c.Paper] = err
		}
		if err == nil {
			var info *config.PaperInfo
			if info, err = config.ReadPaperInfo(filepath.Join(dir, c.Paper+".yaml")); err == nil {
				ids = []string{}
				for _, am := range info.Ambiguities {
					ids = append(ids, am.ID)
				}
			} else if !errors.Is(err, fs.ErrNotExist) {
				// There, but broken or no regular file: an error of
				// the run, not a check skipped.
				a.bad[c.Paper] = err
			}
		}
		a.known[c.Paper] = ids
	}
	if err := a.bad[c.Paper]; err != nil {
		return "", err
	}
	if ids == nil {
		return "ambiguity ids not checked: the paper values were not found (--paper-values DIR names them)", nil
	}
	return "", c.CheckAmbiguities(ids)
}

// keyTally counts the cells of the configs validate checks whose cell
// cache key (runner.CellKey) a config before them has: one pool (runexp
// suite, runexp with several configs) computes such a cell once.
type keyTally struct {
	first                  map[string]string // by the key's hash: the first config that has it
	files                  map[string]bool   // the configs counted, by absolute path
	configs, cells, shared int
}

// add counts the cells of c, unless it was counted (named twice, or
// directly and in a collection: it runs once), and returns a line naming
// the configs before it whose cells it shares ("" when none).
func (k *keyTally) add(c *config.Config, plan *runner.Plan) (string, error) {
	abs, err := filepath.Abs(c.File)
	if err != nil || k.files[abs] {
		return "", nil
	}
	k.files[abs] = true
	k.configs++
	var with []string
	n := 0
	for _, cell := range plan.Cells {
		h, err := runner.CellHash(c, plan.Kind, cell)
		if err != nil {
			return "", err
		}
		k.cells++
		f, ok := k.first[h]
		if !ok {
			k.first[h] = c.Name
			continue
		}
		n++
		if !slices.Contains(with, f) {
			with = append(with, f)
		}
	}
	k.shared += n
	if n == 0 {
		return "", nil
	}
	return fmt.Sprintf("%d cells have the cache keys of cells of %s: one suite computes them once", n, strings.Join(with, ", ")), nil
}

// listWhat are the sections runexp list prints.
// listConfigs prints the configs and collections of dir (or of the
// binary's checkout, configsDir); quiet, when the whole list was asked
// for, turns a missing folder into a line instead of an error. ok is false
// with the exit status when it failed.
func listConfigs(w io.Writer, e *errOut, dir string, quiet bool) (code int, ok bool) {
	// Outside a checkout, the configs of the checkout the
	// binary comes from (checkouts), said as such: runexp NAME
	// then needs --configs with that folder.
	cdir, elsewhere := configsDir(dir)
	ls, err := suite.List(cdir)
	if err != nil {
		if quiet {
			// runexp list from outside a checkout: the rest
			// was listed, the configs are not there.
			fmt.Fprintf(w, "Configs: none in %s; run runexp from a checkout's root or pass --configs DIR\n", dir)
			return 0, true
		}
		return e.fail(exitUsage, "%v; run runexp from a checkout's root or pass --configs DIR", err), false
	}
	p := printer{w: w, width: terminalWidth(w), tty: isTerminal(w)}
	if elsewhere {
		p.line(fmt.Sprintf("Configs (%s, no configs folder here; runexp --configs %s NAME runs one):", cdir, cdir))
	} else {
		p.line(fmt.Sprintf("Configs (%s; runexp NAME runs one):", cdir))
	}
	for _, l := range ls {
		if l.Members == nil && l.Err == nil {
			p.line(fmt.Sprintf("  %-36s %s", l.Name, l.Title))
		}
	}
	fmt.Fprintln(w)
	p.line(fmt.Sprintf("Collections (%s; runexp NAME runs every config listed):", cdir))
	for _, l := range ls {
		if l.Members != nil {
			p.line(fmt.Sprintf("  %-26s %s", l.Name, l.Title))
			p.line("      " + strings.Join(l.Members, ", "))
		}
	}
	for _, l := range ls {
		if l.Err != nil {
			p.line(fmt.Sprintf("  %-36s unreadable: %v", l.Name, l.Err))
		}
	}
	return 0, true
}

// count is "1 cell", "0 cells", "2 cells".
func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

var listWhat = []string{"estimators", "kinds", "datasets", "configs"}

func cmdList(args []string, stdout, stderr io.Writer) int {
	c := newCommand("list", []string{"runexp list [flags] [estimators|kinds|datasets|configs]..."},
		"Lists the registered estimators with their parameters, the experiment kinds,\nthe datasets (those that need a data root marked) and the configs and\ncollections of the configs folder; by default all of them.")
	dir := c.flags.String("configs", "configs", "the configs `DIR`")
	e, pos, code, done := c.begin(args, stdout, stderr)
	if done {
		return code
	}
	if len(pos) == 0 {
		pos = listWhat
	}
	for _, w := range pos {
		if !slices.Contains(listWhat, w) {
			return e.fail(exitUsage, "nothing to list as %q%s; want %s", w, suggest.Hint(w, listWhat, 1), suggest.Or(listWhat))
		}
	}
	w := stdout
	for i, what := range pos {
		if i > 0 {
			fmt.Fprintln(w)
		}
		switch what {
		case "estimators":
			fmt.Fprintln(w, "Estimators:")
			for _, s := range methods.All() {
				fmt.Fprintf(w, "  %-14s %s — %s\n", s.Name, s.Title, s.Doc)
				for _, p := range s.Params {
					fmt.Fprintf(w, "      %-12s %-8s default %v  %s\n", p.Name, p.Kind, p.Default, p.Doc)
				}
			}
		case "kinds":
			fmt.Fprintln(w, "Experiment kinds:")
			for _, k := range runner.Kinds() {
				fmt.Fprintf(w, "  %-14s %s\n", k.Name, k.Doc)
			}
		case "datasets":
			fmt.Fprintln(w, "Datasets:")
			for _, d := range runner.Datasets() {
				root := ""
				if d.NeedsRoot {
					root = " [data root]"
				}
				fmt.Fprintf(w, "  %-14s %s%s\n", d.Name, d.Doc, root)
			}
		case "configs":
			if code, ok := listConfigs(w, e, *dir, len(args) == 0); !ok {
				return code
			}
		}
	}
	return exitOK
}

func cmdVersion(args []string, stdout, stderr io.Writer) int {
	c := newCommand("version", []string{"runexp version", "runexp --version"}, "Prints the module version, VCS revision, Go version and key dependencies.")
	e, pos, code, done := c.begin(args, stdout, stderr)
	if done {
		return code
	}
	if len(pos) > 0 {
		return e.fail(exitUsage, "takes no arguments; see runexp version --help")
	}
	w := stdout
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
