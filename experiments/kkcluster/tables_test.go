package kkcluster_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/experiments/internal/kindtest"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/report"
)

// offset is the shift of meanPlus's pre-images.
const offset = 0.01

// meanPlus answers each centre Ψ_c = Σ_n Γ[c,n] φ(x_n) with Γ[c]·X + offset
// in every pixel: for a cluster centre (Γ[c,n] = 1/|c| on its members)
// that is the cluster's mean image shifted by offset, whose RMS distance
// to the mean is exactly offset. With failRow ≥ 0 it fails that row.
type meanPlus struct{ failRow int }

func (m meanPlus) PreImage(dst *mat.Dense, p *methods.Problem) ([]methods.Status, error) {
	dst.Reset()
	dst.Mul(p.Gamma, p.Basis.X)
	r, c := dst.Dims()
	for i := range r {
		for j := range c {
			dst.Set(i, j, dst.At(i, j)+offset)
		}
	}
	st := make([]methods.Status, r)
	if m.failRow >= 0 && m.failRow < r {
		st[m.failRow].Err = errors.New("meanPlus: told to fail")
	}
	return st, nil
}

func init() {
	for _, fail := range []int{-1, 1} {
		methods.Register(methods.Spec{
			Name: fmt.Sprintf("kkcluster-test-mean%d", fail), Title: "mean", Doc: "the centre's expansion applied to the inputs, plus 0.01 (kkcluster's tests)",
			Source: "tables_test.go", Does: methods.PreImages,
			New: func(methods.Params) (any, error) { return meanPlus{failRow: fail}, nil },
		})
	}
}

// meanCfg clusters the well-separated synthetic subjects of cfg with the
// raw kernel only, and finds the centres' pre-images with meanPlus.
const meanCfg = `title: kkcluster means
paper: test
kind: kkcluster
seed: 3
dataset: {name: synthetic-images, classes: 3, groups: 1, per_cell: 6, width: 8, height: 8, noise: 0.01}
methods:
  - {name: kkcluster-test-mean-1, label: Mean}
  - {name: kkcluster-test-mean1, label: Mean failing centre 1}
experiment:
  kernels: [raw]
  sigma: mean-distance
  neighbors: mean-distance
  clusters: 3
  restarts: 5
  scale: 200
`

// TestCentreDistances checks the centre metrics by hand: a pre-image that
// is its cluster's mean image plus 0.01 in every pixel is 0.01·scale (the
// experiment's scale, 200 here) from the mean in RMS, for every centre,
// so dist_mean and dist_max are both 2. A centre whose pre-image failed
// is counted, its reason kept, the cell made partial, and the distances
// averaged over the others.
func TestCentreDistances(t *testing.T) {
	recs, sum := kindtest.Run(t, meanCfg)
	if len(recs) != 2 || sum.Failed != 0 {
		t.Fatalf("%d records, %d failed", len(recs), sum.Failed)
	}
	// 0.01 × 200 = 2; the mean is summed and shifted in floating point,
	// so the distance holds to about 1e-13 relative.
	const want, tol = offset * 200, 1e-12
	for _, r := range recs {
		m := r.Metrics
		if math.Abs(m["dist_mean_raw"]-want) > tol || math.Abs(m["dist_max_raw"]-want) > tol {
			t.Errorf("%v: dist mean %v, max %v; want %v", r.Params["method"], m["dist_mean_raw"], m["dist_max_raw"], want)
		}
		if !(m["feature_cost_raw"] > 0) {
			t.Errorf("%v: feature cost %v, want > 0 for a shifted mean", r.Params["method"], m["feature_cost_raw"])
		}
		if len(r.Arrays["centres_raw"]) != 3*64 {
			t.Errorf("%v: %d centre pixels, want 3 × 64", r.Params["method"], len(r.Arrays["centres_raw"]))
		}
	}
	ok, part := recs[0], recs[1]
	if ok.Status != report.StatusOK || ok.Metrics["failed_raw"] != 0 {
		t.Errorf("Mean: status %s, %v failed", ok.Status, ok.Metrics["failed_raw"])
	}
	if part.Status != report.StatusPartial || part.Metrics["failed_raw"] != 1 || part.FailureCounts() != "1 × meanPlus: told to fail" {
		t.Errorf("Mean failing centre 1: status %s, %v failed, %q", part.Status, part.Metrics["failed_raw"], part.FailureCounts())
	}
	// The failed centre's cost is left out: the cost is a mean over the
	// two others, not the three.
	if part.Metrics["feature_cost_raw"] == ok.Metrics["feature_cost_raw"] {
		t.Errorf("the failed centre's cost was averaged in: %v", part.Metrics["feature_cost_raw"])
	}
}

// TestTablesWhateverWorkers runs the test config of kkcluster_test.go
// (both kernels, Fig. 6) with one and two workers, wants the same bytes,
// and reads the two tables: the clusters per kernel, sizes summing to the
// 18 images, and the pre-images per method, refusals shown as such.
func TestTablesWhateverWorkers(t *testing.T) {
	recs, sum := kindtest.SameWhateverWorkers(t, "kkcluster.yaml", cfg)
	tbs := kindtest.Tables(t, sum.Dir)
	ct := kindtest.FindTable(t, tbs, "Kernel k-means: clusters against the pose labels")
	if want := []string{"kernel", "σ", "neighbours", "purity", "block contrast", "objective", "cluster sizes (majority label)"}; !slices.Equal(ct.Header, want) {
		t.Errorf("cluster table header %q", ct.Header)
	}
	if len(ct.Rows) != 2 || ct.Rows[0][0] != "raw" || ct.Rows[1][0] != "hog" {
		t.Fatalf("cluster table rows %q, want raw then hog", ct.Rows)
	}
	lg := recs[2].Metrics
	for i, k := range []string{"raw", "hog"} {
		row := ct.Rows[i]
		if row[1] != report.FormatFloat(lg["sigma_"+k], 4) || row[2] != report.FormatFloat(lg["neighbors_"+k], 4) || row[3] != report.FormatFloat(lg["purity_"+k], 3) {
			t.Errorf("%s: row %q disagrees with the record (σ %v, neighbours %v, purity %v)", k, row, lg["sigma_"+k], lg["neighbors_"+k], lg["purity_"+k])
		}
		total := 0
		for _, part := range strings.Split(row[6], ", ") {
			n, err := strconv.Atoi(strings.Fields(part)[0])
			if err != nil {
				t.Fatalf("%s: cluster sizes %q", k, row[6])
			}
			total += n
		}
		if total != 18 || len(strings.Split(row[6], ", ")) != 3 {
			t.Errorf("%s: cluster sizes %q, want 3 clusters of 18 images in all", k, row[6])
		}
	}
	// Purity 1 on the raw kernel: each cluster is one whole class of six
	// images, and the three majority labels differ.
	labels := map[string]bool{}
	for _, part := range strings.Split(ct.Rows[0][6], ", ") {
		size, label, _ := strings.Cut(part, " ")
		if size != "6" {
			t.Errorf("raw clusters %q: want 6 images in each", ct.Rows[0][6])
		}
		labels[label] = true
	}
	if len(labels) != 3 {
		t.Errorf("raw clusters %q: want three distinct majority labels", ct.Rows[0][6])
	}

	pt := kindtest.FindTable(t, tbs, "Pre-images of the cluster centres")
	if want := []string{"method", "raw dist", "raw cost", "hog dist", "hog cost"}; !slices.Equal(pt.Header, want) || len(pt.Rows) != 3 {
		t.Fatalf("pre-image table %q %q", pt.Header, pt.Rows)
	}
	for i, r := range recs {
		row := pt.Rows[i]
		if row[0] != r.Params["method"] {
			t.Errorf("row %d is %q, record %v", i, row[0], r.Params["method"])
		}
		for j, k := range []string{"raw", "hog"} {
			want := []string{"refused (kernel)", "—"}
			if r.Metrics["refused_"+k] == 0 {
				want = []string{report.FormatFloat(r.Metrics["dist_mean_"+k], 4), report.FormatFloat(r.Metrics["feature_cost_"+k], 4)}
			}
			if got := row[1+2*j : 3+2*j]; !slices.Equal(got, want) {
				t.Errorf("%s, %s kernel: %q, want %q", row[0], k, got, want)
			}
		}
	}
}

// TestTooManyClusters checks that more clusters than images is an error
// of the run, not a panic of k-means.
func TestTooManyClusters(t *testing.T) {
	err := kindtest.StartError(t, "many.yaml", strings.Replace(meanCfg, "clusters: 3", "clusters: 19", 1))
	if err == nil || !strings.Contains(err.Error(), "kkcluster: 19 clusters of 18 images") {
		t.Errorf("error %v", err)
	}
}

// TestClusterSizes checks the cluster table with more clusters than
// classes: four clusters of the 18 images cannot be equal, and their sizes
// must still add up to 18.
func TestClusterSizes(t *testing.T) {
	src := strings.Replace(meanCfg, "clusters: 3", "clusters: 4", 1)
	_, sum := kindtest.Run(t, src)
	ct := kindtest.FindTable(t, kindtest.Tables(t, sum.Dir), "Kernel k-means")
	parts := strings.Split(ct.Rows[0][6], ", ")
	total := 0
	for _, p := range parts {
		n, err := strconv.Atoi(strings.Fields(p)[0])
		if err != nil || n < 1 {
			t.Fatalf("cluster sizes %q", ct.Rows[0][6])
		}
		total += n
	}
	if len(parts) != 4 || total != 18 {
		t.Errorf("cluster sizes %q: want 4 clusters of 18 images in all", ct.Rows[0][6])
	}
}

// TestClustersPerKernel checks the promise of the package doc: the
// clusters of a kernel are drawn from a stream named by the kernel alone,
// so a config with the HOG kernel only gets the same HOG clusters as one
// with both kernels (the suite's configs share them).
func TestClustersPerKernel(t *testing.T) {
	both := strings.Replace(meanCfg, "kernels: [raw]", "kernels: [raw, hog]\n  hog_cell: 4\n  hog_block: 1\n  hog_bins: 6", 1)
	hog := strings.Replace(both, "kernels: [raw, hog]", "kernels: [hog]", 1)
	a, _ := kindtest.Run(t, both)
	b, _ := kindtest.Run(t, hog)
	for _, m := range []string{"purity_hog", "block_contrast_hog", "sigma_hog", "dist_mean_hog", "feature_cost_hog"} {
		if a[0].Metrics[m] != b[0].Metrics[m] {
			t.Errorf("%s: %v with both kernels, %v with HOG alone", m, a[0].Metrics[m], b[0].Metrics[m])
		}
	}
	if !slices.Equal(a[0].Arrays["centres_hog"], b[0].Arrays["centres_hog"]) {
		t.Error("the HOG centres' pre-images differ with and without the raw kernel")
	}
}
