package distortion_test

import (
	"bytes"
	"github.com/runexp/runexp/experiments/internal/kindtest"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	_ "github.com/runexp/runexp/experiments/catalog"
	_ "github.com/runexp/runexp/experiments/distortion"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// At c = 0.01 the kernel matrix of 40 points on rings of radii 1 and 2 is
// close to the identity (neighbours are ~0.3 apart, so k ≈ e^−9), hence of
// full rank, and 39 components span every centred φ(x_i): the projected
// distances are the feature-space distances ‖φ(x_i) − φ(x_j)‖² =
// 2 − 2 exp(−‖x_i − x_j‖²/c), increasing in the input distance. So the
// closest feature-space pairs are exactly the closest input-space pairs.
const ringsConfig = `title: distortion end to end
paper: abrahamsen-hansen-regularized-preimage
kind: distortion
seed: 4
dataset: {name: two-rings, n: 40, radii: [1, 2], noise: 0.05}
model: {kernel: gaussian, c: [0.01, 0.2], components: [3, 39]}
experiment: {fraction: 0.02, fixed_components: 3, fixed_width: 0.2}
`

func runConfig(t *testing.T, src string, workers int) (string, []report.Record, *runner.Summary, *config.Config) {
	t.Helper()
	recs, sum := kindtest.RunWorkers(t, "distortion.yaml", src, workers)
	c, err := config.Parse("distortion.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return sum.Dir, recs, sum, c
}

func TestDistortionClosestPairs(t *testing.T) {
	dir, recs, sum, c := runConfig(t, ringsConfig, 1)
	dir2, _, _, _ := runConfig(t, ringsConfig, 2)
	if len(recs) != 4 {
		t.Fatalf("%d records, want 4", len(recs))
	}
	kindtest.Metrics(t, ringsConfig, recs)
	// The run's data: the same dataset, seed and stream.
	data, err := runner.NewEnv(c, "", nil).LoadData()
	if err != nil {
		t.Fatal(err)
	}
	x, labels := data.Train.X, data.Train.Labels
	// Brute force: every pair by input distance, the 2% = round(0.02 · 780)
	// = 16 closest kept.
	type pair struct {
		i, j int
		d    float64
	}
	var all []pair
	for i := 0; i < 40; i++ {
		for j := i + 1; j < 40; j++ {
			all = append(all, pair{i, j, math.Hypot(x.At(i, 0)-x.At(j, 0), x.At(i, 1)-x.At(j, 1))})
		}
	}
	sort.Slice(all, func(a, b int) bool { return all[a].d < all[b].d })
	want := map[[2]int]bool{}
	cross := 0
	for _, p := range all[:16] {
		want[[2]int{p.i, p.j}] = true
		if labels[p.i] != labels[p.j] {
			cross++
		}
	}
	if all[15].d == all[16].d {
		t.Fatal("a tie at the 16th pair: pick another seed")
	}
	var exact *report.Record
	for i := range recs {
		r := &recs[i]
		if r.Params["c"] == 0.01 && r.Params["components"] == 39 {
			exact = r
		}
		// 3 components cannot keep the input's neighbourhoods: the check
		// below can tell distortion from none.
		if r.Params["components"] == 3 && !(r.Metrics["distortion_ratio"] > 1.01) {
			t.Errorf("%s: distortion ratio %g with 3 components, want > 1", r.Key, r.Metrics["distortion_ratio"])
		}
	}
	if exact == nil || exact.Status != report.StatusOK {
		t.Fatalf("no successful c = 0.01, 39-component record (%d failed cells)", sum.Failed)
	}
	idx := exact.Arrays["pairs"]
	if len(idx) != 32 || exact.Metrics["pairs"] != 16 {
		t.Fatalf("%d pair indices, %g pairs; want 32 and 16", len(idx), exact.Metrics["pairs"])
	}
	for k := 0; k < 32; k += 2 {
		if p := [2]int{int(idx[k]), int(idx[k+1])}; !want[p] {
			t.Errorf("feature-space pair %v is not among the 16 closest input pairs", p)
		}
	}
	if r := exact.Metrics["distortion_ratio"]; math.Abs(r-1) > 1e-12 {
		t.Errorf("distortion ratio %g, want 1 (no distortion)", r)
	}
	if f := exact.Metrics["cross_ring_fraction"]; f != float64(cross)/16 {
		t.Errorf("cross-ring fraction %g, brute force %g", f, float64(cross)/16)
	}
	if e := exact.Metrics["eigen_energy"]; math.Abs(e-1) > 1e-12 {
		t.Errorf("all components hold energy %g, want 1", e)
	}
	for _, f := range []string{"records.jsonl", "tables.md", "fig2a.png", "fig2b.svg", "fig2-grid.png"} {
		a, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(filepath.Join(dir2, f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s differs between -j 1 and -j 2 or is empty", f)
		}
	}
}

// TestDistortionConfigErrors: what the kind cannot run is an error before
// anything runs.
func TestDistortionConfigErrors(t *testing.T) {
	for _, tc := range []struct{ from, to, want string }{
		{"kernel: gaussian, c: [0.01, 0.2]", "kernel: linear", "needs kernel: gaussian"},
		{"fraction: 0.02", "fraction: 0", "experiment.fraction"},
		{"experiment:", "methods: [{name: mika}]\nexperiment:", "uses no estimator"},
		{"fixed_width: 0.2", "fixed_widths: 0.2", "fixed_widths"},
	} {
		src := strings.Replace(ringsConfig, tc.from, tc.to, 1)
		if src == ringsConfig {
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
}
