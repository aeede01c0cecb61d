package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// suiteRun is one config's line in suite.json.
type suiteRun struct {
	Name         string  `json:"name"`
	File         string  `json:"file"`
	Seconds      float64 `json:"seconds"`
	CPUSeconds   float64 `json:"cpu_seconds,omitempty"` // user + system, all threads
	Cells        int     `json:"cells"`
	Computed     int     `json:"computed"`
	Cached       int     `json:"cached"`
	Failed       int     `json:"failed"`
	Crashed      int     `json:"crashed"`
	Claims       int     `json:"claims"`
	Unexpected   int     `json:"claims_unexpected"`
	NotEvaluated int     `json:"claims_not_evaluated"`
	Status       int     `json:"status"`
	Error        string  `json:"error,omitempty"`
	Dir          string  `json:"dir,omitempty"`
}

// suiteReport is suite.json: what a suite run did, how long each config
// took, and how it compared with the baseline.
type suiteReport struct {
	Started  time.Time       `json:"started"`
	Seconds  float64         `json:"seconds"`
	Workers  int             `json:"workers"`
	Runs     []suiteRun      `json:"runs"`
	Baseline string          `json:"baseline,omitempty"`
	Changes  []report.Change `json:"changes,omitempty"`
	// NotCompared counts, per config and added method, the cells of the
	// estimators added by --with: a baseline holds the configs' own
	// methods only, so these have nothing to be compared with.
	NotCompared []addedCells     `json:"added_not_compared,omitempty"`
	Status      int              `json:"status"`
	Manifest    *report.Manifest `json:"build"`
}

// onlyFlag collects --only globs (repeatable, or comma-separated).
type onlyFlag []string

func (o *onlyFlag) String() string { return strings.Join(*o, ",") }
func (o *onlyFlag) Set(s string) error {
	for _, g := range strings.Split(s, ",") {
		if g = strings.TrimSpace(g); g != "" {
			if _, err := path.Match(g, ""); err != nil {
				return fmt.Errorf("bad glob %q: %v", g, err)
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
	files, err := suiteConfigs(*dir, fs.Args(), only)
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
	cfgs, added, err := loadConfigs(files, with, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "runexp suite:", err)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	rep := suiteReport{Started: time.Now(), Workers: *jobs, Baseline: *baseline, Manifest: report.NewManifest()}
	code := exitOK
	for ci, c := range cfgs {
		t0, cpu0 := time.Now(), processCPU()
		var progress func(done, total int)
		if !*quiet {
			progress = newProgress(term, log, c.Name).update
		}
		stopProf, err := prof.start(c.Name)
		if err != nil {
			fmt.Fprintln(stderr, "runexp suite:", err)
			return exitUsage
		}
		sum, err := runner.Run(ctx, c, runner.Options{
			DataDir: *data, OutRoot: root, CacheDir: cacheDir, NoCache: *noCache, Force: *force,
			Workers: *jobs, Log: log, Progress: progress, With: added[ci],
		})
		if perr := stopProf(); perr != nil {
			log.Warn("CPU profile not written", "config", c.Name, "err", perr)
		}
		r := suiteRun{Name: c.Name, File: c.File, Seconds: time.Since(t0).Seconds(), CPUSeconds: processCPU() - cpu0}
		var ie *runner.InterruptedError
		if errors.As(err, &ie) {
			fmt.Fprintln(stderr, "\nrunexp suite:", err)
			return exitInterrupted
		}
		if err != nil {
			fmt.Fprintf(stderr, "runexp suite: %s: %v\n", c.Name, err)
			r.Status, r.Error = exitUsage, err.Error()
		} else {
			r.Dir, r.Cells, r.Computed, r.Cached, r.Failed, r.Crashed = sum.Dir, sum.Cells, sum.Computed, sum.Cached, sum.Failed, sum.Crashed
			r.Claims, r.Unexpected, r.NotEvaluated = len(sum.Claims), sum.Unexpected, sum.NotEvaluated
			r.Status = summaryStatus(sum)
			fmt.Fprintf(stdout, "%s: %d cells (%d computed, %d cached, %d failed), claims: %s, %.1f s\n",
				c.Name, sum.Cells, sum.Computed, sum.Cached, sum.Failed, claimCounts(sum), r.Seconds)
			printUnexpected(stdout, c.Name, sum)
		}
		code = worse(code, r.Status)
		rep.Runs = append(rep.Runs, r)
	}
	writeScoreboard(*dir, root, log)
	writeIndexes(*out, root, log)
	rep.Seconds = time.Since(rep.Started).Seconds()

	if *baseline != "" {
		ch, err := compareWithBaseline(*baseline, rep.Runs, report.CompareOptions{RelTol: *rtol, AbsTol: *atol})
		if err == nil && len(with) > 0 {
			ch, rep.NotCompared, err = setAsideAdded(ch, rep.Runs, cfgs, added)
		}
		if err != nil {
			fmt.Fprintln(stderr, "runexp suite:", err)
			code = worse(code, exitUsage)
		} else {
			rep.Changes = ch
			fmt.Fprintln(stdout)
			t := report.ChangesTable(ch)
			t.Title = "Changes against the baseline " + *baseline
			if err := t.RenderText(stdout); err != nil {
				fmt.Fprintln(stderr, "runexp suite:", err)
			}
			if len(rep.NotCompared) > 0 {
				fmt.Fprintln(stdout)
				if err := addedTable(rep.NotCompared).RenderText(stdout); err != nil {
					fmt.Fprintln(stderr, "runexp suite:", err)
				}
			}
			if len(ch) > 0 {
				code = worse(code, exitClaim)
			}
		}
	}
	if *writeBaseline != "" {
		for _, r := range rep.Runs {
			if r.Error != "" {
				continue
			}
			if err := report.WriteBaseline(r.Dir, filepath.Join(*writeBaseline, r.Name)); err != nil {
				fmt.Fprintln(stderr, "runexp suite:", err)
				code = worse(code, exitUsage)
			}
		}
		fmt.Fprintf(stdout, "baseline of %d configs written to %s: review it (git diff) before committing\n", len(rep.Runs), *writeBaseline)
	}

	printTimes(stdout, rep)
	rep.Status = code
	b, err := json.MarshalIndent(rep, "", "  ")
	if err == nil {
		err = report.WriteFileAtomic(filepath.Join(root, "suite.json"), append(b, '\n'))
	}
	if err != nil {
		fmt.Fprintln(stderr, "runexp suite: suite.json:", err)
		code = worse(code, exitUsage)
	}
	fmt.Fprintf(stdout, "suite: %d configs, %.1f s, exit status %d (docs/exit-status.md)\n", len(rep.Runs), rep.Seconds, code)
	return code
}

// suiteConfigs lists the configs to run: those named in args (files, or
// names of configs in dir), or else every *.yaml in dir; then those
// matching any of the globs in only (by name, the file's base name
// without .yaml).
func suiteConfigs(dir string, args []string, only []string) ([]string, error) {
	var files []string
	if len(args) > 0 {
		for _, a := range args {
			if !strings.HasSuffix(a, ".yaml") && !strings.ContainsRune(a, filepath.Separator) {
				a = filepath.Join(dir, a+".yaml")
			}
			files = append(files, a)
		}
	} else {
		var err error
		files, err = filepath.Glob(filepath.Join(dir, "*.yaml"))
		if err != nil {
			return nil, err
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("no configs in %s (--configs DIR)", dir)
		}
		sort.Strings(files)
	}
	if len(only) == 0 {
		return files, nil
	}
	var out []string
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		for _, g := range only {
			if ok, _ := path.Match(g, name); ok {
				out = append(out, f)
				break
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--only %s matches none of the %d configs", strings.Join(only, ","), len(files))
	}
	return out, nil
}

// compareWithBaseline compares each config run with its baseline run
// directory: only what ran is compared, so a partial suite reports no
// "missing run" for the configs it skipped. A config the baseline lacks
// is a change ("missing run", absent → present).
func compareWithBaseline(baseline string, runs []suiteRun, o report.CompareOptions) ([]report.Change, error) {
	var all []report.Change
	for _, r := range runs {
		if r.Error != "" {
			continue
		}
		old := filepath.Join(baseline, r.Name)
		if _, err := os.Stat(filepath.Join(old, "records.jsonl")); err != nil {
			all = append(all, report.Change{Config: r.Name, What: "missing run", Old: "absent", New: "present"})
			continue
		}
		ch, err := report.CompareResults(old, r.Dir, o)
		if err != nil {
			return nil, err
		}
		for i := range ch {
			ch[i].Config = r.Name
		}
		all = append(all, ch...)
	}
	return all, nil
}

// addedCells is one line of the "added by --with, not compared" list.
type addedCells struct {
	Config string `json:"config"`
	Method string `json:"method"` // the label its records carry
	Spec   string `json:"spec"`   // the --with SPEC as given
	Cells  int    `json:"cells"`
}

// setAsideAdded takes out of ch the "new cell" changes of the methods
// added by --with and counts them per config and method instead: a
// baseline holds the configs' own methods, so the added cells are new by
// construction, and only the rest — the papers' methods, their claims —
// says whether adding an estimator moved anything. added[i] is what
// addWith did to cfgs[i]; a run is matched to its config by name. A cell
// of an added method that the baseline does have (a baseline written with
// the method in the file) is compared as any other.
func setAsideAdded(ch []report.Change, runs []suiteRun, cfgs []*config.Config, added [][]report.WithSpec) ([]report.Change, []addedCells, error) {
	byName := map[string][]report.WithSpec{}
	for i, c := range cfgs {
		byName[c.Name] = added[i]
	}
	// addedKey maps config → cell key → index into out.
	addedKey := map[string]map[string]int{}
	var out []addedCells
	for _, r := range runs {
		if r.Error != "" {
			continue
		}
		idx := map[string]int{} // label → index into out
		for _, w := range byName[r.Name] {
			if w.Skipped != "" {
				continue
			}
			idx[w.Label] = len(out)
			out = append(out, addedCells{Config: r.Name, Method: w.Label, Spec: w.Spec})
		}
		if len(idx) == 0 {
			continue
		}
		recs, err := report.ReadJSONL(filepath.Join(r.Dir, "records.jsonl"))
		if err != nil {
			return nil, nil, err
		}
		keys := map[string]int{}
		for _, rec := range recs {
			if l, ok := rec.Params["method"].(string); ok {
				if i, ok := idx[l]; ok {
					keys[rec.Key] = i
				}
			}
		}
		addedKey[r.Name] = keys
	}
	var kept []report.Change
	for _, c := range ch {
		if i, ok := addedKey[c.Config][c.Key]; ok && c.What == "new cell" {
			out[i].Cells++
			continue
		}
		kept = append(kept, c)
	}
	return kept, out, nil
}

// addedTable lists the cells setAsideAdded took out of the comparison.
func addedTable(a []addedCells) *report.Table {
	t := &report.Table{Title: "Added by --with, not compared", Header: []string{"Config", "Method", "--with", "Cells"}}
	n := 0
	for _, x := range a {
		t.Rows = append(t.Rows, []string{x.Config, x.Method, x.Spec, fmt.Sprint(x.Cells)})
		n += x.Cells
	}
	t.Caption = fmt.Sprintf("%d cells of estimators added by --with: the baseline holds the configs' own methods only, so these are neither compared nor counted as changes.", n)
	return t
}

func printTimes(w io.Writer, rep suiteReport) {
	t := &report.Table{Title: "Suite wall time", Header: []string{"Config", "Cells", "Computed", "Seconds", "CPU seconds", "Status"}}
	var cpu float64
	for _, r := range rep.Runs {
		cpu += r.CPUSeconds
		t.Rows = append(t.Rows, []string{r.Name, fmt.Sprint(r.Cells), fmt.Sprint(r.Computed), fmt.Sprintf("%.1f", r.Seconds), fmt.Sprintf("%.1f", r.CPUSeconds), fmt.Sprint(r.Status)})
	}
	t.Rows = append(t.Rows, []string{"total", "", "", fmt.Sprintf("%.1f", rep.Seconds), fmt.Sprintf("%.1f", cpu), ""})
	fmt.Fprintln(w)
	t.RenderText(w)
}
