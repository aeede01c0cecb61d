package runner_test

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"

	// Registers the estimators the test configs name.
	_ "github.com/runexp/runexp/internal/methods"
)

// fakeKind draws from each cell's stream, so any dependence of a cell's
// numbers on worker count or order would show in the records.
type fakeKind struct{}

func (fakeKind) Run(cell *runner.Cell, rec *report.Record) error {
	r := cell.Rand()
	rec.Metrics["draw"] = r.Float64()
	c, _ := cell.Params["c"].(float64)
	switch c {
	case 13:
		panic("boom")
	case 17:
		return errors.New("singular system")
	case 19:
		rec.Metrics["draw"] = math.NaN()
		rec.Status = "partial"
	}
	return nil
}

func (fakeKind) Report(out *runner.Output, recs []report.Record) error {
	t := &report.Table{Title: "fake", Header: []string{"key", "draw"}}
	for _, r := range recs {
		t.Rows = append(t.Rows, []string{r.Key, report.FormatFloat(r.Metrics["draw"], 6)})
	}
	out.Tables = append(out.Tables, t)
	return nil
}

func init() {
	runner.RegisterKind(runner.Kind{
		Name:  "fake-test",
		Doc:   "test kind",
		Start: func(env *runner.Env, _ any) (runner.Instance, error) { return fakeKind{}, nil },
	})
	runner.RegisterDataset(runner.DatasetSpec{
		Name: "none-test",
		Doc:  "no data",
		Load: func(*runner.Env, *datasets.Root, any) (*runner.Data, error) { return &runner.Data{}, nil },
	})
}

const fakeConfig = `title: fake
paper: none
kind: fake-test
seed: 7
dataset:
  name: none-test
model:
  kernel: gaussian
  c: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 17, 19]
  components: [1, 2]
methods:
  - name: mika
    params:
      max_iter: [10, 20]
claims:
  - id: draws-positive
    check: {type: value, metric: draw, where: {c: 1}, op: ">", value: 0}
`

func parse(t *testing.T, src string) *config.Config {
	t.Helper()
	c, err := config.Parse("fake.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func runInto(t *testing.T, c *config.Config, workers int) string {
	t.Helper()
	dir := t.TempDir()
	c.Outputs.Dir = dir
	if _, err := runner.Run(context.Background(), c, runner.Options{Workers: workers, CacheDir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestWorkersDoNotChangeOutputs(t *testing.T) {
	c := parse(t, fakeConfig)
	sameOutputs(t, runInto(t, c, 1), runInto(t, c, 4))
}

func TestFailuresAreRecorded(t *testing.T) {
	c := parse(t, fakeConfig)
	dir := runInto(t, c, 3)
	recs, err := report.ReadJSONL(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	// 15 widths × 2 sizes × 2 max_iter values.
	if len(recs) != 60 {
		t.Fatalf("got %d records, want 60", len(recs))
	}
	var panicked, failed, nan int
	for _, r := range recs {
		switch {
		case strings.HasPrefix(r.Error, "panic: boom"):
			panicked++
		case r.Error == "singular system":
			failed++
		case r.Error == "not finite: draw":
			nan++
			if r.Status != "failed" || !math.IsNaN(r.Metrics["draw"]) {
				t.Errorf("NaN cell %s: status %s, draw %v", r.Key, r.Status, r.Metrics["draw"])
			}
		}
	}
	if panicked != 4 || failed != 4 || nan != 4 {
		t.Errorf("panicked %d, failed %d, NaN %d; want 4 each", panicked, failed, nan)
	}
	tables, err := os.ReadFile(filepath.Join(dir, "tables.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(tables), "singular system") || !strings.Contains(string(tables), "Failed and partial cells") {
		t.Error("tables.md does not show the failed cells with their reasons")
	}
}

func TestCellSeedsDependOnKeyOnly(t *testing.T) {
	// Dropping most of the grid must not change the surviving cells.
	full, err := runner.Cells(parse(t, fakeConfig))
	if err != nil {
		t.Fatal(err)
	}
	small, err := runner.Cells(parse(t, strings.Replace(fakeConfig, "c: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 17, 19]", "c: [5.0]", 1)))
	if err != nil {
		t.Fatal(err)
	}
	seeds := map[string]uint64{}
	for _, c := range full {
		seeds[c.Key] = c.Seed
	}
	for _, c := range small {
		s, ok := seeds[c.Key]
		if !ok {
			t.Fatalf("cell %s of the small grid is not in the full grid", c.Key)
		}
		if s != c.Seed {
			t.Errorf("cell %s: seed %d in the small grid, %d in the full one", c.Key, c.Seed, s)
		}
	}
	if len(small) != 4 {
		t.Errorf("small grid has %d cells, want 4", len(small))
	}
}

func TestDefaultsInKey(t *testing.T) {
	// Writing a default explicitly names the same cell as leaving it out.
	a, err := runner.Cells(parse(t, strings.Replace(fakeConfig, "max_iter: [10, 20]", "max_iter: 1000", 1)))
	if err != nil {
		t.Fatal(err)
	}
	b, err := runner.Cells(parse(t, strings.Replace(fakeConfig, "    params:\n      max_iter: [10, 20]\n", "", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if a[0].Key != b[0].Key {
		t.Errorf("explicit default gives key %q, implicit %q", a[0].Key, b[0].Key)
	}
}

func TestValidateErrorsPointIntoTheFile(t *testing.T) {
	for _, tc := range []struct {
		name, old, new, want string
	}{
		{"unknown estimator", "- name: mika", "- name: mikka", `fake.yaml:12: methods[0]: unknown estimator "mikka"; did you mean mika?`},
		{"bad parameter value", "max_iter: [10, 20]", "max_iter: [10, 0]", `fake.yaml:14: methods[0].params: parameter "max_iter": 0 is below the minimum 1`},
		{"unknown parameter", "max_iter: [10, 20]", "max_iters: 10", `fake.yaml:14: methods[0].params: parameter "max_iters": unknown for mika`},
		// The key's line, and the closest kinds by name.
		{"unknown kind", "kind: fake-test", "kind: nope", `fake.yaml:3: kind: unknown experiment kind "nope"`},
		{"misspelt kind", "kind: fake-test", "kind: fake-tset", `fake.yaml:3: kind: unknown experiment kind "fake-tset"; did you mean fake-test?`},
		{"bad claim", "op: \">\"", "op: \"=>\"", `fake.yaml:17: check.op: want one of <, <=, >, >=`},
		{"repeated cell", "components: [1, 2]", "components: [1, 1]", "the grid has the same cell twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := config.Parse("fake.yaml", []byte(strings.Replace(fakeConfig, tc.old, tc.new, 1)))
			if err == nil {
				_, err = runner.Validate(c)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestMissingDataRootIsAClearError(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	_, err := datasets.OpenRoot("")
	if err == nil || !strings.Contains(err.Error(), "RUNEXP_DATA") {
		t.Errorf("got %v, want an error telling how to set the data root", err)
	}
}
