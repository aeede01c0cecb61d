package classify_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/runner"
)

// TestValidateMetricNames: validate rejects a claim or a reference value
// naming a metric classify never records for the config, at its
// file:line (issue 13), and accepts the same config once the name exists
// (λ = 0.5 added to the sweep; graph_stats turned on).
func TestValidateMetricNames(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	for _, tc := range []struct{ file, want, fix, fixed string }{
		{"bad-claim-metric.yaml", `bad-claim-metric.yaml:20: claim unknown-lambda: metric: "lpkpca_l0.5_k3" is not a metric this experiment records`,
			"lambda: [0, 0.05]", "lambda: [0, 0.05, 0.5]"},
		{"bad-reference-metric.yaml", `bad-reference-metric.yaml:16: reference[1]: metric "same_label_k3" is not a metric this experiment records`,
			"neighbors: [3]", "neighbors: [3]\n  graph_stats: true"},
	} {
		path := filepath.Join("testdata", tc.file)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		c, err := config.Parse(path, src)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := runner.Validate(c); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.file, err, tc.want)
		}
		c, err = config.Parse(path, []byte(strings.Replace(string(src), tc.fix, tc.fixed, 1)))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := runner.Validate(c); err != nil {
			t.Errorf("%s with %q: %v, want valid", tc.file, tc.fixed, err)
		}
	}
}
