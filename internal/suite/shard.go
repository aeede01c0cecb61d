package suite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
	"github.com/runexp/runexp/internal/safefs"
)

// A suite's shards (runexp suite --shard i/n) split the cells of all its
// configs across n tasks: the distinct cell keys are numbered one config
// after another in the suite's order, a cell whose key a config before it
// has taking that cell's number, and task i computes the cells whose
// number is i modulo n (runner.Shard.Numbers). Many small configs spread
// evenly, and the cells several configs share (the same cache key: A&H
// Fig. 4's readings share most of Fig. 4's) fall in one task, whose pool
// computes each once, as a single-process suite does. Each task writes,
// in every config's result directory, the shard file runexp merge reads
// (shards/shard-i-of-n.jsonl with its provenance), and its own times to
// OUT/.shards/suite-i-of-n.json (a hidden folder, which the scoreboard
// and the index do not take for a config's). The merge (runexp suite
// --merge, MergeSuite) then assembles each config's outputs as runexp
// merge does, refusing shards of another config, code, data or --with,
// and writes the index, the scoreboard, the baseline comparison and
// suite.json: the bytes a single-process suite writes, but for the times.

// shardNumbers returns, for each entry, the suite-wide number of each of
// its cells by grid index: the distinct cell cache keys (runner.CellHash)
// numbered in the suite's order, a repeated key with its first number; a
// cell computed in parts takes a number per part (runner.Numbered), so
// that its parts spread over the shards.
func shardNumbers(entries []Entry) ([][]int, error) {
	nums := make([][]int, len(entries))
	first := map[string]int{}
	next := 0
	for i, e := range entries {
		plan, err := runner.Validate(e.Config)
		if err != nil {
			return nil, err
		}
		nums[i] = make([]int, len(plan.Cells))
		for _, cell := range plan.Cells {
			h, err := runner.CellHash(e.Config, plan.Kind, cell)
			if err != nil {
				return nil, err
			}
			n, ok := first[h]
			if !ok {
				n = next
				first[h] = n
				next += runner.Numbered(cell)
			}
			nums[i][cell.Index] = n
		}
	}
	return nums, nil
}

// ShardReport is where a suite shard's times go.
func ShardReport(root string, s runner.Shard) string {
	return filepath.Join(root, ".shards", fmt.Sprintf("suite-%d-of-%d.json", s.Index, s.Count))
}

// runShard is Suite for one shard: the pool, then the shard's times.
func runShard(ctx context.Context, entries []Entry, o SuiteOptions, rep *Report, cpu0 float64) (*Report, error) {
	file := ShardReport(o.Run.OutRoot, o.Shard)
	// .shards is made (or checked) before any cell runs, through the
	// guard of every folder under --out: a link there would put the
	// report outside --out.
	if err := safefs.MkdirUnder(o.Run.OutRoot, filepath.Dir(file)); err != nil {
		return nil, err
	}
	write := func() error {
		err := safefs.MkdirUnder(o.Run.OutRoot, filepath.Dir(file))
		if err == nil {
			err = rep.writeFile(file)
		}
		return err
	}
	results, err := Run(ctx, entries, o.Options)
	if isInterrupted(err) {
		// The requeued task's report replaces this one.
		rep.stopped(results, cpu0, write)
		return rep, err
	}
	if err != nil {
		return nil, err
	}
	code := OK
	for _, r := range results {
		cr := NewConfigRun(r)
		code = Worse(code, cr.Status)
		rep.Runs = append(rep.Runs, cr)
	}
	rep.Seconds = time.Since(rep.Started).Seconds()
	rep.measure(cpu0)
	rep.Status = code
	if err := write(); err != nil {
		rep.Problems = append(rep.Problems, err.Error())
		rep.Status = Worse(rep.Status, Usage)
	}
	return rep, nil
}

// MergeSuite assembles the shards of a suite (runexp suite --shard i/n)
// into every config's outputs (runner.MergeShards: it refuses shards of
// another config, code, data or --with), then does what Suite does after
// its runs. The cell times of suite.json come from the shards' reports,
// each config's Start the longest of its shards'.
func MergeSuite(entries []Entry, o SuiteOptions) (*Report, error) {
	// All or nothing: every config's shards verify before any output
	// (a config's folder, the index, the scoreboard, suite.json) is
	// written.
	if _, err := SuitePaperValues(o.ConfigsDir); err != nil {
		return nil, err
	}
	// The suite's numbering of the cells: merge checks that each shard
	// holds only the records of the cells it was to compute.
	numbers, err := shardNumbers(entries)
	if err != nil {
		return nil, err
	}
	opts := make([]runner.Options, len(entries))
	var bad []error
	for i, e := range entries {
		opts[i] = o.runOptions(e)
		opts[i].Shard.Numbers = numbers[i]
		if err := runner.VerifyShards(e.Config, opts[i]); err != nil {
			bad = append(bad, err)
		}
	}
	if len(bad) > 0 {
		return nil, fmt.Errorf("merge refused, nothing written (every previous output is as it was): %w", errors.Join(bad...))
	}
	rep := &Report{Started: time.Now(), Workers: o.Run.Workers, Baseline: o.Baseline, Manifest: report.NewManifest()}
	cpu0 := ProcessCPU()
	times := shardTimes(o.Run.OutRoot)
	for i, e := range entries {
		ro := opts[i]
		t0 := time.Now()
		sum, err := runner.MergeShards(e.Config, ro)
		r := Result{Entry: e, Summary: sum, Err: err, Seconds: time.Since(t0).Seconds(),
			Began: t0.Sub(rep.Started).Seconds(), Ended: time.Since(rep.Started).Seconds()}
		cr := NewConfigRun(r)
		if t, ok := times[e.Config.Name]; ok && err == nil {
			cr.Start = t.Start
			cr.CellTimes, cr.CachedCellTimes, cr.SharedCellTimes = t.CellTimes, t.CachedCellTimes, t.SharedCellTimes
			cr.CPUSeconds = t.CPUSeconds
			cr.Computed, cr.Cached, cr.Shared = t.Computed, t.Cached, t.Shared
		}
		rep.Runs = append(rep.Runs, cr)
		if o.Done != nil {
			o.Done(r)
		}
	}
	rep.finish(o, entries, cpu0)
	return rep, nil
}

// shardTimes gathers the times of every config from the suite shards'
// reports under root: the cells of all shards (sorted by key), the
// longest Start, the CPU seconds and cell counts summed.
func shardTimes(root string) map[string]ConfigRun {
	files, _ := filepath.Glob(filepath.Join(root, ".shards", "suite-*-of-*.json"))
	// Reports of an earlier split (another n) may lie beside: only the
	// count of the newest report is read.
	count := map[string]int{}
	var newest time.Time
	want := 0
	for _, f := range files {
		var i, n int
		if _, err := fmt.Sscanf(filepath.Base(f), "suite-%d-of-%d.json", &i, &n); err != nil {
			continue
		}
		count[f] = n
		if fi, err := os.Stat(f); err == nil && fi.ModTime().After(newest) {
			newest, want = fi.ModTime(), n
		}
	}
	out := map[string]ConfigRun{}
	for _, f := range files {
		if count[f] != want {
			continue
		}
		rep, err := ReadReport(f)
		if err != nil {
			continue
		}
		for _, r := range rep.Runs {
			m := out[r.Name]
			m.CellTimes = append(m.CellTimes, r.CellTimes...)
			m.CachedCellTimes = append(m.CachedCellTimes, r.CachedCellTimes...)
			m.SharedCellTimes = append(m.SharedCellTimes, r.SharedCellTimes...)
			m.CPUSeconds += r.CPUSeconds
			m.Computed += r.Computed
			m.Cached += r.Cached
			m.Shared += r.Shared
			if r.Start != nil && (m.Start == nil || r.Start.Seconds > m.Start.Seconds) {
				s := *r.Start
				m.Start = &s
			}
			out[r.Name] = m
		}
	}
	for k, m := range out {
		for _, ts := range [][]runner.CellTime{m.CellTimes, m.CachedCellTimes, m.SharedCellTimes} {
			sort.Slice(ts, func(i, j int) bool { return ts[i].Key < ts[j].Key })
		}
		out[k] = m
	}
	return out
}
