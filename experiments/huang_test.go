package experiments_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// TestHuangRealData runs the shipped Fig. 5 config and a small PIE
// expression de-noising on the real files with 1 and 2 workers: loaders,
// kernels from the data, kernel k-means, every estimator, and byte-identical
// outputs.
func TestHuangRealData(t *testing.T) {
	if os.Getenv("RUNEXP_DATA") == "" {
		t.Skip("RUNEXP_DATA not set: the CMU PIE files are not available")
	}
	fig5, err := os.ReadFile("../configs/huang-fig5.yaml")
	if err != nil {
		t.Fatal(err)
	}
	const denoise = `title: PIE de-noising smoke test
paper: huang-tian-delatorre-local-gram-preimage
kind: lgdenoise
seed: 2
dataset: {name: pie10, subset: expression, subjects: [0, 1, 2, 3]}
corruption: {type: gaussian, std: 0.06}
methods:
  - {name: kwok-tsang}
  - {name: honeine-richard}
  - {name: local-gram-denoise, params: {lambda: 0.1}}
experiment: {kernel: raw, sigma: mean-distance, neighbors: mean-distance, models: pooled, examples: 2}
claims:
  - id: denoises
    statement: "Local Gram de-noises: APE below the noisy input's 12.2."
    check: {type: value, metric: ape_mean_all, where: {method: "Local Gram (joint)"}, op: "<", value: 12}
`
	for _, tc := range []struct {
		name  string
		src   []byte
		files []string
		cells int
	}{
		{"huang-fig5.yaml", fig5, []string{"records.jsonl", "tables.md", "fig5-hog.png", "fig4-kernels.png"}, 4},
		{"pie-denoise.yaml", []byte(denoise), []string{"records.jsonl", "tables.md", "fig7-examples.png"}, 3},
	} {
		c, err := config.Parse(tc.name, tc.src)
		if err != nil {
			t.Fatal(err)
		}
		dirs, sums := runParsed(t, c, 1, 2)
		checkTablesFile(t, dirs[0])
		for _, sum := range sums {
			if sum.Failed != 0 {
				t.Errorf("%s: %d failed cells", tc.name, sum.Failed)
			}
		}
		recs, err := report.ReadJSONL(filepath.Join(dirs[0], "records.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != tc.cells {
			t.Errorf("%s: %d records, want %d", tc.name, len(recs), tc.cells)
		}
		for _, f := range tc.files {
			a, _ := os.ReadFile(filepath.Join(dirs[0], f))
			b, _ := os.ReadFile(filepath.Join(dirs[1], f))
			if len(a) == 0 || !bytes.Equal(a, b) {
				t.Errorf("%s: %s differs between -j 1 and -j 2 (or is empty)", tc.name, f)
			}
		}
		if tc.name == "huang-fig5.yaml" {
			checkFig5Claims(t, sums[0])
		}
		if tc.name == "pie-denoise.yaml" {
			for _, r := range recs {
				if r.Params["neighbors"] != nil && r.Params["neighbors"] != "mean-distance" {
					t.Errorf("%v: neighbors param %v, want the rule's name", r.Params["method"], r.Params["neighbors"])
				}
			}
		}
	}
}

// checkFig5Claims: on the real data, c8's Honeine–Richard and Local Gram
// both return the cluster means (distances 8.3e-14 and 1.3e-7 grey
// levels), within the kkcluster kind's 1e-3, so the claim cannot
// discriminate them: INCONCLUSIVE with both values, as the config
// expects; c7 (the raw-pixel clusters follow the poses no better than
// chance) PASSes on its permutation p-value, measured 0.9985 over 1999
// reassignments (issue #44: chance measured, not assumed).
func checkFig5Claims(t *testing.T, sum *runner.Summary) {
	t.Helper()
	by := map[string]claims.Result{}
	for _, r := range sum.Claims {
		by[r.ID] = r
	}
	// With the neighbour rule's 45 HOG neighbours local Gram's pre-image
	// of a centre is the cluster's mean, Honeine–Richard's: their feature
	// costs are one number to the kind's resolution.
	c8 := by["c8-local-gram-better-hog-preimage"]
	if c8.Status != claims.Inconclusive || !c8.AsExpected || !strings.Contains(c8.CannotDiscriminate, "within the tolerance 1e-06") ||
		!strings.Contains(c8.CannotDiscriminate, "method=Honeine&Richard") || !strings.Contains(c8.CannotDiscriminate, "method=Local Gram") {
		t.Errorf("c8: %s (as expected %v), cannot discriminate %q", c8.Status, c8.AsExpected, c8.CannotDiscriminate)
	}
	// "Thus better for clustering": a purity gain of a few images, its
	// interval over the images covering no gain.
	c10 := by["c10-hog-better-for-clustering"]
	if c10.Status != claims.Inconclusive || !c10.AsExpected || c10.Basis != "interval" {
		t.Errorf("c10: %s (as expected %v, basis %q)", c10.Status, c10.AsExpected, c10.Basis)
	}
	c7 := by["c7-raw-clusters-poorly"]
	if c7.Status != claims.Pass || !c7.AsExpected || !strings.Contains(c7.Evidence, "purity_p_raw") {
		t.Errorf("c7: %s (as expected %v); %s", c7.Status, c7.AsExpected, c7.Evidence)
	}
}

// TestHuangConfigErrors: impossible experiment options are errors at their
// line, not runs.
func TestHuangConfigErrors(t *testing.T) {
	base, err := os.ReadFile("../configs/huang-fig6.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ from, to, want string }{
		{"  sigma: mean-distance", "  sigma: median", "experiment.sigma: want mean-distance"},
		{"  neighbors: mean-distance", "  neighbors: 1", "experiment.neighbors: 1 is impossible"},
		{"  kernels: [hog]", "  kernels: [hog, hog]", "want distinct raw and/or hog"},
		{"  clusters: 5", "  clusterz: 5", `unknown key "clusterz"`},
		{"  fig6_centre: 3", "  fig6_centre: 7", "there are 5 clusters"},
		{"experiment:", "model: {kernel: linear, components: 3}\nexperiment:", "remove the model section"},
	} {
		src := strings.Replace(string(base), tc.from, tc.to, 1)
		if src == string(base) {
			t.Fatalf("%q not in the config", tc.from)
		}
		c, err := config.Parse("bad.yaml", []byte(src))
		if err == nil {
			_, err = runner.Validate(c)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "bad.yaml:") {
			t.Errorf("%s → %s: error %v, want %q at a line", tc.from, tc.to, err, tc.want)
		}
	}
}
