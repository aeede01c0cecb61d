package robust_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/runexp/runexp/experiments/internal/kindtest"
	"github.com/runexp/runexp/internal/report"
)

// Flaky 1 fails every row, Flaky 2 the even rows; both stop row 1
// short of convergence: de-noisers whose failures the kind must count,
// record and show.
func init() {
	for _, every := range []int{1, 2} {
		kindtest.RegisterFlaky(fmt.Sprintf("robust-test-flaky%d", every), fmt.Sprintf("Flaky %d", every), kindtest.Flaky{
			Fail:         func(i int) bool { return i%every == 0 },
			NotConverged: func(i int) bool { return i == 1 },
		})
	}
}

// TestOcclusionTablesWhateverWorkers runs the occlusion config (tuning
// included) with one and two workers, wants the same bytes, and reads
// the tables a reader gets in tables.md: the occlusion sizes, one Fig. 5
// table per energy whose cells are the records' metrics, and the tuned
// parameters.
func TestOcclusionTablesWhateverWorkers(t *testing.T) {
	recs, sum := kindtest.SameWhateverWorkers(t, "occlusion.yaml", occlusionConfig)
	tbs := kindtest.Tables(t, sum.Dir)

	// Our side is round(√(0.25·8·8)) = 4 px, 16 of 64 pixels.
	sizes := kindtest.FindTable(t, tbs, "Occlusion sizes")
	if !slices.Equal(sizes.Header, []string{"paper side (px)", "paper fraction", "our side (px)", "our fraction"}) ||
		len(sizes.Rows) != 1 || !slices.Equal(sizes.Rows[0], []string{"30", "0.25", "4", "0.25"}) {
		t.Errorf("occlusion sizes: %q %q", sizes.Header, sizes.Rows)
	}

	byLabel := map[string]*report.Record{}
	for i := range recs {
		r := &recs[i]
		byLabel[fmt.Sprintf("%v/%v", r.Params["method"], r.Params["energy"])] = r
	}
	for _, e := range []struct{ pct, key string }{{"90%", "0.9"}, {"100%", "1"}} {
		fig := kindtest.FindTable(t, tbs, "Fig. 5 (energy "+e.pct+")")
		if !strings.HasSuffix(fig.Title, "mean ± std over 9 test images") {
			t.Errorf("title %q does not count the 9 test images", fig.Title)
		}
		if want := []string{"paper size (our side)", "region", "Base Line", "PCA", "Mika"}; !slices.Equal(fig.Header, want) {
			t.Errorf("energy %s: header %q, want %q", e.pct, fig.Header, want)
		}
		if len(fig.Rows) != 3 {
			t.Fatalf("energy %s: %d rows, want whole, occluded, non-occluded", e.pct, len(fig.Rows))
		}
		for i, reg := range []struct{ key, name string }{{"whole", "whole face"}, {"occ", "occluded"}, {"nonocc", "non-occluded"}} {
			row := fig.Rows[i]
			if row[0] != "30 (4)" || row[1] != reg.name {
				t.Errorf("energy %s row %d: %q", e.pct, i, row[:2])
			}
			for j, label := range []string{"Base Line", "PCA", "Mika"} {
				r := byLabel[label+"/"+e.key]
				want := report.FormatFloat(r.Metrics[reg.key+"_mean_s30"], 3) + " ± " + report.FormatFloat(r.Metrics[reg.key+"_std_s30"], 3)
				if row[2+j] != want {
					t.Errorf("energy %s, %s, %s: cell %q, record says %q", e.pct, reg.name, label, row[2+j], want)
				}
			}
		}
		// The occluded input is the clean face outside the square.
		if fig.Rows[2][2] != "0 ± 0" {
			t.Errorf("energy %s: Base Line's non-occluded error %q, want 0 ± 0", e.pct, fig.Rows[2][2])
		}
	}

	tune := kindtest.FindTable(t, tbs, "Parameters chosen on the validation set")
	if len(tune.Rows) != 2 {
		t.Fatalf("tune table rows %q, want Mika at two energies", tune.Rows)
	}
	for i, key := range []string{"0.9", "1"} {
		r := byLabel["Mika/"+key]
		want := []string{"Mika", key,
			fmt.Sprintf("gamma=%s, max_iter=%s", report.FormatFloat(r.Metrics["tuned_gamma"], 4), report.FormatFloat(r.Metrics["tuned_max_iter"], 4)),
			report.FormatFloat(r.Metrics["val_whole_mean"], 4), "4"}
		if !slices.Equal(tune.Rows[i], want) {
			t.Errorf("tune row %d: %q, want %q", i, tune.Rows[i], want)
		}
	}
}

// TestNoiseTable checks Table 2's layout: one row per energy, one column
// per method, each cell the record's mean ± std.
func TestNoiseTable(t *testing.T) {
	recs, sum := kindtest.Run(t, noiseConfig)
	tb := kindtest.FindTable(t, kindtest.Tables(t, sum.Dir), "Long form: mean absolute difference")
	if !slices.Equal(tb.Header, []string{"energy", "Base Line", "PCA"}) || len(tb.Rows) != 1 || tb.Rows[0][0] != "100%" {
		t.Fatalf("noise table %q %q", tb.Header, tb.Rows)
	}
	for j, r := range recs {
		want := report.FormatFloat(r.Metrics["mae_mean"], 3) + " ± " + report.FormatFloat(r.Metrics["mae_std"], 3)
		if tb.Rows[0][1+j] != want {
			t.Errorf("%v: cell %q, want %q", r.Params["method"], tb.Rows[0][1+j], want)
		}
	}
}

// flakyConfig runs the flaky denoisers on the noise protocol: Flaky 2
// fails test rows 0, 2, 4, 6, 8 of 9, Flaky 1 every row.
var flakyConfig = strings.Replace(noiseConfig, "  - {name: linear-pca, label: PCA}\n", "  - {name: robust-test-flaky2}\n  - {name: robust-test-flaky1}\n", 1)

// TestFailedRows checks how failures are kept: a cell with some failed
// rows is partial, counts them (and the row that did not converge), keeps
// its reasons and measures the rest; a cell whose every row failed is a
// failed cell with the count in its error, shown "failed" in the table,
// while the other cells are unaffected.
func TestFailedRows(t *testing.T) {
	recs, sum := kindtest.Run(t, flakyConfig)
	if sum.Failed != 1 {
		t.Errorf("%d failed cells, want 1 (Flaky 1)", sum.Failed)
	}
	by := map[string]*report.Record{}
	for i := range recs {
		by[fmt.Sprint(recs[i].Params["method"])] = &recs[i]
	}
	half := by["Flaky 2"]
	if half.Status != report.StatusPartial || half.Metrics["failed_rows"] != 5 || half.Metrics["nonconverged_rows"] != 1 {
		t.Errorf("Flaky 2: status %s, failed %v, non-converged %v; want partial, 5, 1", half.Status, half.Metrics["failed_rows"], half.Metrics["nonconverged_rows"])
	}
	if got := half.FailureCounts(); got != "5 × flaky: gave up" {
		t.Errorf("Flaky 2 failure counts %q", got)
	}
	// Its error is the identity's over the 4 rows it kept: not the same
	// mean as the identity's over 9, but finite and positive.
	if m := half.Metrics["mae_mean"]; !(m > 0) || m == by["Base Line"].Metrics["mae_mean"] {
		t.Errorf("Flaky 2 mae_mean %v (Base Line %v)", m, by["Base Line"].Metrics["mae_mean"])
	}
	all := by["Flaky 1"]
	if all.Status != report.StatusFailed || !strings.Contains(all.Error, "every one of the 9 inputs failed") {
		t.Errorf("Flaky 1: status %s, error %q", all.Status, all.Error)
	}
	if by["Base Line"].Status != report.StatusOK {
		t.Errorf("Base Line: %s", by["Base Line"].Status)
	}
	tb := kindtest.FindTable(t, kindtest.Tables(t, sum.Dir), "Long form: mean absolute difference")
	if !slices.Equal(tb.Header, []string{"energy", "Base Line", "Flaky 2", "Flaky 1"}) || tb.Rows[0][3] != "failed" {
		t.Errorf("table %q %q: want Flaky 1 shown failed", tb.Header, tb.Rows)
	}
	fails := kindtest.FindTable(t, kindtest.Tables(t, sum.Dir), "Failed and partial cells")
	if len(fails.Rows) != 2 {
		t.Errorf("failed and partial cells: %q", fails.Rows)
	}
}

// TestTuneAllFailing checks that a validation grid on which every point
// fails every row is an error of the cell saying so, not a choice of a
// failed point.
func TestTuneAllFailing(t *testing.T) {
	src := strings.Replace(flakyConfig, "  examples: 1\n", "  tune:\n    - {method: Flaky 1, dummy: [1, 2]}\n", 1)
	recs, _ := kindtest.Run(t, src)
	for _, r := range recs {
		if r.Params["method"] != "Flaky 1" {
			continue
		}
		if r.Status != report.StatusFailed || !strings.Contains(r.Error, "every validation grid point failed on every row") {
			t.Errorf("Flaky 1 tuned: status %s, error %q", r.Status, r.Error)
		}
	}
}
