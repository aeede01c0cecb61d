// Package kindtest runs an experiment config end to end in a kind's tests:
// parse, validate, run every cell and write the report with no data root
// and no cache (or, with RunCached, a cache shared between calls), into a
// temporary result directory. SameWhateverWorkers runs it with one and two
// workers and compares the outputs; Tables reads the tables a reader gets;
// StartError gives a refusal of a kind's Start; Flaky (a de-noiser) and
// Echo (a pre-imager answering its starts) fail chosen rows, for the
// kinds' failure paths.
package kindtest

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	_ "github.com/runexp/runexp/experiments/catalog" // synthetic-images and two-rings
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
	"github.com/runexp/runexp/internal/suite"
)

// Run runs the config src and returns its records and the run's summary.
// Any error before the report is written fails the test.
func Run(t *testing.T, src string) ([]report.Record, *runner.Summary) {
	t.Helper()
	return run(t, src, runner.Options{Workers: 2, NoCache: true})
}

// RunWorkers is Run of the config as file name (the result folder and the
// captions name it, so golden figures depend on it) with the given number
// of cell workers (a kind's determinism test compares 1 and 2).
func RunWorkers(t *testing.T, file, src string, workers int) ([]report.Record, *runner.Summary) {
	t.Helper()
	return runFile(t, file, src, runner.Options{Workers: workers, NoCache: true})
}

// RunCached is Run over the cell cache in cacheDir: calls given the same
// directory share their cells as the configs of one runexp suite do. The
// summary counts the cells computed and those taken from the cache.
func RunCached(t *testing.T, src, cacheDir string) ([]report.Record, *runner.Summary) {
	t.Helper()
	return run(t, src, runner.Options{Workers: 2, CacheDir: cacheDir})
}

// SameWhateverWorkers runs the config as file with one and with two cell
// workers and fails the test for every output file that differs between
// the two (suite.DiffTrees: all but the run's times). It returns the
// one-worker run's records and summary.
func SameWhateverWorkers(t *testing.T, file, src string) ([]report.Record, *runner.Summary) {
	t.Helper()
	recs, one := RunWorkers(t, file, src, 1)
	_, two := RunWorkers(t, file, src, 2)
	diff, err := suite.DiffTrees(one.Dir, two.Dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range diff {
		t.Errorf("%s: %s differs between one and two workers", file, f)
	}
	return recs, one
}

func run(t *testing.T, src string, opt runner.Options) ([]report.Record, *runner.Summary) {
	t.Helper()
	return runFile(t, "test.yaml", src, opt)
}

func runFile(t *testing.T, file, src string, opt runner.Options) ([]report.Record, *runner.Summary) {
	t.Helper()
	t.Setenv("RUNEXP_DATA", "")
	c, err := config.Parse(file, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runner.Validate(c); err != nil {
		t.Fatal(err)
	}
	c.Outputs.Dir = t.TempDir()
	sum, err := runner.Run(context.Background(), c, opt)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := report.ReadJSONL(filepath.Join(sum.Dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return recs, sum
}

// Table is one table of a run's tables.md as a reader sees it: the title
// under its "### " heading, the header and the body cells, unescaped
// ("\|" read as "|", "<br>" as a newline) and trimmed.
type Table struct {
	Title  string
	Header []string
	Rows   [][]string
}

// Tables reads the tables of the run's tables.md in dir, in order.
func Tables(t *testing.T, dir string) []Table {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "tables.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out []Table
	var cur *Table
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "### "):
			out = append(out, Table{Title: strings.TrimPrefix(line, "### ")})
			cur = &out[len(out)-1]
		case cur != nil && strings.HasPrefix(line, "|"):
			cells := cellsOf(line)
			switch {
			case cur.Header == nil:
				cur.Header = cells
			case strings.Trim(line, "|:- ") == "": // the alignment row
			default:
				cur.Rows = append(cur.Rows, cells)
			}
		}
	}
	return out
}

// FindTable returns the table of tables whose title starts with prefix,
// failing the test when there is none.
func FindTable(t *testing.T, tables []Table, prefix string) Table {
	t.Helper()
	for _, tb := range tables {
		if strings.HasPrefix(tb.Title, prefix) {
			return tb
		}
	}
	var titles []string
	for _, tb := range tables {
		titles = append(titles, tb.Title)
	}
	t.Fatalf("no table titled %q… among %q", prefix, titles)
	return Table{}
}

// cellsOf splits a Markdown table line into its cells (report.SplitRow),
// with "<br>" read as a newline.
func cellsOf(line string) []string {
	cells := report.SplitRow(line)
	for i, c := range cells {
		cells[i] = strings.ReplaceAll(c, "<br>", "\n")
	}
	return cells
}

// StartError parses and validates the config src as file, which must
// succeed, and returns the error of its kind's Start (no data root): the
// refusals that need the data, such as a split the data cannot give.
func StartError(t *testing.T, file, src string) error {
	t.Helper()
	t.Setenv("RUNEXP_DATA", "")
	c, err := config.Parse(file, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	plan, err := runner.Validate(c)
	if err != nil {
		t.Fatal(err)
	}
	_, err = plan.Start(runner.NewEnv(c, "", nil))
	return err
}

// Flaky is a de-noiser for the kinds' tests: it returns its inputs, as
// the identity does, fails the rows of each batch Fail selects ("flaky:
// gave up") and reports the rows NotConverged selects as stopped after 3
// iterations without converging. A nil selector selects nothing.
type Flaky struct {
	Fail, NotConverged func(row int) bool
}

// Denoise implements methods.Denoiser.
func (f Flaky) Denoise(dst *mat.Dense, in *methods.DenoiseInput) ([]methods.Status, error) {
	return answer(dst, in.X0, f.Fail, f.NotConverged, "flaky: gave up"), nil
}

// answer copies x into dst (sized to x when empty) and returns the rows'
// statuses: the error msg on the rows fail selects, 3 iterations without
// converging on those notConverged selects; a nil selector selects
// nothing.
func answer(dst, x *mat.Dense, fail, notConverged func(row int) bool, msg string) []methods.Status {
	m, d := x.Dims()
	if dst.IsEmpty() {
		dst.ReuseAs(m, d)
	}
	dst.Copy(x)
	st := make([]methods.Status, m)
	for i := range st {
		if fail != nil && fail(i) {
			st[i].Err = errors.New(msg)
		}
		if notConverged != nil && notConverged(i) {
			st[i].Iterations = 3
		}
	}
	return st
}

// RegisterFlaky registers f as the de-noiser name, titled title, taking
// one tunable parameter, dummy (a float in [0, 10], default 0).
func RegisterFlaky(name, title string, f Flaky) {
	methods.Register(methods.Spec{
		Name: name, Title: title, Doc: "returns its inputs, failing chosen rows (a kind's tests)", Source: "kindtest",
		Does:   methods.Denoises,
		Params: []methods.Param{methods.FloatParam("dummy", 0, 0, 10, "a parameter to tune")},
		New:    func(methods.Params) (any, error) { return f, nil },
	})
}

// Echo is a pre-imager for the kinds' tests: it answers each row with its
// start point (Problem.Start), or its observed input (X0) without one, so
// that a kind's measures of the answers can be computed by hand; it fails
// the rows Fail selects ("echo: told to fail") and reports those
// NotConverged selects as stopped after 3 iterations.
type Echo struct {
	Fail, NotConverged func(row int) bool
}

// PreImage implements methods.PreImager.
func (e Echo) PreImage(dst *mat.Dense, p *methods.Problem) ([]methods.Status, error) {
	from := p.Start
	if from == nil {
		from = p.X0
	}
	if from == nil {
		return nil, errors.New("echo: no start points and no inputs")
	}
	return answer(dst, from, e.Fail, e.NotConverged, "echo: told to fail"), nil
}

// RegisterEcho registers e as the pre-image estimator name, titled title.
func RegisterEcho(name, title string, e Echo) {
	methods.Register(methods.Spec{
		Name: name, Title: title, Doc: "answers each row with its start (a kind's tests)", Source: "kindtest",
		Does: methods.PreImages, New: func(methods.Params) (any, error) { return e, nil },
	})
}

// Metrics checks the metric names the config src's kind declares
// (runner.Kind.Metrics) against recs, the records of a run of src, both
// ways: every metric a record holds must be declared (else validate would
// refuse a correct claim on it), and every declared name or pattern must
// be held by some record (else a claim naming it passes validate and is
// never evaluated), unless it is listed in optional: the names a record
// holds only on some paths (a refusal, a failure) that the run did not
// take. An optional name that is not declared fails too.
func Metrics(t *testing.T, src string, recs []report.Record, optional ...report.Metric) {
	t.Helper()
	c, err := config.Parse("test.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	plan, err := runner.Validate(c)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Kind.Metrics == nil {
		t.Fatalf("kind %s declares no metric names (runner.Kind.Metrics)", c.Kind)
	}
	held := map[report.Metric]bool{}
	for _, r := range recs {
		for name := range r.Metrics {
			declared := false
			for _, m := range plan.Metrics {
				if (runner.MetricNames{m}).Match(name) {
					held[m], declared = true, true
				}
			}
			if !declared {
				t.Errorf("kind %s: a record holds %s, which the kind does not declare", c.Kind, name)
			}
		}
	}
	for _, m := range optional {
		if !slices.Contains(plan.Metrics, m) {
			t.Errorf("kind %s: %s is listed optional but not declared", c.Kind, m)
		}
	}
	for _, m := range plan.Metrics {
		if !held[m] && !slices.Contains(optional, m) {
			t.Errorf("kind %s declares %s, which no record holds", c.Kind, m)
		}
	}
}

// ItemsReproduce checks that every metric of r that kind declares through
// Kind.Items follows from r's per-item arrays: each array it reads has
// size(metric) entries, and the declared statistic of them (Stat, or
// Joint of several arrays) is the recorded value to 1e-12 relative. It
// returns how many of r's metrics are declared.
func ItemsReproduce(t *testing.T, kind, name string, r *report.Record, size func(metric string) int) int {
	t.Helper()
	k, ok := runner.LookupKind(kind)
	if !ok || k.Items == nil {
		t.Fatalf("%s declares no per-item statistics", kind)
	}
	n := 0
	for metric, want := range r.Metrics {
		st, ok := k.Items(r, metric)
		if !ok {
			continue
		}
		n++
		arrays := []string{st.Array}
		if st.Joint != nil {
			arrays = st.Arrays
		}
		cols := make([][]float64, len(arrays))
		for i, a := range arrays {
			cols[i] = r.Arrays[a]
			if len(cols[i]) != size(metric) {
				t.Errorf("%s %s: %d entries in %s, want %d", name, metric, len(cols[i]), a, size(metric))
			}
		}
		var got float64
		if st.Joint != nil {
			got = st.Joint(r, cols)
		} else {
			got = st.Stat(r, cols[0])
		}
		if !(math.Abs(got-want) <= 1e-12*math.Abs(want)) {
			t.Errorf("%s %s: per-item arrays give %v, the record %v", name, metric, got, want)
		}
	}
	return n
}
