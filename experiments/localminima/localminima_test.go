package localminima_test

import (
	"context"
	"github.com/runexp/runexp/experiments/internal/kindtest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/runexp/runexp/experiments" // the kinds and the two-rings dataset
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

func run(t *testing.T, src string) ([]report.Record, *runner.Summary) {
	t.Helper()
	return kindtest.Run(t, src)
}

const head = `title: local-minima test
paper: test
kind: local-minima
seed: 1
dataset: {name: two-rings, n: 80, radii: [1, 2], noise: 0.1, arc_start: [45, 225], arc_end: [315, 495]}
`

// TestLocalMinimaRings: Mika's fixed point started from every training
// point. With a wide kernel (c = 5 against rings of radius ≤ 2, nearly
// linear) the cost has one minimum, so all 80 starts meet in one point
// (Abrahamsen & Hansen Fig. 3, right); with a narrow one (c = 0.05, length
// ≈ 0.2) starts on different parts of the rings end in different local
// minima (Fig. 3, left).
func TestLocalMinimaRings(t *testing.T) {
	src := head + `model: {kernel: gaussian, c: [0.05, 5], components: 5}
methods: [{name: mika, label: Mika, params: {max_iter: 1000, tol: 1.0e-9}}]
experiment: {point: [0, 0], distinct_tol: 1.0e-3}
`
	recs, sum := run(t, src)
	if sum.Failed != 0 || len(recs) != 2 {
		t.Fatalf("%d records, %d failed", len(recs), sum.Failed)
	}
	kindtest.Metrics(t, src, recs)
	by := map[float64]report.Record{}
	for _, r := range recs {
		// Integral values read back from JSON as int.
		switch c := r.Params["c"].(type) {
		case int:
			by[float64(c)] = r
		case float64:
			by[c] = r
		}
	}
	wide, narrow := by[5].Metrics, by[0.05].Metrics
	if wide["distinct_preimages"] != 1 || wide["largest_cluster_fraction"] != 1 {
		t.Errorf("c = 5: %v distinct pre-images (largest cluster %v), want 1 (all)", wide["distinct_preimages"], wide["largest_cluster_fraction"])
	}
	// One minimum: every start has the same cost.
	if wide["cost_max"]-wide["cost_min"] > 1e-9 {
		t.Errorf("c = 5: costs from %v to %v, want one value", wide["cost_min"], wide["cost_max"])
	}
	if !(narrow["distinct_preimages"] > 1) {
		t.Errorf("c = 0.05: %v distinct pre-images, want several", narrow["distinct_preimages"])
	}
	if n := len(by[5].Arrays["z"]); n != 2*80 {
		t.Errorf("%d pre-image coordinates, want 160", n)
	}
	for _, f := range []string{"fig3-preimages.png", "fig3-cost.svg", "tables.md"} {
		if _, err := os.Stat(filepath.Join(sum.Dir, f)); err != nil {
			t.Error(err)
		}
	}
}

func TestLocalMinimaConfigErrors(t *testing.T) {
	for _, tc := range []struct{ methods, exp, want string }{
		{"[{name: robust-pca}]", "{}", "not a pre-image estimator"},
		{"[{name: mika}]", "{distinct_tol: 0}", "distinct_tol"},
		{"[]", "{}", "pre-image estimator"},
	} {
		c, err := config.Parse("bad.yaml", []byte(head+"model: {kernel: gaussian, c: 1, components: 2}\nmethods: "+tc.methods+"\nexperiment: "+tc.exp+"\n"))
		if err == nil {
			_, err = runner.Validate(c)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("methods %s, experiment %s: error %v, want one containing %q", tc.methods, tc.exp, err, tc.want)
		}
	}
	// A point of the wrong dimension: an error from start, with the key.
	c, err := config.Parse("bad.yaml", []byte(head+"model: {kernel: gaussian, c: 1, components: 2}\nmethods: [{name: mika}]\nexperiment: {point: [0, 0, 0]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	c.Outputs.Dir = t.TempDir()
	if _, err := runner.Run(context.Background(), c, runner.Options{NoCache: true}); err == nil || !strings.Contains(err.Error(), "point") {
		t.Errorf("a 3-D point for 2-D data: error %v", err)
	}
}
