package kkcluster_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/runexp/runexp/internal/report/reporttest"
)

var update = flag.Bool("update", false, "rewrite the golden PNGs in testdata")

// TestGoldenFig6 compares Huang's Fig. 6 grid with testdata/fig6-metrics.png:
// the subscripts of P_t, P_i and α_i drawn lowered (no literal underscore),
// column labels apart, the caption under the grid.
func TestGoldenFig6(t *testing.T) {
	_, sum := run(t, cfg)
	got, err := os.ReadFile(filepath.Join(sum.Dir, "fig6-metrics.png"))
	if err != nil {
		t.Fatal(err)
	}
	reporttest.CheckPNG(t, "fig6-metrics.png", got, *update)
}
