package suite

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/runexp/runexp/internal/par"
	"github.com/runexp/runexp/internal/runner"
)

// Hand-derived list schedules (longest path first), in seconds.
func TestPredict(t *testing.T) {
	cells := ConfigWork{Config: "a", Cells: []float64{3, 3, 2, 2, 2}, Keys: []string{"1", "2", "3", "4", "5"}}
	for _, tc := range []struct {
		w    Workload
		n    int
		want float64
	}{
		// One worker: the sum.
		{Workload{cells}, 1, 12},
		// Two: 3 ‖ 3, then 2 ‖ 2, then 2 alone: 7 (the best split,
		// {3, 3} and {2, 2, 2}, is 6; list scheduling does not find it).
		{Workload{cells}, 2, 7},
		// Enough workers: the longest cell.
		{Workload{cells}, 8, 3},
		// Start 1 and report 1 frame the cells: 1 + 7 + 1.
		{Workload{{Config: "a", Start: 1, Report: 1, Cells: cells.Cells, Keys: cells.Keys}}, 2, 9},
		// Two configs on two workers: b's 10 s chain starts first, a's
		// cells fill the other worker (3 + 3 + 2 + 2 = 10), and the last
		// 2 s cell goes after b's: 12.
		{Workload{cells, {Config: "b", Cells: []float64{10}, Keys: []string{"x"}}}, 2, 12},
	} {
		if got := tc.w.Predict(tc.n).Seconds; math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%d configs on %d workers: predicted %g s, want %g", len(tc.w), tc.n, got, tc.want)
		}
	}
	w := Workload{cells, {Config: "b", Start: 2, Report: 1, Cells: []float64{10, 1}, Keys: []string{"x", "y"}}}
	cp := w.Critical()
	if cp.CellTime != 10 || cp.Cell != "b" || cp.CellKey != "x" || cp.ChainTime != 13 || cp.Chain != "b" {
		t.Errorf("critical path %+v, want cell b x 10 s, chain b 2 + 10 + 1 = 13 s", cp)
	}
	if p := w.Predict(4); p.Even != w.Work()/4 || p.Chain != 13 || p.Seconds < 13 {
		t.Errorf("bounds %+v: want work/4 = %g, chain 13, prediction above the chain", p, w.Work()/4)
	}
}

const tinyA = `title: "tiny: two estimators"
paper: none
kind: denoise
seed: 1
dataset: {name: synthetic-images, classes: 3, groups: 2, per_cell: 4, width: 6, height: 6, test_per_cell: 1}
corruption: {type: gaussian, std: 0.1}
model: {kernel: gaussian, c: [5, 20], components: [3, 5]}
methods:
  - name: mika
    label: Mika
  - name: honeine-richard
    label: HR
claims:
  - id: hr-mse
    statement: "HR's median MSE at c = 5 stays below 0.002."
    check: {type: value, metric: mse_median, where: {method: HR, c: 5, components: 5}, op: "<", value: 0.002}
`

const tinyB = `title: "tiny: Mika only"
paper: none
kind: denoise
seed: 2
dataset: {name: synthetic-images, classes: 2, groups: 2, per_cell: 4, width: 6, height: 6, test_per_cell: 1}
corruption: {type: gaussian, std: 0.1}
model: {kernel: gaussian, c: [5, 10, 20], components: 4}
methods:
  - name: mika
`

// tinySuite writes the two configs into a configs folder and loads them.
func tinySuite(t *testing.T) (dir string, entries []Entry) {
	t.Helper()
	return writeSuite(t, "a", tinyA, "b", tinyB)
}

// writeSuite writes configs, name and source after name and source, into
// a configs folder and loads them.
func writeSuite(t *testing.T, configs ...string) (dir string, entries []Entry) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "configs")
	os.MkdirAll(dir, 0o755)
	for i := 0; i+1 < len(configs); i += 2 {
		os.WriteFile(filepath.Join(dir, configs[i]+".yaml"), []byte(configs[i+1]), 0o644)
	}
	files, err := Select(dir, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	entries, err = Load(files, nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	return dir, entries
}

func suiteOptions(configs, out string, workers int) SuiteOptions {
	return SuiteOptions{
		Options:    Options{Run: runner.Options{OutRoot: out, Workers: workers}},
		ConfigsDir: configs, Out: out,
	}
}

// A suite's cells run in one pool: suite.json has every computed cell's
// wall and CPU time, the configs' Start and report, the critical path,
// the utilisation and the predictions; the records are those of the
// configs run one at a time on one worker.
func TestSuiteRecordsCellTimes(t *testing.T) {
	configs, entries := tinySuite(t)
	out := filepath.Join(t.TempDir(), "out")
	rep, err := Suite(context.Background(), entries, suiteOptions(configs, out, 2))
	if err != nil {
		t.Fatal(err)
	}
	back, err := ReadReport(filepath.Join(out, "suite.json"))
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range back.Runs {
		if len(r.CellTimes) != r.Computed || r.Computed != r.Cells || r.Start == nil || r.Report == nil {
			t.Errorf("%s: %d cell times for %d computed cells of %d; start %v, report %v", r.Name, len(r.CellTimes), r.Computed, r.Cells, r.Start, r.Report)
		}
		for _, c := range r.CellTimes {
			if c.Key == "" || c.Seconds <= 0 || (par.Measured && c.CPUSeconds <= 0) {
				t.Errorf("%s: cell time %+v", r.Name, c)
			}
		}
		if r.Name != entries[i].Config.Name {
			t.Errorf("run %d is %s, want the entries' order (%s)", i, r.Name, entries[i].Config.Name)
		}
	}
	if back.Critical == nil || back.Critical.CellTime <= 0 || len(back.Predicted) != len(PredictAt)+len(PredictArrays) || back.CPUSeconds <= 0 || back.Utilisation <= 0 {
		t.Errorf("suite.json: critical path %+v, %d predictions, CPU %g s, utilisation %g", back.Critical, len(back.Predicted), back.CPUSeconds, back.Utilisation)
	}
	if lines := rep.Where(); len(lines) != 3 || !strings.HasPrefix(lines[0], "utilisation: ") || !strings.HasPrefix(lines[1], "critical path: ") {
		t.Errorf("summary lines %q", lines)
	}

	// The same configs one after another on one worker: the same bytes.
	serial := filepath.Join(t.TempDir(), "serial")
	for _, e := range entries {
		if _, err := runner.Run(context.Background(), e.Config, runner.Options{OutRoot: serial, Workers: 1}); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range entries {
		sameResults(t, filepath.Join(serial, e.Config.Name), filepath.Join(out, e.Config.Name))
	}

	// The times order the next run: ReadTimes gives each cell's.
	times, err := ReadTimes(filepath.Join(out, "suite.json"))
	if err != nil || len(times["a"]) != 8 || len(times["b"]) != 3 {
		t.Errorf("ReadTimes: %v, %d and %d cells, want 8 and 3", err, len(times["a"]), len(times["b"]))
	}
}

// A suite run again with the cache warm computes nothing: its suite.json
// carries each cell's time as the first run measured it, marked cached,
// apart from its own measurements (the configs' CPU seconds are their
// Start and report only), so that it predicts the whole suite: the same
// walls as the first run's file, once the Start and report times, which
// each run measures anew, are the same.
func TestCachedCellTimes(t *testing.T) {
	configs, entries := tinySuite(t)
	out := filepath.Join(t.TempDir(), "out")
	file := filepath.Join(out, "suite.json")
	if _, err := Suite(context.Background(), entries, suiteOptions(configs, out, 2)); err != nil {
		t.Fatal(err)
	}
	first, err := ReadReport(file)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Suite(context.Background(), entries, suiteOptions(configs, out, 1)); err != nil {
		t.Fatal(err)
	}
	second, err := ReadReport(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range second.Runs {
		want := first.Runs[i].CellTimes
		if r.Cached != r.Cells || len(r.CellTimes) != 0 || len(r.CachedCellTimes) != len(want) {
			t.Fatalf("%s: %d of %d cells cached, %d computed times, %d cached times; want all cached with the first run's %d times",
				r.Name, r.Cached, r.Cells, len(r.CellTimes), len(r.CachedCellTimes), len(want))
		}
		for k, c := range r.CachedCellTimes {
			w := want[k]
			w.Cached = true
			if c != w {
				t.Errorf("%s: cached cell time %+v, want the first run's %+v marked cached", r.Name, c, w)
			}
		}
		if own := r.Start.CPUSeconds + r.Report.CPUSeconds; r.CPUSeconds != own {
			t.Errorf("%s: %g CPU-s, want its Start and report's %g: the cached cells took none in this run", r.Name, r.CPUSeconds, own)
		}
	}
	if timed, cached, cells := second.Coverage(); timed != 11 || cached != 11 || cells != 11 {
		t.Errorf("coverage: %d timed, %d cached of %d cells; want 11, 11, 11", timed, cached, cells)
	}
	w1, w2 := samePredictions(t, first, second)
	if c1, c2 := w1.Critical(), w2.Critical(); c1.CellTime != c2.CellTime || c1.CellKey != c2.CellKey || c1.CellCached || !c2.CellCached {
		t.Errorf("critical cell %s %g s (cached %v), want the first run's %s %g s (cached %v) marked cached", c2.CellKey, c2.CellTime, c2.CellCached, c1.CellKey, c1.CellTime, c1.CellCached)
	}
}

// A suite split into 3 shards and merged writes the bytes of a single
// suite (pages but for the manifests' times); the merge refuses a config
// edited after its shards ran, and merges the others.
func TestSuiteShardsMerge(t *testing.T) {
	configs, entries := tinySuite(t)
	single := filepath.Join(t.TempDir(), "out")
	if _, err := Suite(context.Background(), entries, suiteOptions(configs, single, 2)); err != nil {
		t.Fatal(err)
	}
	// Shards write into the folder the single suite used, moved aside,
	// so that pages naming the folder compare.
	ref := single + "-ref"
	if err := os.Rename(single, ref); err != nil {
		t.Fatal(err)
	}
	out := single
	total := 0
	for i := range 3 {
		o := suiteOptions(configs, out, 1)
		o.Shard = runner.Shard{Index: i, Count: 3}
		rep, err := Suite(context.Background(), entries, o)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rep.Runs {
			total += r.Cells
		}
		if _, err := os.Stat(ShardReport(out, o.Shard)); err != nil {
			t.Errorf("shard %d: %v", i, err)
		}
	}
	// 11 cells: the global numbering spreads them 4, 4, 3.
	if total != 11 {
		t.Errorf("the shards ran %d cells, want 11", total)
	}
	rep, err := MergeSuite(entries, suiteOptions(configs, out, 2))
	if err != nil || rep.Status != OK {
		t.Fatalf("merge: status %d, problems %v, runs %+v", rep.Status, rep.Problems, rep.Runs)
	}
	sameTreeBut(t, ref, out)
	if r := rep.Runs[0]; len(r.CellTimes) != 8 || r.Computed != 8 {
		t.Errorf("merged suite.json: %d cell times, %d computed for a; want the shards' 8", len(r.CellTimes), r.Computed)
	}

	// An edited config: its shards are refused, and the merge is all or
	// nothing: the other config's outputs, the index, the scoreboard and
	// suite.json are left as they were (issue #38: a refused merge
	// rewrote them).
	os.WriteFile(filepath.Join(configs, "b.yaml"), []byte(strings.Replace(tinyB, "c: [5, 10, 20]", "c: [5, 10, 30]", 1)), 0o644)
	files, _ := Select(configs, nil, nil)
	edited, err := Load(files, nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	before := fileStates(t, out)
	rep, err = MergeSuite(edited, suiteOptions(configs, out, 2))
	if err == nil || !strings.Contains(err.Error(), "config changed since") || rep != nil {
		t.Errorf("merge after editing b: err %v; want b refused and no report", err)
	}
	after := fileStates(t, out)
	for f, s := range before {
		if after[f] != s {
			t.Errorf("%s changed by a refused merge", f)
		}
	}
	for f := range after {
		if _, ok := before[f]; !ok {
			t.Errorf("%s written by a refused merge", f)
		}
	}
}

// fileStates gives every file under dir its size, time and inode.
func fileStates(t *testing.T, dir string) map[string]string {
	t.Helper()
	st := map[string]string{}
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			ino := uint64(0)
			if s, ok := fi.Sys().(*syscall.Stat_t); ok {
				ino = s.Ino
			}
			st[p] = fmt.Sprintf("%d %d %d", fi.Size(), fi.ModTime().UnixNano(), ino)
		}
		return nil
	})
	return st
}

func sameResults(t *testing.T, a, b string) {
	t.Helper()
	for _, f := range []string{"records.jsonl", "records.csv", "tables.md", "tables.txt", "claims.json"} {
		x, errA := os.ReadFile(filepath.Join(a, f))
		y, errB := os.ReadFile(filepath.Join(b, f))
		if os.IsNotExist(errA) && os.IsNotExist(errB) {
			continue
		}
		if errA != nil || errB != nil || !bytes.Equal(x, y) {
			t.Errorf("%s differs between %s and %s (%v, %v)", f, a, b, errA, errB)
		}
	}
}

// sameTreeBut fails on every file DiffTrees finds.
func sameTreeBut(t *testing.T, ref, got string) {
	t.Helper()
	diff, err := DiffTrees(ref, got)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range diff {
		t.Errorf("%s differs between a single suite and its merged shards", f)
	}
}

// DiffTrees tells a changed byte from a changed time.
func TestDiffTrees(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	page := `<p class="prov">x · started 2026-11-26T17:51:32Z · 10.7 s wall · 2 workers</p>
<tr><td><a href="x/index.html">x</a></td><td class="r" data-label="Cells">3</td><td class="r" data-label="Wall (s)">15.8</td><td class="muted">x</td></tr>
`
	write := func(root, name, s string) {
		os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755)
		os.WriteFile(filepath.Join(root, name), []byte(s), 0o644)
	}
	for _, r := range []string{a, b} {
		write(r, "c/records.jsonl", "{}\n")
		write(r, "c/manifest.json", r)
		write(r, ".cache/x", r)
	}
	write(a, "index.html", page)
	write(b, "index.html", strings.NewReplacer("10.7", "0.9", "2 workers", "0 workers", "15.8", "5.9").Replace(page))
	if d, err := DiffTrees(a, b); err != nil || len(d) != 0 {
		t.Errorf("times only: %v, %v; want no difference", d, err)
	}
	write(b, "c/records.jsonl", "{ }\n")
	write(b, "c/extra.png", "")
	if d, _ := DiffTrees(a, b); len(d) != 2 || d[0] != "c/extra.png (only in "+b+")" || d[1] != "c/records.jsonl" {
		t.Errorf("a changed record and an extra file: %q", d)
	}
}

// tinyMika is tinyA with its Mika cells only, under another title and
// claim: its cells have the keys of tinyA's Mika cells, as
// abrahamsen-hansen-fig4-gamma-weights shares fig4's cells.
var tinyMika = strings.NewReplacer(
	`title: "tiny: two estimators"`, `title: "tiny: Mika of two"`,
	"  - name: honeine-richard\n    label: HR\n", "",
	"id: hr-mse", "id: mika-mse",
	"HR's median", "Mika's median",
	"method: HR,", "method: Mika,").Replace(tinyA)

// Two configs of one suite that share cells (tinyA and tinyMika: the 4
// Mika cells) compute them once, at -j 1 and -j 2: suite.json counts 8
// cells computed and 4 shared, the shared ones with the time their
// computation took (counted once in the predictions), and every config's
// outputs are those it gives alone. Run again on the warm cache, it
// predicts what the first run did (resumedShared). Split into shards and
// merged, the suite writes the same bytes.
func TestSuiteSharesCells(t *testing.T) {
	dir, entries := writeSuite(t, "a", tinyA, "m", tinyMika)
	alone := filepath.Join(t.TempDir(), "alone")
	for _, e := range entries {
		if _, err := runner.Run(context.Background(), e.Config, runner.Options{OutRoot: alone, Workers: 1, CacheDir: filepath.Join(alone, e.Config.Name+".cache")}); err != nil {
			t.Fatal(err)
		}
	}
	for _, workers := range []int{1, 2} {
		out := filepath.Join(t.TempDir(), "out")
		if _, err := Suite(context.Background(), entries, suiteOptions(dir, out, workers)); err != nil {
			t.Fatal(err)
		}
		rep, err := ReadReport(filepath.Join(out, "suite.json"))
		if err != nil {
			t.Fatal(err)
		}
		var computed, shared int
		for _, r := range rep.Runs {
			computed += r.Computed
			shared += r.Shared
			if r.Computed+r.Shared != r.Cells || r.Cached != 0 || len(r.CellTimes) != r.Computed || len(r.SharedCellTimes) != r.Shared {
				t.Errorf("-j %d: %s: %d cells, %d computed, %d cached, %d shared; %d and %d times", workers, r.Name, r.Cells, r.Computed, r.Cached, r.Shared, len(r.CellTimes), len(r.SharedCellTimes))
			}
			for _, c := range r.SharedCellTimes {
				if !c.Shared || !strings.Contains(c.Key, "method=Mika") || c.Seconds <= 0 {
					t.Errorf("-j %d: %s: shared cell time %+v", workers, r.Name, c)
				}
			}
			sameResults(t, filepath.Join(alone, r.Name), filepath.Join(out, r.Name))
		}
		if computed != 8 || shared != 4 {
			t.Errorf("-j %d: %d cells computed, %d shared; want 8 and the 4 Mika cells", workers, computed, shared)
		}
		if timed, cached, cells := rep.Coverage(); timed != 12 || cached != 0 || cells != 12 {
			t.Errorf("-j %d: coverage %d timed, %d cached of %d cells; want 12, 0, 12", workers, timed, cached, cells)
		}
		n := 0
		for _, l := range WorkloadOf(rep.Runs) {
			n += len(l.Cells)
		}
		if n != 8 {
			t.Errorf("-j %d: the workload has %d cells, want the 8 computed", workers, n)
		}
		if times, err := ReadTimes(filepath.Join(out, "suite.json")); err != nil || len(times["a"]) != 8 || len(times["m"]) != 4 {
			t.Errorf("-j %d: ReadTimes: %v, %d and %d cells, want 8 and 4", workers, err, len(times["a"]), len(times["m"]))
		}
		if workers == 1 {
			continue
		}
		resumedShared(t, dir, entries, out, rep)
		ref := out + "-ref"
		if err := os.Rename(out, ref); err != nil {
			t.Fatal(err)
		}
		computed, shared = 0, 0
		for i := range 3 {
			o := suiteOptions(dir, out, 1)
			o.Shard = runner.Shard{Index: i, Count: 3}
			// A cache for each task, as on nodes that share none: the
			// cells the two configs share still fall in one task, and
			// its pool computes each once.
			o.Run.CacheDir = filepath.Join(t.TempDir(), "cache")
			if _, err := Suite(context.Background(), entries, o); err != nil {
				t.Fatal(err)
			}
			sr, err := ReadReport(ShardReport(out, o.Shard))
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range sr.Runs {
				computed += r.Computed
				shared += r.Shared
			}
		}
		if computed != 8 || shared != 4 {
			t.Errorf("3 shards: %d cells computed, %d shared; want the 8 distinct computed and the 4 Mika cells shared", computed, shared)
		}
		if m, err := MergeSuite(entries, suiteOptions(dir, out, 2)); err != nil || m.Status != OK {
			t.Fatalf("merge: %v", err)
		}
		sameTreeBut(t, ref, out)
	}
}

// resumedShared runs the suite of TestSuiteSharesCells again on the
// cache the first run (rep, in out) filled: every cell is cached, and the
// second config's 4 Mika cells, which the first has too, are marked
// shared, so the workload is the first run's 8 cells and predicts the
// same walls; the cache's workload counts them once too.
func resumedShared(t *testing.T, dir string, entries []Entry, out string, first *Report) {
	t.Helper()
	if _, err := Suite(context.Background(), entries, suiteOptions(dir, out, 2)); err != nil {
		t.Fatal(err)
	}
	second, err := ReadReport(filepath.Join(out, "suite.json"))
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range second.Runs {
		shared := 0
		for _, c := range r.CachedCellTimes {
			if c.Shared {
				shared++
			}
		}
		if want := 4 * i; r.Cached != r.Cells || shared != want {
			t.Errorf("resumed: %s: %d of %d cells cached, %d marked shared; want all, %d shared", r.Name, r.Cached, r.Cells, shared, want)
		}
	}
	samePredictions(t, first, second)
	w, missing, total, err := CacheWorkload(entries, filepath.Join(out, ".cache"))
	n := 0
	for _, l := range w {
		n += len(l.Cells)
	}
	if err != nil || missing != 0 || total != 12 || n != 8 {
		t.Errorf("the cache's workload: %d cells, %d of %d missing, %v; want 8, 0 of 12", n, missing, total, err)
	}
}

// samePredictions checks that the workloads of a first run's and a
// resumed run's suite.json, with the first's Start and report times set
// in both (each run measures its own), predict the same walls at -j 1, 2
// and 16 (to the last bits: the same cell times, summed in another
// order); it returns the two workloads.
func samePredictions(t *testing.T, first, second *Report) (w1, w2 Workload) {
	t.Helper()
	w1, w2 = WorkloadOf(first.Runs), WorkloadOf(second.Runs)
	for i := range w2 {
		w2[i].Start, w2[i].Report = w1[i].Start, w1[i].Report
	}
	for _, n := range []int{1, 2, 16} {
		p1, p2 := w1.Predict(n), w2.Predict(n)
		if math.Abs(p1.Seconds-p2.Seconds) > 1e-12*p1.Seconds || p1.Seconds <= 0 {
			t.Errorf("-j %d: predicted %g s from the resumed run's suite.json, %g s from the first's", n, p2.Seconds, p1.Seconds)
		}
	}
	return w1, w2
}

// Hand-derived schedules with idle cores lent to parallel loops, stages
// and shard arrays.
func TestPredictLendsStagesShards(t *testing.T) {
	par := func(c float64, phi float64, w int) Unit {
		return Unit{Cell: fmt.Sprint(c), Shape: Shape{Parallel: phi, Width: w}}
	}
	// One 10 s unit, 80% of it in a loop of 4 items: on 4 workers it has
	// 4 cores, 10·(0.2 + 0.8/4) = 4 s; on 2, 10·(0.2 + 0.4) = 6 s; its
	// loop's width caps it on 8.
	one := Workload{{Config: "a", Cells: []float64{10}, Keys: []string{"x"}, Units: []Unit{par(10, 0.8, 4)}}}
	for n, want := range map[int]float64{1: 10, 2: 6, 4: 4, 8: 4} {
		if got := one.Predict(n).Seconds; math.Abs(got-want) > 1e-9 {
			t.Errorf("a parallel unit on %d workers: %g s, want %g", n, got, want)
		}
	}
	// Beside a serial 2 s unit on 2 workers: alone 0–2 at 1 core (2 s of
	// its work done), then 8 s left at 2 cores: 8·0.6 = 4.8, so 6.8 s.
	two := Workload{{Config: "a", Cells: []float64{10, 2}, Keys: []string{"x", "y"}, Units: []Unit{par(10, 0.8, 4), {Cell: "y"}}}}
	if got := two.Predict(2).Seconds; math.Abs(got-6.8) > 1e-9 {
		t.Errorf("a parallel unit beside a serial one: %g s, want 6.8", got)
	}
	// A cell of two stages (2 + 3 s, then 4 + 1 s) beside a 6 s cell on
	// 3 workers: stage 1 ends at 3, stage 2's 4 s part at 7.
	staged := Workload{{Config: "a", Cells: []float64{2, 3, 4, 1, 6}, Keys: []string{"s#0", "s#1", "s#2", "s#3", "z"},
		Units: []Unit{{Cell: "s", Part: 0, Parts: 4}, {Cell: "s", Part: 1, Parts: 4}, {Cell: "s", Part: 2, Parts: 4, Stage: 1}, {Cell: "s", Part: 3, Parts: 4, Stage: 1}, {Cell: "z"}}}}
	if got := staged.Predict(3).Seconds; math.Abs(got-7) > 1e-9 {
		t.Errorf("two stages: %g s, want 7", got)
	}
	// Two shards of one worker: units numbered 0…4 in order (the staged
	// cell's under one number): shard 0 gets s (2+3+4+1 = 10 s), shard 1
	// gets z (6 s); each shard starts the config (1 s) and writes no
	// report, so the array takes 11 s, and the merge the config's Start
	// and report, 1 + 1.
	staged[0].Start, staged[0].Report = 1, 1
	if got := staged.PredictShards(2, 1).Seconds; math.Abs(got-13) > 1e-9 {
		t.Errorf("two shards: %g s, want 13 (Start 1 + 10, then the merge's 1 + 1)", got)
	}
}

// TestScaledKeepsCachedUnits: the process's CPU over its tasks' scales the
// units this run measured, not those whose time was read from the cache.
// On a warm cache the tasks measured are few, the ratio large (here 100,
// the start-up and reports of a run that computed almost nothing), and a
// cached part of 8 s would become 800 s: the longest cell and every
// prediction of the run wrong (found on nguyen-table1 served from the
// cache: "longest cell 799.6 s" for a part measured at 8.1 s).
func TestScaledKeepsCachedUnits(t *testing.T) {
	w := Workload{{Config: "a", Start: 1, Report: 2, Cells: []float64{8, 3}, Keys: []string{"c#part=0/2", "d"}, Cached: []bool{true, false}}}
	got := w.Scaled(100)[0]
	if got.Cells[0] != 8 || got.Cells[1] != 300 || got.Start != 100 || got.Report != 200 {
		t.Errorf("Scaled(100): cells %v, start %v, report %v; want [8 300], 100, 200", got.Cells, got.Start, got.Report)
	}
	if w[0].Cells[0] != 8 || w[0].Cells[1] != 3 {
		t.Errorf("Scaled changed its receiver: %v", w[0].Cells)
	}
}
