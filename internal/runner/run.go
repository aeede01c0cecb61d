package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/runexp/runexp"
	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/par"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/safefs"
	"github.com/runexp/runexp/internal/suggest"
	"github.com/runexp/runexp/internal/tables"
)

// Options control a run.
type Options struct {
	// DataDir is the --data flag ("" falls back to RUNEXP_DATA).
	DataDir string
	// OutRoot is the parent of result directories (default "results");
	// the config's outputs.dir overrides it for that config.
	OutRoot string
	// CacheDir holds finished cells (default OutRoot/.cache).
	CacheDir string
	// NoCache disables reading and writing the cell cache.
	NoCache bool
	// Force recomputes every cell, replacing cached ones.
	Force bool
	// Shard runs only a 1/n slice of the cells and writes its records to
	// the result directory's shards/ folder instead of a report.
	Shard Shard
	// Workers is the worker-pool size (≤ 0: GOMAXPROCS).
	Workers int
	Log     *slog.Logger
	// Stdout receives the rendered tables (nil: discarded).
	Stdout io.Writer
	// Progress, if set, is called after every finished cell with the
	// number done so far (cached ones included) and the total.
	Progress func(done, total int)
	// Work, if set, is called before each call of Progress (from the
	// end of Start on) with the predicted work of the cells computed so
	// far and still to compute (Job.reportWork), for an estimate of the
	// time left that a 293 s cell among 13 s ones does not fool.
	Work func(Work)
	// With records the estimators added on the command line (runexp
	// --with) that c's methods already hold, for the manifest and a
	// shard's provenance; merging refuses shards run with other ones.
	With []report.WithSpec
	// Top is the --out folder OutRoot lies in when OutRoot is a --with
	// folder inside it ("": OutRoot itself). Every folder runexp writes
	// into below Top (result folders, their staging and lock, shards/,
	// the default cache) is checked for symbolic links, component by
	// component; Top itself is the user's and is used as given.
	Top string
	// AllowExternal lets the config's own methods run the commands of
	// external estimators (runexp --allow-external). Without it a config
	// that names one is refused before anything runs: a config received
	// from someone else would otherwise run their command. Estimators
	// added with --with (Method.Added) are typed on the command line and
	// need no further leave.
	AllowExternal bool
	// Estimate, if set, gives the cost (CellTime.Cost) a cell (by its key) had
	// before, where its cache entry does not say (a previous
	// suite.json): the pool computes the longest cells first.
	Estimate func(key string) (float64, bool)
	// Grace is how long an interrupted run waits for its running cells
	// (0: DefaultGrace).
	Grace time.Duration
}

// top is the folder every write of the run must stay below.
func (o Options) top() string {
	switch {
	case o.Top != "":
		return o.Top
	case o.OutRoot != "":
		return o.OutRoot
	}
	return "results"
}

// Summary is what a run produced. Each cause of a non-zero exit status
// (docs/exit-status.md) has its own count.
type Summary struct {
	Dir   string
	Cells int
	// Failed counts failed cells (exit status 3); Crashed counts
	// recovered panics, a bug (status 4): cells that panicked (also
	// counted in Failed, with reason "panic: …") and a panic in the
	// report stage. The stack is in the log.
	Failed  int
	Crashed int
	// Cached, Computed and Shared split Cells by where the record came
	// from: the cache, computed by this config, or computed in the same
	// pool by another config whose cell has the same cache key and served
	// to this one as a cache hit would be (Pool); CacheRejected counts
	// cache entries found but not used (damaged, edited, misplaced or
	// computed on other data), all recomputed.
	Cached, Computed, Shared int
	CacheRejected            int
	Claims                   []claims.Result
	// ReportErrors lists what the report stage could not write (a
	// figure, a table); the rest of the report was written (status 3).
	ReportErrors []string
	// NotEvaluated counts claims that could not be judged (status 3);
	// Unexpected counts claims judged otherwise than their expectation
	// (status 1).
	NotEvaluated, Unexpected int
	Outputs                  []string
	// Times holds the wall and CPU time of each computed cell, in grid
	// order; Start and Report those of the config's Start and of its
	// report stage (or shard file). CachedTimes holds, for the cells read
	// from the cache, the times their entries recorded when an earlier
	// run computed them (CellTime.Cached), in grid order; a cell whose
	// entry records none is not in it. They are not this run's: what
	// measures this run leaves them out. SharedTimes holds, for the
	// Shared cells, the times the configs that computed them measured
	// (CellTime.Shared), in grid order: they are in that config's Times.
	Times         []CellTime
	CachedTimes   []CellTime
	SharedTimes   []CellTime
	Start, Report Phase
	// Reasons says, for each cell this run computed or was to compute
	// (the cache did not serve it), why (Reason), in grid order.
	Reasons []Reason
}

// InterruptedError reports a run stopped by a signal. Finished cells are
// in the cache, unless the run had none (NoCache); then nothing is kept.
// A run with Force recomputes cached cells, so the same command would
// compute every cell again. Done and Total count cells; a cell computed
// in parts (parts.go) is done when its last part is, and Units and
// UnitsDone count the units of work, each part one, which the cache
// keeps one by one.
type InterruptedError struct {
	Done, Total      int
	UnitsDone, Units int
	NoCache          bool
	Force            bool
}

func (e *InterruptedError) Error() string {
	done := fmt.Sprintf("%d of %d cells done", e.Done, e.Total)
	if e.Units > e.Total && e.UnitsDone > e.Done {
		done += fmt.Sprintf(" (%d of %d units of work: a cell computed in parts counts each part)", e.UnitsDone, e.Units)
	}
	switch {
	case e.NoCache:
		return "interrupted with " + done + "; nothing was cached (--no-cache), so the same command computes them again"
	case e.Force:
		return "interrupted with " + done + "; they are cached, but --force computes every cell again: the same command without --force resumes"
	}
	return "interrupted with " + done + "; they are cached, so the same command resumes"
}

// running counts the cells being computed in this process, of every run.
var running atomic.Int64

// RunningCells returns the number of cells being computed in this
// process, for a stop to say how many it waits for.
func RunningCells() int { return int(running.Load()) }

// ClaimsFailed counts claims that were evaluated and did not hold,
// unexpectedly: a claim declared `expect: fail` that fails is as expected
// and not counted; one expected to fail that holds is.
func (s *Summary) ClaimsFailed() int { return s.Unexpected }

// Plan is a validated config: its kind, the kind's parsed options, the
// dataset's parsed options and the grid's cells.
type Plan struct {
	Kind    *Kind
	Options any
	// DataOptions are the dataset's options as its Parse returned them.
	DataOptions any
	Cells       []*Cell
	// Metrics are the metric names the kind declares for the config
	// (Kind.Metrics), nil when it declares none.
	Metrics MetricNames
	// Estimate is the config's resource estimate, or nil when its
	// dataset cannot tell its shape from the options.
	Estimate *Estimate

	dataset *DatasetSpec
}

// Start prepares the plan's experiment in env.
func (p *Plan) Start(env *Env) (Instance, error) { return p.Kind.Start(env, p.Options) }

// Validate checks everything about a config that can be checked without
// loading data or running: kind, dataset options, experiment options,
// estimator names and parameters, the grid, the claims, and the resource
// estimate (components within the data's points, the shape the kind
// needs, memory within MaxMemory). Run calls it first, so `runexp
// validate` and a run refuse the same configs.
func Validate(c *config.Config) (*Plan, error) {
	p, err := validate(c)
	if err != nil {
		return nil, err
	}
	if p.Estimate, err = estimate(c, p); err != nil {
		return nil, err
	}
	return p, nil
}

func validate(c *config.Config) (*Plan, error) {
	p := &Plan{}
	var err error
	if p.Kind, err = lookupKind(c); err != nil {
		return nil, err
	}
	if p.dataset, err = lookupDataset(c); err != nil {
		return nil, err
	}
	if p.dataset.Parse != nil {
		if p.DataOptions, err = p.dataset.Parse(c.Dataset.Options); err != nil {
			return nil, err
		}
	}
	if p.Kind.Parse != nil {
		if p.Options, err = p.Kind.Parse(c); err != nil {
			return nil, err
		}
		if err := p.Kind.Needs.check(c, p.Kind); err != nil {
			return nil, err
		}
	}
	if err := checkCorruption(c, p.Kind); err != nil {
		return nil, err
	}
	if p.Cells, err = Cells(c); err != nil {
		return nil, err
	}
	if err := rekeyCells(c, p.Kind, p.Options, p.Cells); err != nil {
		return nil, err
	}
	if p.Kind.Parts != nil {
		for _, cell := range p.Cells {
			cell.Stages = normalStages(p.Kind.Parts(c, p.Options, cell))
		}
	}
	for _, cl := range c.Claims {
		if err := claims.Check(cl); err != nil {
			return nil, err
		}
	}
	if p.Kind.Metrics != nil {
		p.Metrics = p.Kind.Metrics(c, p.Options)
	}
	if err := checkNames(c, p.Metrics, p.Cells); err != nil {
		return nil, err
	}
	return p, nil
}

// lookupKind returns the config's kind, refusing an unknown one and
// repeats on a kind without them.
func lookupKind(c *config.Config) (*Kind, error) {
	kind, ok := LookupKind(c.Kind)
	if !ok {
		var names []string
		for _, k := range Kinds() {
			names = append(names, k.Name)
		}
		return nil, c.Errorf(c.KindLine, "kind: unknown experiment kind %q%s (known: %s)", c.Kind, suggest.Hint(c.Kind, names, 3), strings.Join(names, ", "))
	}
	if c.Repeats > 0 && !kind.Repeats {
		var names []string
		for _, k := range Kinds() {
			if k.Repeats {
				names = append(names, k.Name)
			}
		}
		return nil, c.Errorf(c.RepeatsLine, "repeats: kind %s draws its corruption once; kinds with repeats: %s", c.Kind, strings.Join(names, ", "))
	}
	return kind, nil
}

// lookupDataset returns the config's dataset, refusing an unknown one.
func lookupDataset(c *config.Config) (*DatasetSpec, error) {
	ds, ok := LookupDataset(c.Dataset.Name)
	if !ok {
		var names []string
		for _, d := range Datasets() {
			names = append(names, d.Name)
		}
		return nil, c.Dataset.Options.Errorf("name", "dataset: unknown dataset %q%s (known: %s)", c.Dataset.Name, suggest.Hint(c.Dataset.Name, names, 3), strings.Join(names, ", "))
	}
	return ds, nil
}

// ResultDir returns where a config's results go: outRoot/NAME, or
// outRoot/outputs.dir. config.Parse only accepts names and outputs.dir
// values that stay inside outRoot; an absolute Outputs.Dir can only have
// been set by a program (tests) and is used as it is.
func ResultDir(c *config.Config, outRoot string) string {
	if outRoot == "" {
		outRoot = "results"
	}
	if c.Outputs.Dir != "" {
		if filepath.IsAbs(c.Outputs.Dir) {
			return c.Outputs.Dir
		}
		return filepath.Join(outRoot, c.Outputs.Dir)
	}
	return filepath.Join(outRoot, c.Name)
}

// checkConfined refuses a result directory outside outRoot (a config
// built by a program that bypassed config.Parse's checks), and one with a
// symbolic link (or a file) at any component below the run's top folder,
// itself included: following it would write outside --out. It returns
// the folder the run's writes must stay below: the top folder, or, for an
// absolute outputs.dir (set by a program), dir's parent.
func checkConfined(c *config.Config, dir string, opt Options) (string, error) {
	outRoot := opt.OutRoot
	if outRoot == "" {
		outRoot = "results"
	}
	top := opt.top()
	if filepath.IsAbs(c.Outputs.Dir) {
		top = filepath.Dir(dir)
	} else {
		rel, err := filepath.Rel(outRoot, dir)
		if err != nil || !filepath.IsLocal(rel) || rel == "." {
			return "", fmt.Errorf("%s: result directory %s is not inside --out %s", c.File, dir, outRoot)
		}
	}
	if err := safefs.CheckUnder(top, dir); err != nil {
		return "", err
	}
	return top, checkResultDir(dir)
}

// Run validates the config, runs every cell not already cached and writes
// the report (or, for a shard, the shard's records): a Pool of one Job.
func Run(ctx context.Context, c *config.Config, opt Options) (*Summary, error) {
	j, err := Prepare(c, opt)
	if err != nil {
		return nil, err
	}
	var sum *Summary
	var jerr error
	p := &Pool{Workers: opt.Workers, Grace: opt.Grace, StopOnError: true, Log: opt.Log,
		Done: func(_ *Job, s *Summary, err error) { sum, jerr = s, err }}
	if err := p.Run(ctx, []*Job{j}); err != nil {
		return nil, err
	}
	return sum, jerr
}

// VerifyShards checks, writing nothing, that the shards of c are all
// there and verify (their records' checksums, the code, data and --with
// they were computed with: what Merge checks). A merge of several
// configs verifies every one before it writes any, so a refused merge
// leaves every previous output as it was.
func VerifyShards(c *config.Config, opt Options) error {
	plan, err := Validate(c)
	if err != nil {
		return err
	}
	dir := ResultDir(c, opt.OutRoot)
	if _, err := checkConfined(c, dir, opt); err != nil {
		return err
	}
	if err := safefs.CheckUnder(opt.OutRoot, filepath.Join(dir, "shards")); err != nil {
		return err
	}
	fp, err := PlanFingerprints(c, plan.Kind, plan.Cells)
	if err != nil {
		return err
	}
	_, _, _, err = Merge(dir, c, plan.Cells, fp, opt.With, opt.Shard.Numbers)
	return err
}

// MergeShards assembles the records written by every shard of a config
// into the outputs a single run writes, byte for byte (the manifest, which
// holds times, aside).
func MergeShards(c *config.Config, opt Options) (*Summary, error) {
	start := time.Now()
	plan, err := Validate(c)
	if err != nil {
		return nil, err
	}
	dir := ResultDir(c, opt.OutRoot)
	top, err := checkConfined(c, dir, opt)
	if err != nil {
		return nil, err
	}
	if err := safefs.CheckUnder(top, filepath.Join(dir, "shards")); err != nil {
		return nil, err
	}
	release, err := acquireLock(top, dir)
	if err != nil {
		return nil, err
	}
	defer release()
	cleanStale(dir)
	fp, err := PlanFingerprints(c, plan.Kind, plan.Cells)
	if err != nil {
		return nil, err
	}
	recs, parts, data, err := Merge(dir, c, plan.Cells, fp, opt.With, opt.Shard.Numbers)
	if err != nil {
		return nil, err
	}
	env := plan.env(c, opt.DataDir, opt.Log)
	defer env.releaseMemo()
	inst, err := plan.Start(env)
	if err != nil {
		return nil, err
	}
	if err := checkMergedData(data, env.DataFiles()); err != nil {
		return nil, err
	}
	if len(parts) > 0 {
		p, ok := inst.(Parted)
		if !ok {
			return nil, fmt.Errorf("runner: kind %s computes its cells in parts, but its instance has no Parts", plan.Kind.Name)
		}
		for i, ps := range parts {
			recs[i] = combineParts(p.Parts(), plan.Cells[i], ps, opt.Log)
			// The code that computed it, as a run's record says
			// (Job.finishOn): the code part of the cell's key.
			key, err := NewCellKey(c, plan.Kind, plan.Cells[i])
			if err != nil {
				return nil, err
			}
			recs[i].Code = key.CodeFingerprint()
		}
	}
	return finish(top, dir, c, env, inst, recs, opt.Workers, start, opt.With, opt.Stdout, opt.Log)
}

// finish writes the report and the manifest into a staging folder that
// then replaces dir as a whole, so an interrupted report never leaves new
// records beside an old manifest. The caller holds dir's lock.
func finish(top, dir string, c *config.Config, env *Env, inst Instance, recs []report.Record, workers int, start time.Time, with []report.WithSpec, stdout io.Writer, log *slog.Logger) (*Summary, error) {
	stage, err := stageDir(top, dir)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	committed := false
	defer func() {
		if !committed {
			os.RemoveAll(stage)
		}
	}()
	sum, err := writeReport(stage, c, inst, recs, log)
	if err != nil {
		return nil, err
	}
	sum.Dir = dir
	man := report.NewManifest()
	man.FillRevisionFromGit(filepath.Dir(c.File))
	man.CheckSources(filepath.Dir(c.File), runexp.Sources, runexp.SourcePatterns)
	man.Config = c.File
	man.ConfigSHA256 = c.SHA256
	man.Workers = workers
	man.Seed = c.Seed
	man.Data = env.DataFiles()
	man.Cells = len(recs)
	man.Failed = sum.Failed
	man.Start = start
	man.Outputs = append(sum.Outputs, "manifest.json")
	man.With = withRan(with, recs)
	man.Modules = externalModules(c, recs)
	man.VariantOf, man.Diagnostic = c.VariantOf, c.Diagnostic
	// The fit reads the records as the config reports them (present), as
	// the paper table and records.jsonl do.
	man.PaperFit = tables.PaperFits(c, fileRecords(c, present(inst, recs)))
	man.Finish()
	if err := man.Write(filepath.Join(stage, "manifest.json")); err != nil {
		return nil, err
	}
	if err := commitDir(stage, dir); err != nil {
		return nil, fmt.Errorf("report: replacing %s: %w", dir, err)
	}
	committed = true
	sum.Outputs = man.Outputs
	if stdout != nil {
		if b, err := safefs.ReadFile(filepath.Join(dir, "tables.txt"), report.MaxJSONBytes); err == nil {
			stdout.Write(b)
		}
	}
	return sum, nil
}

// RunCell runs one cell, turning an error or a panic into a failed record.
func RunCell(inst Instance, cell *Cell) (rec report.Record) {
	return runCell(inst, cell, nil)
}

// isPanic reports whether a record is a cell whose run panicked.
func isPanic(r report.Record) bool {
	return r.Status == report.StatusFailed && strings.HasPrefix(r.Error, "panic: ")
}

func runCell(inst Instance, cell *Cell, log *slog.Logger) report.Record {
	return runRecord(cell, cell.Key, log, func(cell *Cell, rec *report.Record) error { return inst.Run(cell, rec) })
}

// runRecord runs f on the cell (a copy that reports the parameters its
// estimator ran with) and a new record of it under key (the cell's, or a
// part's: UnitKey), turning an error or a panic into a failed record.
func runRecord(cell *Cell, key string, log *slog.Logger, f func(cell *Cell, rec *report.Record) error) (rec report.Record) {
	rec = report.Record{
		Key:     key,
		Seed:    cell.Seed,
		Params:  cell.Params,
		Metrics: map[string]float64{},
		Status:  "ok",
	}
	defer func() {
		if p := recover(); p != nil {
			stack := debug.Stack()
			rec.Status = "failed"
			rec.Arrays = nil
			rec.Error = fmt.Sprintf("panic: %v", p)
			// The record keeps the stack in short form (the first
			// frame inside runexp is enough to find the bug); the log
			// has all of it.
			rec.Error += " at " + firstFrame(stack)
			if log != nil {
				log.Error("cell panicked (a bug in runexp)", "key", key, "panic", fmt.Sprint(p), "stack", string(stack))
			}
		}
	}()
	// The cell the experiment gets reports the parameters its estimator
	// ran with (Record.Ran).
	rc, ran, loaded := reporting(cell)
	defer func() {
		if got := ran(); got != nil {
			rec.Ran = got
		}
		rec.Loaded = loaded()
	}()
	if err := f(rc, &rec); err != nil {
		rec.Status = "failed"
		rec.Error = err.Error()
		return rec
	}
	// A metric that is NaN or infinite is a numerical failure of the
	// cell, whatever the experiment said: it is recorded with its reason
	// and never cached, so a fix or a rerun computes it again.
	var bad []string
	for k, v := range rec.Metrics {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			bad = append(bad, k)
		}
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		rec.Status = "failed"
		rec.Error = "not finite: " + strings.Join(bad, ", ")
	}
	return rec
}

func firstFrame(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	for i, l := range lines {
		if strings.Contains(l, "runexp/") && !strings.Contains(l, "internal/runner") && i+1 < len(lines) {
			f := strings.TrimSpace(lines[i+1])
			if j := strings.LastIndex(f, " +0x"); j > 0 {
				f = f[:j]
			}
			return filepath.Base(f)
		}
	}
	return "unknown"
}

// WriteReport writes records, the experiment's figures and tables, the
// paper comparison and the claims into dir. It depends only on the
// records, so a merged set of shards reports exactly as one run.
//
// A panic or an error in the experiment's Report does not stop the rest:
// the records, the failed cells' table, the paper values and the claims
// are still written, and the problem is shown in the tables and counted
// in Summary.Crashed (a panic) or Summary.ReportErrors.
func WriteReport(dir string, c *config.Config, inst Instance, recs []report.Record) (*Summary, error) {
	return writeReport(dir, c, inst, recs, nil)
}

func writeReport(dir string, c *config.Config, inst Instance, recs []report.Record, log *slog.Logger) (*Summary, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, err
	}
	recs = present(inst, recs)
	out := newOutput(dir, c)
	sum := &Summary{Dir: dir, Cells: len(recs)}
	for _, r := range recs {
		if r.Status == "failed" {
			sum.Failed++
		}
		if isPanic(r) {
			sum.Crashed++
		}
	}
	if err := report.WriteJSONL(out.Path("records.jsonl"), recs); err != nil {
		return nil, err
	}
	if err := report.WriteCSV(out.Path("records.csv"), recs); err != nil {
		return nil, err
	}
	var problems []string
	crashed, err := safeReport(inst, out, recs, log)
	if crashed {
		sum.Crashed++
	}
	if err != nil {
		problems = append(problems, err.Error())
		if !crashed {
			sum.ReportErrors = append(sum.ReportErrors, err.Error())
			log.Error("report incomplete", "err", err)
		}
	}
	if err := out.Err(); err != nil {
		problems = append(problems, err.Error())
		sum.ReportErrors = append(sum.ReportErrors, err.Error())
	}
	// Claims and reference values name the config file's methods; the
	// records of methods added on the command line (--with) must not
	// change their verdicts, so they see only the file's records.
	scoped := fileRecords(c, recs)
	copt := claimOptions(c)
	if err := writeClaims(out, c, scoped, copt, sum, log); err != nil {
		return nil, err
	}
	tbl := tables.Build(tables.Input{Config: c, Records: recs, Scoped: scoped, Kind: out.Tables, Problems: problems, Claims: sum.Claims, Intervals: copt})
	txt, md, err := tables.Render(c, tbl)
	if err != nil {
		return nil, err
	}
	if err := report.WriteFileAtomic(out.Path("tables.txt"), txt); err != nil {
		return nil, err
	}
	if err := report.WriteFileAtomic(out.Path("tables.md"), md); err != nil {
		return nil, err
	}
	sum.Outputs = out.Files()
	return sum, nil
}

// claimOptions are how a config's claims are judged.
func claimOptions(c *config.Config) claims.Options {
	copt := claims.Options{
		Repeats: max(c.Repeats, 1),
		// The interval verdict counts whenever there is one, with one
		// corruption draw too: the complaint was exactly a gain
		// inside the item-to-item spread judged a PASS on single numbers.
		Counts: true,
		Rand:   func(key string) *rand.Rand { return NewRand(c.Seed, key) },
		Setup:  claims.ConfigSetup(c),
	}
	if k, ok := LookupKind(c.Kind); ok {
		copt.Items, copt.PointReason, copt.Tolerance = k.Items, k.PointReason, k.Tolerance
	}
	return copt
}

// writeClaims judges the config's claims on the records scoped, counts
// the verdicts in sum and writes them to claims.json.
func writeClaims(out *Output, c *config.Config, scoped []report.Record, copt claims.Options, sum *Summary, log *slog.Logger) error {
	results, crashes := evaluateClaims(c.Claims, scoped, copt, log)
	sum.Crashed += crashes
	for _, res := range results {
		switch {
		case res.AsExpected:
		case res.Status == claims.NotEvaluated:
			sum.NotEvaluated++
		default:
			sum.Unexpected++
		}
		sum.Claims = append(sum.Claims, res)
	}
	if len(sum.Claims) == 0 {
		return nil
	}
	b, err := json.MarshalIndent(sum.Claims, "", "  ")
	if err != nil {
		return err
	}
	return report.WriteFileAtomic(out.Path("claims.json"), append(b, '\n'))
}

// Presenter is implemented by an Instance whose cells record more than
// its config shows: every reading of a report-only option (RegisterReportOnly),
// so that the record, and the cache entry, serve each reading. Present
// turns such a record into the one the config reports: the one written to
// records.jsonl, drawn by Report and read by the claims. It runs on every
// record before the report, whether computed, cached or merged from
// shards (which hold records as Run wrote them), on a copy of the record's
// maps. It must be a function of the record and the options alone.
type Presenter interface {
	Present(rec *report.Record)
}

// present returns the records the config reports: recs themselves, or,
// when inst is a Presenter, each record passed through Present on copies
// of its maps (a cached or computed record is left as Run wrote it;
// Present replaces map entries and never writes into an array).
func present(inst Instance, recs []report.Record) []report.Record {
	p, ok := inst.(Presenter)
	if !ok {
		return recs
	}
	out := make([]report.Record, len(recs))
	for i, r := range recs {
		r.Metrics = maps.Clone(r.Metrics)
		r.Arrays = maps.Clone(r.Arrays)
		p.Present(&r)
		out[i] = r
	}
	return out
}

// evaluateClaims judges the claims concurrently (par.Run: in a pool's
// report task on its idle cores, their CPU time the task's; elsewhere on
// GOMAXPROCS goroutines), and returns the results in the claims' order. A claim's verdict depends on the records and its own
// random stream (Options.Rand keyed by the claim id) only, so the results
// are those of judging them one after another; the report stage is
// otherwise serial, and the claims' bootstrap is most of it in the Yale B
// and USPS configs. A claim that panics is NOT-EVALUATED with the panic
// as its evidence, and counted in crashes (a bug in runexp).
func evaluateClaims(cls []config.Claim, recs []report.Record, o claims.Options, log *slog.Logger) (results []claims.Result, crashes int) {
	results = make([]claims.Result, len(cls))
	crashed := make([]bool, len(cls))
	judge := func(i int) {
		cl := cls[i]
		defer func() {
			if p := recover(); p != nil {
				stack := debug.Stack()
				if log != nil {
					log.Error("claim panicked (a bug in runexp)", "claim", cl.ID, "panic", fmt.Sprint(p), "stack", string(stack))
				}
				crashed[i] = true
				results[i] = claims.Result{
					ID: cl.ID, Statement: cl.Statement, Source: cl.Source,
					Expected: claims.Expected(cl), Because: cl.Because,
					Status: claims.NotEvaluated, Verdict: claims.NotEvaluated, PointVerdict: claims.NotEvaluated, Basis: "point",
					Evidence: fmt.Sprintf("panic: %v at %s", p, firstFrame(stack)),
				}
			}
		}()
		results[i] = claims.EvaluateWith(cl, recs, o)
	}
	par.Run(len(cls), func(next func() (int, bool)) {
		for i, ok := next(); ok; i, ok = next() {
			judge(i)
		}
	})
	for _, c := range crashed {
		if c {
			crashes++
		}
	}
	return results, crashes
}

// safeReport runs the experiment's Report, turning a panic into an error
// (with the stack in the log) so the rest of the report is still written.
func safeReport(inst Instance, out *Output, recs []report.Record, log *slog.Logger) (crashed bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			stack := debug.Stack()
			log.Error("report stage panicked (a bug in runexp)", "panic", fmt.Sprint(p), "stack", string(stack))
			crashed = true
			err = fmt.Errorf("report: panic: %v at %s", p, firstFrame(stack))
		}
	}()
	if err := inst.Report(out, recs); err != nil {
		return false, fmt.Errorf("report: %w", err)
	}
	return false, nil
}

// fileRecords returns recs without the records of methods added on the
// command line (config.Method.Added), recognised by their method label.
// Without added methods it returns recs itself.
func fileRecords(c *config.Config, recs []report.Record) []report.Record {
	added := map[string]bool{}
	for _, m := range c.Methods {
		if !m.Added {
			continue
		}
		label := m.Label
		if label == "" {
			if spec, ok := methods.Lookup(m.Name); ok {
				label = spec.Title
			}
		}
		added[label] = true
	}
	if len(added) == 0 {
		return recs
	}
	var kept []report.Record
	for _, r := range recs {
		if added[r.Method()] {
			continue
		}
		kept = append(kept, r)
	}
	return kept
}
