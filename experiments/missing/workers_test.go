package missing_test

import (
	"testing"

	"github.com/runexp/runexp/experiments/internal/kindtest"
)

// TestSameWhateverWorkers checks that the records and tables do not
// depend on the number of cell workers: every repetition's deletions are
// drawn from the cell's own streams.
func TestSameWhateverWorkers(t *testing.T) {
	kindtest.SameWhateverWorkers(t, "missing.yaml", head+`dataset: {name: synthetic-images, classes: 2, groups: 1, per_cell: 8, noise: 0.05}
methods: [{name: impute-mean, label: mean}, {name: impute-nn, label: 1-NN}, {name: ppca, label: PPCA, params: {latent: 2, max_iter: 20}}]
experiment:
  p_del: [0.1, 0.3]
  repetitions: 2
  points: 10
`)
}
