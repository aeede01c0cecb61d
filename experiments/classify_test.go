package experiments_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/runexp/runexp/internal/report"
)

const classifyConfig = `title: classify smoke test
paper: zheng-lpkpca
kind: classify
seed: 3
dataset:
  name: two-rings
  n: 120
  noise: 0.15
model:
  kernel: gaussian
  sigma: 0.5
  components: [2, 5]
experiment:
  train_fraction: 0.5
  splits: 2
  lambda: [0, 0.05]
  neighbors: [5]
  figure: components
  figure_name: fig
`

// TestClassifyKind runs the classify kind end to end on the two rings
// (labelled by ring): outputs are byte-identical with one and two workers,
// and with λ = 0 LPKPCA's features are KPCA's (up to sign), so its
// accuracy equals KPCA's on every split.
func TestClassifyKind(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	path := filepath.Join(t.TempDir(), "classify.yaml")
	if err := os.WriteFile(path, []byte(classifyConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	a, sum := runConfig(t, path, 1)
	checkTablesFile(t, a)
	b, _ := runConfig(t, path, 2)
	if sum.Failed != 0 {
		t.Fatalf("%d cells failed", sum.Failed)
	}
	for _, f := range []string{"records.jsonl", "tables.md", "fig.png", "fig.svg"} {
		x, err := os.ReadFile(filepath.Join(a, f))
		if err != nil {
			t.Fatal(err)
		}
		y, err := os.ReadFile(filepath.Join(b, f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(x, y) || len(x) == 0 {
			t.Errorf("%s differs between -j 1 and -j 2 or is empty", f)
		}
	}
	recs, err := report.ReadJSONL(filepath.Join(a, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2 (one per component count)", len(recs))
	}
	for _, r := range recs {
		kp, lp := r.Arrays["kpca"], r.Arrays["lpkpca_l0_k5"]
		if len(kp) != 2 || len(lp) != 2 {
			t.Fatalf("arrays %v", r.Arrays)
		}
		for s := range kp {
			if kp[s] != lp[s] {
				t.Errorf("%s split %d: LPKPCA(λ = 0) %g, KPCA %g", r.Key, s+1, lp[s], kp[s])
			}
		}
		if acc := r.Metrics["kpca"]; !(acc > 50 && acc <= 100) {
			t.Errorf("%s: KPCA accuracy %g%% on two rings", r.Key, acc)
		}
	}
}
