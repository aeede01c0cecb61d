package denoise_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp/experiments/denoise"
	"github.com/runexp/runexp/experiments/internal/kindtest"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/runner"
)

// noisyConfig de-noises Gaussian-corrupted synthetic images with two
// estimators; repeats is inserted after the kind.
const noisyConfig = `title: denoise repeats
paper: abrahamsen-hansen-regularized-preimage
kind: denoise
%sseed: 5
dataset: {name: synthetic-images, classes: 3, groups: 2, per_cell: 4, test_per_cell: 1, width: 2, height: 2}
corruption: {type: gaussian, std: 0.3}
model: {kernel: gaussian, c: [10], components: [2]}
methods:
  - {name: linear-pca}
  - {name: identity}
experiment: {figure: none}
claims:
  - id: pca-beats-identity
    statement: linear PCA de-noises
    source: test
    check: {type: compare, metric: mse_mean, left: {method: Linear PCA}, op: "<", right: {method: Base Line}}
`

// TestDenoiseRepeats: with repeats: 3 every cell de-noises 3 corruption
// draws; its per-item errors are the 6 test images × 3 draws, the first 6
// exactly the errors of a run without repeats (draw 0 is today's draw),
// its mse_mean the mean over all 18, and repeats: 1 reproduces the run
// without repeats byte for byte. The claim's status is its interval
// verdict when repeats ≥ 2 and the table shows the interval.
func TestDenoiseRepeats(t *testing.T) {
	dir0, base, _ := run(t, strings.Replace(noisyConfig, "%s", "", 1), 1)
	dir1, one, _ := run(t, strings.Replace(noisyConfig, "%s", "repeats: 1\n", 1), 1)
	dir3, three, sum := run(t, strings.Replace(noisyConfig, "%s", "repeats: 3\n", 1), 1)
	if len(base) != 2 || len(three) != 2 {
		t.Fatalf("%d and %d records, want 2", len(base), len(three))
	}
	// Neither estimator reports diagnostics; one draw records no repeats.
	kindtest.Metrics(t, strings.Replace(noisyConfig, "%s", "", 1), base, denoise.Diagnostics, denoise.Repeats)
	kindtest.Metrics(t, strings.Replace(noisyConfig, "%s", "repeats: 3\n", 1), three, denoise.Diagnostics)
	for i := range base {
		b, r := base[i].Arrays["mse"], three[i].Arrays["mse"]
		if len(b) != 6 || len(r) != 18 {
			t.Fatalf("%s: %d and %d errors, want 6 and 18", base[i].Key, len(b), len(r))
		}
		for k := range b {
			if r[k] != b[k] {
				t.Errorf("%s: draw 0 error %d is %v, without repeats %v", base[i].Key, k, r[k], b[k])
			}
		}
		var s float64
		for _, v := range r {
			s += v
		}
		if got := three[i].Metrics["mse_mean"]; math.Abs(got-s/18) > 1e-15 || three[i].Metrics["repeats"] != 3 {
			t.Errorf("%s: mse_mean %v, mean of 18 errors %v; repeats %v", base[i].Key, got, s/18, three[i].Metrics["repeats"])
		}
		if _, ok := one[i].Metrics["repeats"]; ok {
			t.Errorf("repeats: 1 added a repeats metric")
		}
	}
	a, _ := os.ReadFile(filepath.Join(dir0, "records.jsonl"))
	b, _ := os.ReadFile(filepath.Join(dir1, "records.jsonl"))
	if len(a) == 0 || string(a) != string(b) {
		t.Error("repeats: 1 changed records.jsonl")
	}
	if len(sum.Claims) != 1 || sum.Claims[0].Basis != "interval" || sum.Claims[0].Status != sum.Claims[0].Verdict || !strings.Contains(sum.Claims[0].CIMethod, "3 corruption repeats") {
		t.Errorf("claim: %+v", sum.Claims)
	}
	tab, _ := os.ReadFile(filepath.Join(dir3, "tables.md"))
	if !strings.Contains(string(tab), "mean 95% CI") || !strings.Contains(string(tab), "6 test inputs × 3 corruption draws") {
		t.Errorf("table lacks the interval or the draws:\n%s", tab)
	}
}

// TestRepeatsRejected: a kind that draws its corruption once rejects
// repeats at the key's line.
func TestRepeatsRejected(t *testing.T) {
	src := "title: t\npaper: p\nkind: stability\nrepeats: 2\ndataset: {name: synthetic-images}\n"
	c, err := config.Parse("r.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	_, err = runner.Validate(c)
	if err == nil || !strings.HasPrefix(err.Error(), "r.yaml:4:") || !strings.Contains(err.Error(), "denoise") {
		t.Errorf("repeats on a kind without them: %v", err)
	}
}
