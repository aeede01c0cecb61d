package matrix

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp/experiments/internal/kindtest"
	"github.com/runexp/runexp/internal/report"
)

// Flaky Even fails the even test images of every benchmark; Flaky All
// every image.
func init() {
	kindtest.RegisterFlaky("matrix-test-flaky-even", "Flaky Even", kindtest.Flaky{Fail: func(i int) bool { return i%2 == 0 }})
	kindtest.RegisterFlaky("matrix-test-flaky-all", "Flaky All", kindtest.Flaky{Fail: func(int) bool { return true }})
}

// failSrc runs two benchmarks of 6 test images (3 classes × 2 groups × 1)
// with the flaky de-noisers and the base line.
const failSrc = `title: matrix failures
paper: runexp
kind: matrix
seed: 3
dataset: {name: synthetic-images, classes: 3, groups: 2, per_cell: 5, test_per_cell: 1, width: 4, height: 4, noise: 0.05}
methods:
  - {name: identity}
  - {name: matrix-test-flaky-even}
  - {name: matrix-test-flaky-all}
experiment:
  resamples: 200
  benchmarks:
    - {name: noise, corruption: {type: gaussian, std: 0.2}, range: [0, 1], c: 2, components: 8}
    - {name: clean, corruption: {type: gaussian, std: 0}, range: [0, 1], c: 2, components: 8}
`

// TestFailedImages checks the matrix's record of failures: images that
// failed are NaN in the per-image errors and counted, the mean is over
// the others (here the noisy input, so the base line's errors at the same
// images), the record partial with each failure's benchmark and reason; a
// benchmark where every image fails is an error of that benchmark only,
// and an estimator failing every benchmark fails its cell. In the score
// table a mean with failed images carries a note saying how many were
// left out, and a benchmark the estimator failed is not ranked.
func TestFailedImages(t *testing.T) {
	recs, sum := kindtest.Run(t, failSrc)
	by := map[string]*report.Record{}
	for i := range recs {
		by[recs[i].Params["method"].(string)] = &recs[i]
	}
	id, even, all := by["Base Line"], by["Flaky Even"], by["Flaky All"]
	if sum.Failed != 1 || id.Status != report.StatusOK {
		t.Fatalf("%d failed cells, base line %s", sum.Failed, id.Status)
	}
	for _, b := range []string{"noise", "clean"} {
		errs, idErrs := even.Arrays["err_"+b], id.Arrays["err_"+b]
		if len(errs) != 6 || len(idErrs) != 6 || even.Metrics["failed_"+b] != 3 {
			t.Fatalf("%s: %d and %d errors, %v failed; want 6, 6, 3", b, len(errs), len(idErrs), even.Metrics["failed_"+b])
		}
		var s float64
		for i, e := range errs {
			if i%2 == 0 {
				if !math.IsNaN(e) {
					t.Errorf("%s image %d failed but has error %v", b, i, e)
				}
				continue
			}
			if e != idErrs[i] {
				t.Errorf("%s image %d: %v, the base line's %v", b, i, e, idErrs[i])
			}
			s += e
		}
		if got := even.Metrics["mse_"+b]; math.Abs(got-s/3) > 1e-15*math.Max(1, s) {
			t.Errorf("%s: mean %v, want %v over the 3 kept images", b, got, s/3)
		}
	}
	if even.Status != report.StatusPartial || even.FailureCounts() != "3 × clean: flaky: gave up; 3 × noise: flaky: gave up" {
		t.Errorf("Flaky Even: %s, %q", even.Status, even.FailureCounts())
	}
	if all.Status != report.StatusFailed || all.Metrics["error_noise"] != 1 || all.Metrics["error_clean"] != 1 ||
		!strings.Contains(all.Error, "noise: every one of the 6 test images failed") || !strings.Contains(all.Error, "clean: every one of the 6 test images failed") {
		t.Errorf("Flaky All: %s, %v, %q", all.Status, all.Metrics, all.Error)
	}
	tb := kindtest.FindTable(t, kindtest.Tables(t, sum.Dir), "Cross-paper matrix: MSE per pixel")
	md, err := os.ReadFile(filepath.Join(sum.Dir, "tables.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range tb.Rows {
		switch row[0] {
		case "Flaky Even":
			if !strings.HasSuffix(row[1], "]") || !strings.Contains(string(md), "] 3 failed test images, left out of the mean.") {
				t.Errorf("Flaky Even's row %q: no note of its failed images", row)
			}
		case "Flaky All":
			if strings.Contains(row[1], "(") || row[3] != "—" {
				t.Errorf("Flaky All's row %q: ranked although it failed", row)
			}
		}
	}
}
