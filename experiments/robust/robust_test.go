package robust_test

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

// The synthetic faces: 4 subjects × 3 conditions × 3 images of 8×8 pixels
// on the 0–255 scale. Subjects hold 9 images each, so the split
// [18, 9, 9] takes exactly 2, 1 and 1 whole subjects.
const dataset = `dataset: {name: synthetic-images, classes: 4, groups: 3, per_cell: 3, width: 8, height: 8, scale: [0, 255]}`

// occlusion: a 0.25 share of 8×8 is round(√16) = 4 px squares.
const occlusionConfig = `title: robust occlusion test
paper: nguyen-delatorre-robust-kpca
kind: robust
seed: 3
` + dataset + `
corruption: {type: none}
model: {kernel: gaussian, gamma: 1.0e-5, energy: [0.9, 1.0]}
methods:
  - {name: identity}
  - {name: linear-pca, label: PCA}
  - {name: mika, label: Mika, params: {max_iter: 20, tol: 1.0e-6}}
experiment:
  split: [18, 9, 9]
  occlusion_paper_sides: [30]
  occlusion_paper_fractions: [0.25]
  examples: 2
  figure_name: faces
  tune:
    - {method: Mika, gamma: [1.0e-5, 1.0e-4], max_iter: [5, 20]}
`

const noiseConfig = `title: robust noise test
paper: nguyen-delatorre-robust-kpca
kind: robust
seed: 4
` + dataset + `
corruption: {type: gaussian, std: 10}
model: {kernel: gaussian, gamma: 1.0e-5, energy: [1.0]}
methods:
  - {name: identity, label: Base Line}
  - {name: linear-pca, label: PCA}
experiment:
  split: [18, 9, 9]
  examples: 1
`

// run validates, runs and reports a config with no data root and returns
// its records by "label/energy" and the output directory.
func run(t *testing.T, src string) (map[string]*report.Record, string, *config.Config) {
	t.Helper()
	recs, sum := kindtest.Run(t, src)
	if sum.Failed != 0 {
		t.Fatalf("%d cells failed", sum.Failed)
	}
	kindtest.Metrics(t, src, recs)
	c, err := config.Parse("test.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*report.Record{}
	for i := range recs {
		r := &recs[i]
		out[fmt.Sprintf("%v/%v", r.Params["method"], r.Params["energy"])] = r
	}
	return out, sum.Dir, c
}

// testSet redraws, independently of the kind, the clean test images: the
// dataset as the runner loads it, split by datasets.GroupDisjoint from the
// stream "split" (the package doc's protocol).
func testSet(t *testing.T, c *config.Config) *datasets.Set {
	t.Helper()
	env := runner.NewEnv(c, "", nil)
	d, err := env.LoadData()
	if err != nil {
		t.Fatal(err)
	}
	sp := datasets.GroupDisjoint(d.Train.Labels, []int{18, 9, 9}, env.Rand("split"))
	if got := []int{len(sp.Parts[0]), len(sp.Parts[1]), len(sp.Parts[2])}; fmt.Sprint(got) != "[18 9 9]" {
		t.Fatalf("split sizes %v, want [18 9 9] (2, 1 and 1 subjects of 9 images)", got)
	}
	return datasets.SelectRows(d.Train, "test", sp.Parts[2])
}

func TestOcclusion(t *testing.T) {
	recs, dir, c := run(t, occlusionConfig)
	test := testSet(t, c)
	env := runner.NewEnv(c, "", nil)
	// By hand: the identity returns the occluded input, so its error is
	// |occluded − clean| averaged over the 4×4 square drawn from image i's
	// stream "occlusion/test/s30/<i>": row y0 = IntN(8−4+1), column
	// x0 = IntN(5), then 16 values 255·Float64() row by row; 0 outside.
	var whole, occ float64
	n, _ := test.X.Dims()
	for i := range n {
		rnd := env.Rand(fmt.Sprintf("occlusion/test/s30/%d", i))
		y0, x0 := rnd.IntN(5), rnd.IntN(5)
		clean := test.X.RawRowView(i)
		var s float64
		for a := range 4 {
			for b := range 4 {
				s += math.Abs(255*rnd.Float64() - clean[(y0+a)*8+x0+b])
			}
		}
		whole += s / 64 / float64(n)
		occ += s / 16 / float64(n)
	}
	for _, e := range []string{"0.9", "1"} {
		id := recs["Base Line/"+e]
		if id == nil {
			t.Fatalf("no identity record at energy %s (the default label is the registry title): %v", e, keys(recs))
		}
		for _, m := range []struct {
			name string
			want float64
		}{{"whole_mean_s30", whole}, {"occ_mean_s30", occ}, {"nonocc_mean_s30", 0}} {
			if got := id.Metrics[m.name]; math.Abs(got-m.want) > 1e-9*max(1, m.want) {
				t.Errorf("identity %s at energy %s = %v, want %v by hand", m.name, e, got, m.want)
			}
		}
		mika := recs["Mika/"+e]
		if mika == nil || len(mika.Arrays["tune_val_error"]) != 4 {
			t.Fatalf("Mika at energy %s: want 4 validation errors (2 widths × 2 max_iter)", e)
		}
		if g, it := mika.Metrics["tuned_gamma"], mika.Metrics["tuned_max_iter"]; (g != 1e-5 && g != 1e-4) || (it != 5 && it != 20) {
			t.Errorf("tuned gamma %v, max_iter %v: not a grid point", g, it)
		}
		best := math.Inf(1)
		for _, v := range mika.Arrays["tune_val_error"] {
			best = math.Min(best, v)
		}
		if mika.Metrics["val_whole_mean"] != best {
			t.Errorf("chosen validation error %v is not the grid's smallest %v", mika.Metrics["val_whole_mean"], best)
		}
	}
	for _, f := range []string{"faces-e90_s30.png", "faces-e100_s30.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("figure: %v", err)
		}
	}
}

func TestNoise(t *testing.T) {
	recs, _, c := run(t, noiseConfig)
	test := testSet(t, c)
	env := runner.NewEnv(c, "", nil)
	// By hand: the identity's error is the mean absolute noise, 10·|N(0,1)|
	// drawn pixel by pixel from image i's stream "noise/test/<i>".
	var want float64
	n, d := test.X.Dims()
	for i := range n {
		rnd := env.Rand(fmt.Sprintf("noise/test/%d", i))
		for range d {
			want += math.Abs(10*rnd.NormFloat64()) / float64(n*d)
		}
	}
	id := recs["Base Line/1"]
	if got := id.Metrics["mae_mean"]; math.Abs(got-want) > 1e-9*want {
		t.Errorf("identity mae_mean = %v, want %v by hand", got, want)
	}
	// 10·E|N(0,1)| = 10·√(2/π) ≈ 7.98; 576 draws keep the mean within ±0.5.
	if math.Abs(want-10*math.Sqrt(2/math.Pi)) > 0.5 {
		t.Errorf("mean absolute noise %v, far from 10·√(2/π)", want)
	}
	// Linear PCA keeps the cell's energy (here all the variance of 18
	// images): it cannot reproduce the noise, so it must differ from the
	// input, and it must stay finite.
	pca := recs["PCA/1"]
	if got := pca.Metrics["mae_mean"]; !(got > 0) || got == id.Metrics["mae_mean"] || math.IsInf(got, 0) {
		t.Errorf("PCA mae_mean = %v", got)
	}
	if pca.Metrics["components"] < 1 {
		t.Errorf("components %v", pca.Metrics["components"])
	}
}

func keys(m map[string]*report.Record) []string {
	var k []string
	for x := range m {
		k = append(k, x)
	}
	return k
}

func TestConfigErrors(t *testing.T) {
	base := strings.Replace(occlusionConfig, "    - {method: Mika, gamma: [1.0e-5, 1.0e-4], max_iter: [5, 20]}\n", "", 1)
	base = strings.Replace(base, "  tune:\n", "", 1)
	for _, tc := range []struct {
		name, old, new, want string
	}{
		{"tune label", "  examples: 2\n", "  examples: 2\n  tune:\n    - {method: Nobody, max_iter: [1]}\n", "no method labelled"},
		{"tune param", "  examples: 2\n", "  examples: 2\n  tune:\n    - {method: Mika, nope: [1]}\n", "nope"},
		{"tune twice", "  examples: 2\n", "  examples: 2\n  tune:\n    - {method: Mika, tol: [1]}\n    - {method: Mika, tol: [2]}\n", "tuned twice"},
		{"tune width", "  examples: 2\n", "  examples: 2\n  tune:\n    - {method: Mika, gamma: [-1]}\n", "widths > 0"},
		{"tune list", "  examples: 2\n", "  examples: 2\n  tune: 3\n", "want a list"},
		{"split", "split: [18, 9, 9]", "split: [18, 9.5, 9]", "positive image counts"},
		{"fractions", "occlusion_paper_fractions: [0.25]", "occlusion_paper_fractions: [0.25, 0.3]", "same length"},
		{"fraction range", "occlusion_paper_fractions: [0.25]", "occlusion_paper_fractions: [1.5]", "fractions in (0, 1)"},
		{"corruption", "corruption: {type: none}", "corruption: {type: gaussian, std: 1}", "draws its own occlusions"},
		{"no energy", "energy: [0.9, 1.0]", "components: [2]", "energy"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(base, tc.old, tc.new, 1)
			c, err := config.Parse("test.yaml", []byte(src))
			if err == nil {
				_, err = runner.Validate(c)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// The split must leave every set non-empty: a target the subjects cannot
// meet is an error of Start, not a panic.
func TestEmptySplit(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	src := strings.Replace(noiseConfig, "split: [18, 9, 9]", "split: [36, 9, 9]", 1)
	c, err := config.Parse("test.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	plan, err := runner.Validate(c)
	if err != nil {
		t.Fatal(err)
	}
	_, err = plan.Kind.Start(runner.NewEnv(c, "", nil), plan.Options)
	if err == nil || !strings.Contains(err.Error(), "empty set") {
		t.Errorf("error %v, want an empty-set error", err)
	}
}

// TestItems: every error metric of a record is the statistic the kind
// declares (Kind.Items) of its per-image array, one entry per test image
// (9), so claims on them get paired intervals over the test images; the
// identity keeps the noise, so its detail ratio is above 1 (independent
// noise adds 2σ² in expectation to every squared difference).
func TestItems(t *testing.T) {
	for _, src := range []string{occlusionConfig, noiseConfig} {
		recs, _, _ := run(t, src)
		for name, r := range recs {
			n := kindtest.ItemsReproduce(t, "robust", name, r, func(string) int { return 9 })
			// whole, occ, nonocc × mean, std; or mae mean, std and the
			// two detail means.
			if n != 6 && n != 4 {
				t.Errorf("%s: %d metrics with per-item statistics", name, n)
			}
		}
		if src == noiseConfig {
			for name, r := range recs {
				if strings.Contains(name, "Base Line") && !(r.Metrics["detail_ratio_mean"] > 1) {
					t.Errorf("%s: detail ratio %v, want > 1 for the noisy input itself", name, r.Metrics["detail_ratio_mean"])
				}
			}
		}
	}
}
