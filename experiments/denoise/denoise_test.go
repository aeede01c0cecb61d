package denoise_test

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/runexp/runexp/experiments/catalog"
	"github.com/runexp/runexp/experiments/denoise"
	"github.com/runexp/runexp/experiments/internal/kindtest"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// run runs src with the given workers into a fresh output directory, with
// no data root, and returns the directory and the records.
func run(t *testing.T, src string, workers int) (string, []report.Record, *runner.Summary) {
	t.Helper()
	recs, sum := kindtest.RunWorkers(t, "denoise.yaml", src, workers)
	return sum.Dir, recs, sum
}

// The images are 2×2, so linear PCA of the 18 training images has rank
// min(18−1, 4) = 4 and, keeping every component, reconstructs any input
// exactly: x̂ = μ + VVᵀ(x − μ) = x when V spans R⁴. With no corruption the
// base line returns its input, whose raw error is exactly 0.
const bandsConfig = `title: denoise end to end
paper: abrahamsen-hansen-regularized-preimage
kind: denoise
seed: 5
dataset: {name: synthetic-images, classes: 3, groups: 2, per_cell: 4, test_per_cell: 1, width: 2, height: 2}
corruption: {type: none}
model: {kernel: gaussian, c: [1, 10], components: [3, 4]}
methods:
  - {name: linear-pca}
  - {name: identity}
  - {name: kwok-tsang, params: {neighbors: [3, 5]}}
experiment: {figure: bands}
`

// TestDenoiseBands runs Validate → Run → Report on the synthetic images
// held out by test_per_cell: full linear PCA and the base line reproduce
// the clean test inputs, every estimator has one error per test image
// (3 classes × 2 groups × 1), and the outputs do not depend on the number
// of workers.
func TestDenoiseBands(t *testing.T) {
	dir, recs, sum := run(t, bandsConfig, 1)
	dir2, _, _ := run(t, bandsConfig, 2)
	if sum.Failed != 0 || len(recs) != 2*2*4 {
		t.Fatalf("%d records, %d failed; want 16 cells (2 c × 2 #PCs × 4 estimators), none failed", len(recs), sum.Failed)
	}
	for _, r := range recs {
		mse := r.Arrays["mse"]
		if len(mse) != 6 || r.Metrics["failed_rows"] != 0 {
			t.Errorf("%s: %d errors, %g failed rows; want 6 and 0", r.Key, len(mse), r.Metrics["failed_rows"])
		}
		switch r.Params["method"] {
		case "Linear PCA":
			// linear-pca keeps the cell's component count: all 4 give an
			// exact reconstruction (up to rounding: the pixels are O(1), so
			// 1e-25 is ~1e-12 per pixel), 3 of 4 cannot.
			full := r.Metrics["components"] == 4
			if exact := r.Metrics["mse_p95"] < 1e-25 && r.Metrics["mse_raw_median"] < 1e-25; exact != full {
				t.Errorf("%s: linear PCA error %g (raw %g) with %g of 4 components", r.Key, r.Metrics["mse_p95"], r.Metrics["mse_raw_median"], r.Metrics["components"])
			}
		case "Base Line":
			if r.Metrics["mse_raw_median"] != 0 || r.Metrics["mse_p95"] > 1e-25 {
				t.Errorf("%s: the base line's error on uncorrupted inputs is %g (raw %g), want 0", r.Key, r.Metrics["mse_p95"], r.Metrics["mse_raw_median"])
			}
		default:
			if !(r.Metrics["mse_median"] > 0) || r.Metrics["mse255_mean"] != r.Metrics["mse_mean"]*255*255 {
				t.Errorf("%s: Kwok–Tsang mse %v", r.Key, r.Metrics)
			}
		}
	}
	for _, f := range []string{"records.jsonl", "tables.md", "fig4-bands.png", "fig4-bands.svg"} {
		a, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(filepath.Join(dir2, f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s differs between -j 1 and -j 2 or is empty", f)
		}
	}
	tab, _ := os.ReadFile(filepath.Join(dir, "tables.md"))
	if !strings.Contains(string(tab), "neighbors=3") || !strings.Contains(string(tab), "median MSE per pixel 0") {
		t.Errorf("the table names neither Kwok–Tsang's varying neighbours nor a zero corrupted-input error:\n%s", tab)
	}
}

// With Gaussian noise and no test split, the noisy copies of the training
// images are de-noised; the base line's raw error per input is the noise's
// own MSE, which the table's caption reports as the corrupted-input
// median, so the two must agree to the last digit printed.
const imagesConfig = `title: denoise images
paper: abrahamsen-hansen-regularized-preimage
kind: denoise
seed: 7
dataset: {name: synthetic-images, classes: 2, groups: 2, per_cell: 2, width: 4, height: 3}
corruption: {type: gaussian, std: 0.1}
model: {kernel: gaussian, c: [2], components: [3]}
methods:
  - {name: identity}
  - {name: mika, params: {max_iter: 30}}
experiment: {figure: images, examples: 3, profile_row: 2, profile_col: 3, error: sse, renormalize: false}
`

func TestDenoiseImages(t *testing.T) {
	dir, recs, sum := run(t, imagesConfig, 1)
	if sum.Failed != 0 || len(recs) != 2 {
		t.Fatalf("%d records, %d failed", len(recs), sum.Failed)
	}
	base := recs[0]
	if base.Params["method"] != "Base Line" || len(base.Arrays["examples"]) != 3*12 {
		t.Fatalf("first record %v with %d example pixels, want the base line's 3 × 12", base.Params["method"], len(base.Arrays["examples"]))
	}
	// renormalize: false, so the base line's error is the noise's.
	mse := base.Arrays["mse"]
	if len(mse) != 8 {
		t.Fatalf("%d errors, want 8 (every training image corrupted once)", len(mse))
	}
	med := metrics.Percentile(mse, 0.5)
	if med != base.Metrics["mse_raw_median"] || math.Abs(base.Metrics["sse_mean"]-12*metrics.Summarize(mse).Mean) > 1e-15 {
		t.Errorf("base line: median %g vs raw %g, sse %g vs 12 × mean %g", med, base.Metrics["mse_raw_median"], base.Metrics["sse_mean"], metrics.Summarize(mse).Mean)
	}
	if med < 0.005 || med > 0.02 {
		t.Errorf("noise of std 0.1 gives median MSE %g, want about 0.01", med)
	}
	tab, _ := os.ReadFile(filepath.Join(dir, "tables.md"))
	if !strings.Contains(string(tab), "corrupted-input median MSE per pixel "+report.FormatFloat(med, 4)) {
		t.Errorf("caption does not report the base line's median %s:\n%s", report.FormatFloat(med, 4), tab)
	}
	for _, f := range []string{"fig6-images.png", "fig6-images-profiles.png", "fig6-images-profiles.svg"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestDenoiseConfigErrors: impossible experiment options are errors at
// their line before anything runs, or when the data shows them.
func TestDenoiseConfigErrors(t *testing.T) {
	for _, tc := range []struct{ from, to, want string }{
		{"examples: 3, ", "", "figure: images needs examples"},
		{"error: sse", "error: rmse", "experiment.error"},
		{"methods:\n  - {name: identity}\n  - {name: mika, params: {max_iter: 30}}\n", "", "needs at least one estimator"},
		{"components: [3]", "", "needs a kernel and components"},
	} {
		src := strings.Replace(imagesConfig, tc.from, tc.to, 1)
		if src == imagesConfig {
			t.Fatalf("%q not in the config", tc.from)
		}
		c, err := config.Parse("bad.yaml", []byte(src))
		if err == nil {
			_, err = runner.Validate(c)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q → %q: error %v, want %q", tc.from, tc.to, err, tc.want)
		}
	}
	t.Setenv("RUNEXP_DATA", "")
	c, err := config.Parse("bad.yaml", []byte(strings.Replace(imagesConfig, "profile_row: 2", "profile_row: 3", 1)))
	if err != nil {
		t.Fatal(err)
	}
	c.Outputs.Dir = t.TempDir()
	if _, err := runner.Run(context.Background(), c, runner.Options{Workers: 1, NoCache: true}); err == nil || !strings.Contains(err.Error(), "outside the 4×3 images") {
		t.Errorf("a profile row outside the images: %v", err)
	}
}

// TestIdentify: with identify: true every pre-image gets the label of its
// nearest clean training image. Without corruption the base line returns
// the clean test image, which lies nearer its own class's training images
// than any other (synthetic classes are separated far beyond the pixel
// noise): accuracy 1, as for the inputs; with noise both methods' records
// carry the same noisy accuracy, and the base line's own accuracy equals
// it (it returns the noisy input). nn_accuracy and zero_fraction are the
// means of their per-item arrays, so claims on them get intervals.
func TestIdentify(t *testing.T) {
	src := strings.Replace(bandsConfig, "experiment: {figure: bands}", "experiment: {figure: bands, identify: true}", 1)
	src = strings.Replace(src, "model: {kernel: gaussian, c: [1, 10], components: [3, 4]}", "model: {kernel: gaussian, c: 10, components: 4}", 1)
	_, recs, _ := run(t, src, 2)
	kindtest.Metrics(t, src, recs, denoise.Diagnostics, denoise.Repeats)
	k, _ := runner.LookupKind("denoise")
	seen := false
	for _, r := range recs {
		if r.Params["method"] == "Base Line" {
			seen = true
			if r.Metrics["nn_accuracy"] != 1 || r.Metrics["noisy_nn_accuracy"] != 1 {
				t.Errorf("base line without noise: accuracy %v, noisy %v; want 1 and 1", r.Metrics["nn_accuracy"], r.Metrics["noisy_nn_accuracy"])
			}
		}
		for _, metric := range []string{"nn_accuracy", "zero_fraction"} {
			st, ok := k.Items(&r, metric)
			if !ok || len(r.Arrays[st.Array]) != 6 {
				t.Fatalf("%v: %s declared %v with %d items", r.Params["method"], metric, ok, len(r.Arrays[st.Array]))
			}
			if got := st.Stat(&r, r.Arrays[st.Array]); math.Abs(got-r.Metrics[metric]) > 1e-12 {
				t.Errorf("%v: %s from the items %v, recorded %v", r.Params["method"], metric, got, r.Metrics[metric])
			}
		}
	}
	if !seen {
		t.Fatal("no base line record")
	}
	noisy := strings.Replace(src, "corruption: {type: none}", "corruption: {type: gaussian, std: 0.5}", 1)
	_, recs, _ = run(t, noisy, 2)
	acc := map[string][2]float64{}
	for _, r := range recs {
		acc[r.Params["method"].(string)] = [2]float64{r.Metrics["nn_accuracy"], r.Metrics["noisy_nn_accuracy"]}
	}
	base, ok := acc["Base Line"]
	if !ok {
		t.Fatalf("no base line among %v", acc)
	}
	for m, a := range acc {
		if a[1] != base[1] {
			t.Errorf("%s: noisy accuracy %v, the base line's record %v: the same inputs", m, a[1], base[1])
		}
	}
	if base[0] != base[1] {
		t.Errorf("base line: accuracy %v, its inputs' %v", base[0], base[1])
	}
}
