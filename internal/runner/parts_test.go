package runner_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// partsKind computes each cell in parts: c = 1 whole; c = 2 in one stage
// of 7 parts; c = 3 in a stage of 3 then a stage of 2, whose parts read
// the first stage's; c = 4 in 5 parts, part 2 of which fails with an
// error, c = 5 in 4 parts, part 1 of which panics. Each part's value is a
// draw of its own stream scaled by 2^(±40·part) (so that the combination,
// a sum in part order, rounds differently in any other order), and a part
// of the second stage adds the first stage's values it read.
type partsInstance struct{}

var partsRuns struct {
	sync.Mutex
	n map[string]int // by unit key
}

func partsOf(_ *config.Config, _ any, cell *runner.Cell) []int {
	switch cell.Params["c"] {
	case 2.0:
		return []int{7}
	case 3.0:
		return []int{3, 2}
	case 4.0:
		return []int{5}
	case 5.0:
		return []int{4}
	}
	return nil
}

type partValue struct{ V float64 }

func (partsInstance) Parts() runner.Parts {
	return runner.PartsOf(func(c *runner.Cell) []int { return partsOf(nil, nil, c) },
		func(cell *runner.Cell, stage, k int, earlier []partValue) (partValue, error) {
			countPart(fmt.Sprintf("%s part %d", cell.Key, k))
			switch {
			case cell.Params["c"] == 4.0 && k == 2:
				return partValue{}, errors.New("part 2 is singular")
			case cell.Params["c"] == 5.0 && k == 1:
				panic("part 1 exploded")
			}
			v := runner.NewRand(cell.Seed, fmt.Sprintf("part/%d", k)).Float64() * math.Ldexp(1, 40*(k%3-1))
			if stage > 0 {
				for _, e := range earlier {
					v += e.V
				}
			}
			return partValue{v}, nil
		},
		func(cell *runner.Cell, parts []partValue, rec *report.Record) error {
			var s float64
			arr := make([]float64, len(parts))
			for k, p := range parts {
				s += p.V
				arr[k] = p.V
			}
			rec.Metrics["sum"] = s
			rec.Arrays = map[string][]float64{"parts": arr}
			return nil
		})
}

func (p partsInstance) Run(cell *runner.Cell, rec *report.Record) error {
	if partsOf(nil, nil, cell) == nil {
		rec.Metrics["sum"] = cell.Rand().Float64()
		return nil
	}
	return runner.RunParts(p, cell, rec)
}

func (partsInstance) Report(out *runner.Output, recs []report.Record) error {
	return fakeKind{}.Report(out, recs)
}

var partsKindOnce sync.Once

// partsConfig is a config of the parts-test kind with the widths cs.
func partsConfig(t *testing.T, dir, name, cs string) *config.Config {
	t.Helper()
	partsKindOnce.Do(func() {
		runner.RegisterKind(runner.Kind{Name: "parts-test", Doc: "computes its cells in parts", Parts: partsOf,
			Start: func(*runner.Env, any) (runner.Instance, error) { return partsInstance{}, nil }})
	})
	src := "title: " + name + "\npaper: none\nkind: parts-test\nseed: 7\ndataset: {name: none-test}\n" +
		"model: {kernel: gaussian, c: [" + cs + "]}\n"
	c, err := config.Parse(name+".yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	c.Outputs.Dir = filepath.Join(dir, name)
	return c
}

func countPart(key string) {
	partsRuns.Lock()
	defer partsRuns.Unlock()
	if partsRuns.n == nil {
		partsRuns.n = map[string]int{}
	}
	partsRuns.n[key]++
}

func resetParts() map[string]int {
	partsRuns.Lock()
	defer partsRuns.Unlock()
	n := partsRuns.n
	partsRuns.n = map[string]int{}
	return n
}

// wholeRecords computes every cell of c whole (runner.RunCell, the
// parts one after another), the reference the pool's parts must give.
func wholeRecords(t *testing.T, c *config.Config) string {
	t.Helper()
	plan, err := runner.Validate(c)
	if err != nil {
		t.Fatal(err)
	}
	var recs []report.Record
	for _, cell := range plan.Cells {
		r := runner.RunCell(partsInstance{}, cell)
		// A run's record names the code that computed it (its key's).
		key, err := runner.NewCellKey(c, plan.Kind, cell)
		if err != nil {
			t.Fatal(err)
		}
		r.Code = key.CodeFingerprint()
		recs = append(recs, r)
	}
	b, err := report.MarshalJSONL(recs)
	if err != nil {
		t.Fatal(err)
	}
	return panicFrame.ReplaceAllString(string(b), "$1")
}

// panicFrame is the frame a panic's record names, which is where the
// panic was caught (a part's goroutine or par.Run's helper): a bug's
// whereabouts, not a value.
var panicFrame = regexp.MustCompile(`(panic: [^"]*) at [^"]*`)

func readRecords(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return panicFrame.ReplaceAllString(string(b), "$1")
}

// TestPartsAreTheWholeCell: the records of cells computed in parts, at
// 1, 2 and 16 workers and split over 2, 3 and 7 shards then merged, are
// those of the cells computed whole, byte for byte; a failed part fails
// its cell with its error (a panic as a crash), and each part runs once.
// The shards hold the parts of the one-stage cells spread over them and
// the two-stage cell whole in one.
func TestPartsAreTheWholeCell(t *testing.T) {
	const cs = "1, 2, 3, 4, 5"
	want := wholeRecords(t, partsConfig(t, t.TempDir(), "p", cs))
	if !strings.Contains(want, "part 2 is singular") || !strings.Contains(want, "panic: part 1 exploded") {
		t.Fatalf("the whole records miss the failed parts:\n%s", want)
	}
	for _, w := range []int{1, 2, 16} {
		resetParts()
		c := partsConfig(t, t.TempDir(), "p", cs)
		sum, err := runner.Run(context.Background(), c, runner.Options{Workers: w, NoCache: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := readRecords(t, c.Outputs.Dir); got != want {
			t.Errorf("-j %d: records\n%s\nwant\n%s", w, got, want)
		}
		if sum.Failed != 2 || sum.Crashed != 1 || len(sum.Times) != 1+7+5+5+4 {
			t.Errorf("-j %d: %d failed, %d crashed, %d unit times; want 2, 1, 22", w, sum.Failed, sum.Crashed, len(sum.Times))
		}
		for k, n := range resetParts() {
			if n != 1 {
				t.Errorf("-j %d: part %s ran %d times", w, k, n)
			}
		}
	}
	for _, n := range []int{2, 3, 7} {
		out := t.TempDir()
		c := partsConfig(t, out, "p", cs)
		staged := -1
		for i := range n {
			if _, err := runner.Run(context.Background(), c, runner.Options{Workers: 2, NoCache: true, Shard: runner.Shard{Index: i, Count: n}}); err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(filepath.Join(c.Outputs.Dir, "shards", fmt.Sprintf("shard-%d-of-%d.jsonl", i, n)))
			if strings.Contains(string(b), `"key":"c=3,kernel=gaussian"`) {
				staged = i
			}
			if strings.Contains(string(b), "c=3,kernel=gaussian#part") {
				t.Errorf("%d shards: shard %d holds a part of the two-stage cell, not its record", n, i)
			}
		}
		if staged < 0 {
			t.Errorf("%d shards: no shard holds the two-stage cell's record", n)
		}
		if _, err := runner.MergeShards(c, runner.Options{}); err != nil {
			t.Fatal(err)
		}
		if got := readRecords(t, c.Outputs.Dir); got != want {
			t.Errorf("%d shards merged: records\n%s\nwant\n%s", n, got, want)
		}
	}
}

// TestPartsResume: a cell's parts are cached one by one, so a run that
// lost some of them (stopped, or a shard of another machine) computes
// only those; the cell's own entry then serves it whole.
func TestPartsResume(t *testing.T) {
	cache := t.TempDir()
	c := partsConfig(t, t.TempDir(), "p", "2, 3")
	want := wholeRecords(t, c)
	o := runner.Options{Workers: 2, CacheDir: cache}
	if _, err := runner.Run(context.Background(), c, o); err != nil {
		t.Fatal(err)
	}
	plan, err := runner.Validate(c)
	if err != nil {
		t.Fatal(err)
	}
	// Forget both cells and three parts of c = 2.
	cc := &runner.Cache{Dir: cache}
	for _, cell := range plan.Cells {
		key, err := runner.NewCellKey(c, plan.Kind, cell)
		if err != nil {
			t.Fatal(err)
		}
		cc.Delete(key)
		if cell.Params["c"] == 2.0 {
			for _, k := range []int{0, 4, 6} {
				pk := key
				pk.Cell = runner.UnitKey(cell.Key, k, 7)
				cc.Delete(pk)
			}
		}
	}
	resetParts()
	sum, err := runner.Run(context.Background(), c, o)
	if err != nil {
		t.Fatal(err)
	}
	if got := readRecords(t, c.Outputs.Dir); got != want {
		t.Errorf("resumed: records\n%s\nwant\n%s", got, want)
	}
	runs := resetParts()
	if len(runs) != 3 || sum.Computed != 1 || sum.Cached != 1 {
		t.Errorf("resumed: parts run %v, %d cells computed, %d cached; want the 3 lost parts of c = 2, 1 computed, 1 cached", runs, sum.Computed, sum.Cached)
	}
	sum, err = runner.Run(context.Background(), c, o)
	if err != nil {
		t.Fatal(err)
	}
	if runs := resetParts(); len(runs) != 0 {
		t.Errorf("third run: parts run %v, want none (each cell's own entry)", runs)
	}
	// Served whole, the cells' recorded times are still their parts' (7
	// of c = 2; 3 then 2 of c = 3, in their stages), as the pool would
	// run them: one unit of their summed time would make the longest
	// cell and the prediction of a warm run wrong.
	parts := map[string][]string{}
	for _, ct := range sum.CachedTimes {
		if !ct.Cached {
			t.Errorf("cached time %+v not marked cached", ct)
		}
		parts[ct.Key] = append(parts[ct.Key], fmt.Sprintf("%d/%d@%d", ct.Part, ct.Parts, ct.Stage))
	}
	for key, want := range map[string]string{
		"c=2,kernel=gaussian": "0/7@0 1/7@0 2/7@0 3/7@0 4/7@0 5/7@0 6/7@0",
		"c=3,kernel=gaussian": "0/5@0 1/5@0 2/5@0 3/5@1 4/5@1",
	} {
		if got := strings.Join(parts[key], " "); got != want {
			t.Errorf("third run: cached times of %s: %s, want %s", key, got, want)
		}
	}
}

// TestPartsShared: two configs of one pool with the same cells compute
// each part once; the second is served every part, and its records are
// the first's.
func TestPartsShared(t *testing.T) {
	dir := t.TempDir()
	a, b := partsConfig(t, dir, "a", "2, 3"), partsConfig(t, dir, "b", "2, 3")
	resetParts()
	sums := runPool(t, runner.Options{Workers: 2, NoCache: true}, a, b)
	for k, n := range resetParts() {
		if n != 1 {
			t.Errorf("part %s ran %d times, want once", k, n)
		}
	}
	if readRecords(t, a.Outputs.Dir) != readRecords(t, b.Outputs.Dir) {
		t.Error("the configs' records differ")
	}
	if sums[0].Computed+sums[1].Computed != 2 || sums[0].Shared+sums[1].Shared != 2 {
		t.Errorf("computed %d+%d, shared %d+%d; want 2 cells computed and 2 served in all", sums[0].Computed, sums[1].Computed, sums[0].Shared, sums[1].Shared)
	}
}

// TestPartsInterruptCountsCells: a run of cells in parts stopped before
// it computes anything says how many cells are done, counting a cell
// once, and its parts apart ("72 of 72 cells done" was said of a 15-cell
// config whose parts were counted as cells).
func TestPartsInterruptCountsCells(t *testing.T) {
	cache := t.TempDir()
	c := partsConfig(t, t.TempDir(), "p", "2, 3")
	o := runner.Options{Workers: 2, CacheDir: cache}
	if _, err := runner.Run(context.Background(), c, o); err != nil {
		t.Fatal(err)
	}
	plan, err := runner.Validate(c)
	if err != nil {
		t.Fatal(err)
	}
	cc := &runner.Cache{Dir: cache}
	for _, cell := range plan.Cells {
		if cell.Params["c"] != 2.0 {
			continue
		}
		key, _ := runner.NewCellKey(c, plan.Kind, cell)
		cc.Delete(key)
		for _, k := range []int{0, 4, 6} {
			pk := key
			pk.Cell = runner.UnitKey(cell.Key, k, 7)
			cc.Delete(pk)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	resetParts()
	_, err = runner.Run(ctx, c, o)
	var ie *runner.InterruptedError
	if !errors.As(err, &ie) {
		t.Fatalf("Run: %v, want an interruption", err)
	}
	if ie.Done != 1 || ie.Total != 2 || ie.Units <= ie.Total || ie.UnitsDone > ie.Units {
		t.Errorf("interrupted: %+v (%q); want 1 of 2 cells done, units counted apart", *ie, err)
	}
	resetParts()
}
