package denoise_test

import (
	"math"
	"strings"
	"testing"

	"github.com/runexp/runexp/experiments/internal/kindtest"
	"github.com/runexp/runexp/internal/report"
)

// Flaky Even fails the even rows of a batch and stops row 1 short of
// convergence; Flaky All fails every row.
func init() {
	kindtest.RegisterFlaky("denoise-test-flaky-even", "Flaky Even", kindtest.Flaky{
		Fail:         func(i int) bool { return i%2 == 0 },
		NotConverged: func(i int) bool { return i == 1 },
	})
	kindtest.RegisterFlaky("denoise-test-flaky-all", "Flaky All", kindtest.Flaky{Fail: func(int) bool { return true }})
}

// flakyConfig de-noises the 6 test images of noisyConfig (3 classes × 2
// groups × 1) with the flaky de-noisers beside the identity, under
// repeats: %s.
func flakyConfig(repeats string) string {
	src := strings.Replace(noisyConfig, "%s", "repeats: "+repeats+"\n", 1)
	src = strings.Replace(src, "  - {name: linear-pca}\n", "  - {name: denoise-test-flaky-even}\n  - {name: denoise-test-flaky-all}\n", 1)
	return src[:strings.Index(src, "claims:")]
}

// TestFailedRows checks a cell with failed rows: partial, the failures
// counted with their reason and over every repeat (3 of the 6 test images
// each time), the non-converged row counted apart, NaN in the per-image
// errors at the failed images so that item k is the same image in every
// record, and the summaries over the rest: here the noisy input itself,
// so the identity's errors at the same images. A cell whose every row
// fails is a failed cell naming the count and the first reason.
func TestFailedRows(t *testing.T) {
	for _, reps := range []string{"1", "2"} {
		recs, sum := kindtest.Run(t, flakyConfig(reps))
		n := map[string]float64{"1": 1, "2": 2}[reps]
		by := map[string]*report.Record{}
		for i := range recs {
			by[recs[i].Params["method"].(string)] = &recs[i]
		}
		even, all, id := by["Flaky Even"], by["Flaky All"], by["Base Line"]
		if sum.Failed != 1 || even == nil || all == nil || id == nil {
			t.Fatalf("repeats %s: %d failed cells, records %v", reps, sum.Failed, by)
		}
		if even.Status != report.StatusPartial || even.Metrics["failed_rows"] != 3*n || even.Metrics["nonconverged_rows"] != n {
			t.Errorf("repeats %s: status %s, %v failed, %v not converged; want partial, %v, %v", reps, even.Status, even.Metrics["failed_rows"], even.Metrics["nonconverged_rows"], 3*n, n)
		}
		if got, want := even.FailureCounts(), report.FormatFloat(3*n, -1)+" × flaky: gave up"; got != want {
			t.Errorf("repeats %s: failure counts %q, want %q", reps, got, want)
		}
		mse, idMSE := even.Arrays["mse"], id.Arrays["mse"]
		if len(mse) != 6*int(n) || len(idMSE) != len(mse) {
			t.Fatalf("repeats %s: %d and %d per-image errors, want %d", reps, len(mse), len(idMSE), 6*int(n))
		}
		var kept []float64
		for k, v := range mse {
			if k%6%2 == 0 {
				if !math.IsNaN(v) {
					t.Errorf("repeats %s: image %d failed but has error %v", reps, k, v)
				}
				continue
			}
			if v != idMSE[k] {
				t.Errorf("repeats %s: image %d error %v, the identity's %v", reps, k, v, idMSE[k])
			}
			kept = append(kept, v)
		}
		var mean float64
		for _, v := range kept {
			mean += v / float64(len(kept))
		}
		if got := even.Metrics["mse_mean"]; math.Abs(got-mean) > 1e-15*mean {
			t.Errorf("repeats %s: mse_mean %v, the mean of the kept images %v", reps, got, mean)
		}
		if all.Status != report.StatusFailed || !strings.Contains(all.Error, "every one of the 6 inputs failed (first: flaky: gave up)") {
			t.Errorf("repeats %s: Flaky All %s, %q", reps, all.Status, all.Error)
		}
	}
}
