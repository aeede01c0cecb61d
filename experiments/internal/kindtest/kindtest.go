// Package kindtest runs an experiment config end to end in a kind's tests:
// parse, validate, run every cell and write the report with no data root
// and no cache (or, with RunCached, a cache shared between calls), into a
// temporary result directory.
package kindtest

import (
	"context"
	"path/filepath"
	"testing"

	_ "github.com/runexp/runexp/experiments/catalog" // synthetic-images and two-rings
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
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
