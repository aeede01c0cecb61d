package distortion_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/runexp/runexp/experiments/internal/kindtest"
	"github.com/runexp/runexp/internal/report"
)

// TestEnergyAndPairs checks two measures by their definitions: the
// eigen_energy of q components is the share of the kernel PCA spectrum
// they hold, so 39 components of 40 centred points (rank 39) hold all of
// it, to rounding (1e-12), and fewer hold less; and the kept pairs are
// round(fraction · n(n−1)/2), at least one: 0.001 · 780 = 0.78 rounds to
// 1, and 1e-6 · 780 would round to 0 but keeps one. The table lists each
// (c, #PCs) with these numbers.
func TestEnergyAndPairs(t *testing.T) {
	for _, tc := range []struct {
		fraction string
		pairs    float64
	}{{"0.001", 1}, {"1.0e-6", 1}, {"0.02", 16}} {
		src := strings.Replace(ringsConfig, "fraction: 0.02", "fraction: "+tc.fraction, 1)
		recs, sum := kindtest.Run(t, src)
		for _, r := range recs {
			if r.Metrics["pairs"] != tc.pairs || len(r.Arrays["pairs"]) != 2*int(tc.pairs) {
				t.Errorf("fraction %s, %s: %v pairs (%d indexes), want %v", tc.fraction, r.Key, r.Metrics["pairs"], len(r.Arrays["pairs"]), tc.pairs)
			}
			e := r.Metrics["eigen_energy"]
			switch r.Params["components"] {
			case 39:
				if math.Abs(e-1) > 1e-12 {
					t.Errorf("%s: energy of 39 components %v, want 1", r.Key, e)
				}
			case 3:
				if !(e > 0 && e < 1) {
					t.Errorf("%s: energy of 3 components %v, want in (0, 1)", r.Key, e)
				}
			}
		}
		tb := kindtest.FindTable(t, kindtest.Tables(t, sum.Dir), "Fig. 2: distortion")
		if !slices.Equal(tb.Header, []string{"c", "#PCs", "energy", "pairs", "cross-ring", "mean length", "ratio", "status"}) || len(tb.Rows) != 4 {
			t.Fatalf("table %q %q", tb.Header, tb.Rows)
		}
		for i, row := range tb.Rows {
			r := recs[i]
			if row[3] != report.FormatFloat(tc.pairs, 6) || row[2] != report.FormatFloat(r.Metrics["eigen_energy"], 3) || row[7] != "ok" {
				t.Errorf("fraction %s: row %q for %s", tc.fraction, row, r.Key)
			}
		}
	}
}
