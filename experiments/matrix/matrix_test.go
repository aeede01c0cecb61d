package matrix

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	_ "github.com/runexp/runexp/experiments/catalog"
	"github.com/runexp/runexp/experiments/internal/kindtest"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// 4×4 synthetic faces: 3 classes × 2 groups × 5 images per cell, 2 of
// them held out: 18 training and 12 test images. Linear PCA of 18
// generic images in R¹⁶ has rank 16, so with every component it
// reconstructs any input exactly; with no noise its error is 0. The
// "toolarge" benchmark asks for more components than 18 images give: every
// estimator fails it, and the page must say so.
const src = `title: matrix end to end
paper: runexp
kind: matrix
seed: 3
dataset: {name: synthetic-images, classes: 3, groups: 2, per_cell: 5, test_per_cell: 2, width: 4, height: 4, noise: 0.05}
methods:
  - {name: identity}
  - {name: linear-pca, params: {pca_components: 16}}
  - {name: mika, params: {max_iter: 50}}
  - {name: kwok-tsang, params: {neighbors: 5}}
experiment:
  resamples: 500
  method_test: {mika: 4}
  benchmarks:
    - {name: noise, corruption: {type: gaussian, std: 0.2}, range: [0, 1], c: 2, components: 8}
    - {name: clean, corruption: {type: gaussian, std: 0}, range: [0, 2], sigma: mean-distance, components: 16}
    - {name: occl, corruption: {type: occlusion, side: 2, fill: 1}, range: [0, 1], gamma: 0.5, energy: 0.9, train: 20, test: 10}
    - {name: toolarge, corruption: {type: gaussian, std: 0.1}, range: [0, 1], c: 2, components: 500}
`

func runMatrix(t *testing.T) (*instance, []report.Record, string) {
	t.Helper()
	t.Setenv("RUNEXP_DATA", "")
	c, err := config.Parse("matrix.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	c.Outputs.Dir = t.TempDir()
	if _, err := runner.Run(context.Background(), c, runner.Options{Workers: 2, NoCache: true}); err != nil {
		t.Fatal(err)
	}
	recs, err := report.ReadJSONL(filepath.Join(c.Outputs.Dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	// The same config started again: the instance's data, to check the
	// records against by hand.
	plan, err := runner.Validate(c)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := plan.Start(runner.NewEnv(c, "", nil))
	if err != nil {
		t.Fatal(err)
	}
	md, err := readFile(filepath.Join(c.Outputs.Dir, "tables.md"))
	if err != nil {
		t.Fatal(err)
	}
	return inst.(*instance), recs, md
}

func TestEndToEnd(t *testing.T) {
	in, recs, md := runMatrix(t)
	if len(recs) != 4 {
		t.Fatalf("%d records, want 4 (one per method)", len(recs))
	}
	// Every estimator here takes the Gaussian kernel, and only toolarge
	// fails, as a whole, in every cell.
	var optional []report.Metric
	for _, p := range in.benches {
		optional = append(optional, p.refused(), p.errored())
		if p.name == "toolarge" {
			optional = append(optional, p.mse(), p.failed(), p.skipped())
		}
	}
	kindtest.Metrics(t, src, recs, optional...)
	byLabel := map[string]*report.Record{}
	for i := range recs {
		byLabel[recs[i].Params["method"].(string)] = &recs[i]
	}
	id, lin := byLabel["Base Line"], byLabel["Linear PCA"]
	if id == nil || lin == nil {
		t.Fatalf("labels %v", byLabel)
	}
	for _, p := range in.benches {
		if p.name == "toolarge" {
			continue
		}
		// The base line returns its input: its score is the corruption's
		// mean square, ((noisy − clean)/(hi − lo))² over pixels and images.
		var want float64
		r, d := p.clean.Dims()
		for i := 0; i < r; i++ {
			for k := 0; k < d; k++ {
				e := (p.noisy.At(i, k) - p.clean.At(i, k)) / (p.hi - p.lo)
				want += e * e
			}
		}
		want /= float64(r * d)
		if got := id.Metrics["mse_"+p.name]; math.Abs(got-want) > 1e-12*max(1, want) {
			t.Errorf("%s: identity MSE %v, corruption's mean square %v", p.name, got, want)
		}
		if p.name == "noise" && !(want > 0.02 && want < 0.06) {
			t.Errorf("noise: mean square %v, want about std² = 0.04", want)
		}
	}
	if got := lin.Metrics["mse_clean"]; math.Abs(got) > 1e-20 {
		t.Errorf("linear PCA with every component, no noise: MSE %v, want 0", got)
	}
	if got := id.Metrics["mse_clean"]; got != 0 {
		t.Errorf("identity with no noise: MSE %v, want 0", got)
	}
	for label, r := range byLabel {
		if r.Metrics["refused_toolarge"] != 0 || r.Metrics["error_toolarge"] != 1 || !strings.Contains(r.Error, "toolarge: ") {
			t.Errorf("%s: toolarge not recorded as failed with its reason: %v %q", label, r.Metrics, r.Error)
		}
		if r.Status != report.StatusPartial {
			t.Errorf("%s: status %q, want partial (one benchmark failed)", label, r.Status)
		}
	}
	// Ranks and mean ranks by hand from the records' per-image errors:
	// each method's mean over the images every method has (Mika is capped
	// to 4 on noise, so noise is ranked on those 4); the rank of a method
	// is 1 + the number of strictly lower means + half the others equal
	// to it.
	commonMean := func(m int, bench string) float64 {
		e := recs[m].Arrays["err_"+bench]
		var sum float64
		k := 0
		for i := range e {
			all := true
			for o := range recs {
				if v := recs[o].Arrays["err_"+bench]; i >= len(v) || math.IsNaN(v[i]) {
					all = false
				}
			}
			if all {
				sum += e[i]
				k++
			}
		}
		return sum / float64(k)
	}
	g := in.scores(recs)
	rk, mean, n := g.rankTable()
	for m := range g.labels {
		var sum float64
		cnt := 0
		for b, p := range in.benches {
			if p.name == "toolarge" {
				if !math.IsNaN(rk[m][b]) || g.s[m][b].status != "failed" {
					t.Errorf("%s on toolarge: rank %v status %q, want unranked and failed", g.labels[m], rk[m][b], g.s[m][b].status)
				}
				continue
			}
			mine := commonMean(m, p.name)
			want := 1.0
			for o := range g.labels {
				v := commonMean(o, p.name)
				if o != m && v < mine {
					want++
				} else if o != m && v == mine {
					want += 0.5
				}
			}
			if rk[m][b] != want {
				t.Errorf("%s on %s: rank %v, want %v", g.labels[m], p.name, rk[m][b], want)
			}
			sum += want
			cnt++
		}
		if n[m] != cnt || math.Abs(mean[m]-sum/float64(cnt)) > 1e-12 {
			t.Errorf("%s: mean rank %v over %d, want %v over %d", g.labels[m], mean[m], n[m], sum/float64(cnt), cnt)
		}
	}
	// Mika is capped to the first 4 test images: the rest are NaN, and
	// its mean is over those 4.
	mk := byLabel["Mika et al."]
	e := mk.Arrays["err_noise"]
	var s4 float64
	for i, v := range e {
		if (i < 4) == math.IsNaN(v) {
			t.Fatalf("mika's errors %v: want the first 4 finite and the rest NaN", e)
		}
		if i < 4 {
			s4 += v
		}
	}
	if mk.Metrics["skipped_noise"] != float64(len(e)-4) || math.Abs(mk.Metrics["mse_noise"]-s4/4) > 1e-15 || mk.Metrics["failed_noise"] != 0 {
		t.Errorf("mika: skipped %v mse %v failed %v, want %d, %v, 0", mk.Metrics["skipped_noise"], mk.Metrics["mse_noise"], mk.Metrics["failed_noise"], len(e)-4, s4/4)
	}
	if _, common, differ := g.commonMeans(slices.IndexFunc(in.benches, func(p *prepared) bool { return p.name == "noise" })); common != 4 || !differ {
		t.Errorf("noise: ranked on %d images (differ %v), want Mika's 4", common, differ)
	}
	for _, want := range []string{"first 4 images", "Cross-paper matrix", "Paired wins", "Benchmarks", "failed |", "(3/4)", "★",
		"4 (fewer than some methods' own: Mika et al. ran on 4)", "Per benchmark"} {
		if !strings.Contains(md, want) {
			t.Errorf("tables.md lacks %q:\n%s", want, md)
		}
	}
}

func readFile(p string) (string, error) {
	b, err := os.ReadFile(p)
	return string(b), err
}
