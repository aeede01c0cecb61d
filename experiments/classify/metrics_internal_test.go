package classify

import (
	"testing"

	"github.com/runexp/runexp/experiments/internal/kindtest"
)

// TestMetricNames checks the names validate accepts (metricNames) against
// the records of real runs, both ways (kindtest.Metrics): a record's
// metric validate rejects would reject a correct claim, and an accepted
// name no record holds would let a misspelt claim pass validate and never
// be evaluated. Both graphs, with and without the graph diagnostics, two
// (λ, k) points.
func TestMetricNames(t *testing.T) {
	const base = `title: classify metric names
paper: zheng-lpkpca
kind: classify
seed: 2
dataset: {name: synthetic-images, classes: 3, groups: 1, per_cell: 8, width: 6, height: 6}
model: {kernel: gaussian, sigma: 1, components: [4]}
experiment:
  train_per_class: 4
  lambda: [0, 0.05]
  neighbors: [3]
`
	for _, extra := range []string{"", "  graph_stats: true\n", "  graph: labels\n  graph_stats: true\n"} {
		src := base + extra
		recs, _ := kindtest.Run(t, src)
		kindtest.Metrics(t, src, recs)
	}
}
