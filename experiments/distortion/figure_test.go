package distortion_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/linalg"
	"github.com/runexp/runexp/internal/report/reporttest"
)

var update = flag.Bool("update", false, "rewrite the golden PNGs in testdata")

// TestGoldenFig2 compares panel (a) of Fig. 2 with testdata/fig2a.png: the
// rings in their colours, the closest pairs as segments, one legend
// beside the panels; c grows in reading order, the shared panel (c = 0.2,
// shaded) ends the first row, top right as in the paper, and c = 1, on
// its linear side, starts the second.
//
// The golden file is the pure-Go build's: at c = 0.01 the feature-space
// distances of the ring points are all close to 2, so which 2% of the pairs
// are closest turns on their last bits, and the OpenBLAS build draws other
// segments (1307 of 260 780 pixels). Its arithmetic is checked against pure
// Go numerically (internal/linalg TestBackendAgreement), not here.
func TestGoldenFig2(t *testing.T) {
	if linalg.Backend() != "gonum" {
		t.Skipf("the golden figure is the pure-Go build's; this is the %s build", linalg.Backend())
	}
	src := strings.Replace(ringsConfig, "c: [0.01, 0.2]", "c: [0.01, 0.2, 1]", 1)
	dir, _, _, _ := runConfig(t, src+"outputs: {width: 4, height: 4}\n", 2)
	got, err := os.ReadFile(filepath.Join(dir, "fig2a.png"))
	if err != nil {
		t.Fatal(err)
	}
	reporttest.CheckPNG(t, "fig2a.png", got, *update)
}
