package lgdenoise_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/runexp/runexp/experiments/internal/kindtest"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// Flaky 1 fails every row of a batch, Flaky 3 rows 0 and 3: lgdenoise
// hands a de-noiser one batch per group, the group's 6 test images in
// order.
func init() {
	for _, every := range []int{1, 3} {
		kindtest.RegisterFlaky(fmt.Sprintf("lgdenoise-test-flaky%d", every), fmt.Sprintf("Flaky %d", every), kindtest.Flaky{
			Fail: func(i int) bool { return i%every == 0 },
		})
	}
}

// TestFailedImages checks a de-noiser failing test images 0 and 3 of each
// group: the record is partial and counts 2 per group, 6 in all, with the
// reason; its per-image arrays hold NaN at those images, so that item k
// is the same image in every record; its means are over the 4 images it
// kept per group (by hand: the noisy inputs' APE, as it returns them);
// and the example of each group, its first test image, is blank in Fig. 7
// and marked failed.
func TestFailedImages(t *testing.T) {
	src := strings.Replace(cfg, "  - {name: kwok-tsang, label: Kwok-Tsang}\n  - {name: mika, label: Mika, params: {max_iter: 30}}\n", "  - {name: lgdenoise-test-flaky3}\n", 1)
	recs, sum := kindtest.Run(t, src)
	if len(recs) != 2 || sum.Failed != 0 {
		t.Fatalf("%d records, %d failed cells", len(recs), sum.Failed)
	}
	id, fl := recs[0], recs[1]
	if fl.Status != report.StatusPartial || fl.Metrics["failed_all"] != 6 || fl.FailureCounts() != "6 × flaky: gave up" {
		t.Errorf("Flaky 3: status %s, failed_all %v, %q", fl.Status, fl.Metrics["failed_all"], fl.FailureCounts())
	}
	for _, g := range []string{"groupa", "groupb", "groupc"} {
		if fl.Metrics["failed_"+g] != 2 {
			t.Errorf("failed_%s = %v, want 2", g, fl.Metrics["failed_"+g])
		}
		ape := fl.Arrays["ape_"+g]
		if len(ape) != 6 || !math.IsNaN(ape[0]) || !math.IsNaN(ape[3]) {
			t.Fatalf("ape_%s = %v, want NaN at images 0 and 3 of 6", g, ape)
		}
		// Where it kept the image, its output is the noisy input: the
		// identity's APE for the same image.
		var kept []float64
		for k, v := range ape {
			if k%3 != 0 {
				kept = append(kept, v)
				if w := id.Arrays["ape_"+g][k]; v != w {
					t.Errorf("%s image %d: APE %v, the identity's %v", g, k, v, w)
				}
			}
		}
		if got, want := fl.Metrics["ape_mean_"+g], metrics.Summarize(kept).Mean; got != want {
			t.Errorf("ape_mean_%s = %v, want the mean over the 4 kept images, %v", g, got, want)
		}
	}
	ex := fl.Arrays["examples"]
	if len(ex) != 3*64 || slices.ContainsFunc(ex, func(v float64) bool { return !math.IsNaN(v) }) {
		t.Errorf("examples: %d values, want 3 × 64, all NaN (each group's first image failed)", len(ex))
	}
	svg, err := os.ReadFile(filepath.Join(sum.Dir, "fig7.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(svg), ">(failed)<"); n != 3 {
		t.Errorf("fig7.svg marks %d images failed, want 3", n)
	}
}

// TestEveryImageFailed checks that a de-noiser failing every image fails
// its cell with the count and the first reason, while the other cells run.
func TestEveryImageFailed(t *testing.T) {
	src := strings.Replace(cfg, "  - {name: mika, label: Mika, params: {max_iter: 30}}\n", "  - {name: lgdenoise-test-flaky1}\n", 1)
	recs, sum := kindtest.Run(t, src)
	if sum.Failed != 1 {
		t.Errorf("%d failed cells, want 1", sum.Failed)
	}
	for _, r := range recs {
		if r.Params["method"] != "Flaky 1" {
			if r.Status != report.StatusOK {
				t.Errorf("%v: %s", r.Params["method"], r.Status)
			}
			continue
		}
		if r.Status != report.StatusFailed || !strings.Contains(r.Error, "every one of the 18 test images failed (first: flaky: gave up)") {
			t.Errorf("Flaky 1: status %s, error %q", r.Status, r.Error)
		}
	}
	tb := kindtest.FindTable(t, kindtest.Tables(t, sum.Dir), "Every group and method")
	col := slices.Index(tb.Header, "Flaky 1 APE")
	if col < 0 || tb.Rows[0][col] != "failed" || tb.Rows[0][col+1] != "—" {
		t.Errorf("table %q, first row %q: want Flaky 1 failed", tb.Header, tb.Rows[0])
	}
}

// TestTable checks Table 1's long form: a row per group then "all", the
// noisy inputs' APE, and per method its APE mean ± std and the SNR of the
// reading experiment.snr picks (per-image by default, pooled on demand),
// each followed by its interval.
func TestTable(t *testing.T) {
	// The declared metric names (one pooled model's, unsuffixed) against
	// the records; the per-group runs below check theirs.
	pooled := strings.Replace(cfg, "models: per-group", "models: pooled", 1)
	recs, _ := kindtest.Run(t, pooled)
	kindtest.Metrics(t, pooled, recs)
	for _, snr := range []string{"per-image", "pooled"} {
		src := strings.Replace(cfg, "  examples: 3\n", "  examples: 0\n  snr: "+snr+"\n", 1)
		recs, sum := kindtest.Run(t, src)
		kindtest.Metrics(t, src, recs)
		tb := kindtest.FindTable(t, kindtest.Tables(t, sum.Dir), "Every group and method")
		want := []string{"group", "noisy APE", "Base Line APE", "Base Line SNR", "Kwok-Tsang APE", "Kwok-Tsang SNR", "Mika APE", "Mika SNR"}
		if !slices.Equal(tb.Header, want) {
			t.Fatalf("%s: header %q", snr, tb.Header)
		}
		metric := map[string]string{"per-image": "snr_mean", "pooled": "snr_pooled"}[snr]
		for i, g := range []string{"groupa", "groupb", "groupc", "all"} {
			row := tb.Rows[i]
			if row[1] != report.FormatFloat(recs[0].Metrics["noisy_ape_"+g], 4) {
				t.Errorf("%s, %s: noisy APE %q, record %v", snr, g, row[1], recs[0].Metrics["noisy_ape_"+g])
			}
			for j, r := range recs {
				ape := report.FormatFloat(r.Metrics["ape_mean_"+g], 4) + " ± " + report.FormatFloat(r.Metrics["ape_std_"+g], 3) + " ["
				s := report.FormatFloat(r.Metrics[metric+"_"+g], 3)
				if !strings.HasPrefix(row[2+2*j], ape) || !strings.HasPrefix(row[3+2*j], s) {
					t.Errorf("%s, %s, %v: cells %q, %q; want %q…, %q…", snr, g, r.Params["method"], row[2+2*j], row[3+2*j], ape, s)
				}
			}
		}
		if tb.Rows[3][0] != "all" {
			t.Errorf("last row %q, want all", tb.Rows[3][0])
		}
		if _, err := os.Stat(filepath.Join(sum.Dir, "fig7.png")); err == nil {
			t.Errorf("%s: examples: 0 drew Fig. 7", snr)
		}
	}
}

// TestSameWhateverWorkers checks the bytes of a run do not depend on the
// number of workers (the per-group models are shared between cells).
func TestSameWhateverWorkers(t *testing.T) {
	kindtest.SameWhateverWorkers(t, "lgdenoise.yaml", cfg)
}

// TestOptionErrors checks the refusals of experiment options at their
// line of the config.
func TestOptionErrors(t *testing.T) {
	for _, tc := range []struct{ old, new, want string }{
		{"train_fraction: 0.5", "train_fraction: 1", "train_fraction"},
		{"models: per-group", "models: each", "models"},
		{"  examples: 3\n", "  examples: 3\n  snr: median\n", "snr"},
		{"  examples: 3\n", "  examples: 3\n  ape_scale: 0\n", "ape_scale"},
	} {
		src := strings.Replace(cfg, tc.old, tc.new, 1)
		line := 1 + strings.Count(src[:strings.Index(src, tc.want+":")], "\n")
		c, err := config.Parse("opts.yaml", []byte(src))
		if err == nil {
			_, err = runner.Validate(c)
		}
		want := fmt.Sprintf("opts.yaml:%d:", line)
		if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %s … %s", tc.new, err, want, tc.want)
		}
	}
}
