package kkcluster_test

import (
	"github.com/runexp/runexp/experiments/internal/kindtest"
	"github.com/runexp/runexp/experiments/kkcluster"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/runexp/runexp/experiments" // the kinds and the synthetic-images dataset
	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// run validates, runs and reports the config src with no data root into a
// temporary directory, and returns the records and the summary.
func run(t *testing.T, src string) ([]report.Record, *runner.Summary) {
	t.Helper()
	return kindtest.Run(t, src)
}

// Three synthetic subjects under one lighting, six noisy copies each: the
// classes are well separated (different blobs, noise 0.01), so kernel
// k-means with three clusters must recover them exactly.
const cfg = `title: kkcluster test
paper: test
kind: kkcluster
seed: 3
dataset: {name: synthetic-images, classes: 3, groups: 1, per_cell: 6, width: 8, height: 8, noise: 0.01}
methods:
  - {name: mika, label: Mika, params: {start: nearest}}
  - {name: kwok-tsang, label: KT}
  - {name: local-gram, label: LG}
experiment:
  kernels: [raw, hog]
  sigma: mean-distance
  neighbors: mean-distance
  hog_cell: 4
  hog_block: 1
  hog_bins: 6
  clusters: 3
  restarts: 5
  fig6: true
  fig6_kernel: hog
  fig6_centre: 0
  fig6_neighbors: 3
claims:
  - id: raw-pure
    statement: "the raw kernel recovers the classes"
    check: {type: value, metric: purity_raw, where: {method: LG}, op: ">=", value: 1}
  - id: refuse
    statement: "Mika and Kwok-Tsang refuse the HOG kernel"
    check: {type: value, metric: refused_hog, where: {method: [Mika, KT]}, op: ">=", value: 1}
`

func TestKKClusterSynthetic(t *testing.T) {
	recs, sum := run(t, cfg)
	if sum.Failed != 0 || len(recs) != 3 {
		t.Fatalf("%d records, %d failed", len(recs), sum.Failed)
	}
	// No Fig. 6 pre-image fails here.
	kindtest.Metrics(t, cfg, recs, kkcluster.Fig6Failed)
	for _, cl := range sum.Claims {
		if cl.Status != claims.Pass {
			t.Errorf("claim %s: %s (%s)", cl.ID, cl.Status, cl.Evidence)
		}
	}
	by := map[string]report.Record{}
	for _, r := range recs {
		by[r.Params["method"].(string)] = r
	}
	lg := by["LG"].Metrics
	// Purity is computed against the true classes: 1 means every cluster
	// holds one class, which the kernel k-means cannot fake.
	if lg["purity_raw"] != 1 {
		t.Errorf("purity on the raw kernel = %v, want 1", lg["purity_raw"])
	}
	// Well-separated classes: within-class kernel values exceed the
	// between-class ones.
	if !(lg["block_contrast_raw"] > 0) {
		t.Errorf("block contrast %v, want > 0", lg["block_contrast_raw"])
	}
	// Mika and Kwok–Tsang declare Gaussian / distance-invertible kernels:
	// they solve the raw kernel and refuse HOG, Local Gram takes both.
	for name, want := range map[string][2]float64{"Mika": {0, 1}, "KT": {0, 1}, "LG": {0, 0}} {
		m := by[name].Metrics
		if m["refused_raw"] != want[0] || m["refused_hog"] != want[1] || m["kernels_solved"] != 2-want[1] {
			t.Errorf("%s: refused raw %v hog %v, solved %v; want %v", name, m["refused_raw"], m["refused_hog"], m["kernels_solved"], want)
		}
	}
	// Local Gram's pre-image of a centre is its cluster's mean image to
	// within 1 grey level RMS (0–255), the paper's claim c8 for Fig. 5.
	if d := lg["dist_mean_raw"]; !(d < 1) {
		t.Errorf("Local Gram raw centres %v grey levels from the means", d)
	}
	// Fig. 6 ran for Local Gram on HOG: P_t then up to 3 P_i images.
	if a := by["LG"].Arrays["fig6_alpha"]; len(a) == 0 || len(a) > 3 || len(by["LG"].Arrays["fig6_images"]) != 64*(len(a)+1) {
		t.Errorf("fig6: %d α, %d image values", len(a), len(by["LG"].Arrays["fig6_images"]))
	}
	if _, ok := by["Mika"].Arrays["fig6_images"]; ok {
		t.Error("Mika has no local metrics, yet Fig. 6 was drawn for it")
	}
	if by["LG"].Params["neighbors"] != "mean-distance" {
		t.Errorf("neighbors param %v, want the rule's name", by["LG"].Params["neighbors"])
	}
	for _, f := range []string{"fig4-kernels.png", "fig5-raw.png", "fig5-hog.png", "fig6-metrics.png", "tables.md"} {
		if _, err := os.Stat(filepath.Join(sum.Dir, f)); err != nil {
			t.Error(err)
		}
	}
	tables, _ := os.ReadFile(filepath.Join(sum.Dir, "tables.md"))
	if !strings.Contains(string(tables), "refused (kernel)") {
		t.Error("the pre-image table does not show the refusals")
	}
	if math.IsNaN(lg["feature_cost_hog"]) || lg["feature_cost_hog"] < 0 {
		t.Errorf("feature cost %v", lg["feature_cost_hog"])
	}
}

// TestKKClusterConfigErrors: what Validate rejects, with the key at fault.
func TestKKClusterConfigErrors(t *testing.T) {
	base := "title: t\npaper: t\nkind: kkcluster\nseed: 1\ndataset: {name: synthetic-images}\n"
	for _, tc := range []struct{ methods, exp, want string }{
		{"[{name: local-gram}]", "{kernel: raw}", "takes a list"},
		{"[{name: local-gram}]", "{kernels: [raw, raw]}", "distinct raw"},
		{"[{name: local-gram}]", "{kernels: raw}", "want a list"},
		{"[{name: local-gram}]", "{kernels: []}", "at least one kernel"},
		{"[{name: local-gram}]", "{clusters: 2, fig6: true, fig6_centre: 2}", "fig6_centre"},
		{"[{name: robust-pca}]", "{}", "not a pre-image estimator"},
		{"[{name: tikhonov}]", "{}", "has none"},
	} {
		c, err := config.Parse("bad.yaml", []byte(base+"methods: "+tc.methods+"\nexperiment: "+tc.exp+"\n"))
		if err == nil {
			_, err = runner.Validate(c)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("methods %s, experiment %s: error %v, want one containing %q", tc.methods, tc.exp, err, tc.want)
		}
	}
}
