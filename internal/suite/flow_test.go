package suite

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
