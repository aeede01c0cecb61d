package lgdenoise

import (
	"slices"
	"testing"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/runner"
)

// TestExampleOrder checks Fig. 7's column order (issue 39): the groups the
// reference values name, in the order named (huang-table1.yaml names
// normal, happy, surprised, sleepy: Table 1's rows), then the others in
// the data's order, every group once.
func TestExampleOrder(t *testing.T) {
	in := &instance{
		env:    &runner.Env{Config: &config.Config{Reference: []config.Reference{{Metric: "noisy_ape_normal"}, {Metric: "ape_mean_normal"}, {Metric: "ape_mean_happy"}, {Metric: "snr_mean_surprised"}, {Metric: "ape_std_sleepy"}}}},
		groups: []string{"centerlight", "glasses", "happy", "leftlight", "normal", "sleepy", "surprised"},
	}
	// normal 4, happy 2, surprised 6, sleepy 5, then 0, 1, 3.
	if got, want := in.exampleOrder(), []int{4, 2, 6, 5, 0, 1, 3}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	in.env.Config.Reference = nil
	if got, want := in.exampleOrder(), []int{0, 1, 2, 3, 4, 5, 6}; !slices.Equal(got, want) {
		t.Errorf("without references: order %v, want %v", got, want)
	}
}
