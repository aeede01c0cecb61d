package experiments_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	_ "github.com/runexp/runexp/experiments"
	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/runner"
)

func runConfig(t *testing.T, path string, workers int) (string, *runner.Summary) {
	t.Helper()
	c, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	c.Outputs.Dir = dir
	sum, err := runner.Run(context.Background(), c, runner.Options{Workers: workers, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return dir, sum
}

// runParsed runs the parsed config c once per worker count, each into a
// fresh output and cache directory, and returns the output directories and
// summaries (tests compare the directories for -j invariance).
func runParsed(t *testing.T, c *config.Config, workers ...int) ([]string, []*runner.Summary) {
	t.Helper()
	var dirs []string
	var sums []*runner.Summary
	for _, w := range workers {
		c.Outputs.Dir = t.TempDir()
		sum, err := runner.Run(context.Background(), c, runner.Options{Workers: w, CacheDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, c.Outputs.Dir)
		sums = append(sums, sum)
	}
	return dirs, sums
}

// TestTwoRingFigures runs both synthetic configs end to end with one and
// with two workers: every output but the manifest (which holds times) must
// be byte-identical, the figures must exist in both formats, no line of
// tables.txt may be wider than a 120-column terminal, and the paper's
// claims must hold (Abrahamsen & Hansen c8 and c9).
func TestTwoRingFigures(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "") // the embedded default needs no data root
	for _, tc := range []struct {
		config  string
		figures []string
	}{
		{"../configs/abrahamsen-hansen-fig3.yaml", []string{"fig3-preimages", "fig3-cost"}},
		{"../configs/abrahamsen-hansen-fig2.yaml", []string{"fig2a", "fig2b", "fig2-grid"}},
	} {
		t.Run(filepath.Base(tc.config), func(t *testing.T) {
			a, sum := runConfig(t, tc.config, 1)
			checkTablesFile(t, a)
			b, _ := runConfig(t, tc.config, 2)
			if sum.Failed != 0 {
				t.Errorf("%d cells failed", sum.Failed)
			}
			for _, cl := range sum.Claims {
				if cl.Status != claims.Pass {
					t.Errorf("claim %s: %s (%s)", cl.ID, cl.Status, cl.Evidence)
				}
			}
			files := []string{"records.jsonl", "records.csv", "tables.md", "tables.txt", "claims.json"}
			for _, f := range tc.figures {
				files = append(files, f+".png", f+".svg")
			}
			for _, f := range files {
				x, err := os.ReadFile(filepath.Join(a, f))
				if err != nil {
					t.Fatal(err)
				}
				y, err := os.ReadFile(filepath.Join(b, f))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(x, y) {
					t.Errorf("%s differs between -j 1 and -j 2", f)
				}
				if len(x) == 0 {
					t.Errorf("%s is empty", f)
				}
			}
			if _, err := os.Stat(filepath.Join(a, "manifest.json")); err != nil {
				t.Error(err)
			}
		})
	}
}
