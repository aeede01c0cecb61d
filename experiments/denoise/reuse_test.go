package denoise_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/runexp/runexp/experiments/internal/kindtest"
	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// reuseBase is a reduced A&H Fig. 4: two kernel widths × two #PCs,
// cheap estimators (Mika's iterations and the base line), Gaussian noise on
// the embedded synthetic images, and two example images per cell.
const reuseBase = `title: reuse base
paper: abrahamsen-hansen-regularized-preimage
kind: denoise
seed: 3
dataset: {name: synthetic-images, classes: 3, groups: 2, per_cell: 5, test_per_cell: 2, width: 4, height: 4}
corruption: {type: gaussian, variance: 0.05}
model: {kernel: gaussian, c: [1, 10], components: [3, 6]}
methods:
  - {name: identity}
  - {name: kwok-tsang, params: {neighbors: 3}}
  - {name: mika, params: {start: noisy, max_iter: 50}}
experiment: {figure: images, examples: 2, profile_row: 1, profile_col: 2, renormalize: true}
`

// reuseVariants differ from reuseBase only in report-only options
// (runner.RegisterReportOnly): the raw-MSE reading with the images figure
// drawn otherwise, and the raw-MSE reading as bands with another error
// column. Together they change every option denoise declares report-only
// (TestReportOnlyOptionsShareCells checks that they do).
var reuseVariants = map[string]string{
	"raw images": strings.Replace(reuseBase, "experiment: {figure: images, examples: 2, profile_row: 1, profile_col: 2, renormalize: true}",
		"experiment: {figure: images, examples: 2, profile_row: 0, profile_col: 3, renormalize: false, invert: true, profiles: false, figure_name: raw}", 1),
	"raw bands": strings.Replace(reuseBase, "experiment: {figure: images, examples: 2, profile_row: 1, profile_col: 2, renormalize: true}",
		"experiment: {figure: bands, examples: 2, renormalize: false, error: sse}", 1),
}

// TestReportOnlyOptionsShareCells runs the base and then each variant over
// one cell cache, as runexp suite does: every cell of a variant must come
// from the cache, and its outputs (records, tables, figures) must be those
// of the variant run on its own without a cache, byte for byte. That the
// raw readings show raw pre-images: re-normalised onto the range of the
// base's example (the clean image's range), a variant's example is the
// base's, up to rounding (1e-12 on pixels of O(1)), and it differs from it.
func TestReportOnlyOptionsShareCells(t *testing.T) {
	declared := runner.ReportOnly("denoise")
	if len(declared) == 0 {
		t.Fatal("denoise declares no report-only option")
	}
	for _, opt := range declared {
		changed := false
		for _, v := range reuseVariants {
			changed = changed || optionValue(v, opt) != optionValue(reuseBase, opt)
		}
		if !changed {
			t.Errorf("no variant changes the report-only option %s, so nothing shows the records do not depend on it", opt)
		}
	}

	cache := t.TempDir()
	baseRecs, sum := kindtest.RunCached(t, reuseBase, cache)
	t.Logf("base: %d cells computed, %d cached", sum.Computed, sum.Cached)
	if sum.Computed != len(baseRecs) || sum.Failed != 0 {
		t.Fatalf("base: %d of %d cells computed, %d failed; want all computed, none failed", sum.Computed, len(baseRecs), sum.Failed)
	}
	for name, src := range reuseVariants {
		recs, sum := kindtest.RunCached(t, src, cache)
		t.Logf("%s: %d cells computed, %d cached", name, sum.Computed, sum.Cached)
		if sum.Computed != 0 || sum.Cached != len(recs) || len(recs) != len(baseRecs) {
			t.Errorf("%s: %d cells computed and %d cached of %d; want every one of the base's %d from the cache", name, sum.Computed, sum.Cached, len(recs), len(baseRecs))
		}
		_, fresh := kindtest.Run(t, src)
		files, err := filepath.Glob(filepath.Join(fresh.Dir, "*"))
		if err != nil || len(files) < 4 {
			t.Fatalf("%s: outputs %v (%v)", name, files, err)
		}
		for _, f := range files {
			base := filepath.Base(f)
			if base == "manifest.json" { // holds times
				continue
			}
			a, _ := os.ReadFile(f)
			b, err := os.ReadFile(filepath.Join(sum.Dir, base))
			if err != nil || !bytes.Equal(a, b) {
				t.Errorf("%s: %s differs between the run from the cache and one without (%v)", name, base, err)
			}
		}
		checkRawExamples(t, name, baseRecs, recs)
	}
}

// checkRawExamples checks that each raw example image maps onto the
// base's re-normalised one and is not that one already.
func checkRawExamples(t *testing.T, name string, base, raw []report.Record) {
	t.Helper()
	differ := false
	for i := range base {
		a, b := base[i].Arrays["examples"], raw[i].Arrays["examples"]
		if len(a) == 0 || len(a) != len(b) || raw[i].Key != base[i].Key {
			t.Fatalf("%s: %s has %d example pixels, the base %d", name, raw[i].Key, len(b), len(a))
		}
		if _, ok := raw[i].Arrays["examples_raw"]; ok {
			t.Errorf("%s: %s reports the cache's examples_raw", name, raw[i].Key)
		}
		d := 16 // 4 × 4 images
		got := make([]float64, d)
		for k := 0; k+d <= len(a); k += d {
			metrics.Renormalize(got, b[k:k+d], a[k:k+d])
			for j := range got {
				if !scalar.EqualWithinAbs(got[j], a[k+j], 1e-12) {
					t.Fatalf("%s: %s example pixel %d: raw re-normalised %g, base %g", name, raw[i].Key, k+j, got[j], a[k+j])
				}
				differ = differ || b[k+j] != a[k+j]
			}
		}
		if raw[i].Metrics["mse_median"] != raw[i].Metrics["mse_raw_median"] || raw[i].Metrics["band_width"] != raw[i].Metrics["band_width_raw"] ||
			raw[i].Metrics["sse_mean"] != raw[i].Metrics["sse_raw_mean"] {
			t.Errorf("%s: %s does not report the raw error: %v", name, raw[i].Key, raw[i].Metrics)
		}
		if base[i].Metrics["mse_raw_median"] != raw[i].Metrics["mse_raw_median"] || base[i].Metrics["zero_fraction"] != raw[i].Metrics["zero_fraction"] {
			t.Errorf("%s: %s: raw median %g, the base's %g", name, raw[i].Key, raw[i].Metrics["mse_raw_median"], base[i].Metrics["mse_raw_median"])
		}
	}
	if !differ {
		t.Errorf("%s: every raw example equals its re-normalised one, so the test shows nothing", name)
	}
}

// optionValue returns the text of option opt in a config's experiment
// line ("" when absent).
func optionValue(src, opt string) string {
	i := strings.Index(src, "experiment: {")
	if i < 0 {
		return ""
	}
	line := src[i:]
	line = line[:strings.Index(line, "}")]
	for _, f := range strings.Split(strings.TrimPrefix(line, "experiment: {"), ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(f), ":")
		if k == opt {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// The cell of an estimator whose parameters a config does not change is
// shared with another config that changes only another estimator's (as
// fig4-gamma-weights changes only Dambreville's), whichever runs first.
func TestMethodChangeSharesOtherCells(t *testing.T) {
	other := strings.Replace(reuseBase, "neighbors: 3", "neighbors: 4", 1)
	for _, order := range [][2]string{{reuseBase, other}, {other, reuseBase}} {
		cache := t.TempDir()
		kindtest.RunCached(t, order[0], cache)
		recs, sum := kindtest.RunCached(t, order[1], cache)
		kwok := 0
		for _, r := range recs {
			if r.Params["method"] == "Kwok–Tsang" {
				kwok++
			}
		}
		t.Logf("second config: %d cells computed, %d cached", sum.Computed, sum.Cached)
		if kwok == 0 || sum.Computed != kwok || sum.Cached != len(recs)-kwok {
			t.Errorf("%d cells computed and %d cached; want Kwok–Tsang's %d computed and the other %d cached", sum.Computed, sum.Cached, kwok, len(recs)-kwok)
		}
	}
}
