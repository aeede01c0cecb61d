package distortion_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/runexp/runexp/internal/report/reporttest"
)

var update = flag.Bool("update", false, "rewrite the golden PNGs in testdata")

// TestGoldenFig2 compares panel (a) of Fig. 2 with testdata/fig2a.png: the
// rings in their colours, the closest pairs as segments, one legend
// beside the panels and the caption under them.
func TestGoldenFig2(t *testing.T) {
	dir, _, _, _ := runConfig(t, ringsConfig+"outputs: {width: 4, height: 4}\n", 2)
	got, err := os.ReadFile(filepath.Join(dir, "fig2a.png"))
	if err != nil {
		t.Fatal(err)
	}
	reporttest.CheckPNG(t, "fig2a.png", got, *update)
}
