package classify_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp/experiments/internal/kindtest"
)

// readingsCfg runs every reading option at once on the separable faces:
// Algorithm 1's features, raw kernel vectors, a random split and a mixed
// graph at rate 1 (the label graph).
var readingsCfg = strings.NewReplacer("train_fraction: 0.5", "train_fraction: 0.5\n  split: random",
	"neighbors: [3]", "neighbors: [3]\n  lpkpca_form: eq23\n  kernel_vectors: raw\n  graph: mixed\n  same_rate: 1\n  graph_stats: true").Replace(cfg)

// TestReadingsRun: the readings run end to end, say what ran in the
// caption, give the label graph's edges at rate 1 and the same output
// whatever the number of workers. On these well-separated faces every
// feature set still classifies perfectly: Algorithm 1's scaling and the
// raw vectors' common shift do not move points across classes here.
func TestReadingsRun(t *testing.T) {
	recs, dir := run(t, readingsCfg)
	for _, r := range recs {
		if m := r.Metrics; m["same_label_k3"] != 1 || m["kpca"] != 100 || m["lpkpca_l0.05_k3"] != 100 {
			t.Errorf("%v components: same-subject edges %v, KPCA %v, LPKPCA %v; want 1, 100, 100", r.Params["components"], m["same_label_k3"], m["kpca"], m["lpkpca_l0.05_k3"])
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "tables.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Algorithm 1", "uncentred", "at random from the whole set", "DIAGNOSTIC"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("tables.txt lacks %q", want)
		}
	}
	kindtest.SameWhateverWorkers(t, "classify.yaml", readingsCfg)
}
