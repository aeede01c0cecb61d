package lgdenoise_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/runexp/runexp/experiments"
	"github.com/runexp/runexp/experiments/internal/kindtest"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// Synthetic faces labelled by condition: 3 groups of 4 subjects × 3
// images = 12 images of 8×8 on [0, 1]; train_fraction 0.5 gives
// ⌈0.5·12⌉ = 6 training and 6 test images per group.
const cfg = `title: lgdenoise test
paper: huang-tian-delatorre-local-gram-preimage
kind: lgdenoise
seed: 5
dataset: {name: synthetic-images, classes: 4, groups: 3, per_cell: 3, width: 8, height: 8, labels: group}
corruption: {type: gaussian, std: 0.06}
methods:
  - {name: identity}
  - {name: kwok-tsang, label: Kwok-Tsang}
  - {name: mika, label: Mika, params: {max_iter: 30}}
experiment:
  train_fraction: 0.5
  models: per-group
  examples: 3
  figure_name: fig7
`

func run(t *testing.T, src string) (map[string]*report.Record, string) {
	t.Helper()
	recs, sum := kindtest.Run(t, src)
	if sum.Failed != 0 {
		t.Fatalf("%d cells failed", sum.Failed)
	}
	out := map[string]*report.Record{}
	for i := range recs {
		out[fmt.Sprint(recs[i].Params["method"])] = &recs[i]
	}
	return out, sum.Dir
}

// handAPE returns, per group and over all 18 test images, the APE of the
// noisy inputs drawn by hand: test row k (groups in order, 6 rows each)
// gets 0.06·N(0, 1) per pixel from datasets.CorruptionRand(seed, k, 0),
// seed derived from the root seed and "corruption" (common.Corrupt); the
// clean image cancels in |noisy − clean|, and APE is on the 0–255 scale.
func handAPE(root uint64) (groups [3]float64, all float64) {
	seed := runner.DeriveSeed(root, "corruption")
	for k := range 18 {
		rnd := datasets.CorruptionRand(seed, k, 0)
		var s float64
		for range 64 {
			s += math.Abs(0.06 * rnd.NormFloat64())
		}
		a := 255 * s / 64
		groups[k/6] += a / 6
		all += a / 18
	}
	return groups, all
}

func TestPerGroup(t *testing.T) {
	recs, dir := run(t, cfg)
	groups, all := handAPE(5)
	id := recs["Base Line"]
	if id == nil {
		t.Fatalf("no identity record under its registry title: %v", recs)
	}
	check := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9*max(1, math.Abs(want)) {
			t.Errorf("%s = %v, want %v by hand", name, got, want)
		}
	}
	check("ape_mean_all", id.Metrics["ape_mean_all"], all)
	check("noisy_ape_all", id.Metrics["noisy_ape_all"], all)
	for g, name := range []string{"groupa", "groupb", "groupc"} {
		check("ape_mean_"+name, id.Metrics["ape_mean_"+name], groups[g])
		// The identity leaves the noisy input: ‖z − noisy‖² = 0 in eq. 14.
		check("snr_mean_"+name, id.Metrics["snr_mean_"+name], 0)
		check("snr_pooled_"+name, id.Metrics["snr_pooled_"+name], 0)
		check("failed_"+name, id.Metrics["failed_"+name], 0)
	}
	// 255·0.06·E|N(0,1)| = 15.3·√(2/π) ≈ 12.21 (the config notes' value);
	// 1152 draws keep the mean within ±0.5.
	if math.Abs(all-15.3*math.Sqrt(2/math.Pi)) > 0.5 {
		t.Errorf("hand APE %v far from 12.21", all)
	}
	kt := recs["Kwok-Tsang"]
	if kt == nil {
		t.Fatalf("no Kwok-Tsang record: %v", recs)
	}
	if kt.Params["neighbors"] != huangMeanDistance {
		t.Errorf("Kwok-Tsang neighbors parameter %v, want the rule's name", kt.Params["neighbors"])
	}
	// The pooled SNR over all images, Σnum/Σden, is a mediant of the
	// groups' pooled ratios, so it lies between the smallest and largest.
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, name := range []string{"groupa", "groupb", "groupc"} {
		v := kt.Metrics["snr_pooled_"+name]
		lo, hi = min(lo, v), max(hi, v)
	}
	if v := kt.Metrics["snr_pooled_all"]; !(v > 0 && v >= lo*(1-1e-12) && v <= hi*(1+1e-12)) {
		t.Errorf("snr_pooled_all = %v, want in the groups' range [%v, %v]", v, lo, hi)
	}
	for _, name := range []string{"groupa", "groupb", "groupc"} {
		// Between 2 and N−1 = 5 of the 6 training images (huang.Build).
		if k := kt.Metrics["neighbors_"+name]; k < 2 || k > 5 {
			t.Errorf("neighbors_%s = %v", name, k)
		}
		if q := kt.Metrics["components_"+name]; q < 1 || q > 5 {
			t.Errorf("components_%s = %v, want at most the 5 of 6 centred images", name, q)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "fig7.png")); err != nil {
		t.Errorf("figure: %v", err)
	}
	// Fig. 7 prints each image's (APE, SNR) under it, as the paper does:
	// the numbers of the records' per-image arrays (item 0 of each group
	// is its first test image, the example shown), computed apart from
	// the figure by measure.
	svg, err := os.ReadFile(filepath.Join(dir, "fig7.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"Kwok-Tsang", "Mika"} {
		for _, g := range []string{"groupa", "groupb", "groupc"} {
			r := recs[m]
			note := "(" + report.FormatFloat(r.Arrays["ape_"+g][0], 3) + ", " + report.FormatFloat(r.Arrays["snr_"+g][0], 3) + ")"
			if !strings.Contains(string(svg), ">"+note+"<") {
				t.Errorf("fig7.svg lacks %s's note %s for %s", m, note, g)
			}
		}
	}
	// The noisy input's SNR is 0 by eq. 14 (z = noisy).
	if !strings.Contains(string(svg), ", 0)<") {
		t.Error("fig7.svg has no noisy note with SNR 0")
	}
}

const huangMeanDistance = "mean-distance"

func TestPooled(t *testing.T) {
	recs, _ := run(t, strings.Replace(cfg, "models: per-group", "models: pooled", 1))
	_, all := handAPE(5)
	if got := recs["Base Line"].Metrics["ape_mean_all"]; math.Abs(got-all) > 1e-9*all {
		t.Errorf("pooled identity ape_mean_all = %v, want %v", got, all)
	}
	// One model on the 18 training images.
	if q := recs["Kwok-Tsang"].Metrics["components"]; q < 1 || q > 17 {
		t.Errorf("components %v", q)
	}
	if recs["Mika"].Metrics["ape_mean_all"] >= all {
		t.Errorf("Mika's APE %v does not improve on the noisy %v", recs["Mika"].Metrics["ape_mean_all"], all)
	}
}

func TestErrors(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	for _, tc := range []struct{ name, old, new, want string }{
		{"copies", "std: 0.06}", "std: 0.06, copies: 2}", "one corrupted copy"},
		{"small group", "per_cell: 3,", "per_cell: 1, classes: 2,", "need at least 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(cfg, tc.old, tc.new, 1)
			if tc.name == "small group" {
				src = strings.Replace(src, "classes: 4, ", "", 1)
			}
			c, err := config.Parse("test.yaml", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			plan, err := runner.Validate(c)
			if err != nil {
				t.Fatal(err)
			}
			_, err = plan.Kind.Start(runner.NewEnv(c, "", nil), plan.Options)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestItems: every cell's per-group APE, SNR and detail metrics are the
// statistic the kind declares (Kind.Items) of its per-image arrays, to
// 1e-12 relative (the same sums in the same order; snr_pooled as the
// ratio of the summed numerator and denominator arrays), so claims on
// them get interval verdicts; the arrays hold one entry per test image of
// the group (6 per group, 18 over all).
func TestItems(t *testing.T) {
	recs, _ := run(t, cfg)
	size := func(metric string) int {
		if strings.HasSuffix(metric, "_all") {
			return 18
		}
		return 6
	}
	for name, r := range recs {
		n := kindtest.ItemsReproduce(t, "lgdenoise", name, r, size)
		// ape_mean, ape_std, snr_mean, snr_pooled, detail_ratio and
		// detail_error for 3 groups and all.
		if n != 24 {
			t.Errorf("%s: %d metrics with per-item statistics, want 24", name, n)
		}
		// Noise adds fine detail: each independent N(0, σ²) pixel adds
		// 2σ² in expectation to every squared difference it enters.
		if v := r.Metrics["noisy_detail_ratio_all"]; !(v > 1) {
			t.Errorf("%s: noisy_detail_ratio_all %v, want > 1", name, v)
		}
	}
}
