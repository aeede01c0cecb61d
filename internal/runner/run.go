package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
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
}

// Summary is what a run produced. Each cause of a non-zero exit status
// (docs/exit-status.md) has its own count.
type Summary struct {
	Dir   string
	Cells int
	// Failed counts failed cells (exit status 3); Crashed counts those
	// among them that failed by a recovered panic, a bug (status 4).
	Failed  int
	Crashed int
	// Cached and Computed split Cells by where the record came from;
	// CacheRejected counts cache entries found but not used (damaged,
	// edited, misplaced or computed on other data), all recomputed.
	Cached, Computed int
	CacheRejected    int
	Claims           []claims.Result
	// NotEvaluated counts claims that could not be judged (status 3);
	// Unexpected counts claims judged otherwise than their expectation
	// (status 1).
	NotEvaluated, Unexpected int
	Outputs                  []string
}

// InterruptedError reports a run stopped by a signal. Finished cells are
// in the cache; running the same command again resumes.
type InterruptedError struct {
	Done, Total int
}

func (e *InterruptedError) Error() string {
	return fmt.Sprintf("interrupted with %d of %d cells done; they are cached, so the same command resumes", e.Done, e.Total)
}

// ClaimsFailed counts claims that were evaluated and did not hold,
// unexpectedly: a claim declared `expect: fail` that fails is as expected
// and not counted; one expected to fail that holds is.
func (s *Summary) ClaimsFailed() int { return s.Unexpected }

// Plan is a validated config: its kind, the kind's parsed options and the
// grid's cells.
type Plan struct {
	Kind    *Kind
	Options any
	Cells   []*Cell
}

// Start prepares the plan's experiment in env.
func (p *Plan) Start(env *Env) (Instance, error) { return p.Kind.Start(env, p.Options) }

// Validate checks everything about a config that can be checked without
// loading data or running: kind, dataset options, experiment options,
// estimator names and parameters, the grid and the claims.
func Validate(c *config.Config) (*Plan, error) {
	kind, opts, cells, err := validate(c)
	if err != nil {
		return nil, err
	}
	return &Plan{Kind: kind, Options: opts, Cells: cells}, nil
}

func validate(c *config.Config) (*Kind, any, []*Cell, error) {
	kind, ok := LookupKind(c.Kind)
	if !ok {
		var names []string
		for _, k := range Kinds() {
			names = append(names, k.Name)
		}
		return nil, nil, nil, c.Errorf(0, "kind: unknown experiment kind %q (known: %s)", c.Kind, strings.Join(names, ", "))
	}
	ds, ok := LookupDataset(c.Dataset.Name)
	if !ok {
		var names []string
		for _, d := range Datasets() {
			names = append(names, d.Name)
		}
		return nil, nil, nil, c.Dataset.Options.Errorf("name", "dataset: unknown dataset %q (known: %s)", c.Dataset.Name, strings.Join(names, ", "))
	}
	if ds.Check != nil {
		if err := ds.Check(c.Dataset.Options); err != nil {
			return nil, nil, nil, err
		}
	}
	var opts any
	if kind.Parse != nil {
		o, err := kind.Parse(c)
		if err != nil {
			return nil, nil, nil, err
		}
		opts = o
	}
	cells, err := Cells(c)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, cl := range c.Claims {
		if err := claims.Check(cl); err != nil {
			return nil, nil, nil, err
		}
	}
	if err := checkNames(c, kind, opts, cells); err != nil {
		return nil, nil, nil, err
	}
	return kind, opts, cells, nil
}

// ResultDir returns where a config's results go.
func ResultDir(c *config.Config, outRoot string) string {
	if c.Outputs.Dir != "" {
		return c.Outputs.Dir
	}
	if outRoot == "" {
		outRoot = "results"
	}
	return filepath.Join(outRoot, c.Name)
}

// Run validates the config, runs every cell not already cached and writes
// the report (or, for a shard, the shard's records).
func Run(ctx context.Context, c *config.Config, opt Options) (*Summary, error) {
	start := time.Now()
	plan, err := Validate(c)
	if err != nil {
		return nil, err
	}
	kind, cells := plan.Kind, plan.Cells
	log := opt.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	dir := ResultDir(c, opt.OutRoot)
	var cache *Cache
	if !opt.NoCache {
		cd := opt.CacheDir
		if cd == "" {
			root := opt.OutRoot
			if root == "" {
				root = "results"
			}
			cd = filepath.Join(root, ".cache")
		}
		cache = &Cache{Dir: cd}
	}

	// Cells of this shard, with whatever the cache already holds.
	var mine []*Cell
	for _, cell := range cells {
		if opt.Shard.selects(cell) {
			mine = append(mine, cell)
		}
	}
	env := NewEnv(c, opt.DataDir, log)
	if cache != nil {
		env.CacheDir = cache.Dir
	}
	recs := make([]report.Record, len(mine))
	keys, todo, rejected, err := lookupCells(c, kind, mine, cache, opt.Force, env, recs)
	if err != nil {
		return nil, err
	}
	sum := &Summary{Dir: dir, Cells: len(mine), Cached: len(mine) - len(todo), Computed: len(todo), CacheRejected: rejected}
	log.Info("preparing", "config", c.File, "kind", c.Kind, "cells", len(mine), "cached", sum.Cached)

	inst, err := plan.Start(env)
	if err != nil {
		return nil, err
	}
	done := sum.Cached
	var mu sync.Mutex
	var cacheErr error
	finished := func(j int, r report.Record) {
		i := todo[j]
		recs[i] = r
		if cache != nil {
			if err := cache.Put(keys[i], env.DataFiles(), r); err != nil {
				mu.Lock()
				cacheErr = err
				mu.Unlock()
			}
		}
		mu.Lock()
		done++
		d := done
		mu.Unlock()
		if opt.Progress != nil {
			opt.Progress(d, len(mine))
		}
	}
	if opt.Progress != nil {
		opt.Progress(done, len(mine))
	}
	pending := make([]*Cell, len(todo))
	for j, i := range todo {
		pending[j] = mine[i]
	}
	if err := runPool(ctx, inst, pending, workers, log, finished); err != nil {
		return nil, &InterruptedError{Done: done, Total: len(mine)}
	}
	if cacheErr != nil {
		return nil, fmt.Errorf("cell cache: %w", cacheErr)
	}

	if opt.Shard.Active() {
		f := opt.Shard.file(dir)
		code, err := PlanCode(c, kind, cells)
		if err != nil {
			return nil, err
		}
		if err := writeShard(f, c, opt.Shard, code, env.DataFiles(), recs); err != nil {
			return nil, err
		}
		for _, r := range recs {
			if r.Status == report.StatusFailed {
				sum.Failed++
			}
		}
		sum.Outputs = []string{filepath.ToSlash(filepath.Join("shards", filepath.Base(f)))}
		log.Info("shard done", "shard", fmt.Sprintf("%d/%d", opt.Shard.Index, opt.Shard.Count), "cells", len(mine), "file", f)
		return sum, nil
	}
	rep, err := finish(dir, c, env, inst, recs, workers, start, opt.Stdout)
	if err != nil {
		return nil, err
	}
	rep.Cached, rep.Computed, rep.CacheRejected = sum.Cached, sum.Computed, sum.CacheRejected
	log.Info("done", "dir", dir, "cells", len(recs), "computed", sum.Computed, "cached", sum.Cached, "failed", rep.Failed, "claims_failed", rep.ClaimsFailed(), "seconds", time.Since(start).Seconds())
	return rep, nil
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
	code, err := PlanCode(c, plan.Kind, plan.Cells)
	if err != nil {
		return nil, err
	}
	recs, data, err := Merge(dir, c, plan.Cells, code)
	if err != nil {
		return nil, err
	}
	env := NewEnv(c, opt.DataDir, opt.Log)
	inst, err := plan.Start(env)
	if err != nil {
		return nil, err
	}
	if err := checkMergedData(data, env.DataFiles()); err != nil {
		return nil, err
	}
	return finish(dir, c, env, inst, recs, opt.Workers, start, opt.Stdout)
}

// finish writes the report and the manifest.
func finish(dir string, c *config.Config, env *Env, inst Instance, recs []report.Record, workers int, start time.Time, stdout io.Writer) (*Summary, error) {
	sum, err := WriteReport(dir, c, inst, recs)
	if err != nil {
		return nil, err
	}
	man := report.NewManifest()
	man.FillRevisionFromGit(filepath.Dir(c.File))
	man.Config = c.File
	man.ConfigSHA256 = c.SHA256
	man.Workers = workers
	man.Seed = c.Seed
	man.Data = env.DataFiles()
	man.Cells = len(recs)
	man.Failed = sum.Failed
	man.Start = start
	man.Outputs = append(sum.Outputs, "manifest.json")
	man.Finish()
	if err := man.Write(filepath.Join(dir, "manifest.json")); err != nil {
		return nil, err
	}
	sum.Outputs = man.Outputs
	if stdout != nil {
		if b, err := os.ReadFile(filepath.Join(dir, "tables.txt")); err == nil {
			stdout.Write(b)
		}
	}
	return sum, nil
}

// runPool runs cells on workers, calling done(i, record) from the worker
// as each finishes. When ctx is cancelled no new cell starts; cells
// already running finish and are reported, then ctx's error is returned.
func runPool(ctx context.Context, inst Instance, cells []*Cell, workers int, log *slog.Logger, done func(int, report.Record)) error {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				r := RunCell(inst, cells[i])
				log.Debug("cell done", "key", cells[i].Key, "status", r.Status)
				done(i, r)
			}
		}()
	}
	var err error
feed:
	for i := range cells {
		select {
		case jobs <- i:
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if err == nil {
		err = ctx.Err()
	}
	return err
}

// RunCell runs one cell, turning an error or a panic into a failed record.
func RunCell(inst Instance, cell *Cell) (rec report.Record) {
	rec = report.Record{
		Key:     cell.Key,
		Seed:    cell.Seed,
		Params:  cell.Params,
		Metrics: map[string]float64{},
		Status:  "ok",
	}
	defer func() {
		if p := recover(); p != nil {
			rec.Status = "failed"
			rec.Error = fmt.Sprintf("panic: %v", p)
			// The stack goes to the log-free record only in short form:
			// the first frame inside runexp is enough to find the bug.
			rec.Error += " at " + firstFrame(debug.Stack())
		}
	}()
	if err := inst.Run(cell, &rec); err != nil {
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
func WriteReport(dir string, c *config.Config, inst Instance, recs []report.Record) (*Summary, error) {
	out := newOutput(dir, c)
	sum := &Summary{Dir: dir, Cells: len(recs)}
	for _, r := range recs {
		if r.Status == "failed" {
			sum.Failed++
		}
	}
	if err := report.WriteJSONL(out.Path("records.jsonl"), recs); err != nil {
		return nil, err
	}
	if err := report.WriteCSV(out.Path("records.csv"), recs); err != nil {
		return nil, err
	}
	if err := inst.Report(out, recs); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	tables := append([]*report.Table{}, out.Tables...)
	if t := failuresTable(recs); t != nil {
		tables = append(tables, t)
	}
	if len(c.Reference) > 0 {
		tables = append(tables, referenceTable(c, recs))
	}
	for _, cl := range c.Claims {
		res := claims.Evaluate(cl, recs)
		switch {
		case res.AsExpected:
		case res.Status == claims.NotEvaluated:
			sum.NotEvaluated++
		default:
			sum.Unexpected++
		}
		sum.Claims = append(sum.Claims, res)
	}
	if len(sum.Claims) > 0 {
		tables = append(tables, claimsTable(sum.Claims))
		b, err := json.MarshalIndent(sum.Claims, "", "  ")
		if err != nil {
			return nil, err
		}
		if err := report.WriteFileAtomic(out.Path("claims.json"), append(b, '\n')); err != nil {
			return nil, err
		}
	}
	var txt, md bytes.Buffer
	fmt.Fprintf(&md, "# %s\n\n", c.Title)
	fmt.Fprintf(&txt, "%s\n\n", c.Title)
	if c.Notes != "" {
		fmt.Fprintf(&md, "%s\n\n", strings.TrimSpace(c.Notes))
	}
	for _, t := range tables {
		if err := t.RenderText(&txt); err != nil {
			return nil, err
		}
		txt.WriteString("\n")
		if err := t.RenderMarkdown(&md); err != nil {
			return nil, err
		}
		md.WriteString("\n")
	}
	if err := report.WriteFileAtomic(out.Path("tables.txt"), txt.Bytes()); err != nil {
		return nil, err
	}
	if err := report.WriteFileAtomic(out.Path("tables.md"), md.Bytes()); err != nil {
		return nil, err
	}
	sum.Outputs = out.Files()
	return sum, nil
}

func failuresTable(recs []report.Record) *report.Table {
	t := &report.Table{Title: "Failed and partial cells", Header: []string{"Cell", "Status", "Reason"}}
	for _, r := range recs {
		if r.Status != "ok" {
			reason := r.Error
			if reason == "" {
				reason = "some rows failed; see the failure counts in records.jsonl"
			}
			t.Rows = append(t.Rows, []string{r.Key, r.Status, reason})
		}
	}
	if len(t.Rows) == 0 {
		return nil
	}
	return t
}

func referenceTable(c *config.Config, recs []report.Record) *report.Table {
	t := &report.Table{
		Title:   "Ours beside the paper",
		Caption: "diff = ours − paper. Sources cite ../shared/paper-values/" + c.Paper + ".yaml.",
		Header:  []string{"Source", "Cell", "Metric", "Ours", "Paper", "Diff"},
	}
	// Further readings of our metric (reference.also) get a column each.
	var also []string
	seen := map[string]bool{}
	for _, ref := range c.Reference {
		for _, a := range ref.Also {
			if !seen[a] {
				seen[a] = true
				also = append(also, a)
			}
		}
	}
	for _, a := range also {
		t.Header = append(t.Header, "Ours ("+a+")")
	}
	for _, ref := range c.Reference {
		matched := false
		for i := range recs {
			if !claims.Matches(&recs[i], ref.Cell) {
				continue
			}
			matched = true
			v, ok := recs[i].Metrics[ref.Metric]
			ours, paper, diff := report.FormatCompare(v, ref.Value, true, 4)
			if !ok || recs[i].Status == report.StatusFailed {
				ours, diff = "failed", "—"
			}
			row := []string{ref.Source, config.CanonicalKey(ref.Cell), ref.Metric, ours, paper, diff}
			for _, a := range also {
				cell := "—"
				if x, ok := recs[i].Metrics[a]; ok && recs[i].Status != report.StatusFailed && contains(ref.Also, a) {
					cell = report.FormatFloat(x, 4)
				}
				row = append(row, cell)
			}
			t.Rows = append(t.Rows, row)
		}
		if !matched {
			_, paper, _ := report.FormatCompare(0, ref.Value, true, 4)
			row := []string{ref.Source, config.CanonicalKey(ref.Cell) + " (no such cell)", ref.Metric, "—", paper, "—"}
			for range also {
				row = append(row, "—")
			}
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func claimsTable(res []claims.Result) *report.Table {
	t := &report.Table{Title: "The paper's claims", Header: []string{"Claim", "Verdict", "Expected", "As expected", "Statement", "Evidence"}}
	for _, r := range res {
		as := "yes"
		if !r.AsExpected {
			as = "NO"
		}
		exp := r.Expected
		if r.Because != "" {
			exp += " (" + r.Because + ")"
		}
		t.Rows = append(t.Rows, []string{r.ID, r.Status, exp, as, r.Statement, r.Evidence})
	}
	return t
}
