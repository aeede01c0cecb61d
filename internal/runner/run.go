package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
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
	// Workers is the worker-pool size (≤ 0: GOMAXPROCS).
	Workers int
	Log     *slog.Logger
	// Stdout receives the rendered tables (nil: discarded).
	Stdout io.Writer
}

// Summary is what a run produced.
type Summary struct {
	Dir     string
	Cells   int
	Failed  int
	Claims  []claims.Result
	Outputs []string
}

// ClaimsFailed counts claims that were evaluated and did not hold.
func (s *Summary) ClaimsFailed() int {
	n := 0
	for _, c := range s.Claims {
		if c.Status == claims.Fail {
			n++
		}
	}
	return n
}

// Validate checks everything about a config that can be checked without
// loading data or running: kind, dataset options, experiment options,
// estimator names and parameters, the grid and the claims.
func Validate(c *config.Config) (*Kind, []*Cell, error) {
	kind, ok := LookupKind(c.Kind)
	if !ok {
		var names []string
		for _, k := range Kinds() {
			names = append(names, k.Name)
		}
		return nil, nil, c.Errorf(0, "kind: unknown experiment kind %q (known: %s)", c.Kind, strings.Join(names, ", "))
	}
	ds, ok := LookupDataset(c.Dataset.Name)
	if !ok {
		var names []string
		for _, d := range Datasets() {
			names = append(names, d.Name)
		}
		return nil, nil, c.Dataset.Options.Errorf("name", "dataset: unknown dataset %q (known: %s)", c.Dataset.Name, strings.Join(names, ", "))
	}
	if ds.Check != nil {
		if err := ds.Check(c.Dataset.Options); err != nil {
			return nil, nil, err
		}
	}
	if kind.Check != nil {
		if err := kind.Check(c); err != nil {
			return nil, nil, err
		}
	}
	cells, err := Cells(c)
	if err != nil {
		return nil, nil, err
	}
	for _, cl := range c.Claims {
		if err := claims.Check(cl); err != nil {
			return nil, nil, err
		}
	}
	return kind, cells, nil
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

// Run validates the config, runs every cell and writes the report.
func Run(ctx context.Context, c *config.Config, opt Options) (*Summary, error) {
	start := time.Now()
	kind, cells, err := Validate(c)
	if err != nil {
		return nil, err
	}
	log := opt.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	env := NewEnv(c, opt.DataDir, log)
	log.Info("preparing", "config", c.File, "kind", c.Kind, "cells", len(cells))
	inst, err := kind.Start(env)
	if err != nil {
		return nil, err
	}
	recs, err := RunCells(ctx, inst, cells, workers, log)
	if err != nil {
		return nil, err
	}
	dir := ResultDir(c, opt.OutRoot)
	sum, err := WriteReport(dir, c, inst, recs)
	if err != nil {
		return nil, err
	}
	man := report.NewManifest()
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
	if opt.Stdout != nil {
		b, err := readTables(dir)
		if err == nil {
			opt.Stdout.Write(b)
		}
	}
	log.Info("done", "dir", dir, "cells", len(recs), "failed", sum.Failed, "claims_failed", sum.ClaimsFailed(), "seconds", time.Since(start).Seconds())
	return sum, nil
}

// RunCells runs the cells on a pool of workers and returns their records in
// grid order, whatever order they finished in. A panic inside a cell is
// caught and recorded as that cell's failure.
func RunCells(ctx context.Context, inst Instance, cells []*Cell, workers int, log *slog.Logger) ([]report.Record, error) {
	recs := make([]report.Record, len(cells))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				recs[i] = RunCell(inst, cells[i])
				log.Debug("cell done", "key", cells[i].Key, "status", recs[i].Status)
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
	return recs, err
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
		sum.Claims = append(sum.Claims, claims.Evaluate(cl, recs))
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

func readTables(dir string) ([]byte, error) {
	return os.ReadFile(filepath.Join(dir, "tables.txt"))
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
	for _, ref := range c.Reference {
		matched := false
		for i := range recs {
			if !claims.Matches(&recs[i], ref.Cell) {
				continue
			}
			matched = true
			v, ok := recs[i].Metrics[ref.Metric]
			ours, paper, diff := report.FormatCompare(v, ref.Value, true, 4)
			if !ok || recs[i].Status == "failed" {
				ours, diff = "failed", "—"
			}
			t.Rows = append(t.Rows, []string{ref.Source, recs[i].Key, ref.Metric, ours, paper, diff})
		}
		if !matched {
			_, paper, _ := report.FormatCompare(0, ref.Value, true, 4)
			t.Rows = append(t.Rows, []string{ref.Source, config.CanonicalKey(ref.Cell) + " (no such cell)", ref.Metric, "—", paper, "—"})
		}
	}
	return t
}

func claimsTable(res []claims.Result) *report.Table {
	t := &report.Table{Title: "The paper's claims", Header: []string{"Claim", "Verdict", "Statement", "Evidence"}}
	for _, r := range res {
		t.Rows = append(t.Rows, []string{r.ID, r.Status, r.Statement, r.Evidence})
	}
	return t
}
