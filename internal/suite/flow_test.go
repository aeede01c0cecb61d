package suite

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// TestSuiteBaseline runs the tiny suite three ways against a baseline it
// wrote itself: written, compared unchanged (status 0, compared, no
// change), and compared after a metric of the baseline was moved (status
// 1, the change named by config, cell and metric); a baseline that
// cannot be read is a problem of the report with status 2, not an error
// of the run.
func TestSuiteBaseline(t *testing.T) {
	configs, entries := tinySuite(t)
	root := t.TempDir()
	base := filepath.Join(root, "baseline")
	o := suiteOptions(configs, filepath.Join(root, "first"), 2)
	o.WriteBaseline = base
	rep, err := Suite(context.Background(), entries, o)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != OK || len(rep.Problems) != 0 {
		t.Fatalf("first run: status %d, problems %q", rep.Status, rep.Problems)
	}
	for _, name := range []string{"a", "b"} {
		if _, err := os.Stat(filepath.Join(base, name, "records.jsonl")); err != nil {
			t.Errorf("baseline of %s: %v", name, err)
		}
	}

	o = suiteOptions(configs, filepath.Join(root, "second"), 2)
	o.Baseline = base
	rep, err = Suite(context.Background(), entries, o)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != OK || !rep.Compared || len(rep.Changes) != 0 {
		t.Errorf("against its own baseline: status %d, compared %t, changes %v", rep.Status, rep.Compared, rep.Changes)
	}

	// Move one metric of b's first cell in the baseline.
	bf := filepath.Join(base, "b", "records.jsonl")
	recs, err := report.ReadJSONL(bf)
	if err != nil {
		t.Fatal(err)
	}
	recs[0].Metrics["mse_median"] *= 2
	if err := report.WriteJSONL(bf, recs); err != nil {
		t.Fatal(err)
	}
	o.Run.OutRoot, o.Out = filepath.Join(root, "third"), filepath.Join(root, "third")
	rep, err = Suite(context.Background(), entries, o)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != Changed || len(rep.Changes) != 1 {
		t.Fatalf("moved baseline: status %d, changes %v; want 1 and one change", rep.Status, rep.Changes)
	}
	if c := rep.Changes[0]; c.Config != "b" || c.Key != recs[0].Key || c.What != "metric mse_median" {
		t.Errorf("change %+v, want b's %s metric mse_median", c, recs[0].Key)
	}
	back, err := ReadReport(filepath.Join(root, "third", "suite.json"))
	if err != nil || back.Status != Changed || len(back.Changes) != 1 {
		t.Errorf("suite.json: %v, status %d, %d changes", err, back.Status, len(back.Changes))
	}

	// A baseline whose records cannot be read.
	if err := os.WriteFile(bf, []byte("not json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o.Run.OutRoot, o.Out = filepath.Join(root, "fourth"), filepath.Join(root, "fourth")
	rep, err = Suite(context.Background(), entries, o)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != Usage || rep.Compared || len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0], "records.jsonl") {
		t.Errorf("unreadable baseline: status %d, compared %t, problems %q", rep.Status, rep.Compared, rep.Problems)
	}
}

// TestSuiteKeepsGoing checks that a config that cannot run (its result
// folder blocked by a file) is recorded with its error and status 2 while
// the others run, and that the suite's status is the worst of them.
func TestSuiteKeepsGoing(t *testing.T) {
	configs, entries := tinySuite(t)
	out := filepath.Join(t.TempDir(), "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "a"), []byte("in the way"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := Suite(context.Background(), entries, suiteOptions(configs, out, 2))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Runs) != 2 {
		t.Fatalf("%d runs, want both configs", len(rep.Runs))
	}
	a, b := rep.Runs[0], rep.Runs[1]
	if a.Error == "" || a.Status != Usage {
		t.Errorf("a: error %q, status %d; want an error and 2", a.Error, a.Status)
	}
	if b.Error != "" || b.Status != OK || b.Cells != 3 {
		t.Errorf("b: error %q, status %d, %d cells; want it run", b.Error, b.Status, b.Cells)
	}
	if rep.Status != Usage {
		t.Errorf("suite status %d, want 2", rep.Status)
	}
	rows := rep.TimesTable().Rows
	if len(rows) != 3 || rows[0][0] != "a" || rows[0][8] != "2" || rows[2][0] != "total" {
		t.Errorf("times table %q", rows)
	}
}

// TestRunStopsWithoutKeepGoing checks Run without KeepGoing: the first
// config that cannot run ends it with that config's error.
func TestRunStopsWithoutKeepGoing(t *testing.T) {
	_, entries := tinySuite(t)
	out := t.TempDir()
	if err := os.WriteFile(filepath.Join(out, "b"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var done []string
	res, err := Run(context.Background(), entries, Options{Run: runner.Options{OutRoot: out, Workers: 1},
		Done: func(r Result) { done = append(done, r.Config.Name) }})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(out, "b")) {
		t.Errorf("error %v, want b's", err)
	}
	if res != nil || len(done) != 0 {
		t.Errorf("results %v, done %v: want none before the refusal", res, done)
	}
}

// TestRunAround checks the configs run one after another with Around
// about each (a CPU profile per config): Around before and its after
// once, in the entries' order, with each config's process CPU time; an
// error of Around stops the run before its config; a suite's shard
// cannot be run so.
func TestRunAround(t *testing.T) {
	_, entries := tinySuite(t)
	var calls []string
	o := Options{Run: runner.Options{OutRoot: t.TempDir(), Workers: 2}, Around: func(c *config.Config) (func(), error) {
		calls = append(calls, "before "+c.Name)
		return func() { calls = append(calls, "after "+c.Name) }, nil
	}}
	res, err := Run(context.Background(), entries, o)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"before a", "after a", "before b", "after b"}; !slices.Equal(calls, want) {
		t.Errorf("calls %q, want %q", calls, want)
	}
	if len(res) != 2 || res[0].Config.Name != "a" || res[1].Config.Name != "b" {
		t.Fatalf("results %v", res)
	}
	for _, r := range res {
		if r.Err != nil || r.Summary == nil || r.ProcessCPUSeconds <= 0 || r.Seconds <= 0 || r.Ended < r.Began {
			t.Errorf("%s: err %v, process CPU %g s, %g s from %g to %g", r.Config.Name, r.Err, r.ProcessCPUSeconds, r.Seconds, r.Began, r.Ended)
		}
	}
	if res[1].Began < res[0].Ended {
		t.Errorf("b began at %g s, before a ended at %g s", res[1].Began, res[0].Ended)
	}

	stop := errors.New("no profile")
	o.Around = func(c *config.Config) (func(), error) {
		if c.Name == "b" {
			return nil, stop
		}
		return func() {}, nil
	}
	res, err = Run(context.Background(), entries, o)
	if !errors.Is(err, stop) || len(res) != 1 {
		t.Errorf("Around failing on b: %d results, %v", len(res), err)
	}

	o.Shard = runner.Shard{Index: 0, Count: 2}
	if _, err := Run(context.Background(), entries, o); err == nil || !strings.Contains(err.Error(), "--cpuprofile") {
		t.Errorf("a shard with Around: %v", err)
	}
}

// TestCacheWorkload checks the workload read from the cell cache: on an
// empty cache every cell is missing; after a suite filled it, every cell
// of both configs (8 and 3) has its recorded time, and the prediction
// table lists the worker counts in order with the list-scheduling bound
// never below the even split or the critical chain.
func TestCacheWorkload(t *testing.T) {
	configs, entries := tinySuite(t)
	cache := filepath.Join(t.TempDir(), "cache")
	w, missing, total, err := CacheWorkload(entries, cache)
	if err != nil || missing != 11 || total != 11 || w.Work() != 0 {
		t.Fatalf("empty cache: %d of %d missing, work %g, %v; want 11 of 11", missing, total, w.Work(), err)
	}
	o := suiteOptions(configs, filepath.Join(t.TempDir(), "out"), 2)
	o.Run.CacheDir = cache
	if _, err := Suite(context.Background(), entries, o); err != nil {
		t.Fatal(err)
	}
	w, missing, total, err = CacheWorkload(entries, cache)
	if err != nil || missing != 0 || total != 11 {
		t.Fatalf("filled cache: %d of %d missing, %v", missing, total, err)
	}
	if len(w) != 2 || len(w[0].Cells) != 8 || len(w[1].Cells) != 3 || w[0].Config != "a" {
		t.Errorf("workload %+v, want a's 8 cells and b's 3", w)
	}
	tb := PredictionTable(w, []int{4, 1, 2})
	if len(tb.Rows) != 3 || tb.Rows[0][0] != "1" || tb.Rows[1][0] != "2" || tb.Rows[2][0] != "4" {
		t.Fatalf("prediction rows %q, want workers 1, 2, 4", tb.Rows)
	}
	for _, n := range []int{1, 2, 4} {
		p := w.Predict(n)
		if p.Seconds+1e-9 < max(p.Even, p.Chain) {
			t.Errorf("%d workers: predicted %g s below the bounds (even %g, chain %g)", n, p.Seconds, p.Even, p.Chain)
		}
	}
	if !strings.Contains(tb.Caption, "in 2 configs") {
		t.Errorf("caption %q", tb.Caption)
	}
}

// TestPredictionTable checks the table's numbers on the hand-derived
// workload of TestPredict: 12 s on one worker, 7 s on two, 3 s on eight.
func TestPredictionTable(t *testing.T) {
	w := Workload{{Config: "a", Cells: []float64{3, 3, 2, 2, 2}, Keys: []string{"1", "2", "3", "4", "5"}}}
	tb := PredictionTable(w, []int{8, 2, 1})
	want := [][]string{{"1", "12.0", "12.0", "3.0"}, {"2", "7.0", "6.0", "3.0"}, {"8", "3.0", "1.5", "3.0"}}
	for i := range want {
		if !slices.Equal(tb.Rows[i], want[i]) {
			t.Errorf("row %d: %q, want %q", i, tb.Rows[i], want[i])
		}
	}
	if want := "12.0 s of work in 1 configs; longest cell 3.0 s (a 1)"; !strings.HasPrefix(tb.Caption, want) {
		t.Errorf("caption %q, want it to start %q", tb.Caption, want)
	}
}

// TestWriteIndexes checks the pages a run refreshes: the results root's
// own index; with --with, the folder's index linking back up and the
// root's index; and a folder outside the results root refused.
func TestWriteIndexes(t *testing.T) {
	out := t.TempDir()
	pages, err := WriteIndexes(out, out, nil)
	if err != nil || !slices.Equal(pages, []string{filepath.Join(out, "index.html")}) {
		t.Fatalf("root's own index: %q, %v", pages, err)
	}
	with := filepath.Join(out, "with-mine")
	if err := os.MkdirAll(with, 0o755); err != nil {
		t.Fatal(err)
	}
	pages, err = WriteIndexes(out, with, nil)
	if err != nil || !slices.Equal(pages, []string{filepath.Join(with, "index.html"), filepath.Join(out, "index.html")}) {
		t.Fatalf("--with folder: %q, %v", pages, err)
	}
	b, err := os.ReadFile(filepath.Join(with, "index.html"))
	if err != nil || !strings.Contains(string(b), `href="../index.html"`) {
		t.Errorf("the --with index does not link up to ../index.html (%v)", err)
	}
	if _, err := WriteIndexes(out, t.TempDir(), nil); err == nil || !strings.Contains(err.Error(), "is not inside") {
		t.Errorf("a folder outside the results root: %v", err)
	}
}

// TestList checks `runexp list`'s reading of a configs folder: configs
// and collections in name order with their titles and members, and a file
// that does not parse listed with its error rather than failing the list.
func TestList(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "configs")
	os.MkdirAll(dir, 0o755)
	for name, src := range map[string]string{
		"b":    tinyB,
		"a":    tinyA,
		"set":  "title: both\ncollection: [a, b]\n",
		"bad":  "title: [unclosed\n",
		"note": "not yaml: at: all: :",
	} {
		if err := os.WriteFile(filepath.Join(dir, name+".yaml"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ls, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range ls {
		names = append(names, l.Name)
	}
	if !slices.Equal(names, []string{"a", "b", "bad", "note", "set"}) {
		t.Fatalf("names %q", names)
	}
	if ls[0].Title != "tiny: two estimators" || ls[0].Members != nil || ls[0].Err != nil {
		t.Errorf("a: %+v", ls[0])
	}
	if ls[2].Err == nil || !strings.Contains(ls[2].Err.Error(), "bad.yaml") {
		t.Errorf("bad: error %v, want one naming the file", ls[2].Err)
	}
	if ls[4].Title != "both" || !slices.Equal(ls[4].Members, []string{"a", "b"}) {
		t.Errorf("set: %+v", ls[4])
	}
	if _, err := List(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no configs") {
		t.Errorf("empty folder: %v", err)
	}
}

// orderKind records the order its cells run in.
type orderKind struct{}

var (
	orderMu sync.Mutex
	ran     []string
)

func (orderKind) Run(cell *runner.Cell, rec *report.Record) error {
	orderMu.Lock()
	defer orderMu.Unlock()
	ran = append(ran, cell.Key)
	rec.Metrics["v"] = 1
	return nil
}

func (orderKind) Report(*runner.Output, []report.Record) error { return nil }

func init() {
	runner.RegisterKind(runner.Kind{Name: "suite-order-test", Doc: "records the order of its cells (suite's tests)",
		Start: func(*runner.Env, any) (runner.Instance, error) { return orderKind{}, nil }})
}

// TestRunProgressAndTimes checks what Run hands each config: its own
// progress callback, called as its cells finish, up to (cells, cells);
// and, from an earlier suite's times, the estimates the pool orders the
// cells by: on one worker the cell recorded as longest runs first, then
// the others longest first.
func TestRunProgressAndTimes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "configs")
	os.MkdirAll(dir, 0o755)
	src := "title: order\npaper: none\nkind: suite-order-test\nseed: 1\ndataset: {name: synthetic-images}\nmodel: {kernel: gaussian, c: [1, 2, 3, 4], components: 1}\n"
	if err := os.WriteFile(filepath.Join(dir, "order.yaml"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	entries, err := Load([]string{filepath.Join(dir, "order.yaml")}, nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	cells, err := runner.Cells(entries[0].Config)
	if err != nil {
		t.Fatal(err)
	}
	// Recorded costs 5, 1, 1000, 20 s: the order should be 2, 3, 0, 1.
	times := Times{"order": {}}
	for i, c := range cells {
		times["order"][c.Key] = []float64{5, 1, 1000, 20}[i]
	}
	var mu sync.Mutex
	var progress [][2]int
	o := Options{Run: runner.Options{OutRoot: t.TempDir(), Workers: 1, NoCache: true}, Times: times,
		Progress: func(c *config.Config) func(done, total int) {
			return func(done, total int) {
				mu.Lock()
				defer mu.Unlock()
				progress = append(progress, [2]int{done, total})
			}
		}}
	orderMu.Lock()
	ran = nil
	orderMu.Unlock()
	if _, err := Run(context.Background(), entries, o); err != nil {
		t.Fatal(err)
	}
	want := []string{cells[2].Key, cells[3].Key, cells[0].Key, cells[1].Key}
	if !slices.Equal(ran, want) {
		t.Errorf("cells ran in the order %q, want %q (longest recorded first)", ran, want)
	}
	if len(progress) == 0 || progress[len(progress)-1] != [2]int{4, 4} {
		t.Errorf("progress %v, want it to end at (4, 4)", progress)
	}
	for i := 1; i < len(progress); i++ {
		if progress[i][0] < progress[i-1][0] {
			t.Errorf("progress went back: %v", progress)
		}
	}
}
