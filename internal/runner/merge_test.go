package runner_test

import (
	"context"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// TestMergeRefusals checks the merges refused before anything is
// written, each saying what to do: no shard has run; a shard is missing
// (its cells have no record); the shards were run with different --with
// estimators.
func TestMergeRefusals(t *testing.T) {
	out := t.TempDir()
	shard := func(i, n int, with []report.WithSpec) {
		t.Helper()
		c := parse(t, fakeConfig)
		c.Outputs.Dir = out
		if _, err := runner.Run(context.Background(), c, runner.Options{Workers: 1, NoCache: true, With: with, Shard: runner.Shard{Index: i, Count: n}}); err != nil {
			t.Fatal(err)
		}
	}
	merge := func() error {
		c := parse(t, fakeConfig)
		c.Outputs.Dir = out
		_, err := runner.MergeShards(c, runner.Options{})
		return err
	}
	if err := merge(); err == nil || !strings.Contains(err.Error(), "no shard files in ") || !strings.Contains(err.Error(), "run the shards first") {
		t.Errorf("no shards: %v", err)
	}
	shard(0, 3, nil)
	shard(1, 3, nil)
	// 15 widths × 2 sizes × 2 max_iter = 60 cells; shard 2 of 3 holds 20.
	if err := merge(); err == nil || !strings.Contains(err.Error(), "20 of 60 cells have no shard record") || !strings.Contains(err.Error(), "run the missing shards") {
		t.Errorf("a missing shard: %v", err)
	}
	shard(2, 3, []report.WithSpec{{Spec: "tikhonov", Estimator: "tikhonov", Label: "Tikhonov"}})
	err := merge()
	if err == nil || !strings.Contains(err.Error(), "shards disagree on the added estimators") ||
		!strings.Contains(err.Error(), `--with "tikhonov"`) || !strings.Contains(err.Error(), "no --with") {
		t.Errorf("shards with different --with: %v", err)
	}
	shard(2, 3, nil)
	if err := merge(); err != nil {
		t.Errorf("three shards of one run: %v", err)
	}
}
