package classify_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// 4 well-separated classes (one lighting) of 10 images, 5 per class for
// training: with k = 4 the label graph joins each class's 5 training
// images completely, 4 disjoint K_5, whose Laplacian has λ_max = 5 exactly
// (K_n's Laplacian spectrum is 0 and n, n−1 times).
const graphCfg = `title: classify graph test
paper: zheng-lpkpca
kind: classify
seed: 3
dataset: {name: synthetic-images, classes: 4, groups: 1, per_cell: 10, width: 8, height: 8}
model: {kernel: gaussian, sigma: 1, components: [6]}
experiment:
  train_per_class: 5
  splits: 2
  lambda: [0, 0.05]
  neighbors: [4]
  graph: labels
  graph_stats: true
`

func TestLabelGraph(t *testing.T) {
	recs, dir := run(t, graphCfg)
	if len(recs) != 1 {
		t.Fatalf("%d records, want 1", len(recs))
	}
	m := recs[0].Metrics
	if m["same_label_k4"] != 1 {
		t.Errorf("label graph: same-subject edge fraction %v, want exactly 1", m["same_label_k4"])
	}
	if f := m["knn_same_label_k4"]; !(f >= 0.95 && f <= 1) {
		t.Errorf("k-NN graph on well-separated classes: same-subject fraction %v, want near 1", f)
	}
	if math.Abs(m["laplacian_max_k4"]-5) > 1e-9 {
		t.Errorf("4 × K_5: λ_max(L) = %v, want 5", m["laplacian_max_k4"])
	}
	if math.Abs(m["lambda_lmax_l0.05_k4"]-0.25) > 1e-10 || m["lambda_lmax_l0_k4"] != 0 {
		t.Errorf("λ·λ_max(L) = %v at λ = 0.05 (want 0.25), %v at λ = 0 (want 0)", m["lambda_lmax_l0.05_k4"], m["lambda_lmax_l0_k4"])
	}
	// λ = 0 is KPCA: all of its variance kept, nothing penalised. With
	// λ·λ_max = 0.25 < 1 nothing can be penalised either.
	if math.Abs(m["variance_kept_l0_k4"]-1) > 1e-9 || m["penalised_l0_k4"] != 0 || m["penalised_l0.05_k4"] != 0 {
		t.Errorf("variance kept %v at λ = 0, penalised %v and %v", m["variance_kept_l0_k4"], m["penalised_l0_k4"], m["penalised_l0.05_k4"])
	}
	if math.Abs(m["subspace_overlap_l0_k4"]-1) > 1e-9 {
		t.Errorf("λ = 0: subspace overlap %v, want 1", m["subspace_overlap_l0_k4"])
	}
	if v := m["variance_kept_l0.05_k4"]; !(v > 0 && v <= 1+1e-12) {
		t.Errorf("variance kept at λ = 0.05: %v, want in (0, 1]", v)
	}
	b, err := os.ReadFile(filepath.Join(dir, "tables.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"DIAGNOSTIC, not the paper's method", "Graph diagnostics"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("report lacks %q", want)
		}
	}

	// The paper's k-NN graph with stats: the graph LPKPCA used is the
	// k-NN graph, so its fraction is the label run's k-NN one, and the
	// data diagnostic knn_same_label equals it.
	recs, _ = run(t, strings.Replace(graphCfg, "graph: labels", "graph: knn", 1))
	m2 := recs[0].Metrics
	if m2["same_label_k4"] != m["knn_same_label_k4"] || m2["knn_same_label_k4"] != m2["same_label_k4"] {
		t.Errorf("k-NN graph: same-subject fraction %v and knn_same_label %v, the label run's k-NN column %v", m2["same_label_k4"], m2["knn_same_label_k4"], m["knn_same_label_k4"])
	}
	// Without graph_stats the records hold none of the graph_stats
	// diagnostics, but every record holds the data diagnostic: the k-NN
	// graph's same-subject fraction (attributions of "data" quote it).
	recs, _ = run(t, strings.Replace(strings.Replace(graphCfg, "  graph_stats: true\n", "", 1), "graph: labels", "graph: knn", 1))
	for name := range recs[0].Metrics {
		if strings.HasPrefix(name, "knn_same_label") {
			continue
		}
		for _, p := range []string{"same_label", "laplacian_max", "lambda_lmax", "penalised", "variance_kept", "subspace_overlap"} {
			if strings.Contains(name, p) {
				t.Errorf("metric %s without graph_stats", name)
			}
		}
	}
	if recs[0].Metrics["knn_same_label_k4"] != m["knn_same_label_k4"] {
		t.Errorf("without graph_stats: knn_same_label_k4 = %v, want the label run's %v", recs[0].Metrics["knn_same_label_k4"], m["knn_same_label_k4"])
	}
}
