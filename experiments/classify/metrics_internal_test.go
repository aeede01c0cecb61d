package classify

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/runexp/runexp/experiments/internal/kindtest"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/runner"
)

// TestMetricNames checks the names validate accepts (metricNames) against
// the records of real runs, both ways: a record's metric validate rejects
// would reject a correct claim, and an accepted name no record holds
// would let a misspelt claim pass validate and never be evaluated. Both
// graphs, with and without the graph diagnostics, two (λ, k) points.
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
		c, err := config.Parse("test.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		plan, err := runner.Validate(c)
		if err != nil {
			t.Fatal(err)
		}
		if plan.Kind.Metrics == nil {
			t.Fatal("classify declares no metric names (runner.Kind.Metrics)")
		}
		want := slices.Sorted(maps.Keys(plan.Options.(options).metricNames()))
		for _, name := range want {
			if !plan.Metrics.Match(name) {
				t.Errorf("Kind.Metrics rejects %s", name)
			}
		}
		recs, _ := kindtest.Run(t, src)
		for _, r := range recs {
			if got := slices.Sorted(maps.Keys(r.Metrics)); !slices.Equal(got, want) {
				t.Errorf("experiment options %q: record metrics\n%v\nvalidate accepts\n%v", strings.TrimSpace(extra), got, want)
			}
		}
	}
}
