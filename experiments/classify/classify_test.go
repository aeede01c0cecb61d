package classify_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/runexp/runexp/experiments"
	"github.com/runexp/runexp/experiments/internal/kindtest"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// shuffled is the synthetic faces with their class labels permuted by a
// seeded shuffle: the images no longer say anything about the labels.
func init() {
	runner.RegisterDataset(runner.DatasetSpec{
		Name: "classify-test-shuffled",
		Doc:  "synthetic faces with shuffled labels (classify tests)",
		Load: func(env *runner.Env, _ *datasets.Root, _ any) (*runner.Data, error) {
			set, _, err := datasets.SyntheticImages(datasets.SyntheticImagesOptions{Classes: 4, Groups: 2, PerCell: 10, Width: 8, Height: 8, Noise: 0.02}, env.Rand("data"))
			if err != nil {
				return nil, err
			}
			rnd := rand.New(rand.NewPCG(7, 7))
			rnd.Shuffle(len(set.Labels), func(a, b int) { set.Labels[a], set.Labels[b] = set.Labels[b], set.Labels[a] })
			return &runner.Data{Train: set}, nil
		},
	})
}

// 4 subjects × 2 conditions × 10 images: 20 per class, half for training.
const cfg = `title: classify test
paper: zheng-lpkpca
kind: classify
seed: 6
dataset: {name: synthetic-images, classes: 4, groups: 2, per_cell: 10, width: 8, height: 8}
model: {kernel: gaussian, sigma: 1, components: [8, 12]}
experiment:
  train_fraction: 0.5
  splits: 3
  lambda: [0, 0.05]
  neighbors: [3]
  figure: components
  figure_name: acc
`

func run(t *testing.T, src string) ([]report.Record, string) {
	t.Helper()
	recs, sum := kindtest.Run(t, src)
	if sum.Failed != 0 {
		t.Fatalf("%d cells failed", sum.Failed)
	}
	return recs, sum.Dir
}

// Well-separated classes (each a different set of Gaussian blobs, pixel
// noise 0.02) are classified perfectly by both feature sets on every split.
func TestSeparable(t *testing.T) {
	recs, dir := run(t, cfg)
	if len(recs) != 2 {
		t.Fatalf("%d records, want one per component count", len(recs))
	}
	for _, r := range recs {
		m := r.Metrics
		for _, name := range []string{"kpca", "lpkpca_l0_k3", "lpkpca_l0.05_k3"} {
			if m[name] != 100 || m[name+"_std"] != 0 || m[name+"_split1"] != 100 {
				t.Errorf("%v components: %s = %v ± %v (split 1 %v), want 100 ± 0", r.Params["components"], name, m[name], m[name+"_std"], m[name+"_split1"])
			}
			if len(r.Arrays[name]) != 3 {
				t.Errorf("%s: %d splits recorded, want 3", name, len(r.Arrays[name]))
			}
		}
		// Equal accuracies: no gain, LPKPCA never wins, every split and
		// point ties.
		if m["gain_max"] != 0 || m["win_fraction"] != 0 || m["tie_fraction"] != 1 || m["splits"] != 3 {
			t.Errorf("gain_max %v, win_fraction %v, tie_fraction %v, splits %v", m["gain_max"], m["win_fraction"], m["tie_fraction"], m["splits"])
		}
		// Both λ share k = 3: no k sweep, no kbest. The counted
		// operations are positive, LPKPCA's own a fraction of KPCA's.
		if _, ok := m["kbest_l0_k3"]; ok {
			t.Error("kbest recorded without a k sweep")
		}
		if !(m["flops_kpca"] > 0 && m["cost_lpkpca_max"] > 0 && m["cost_lpkpca_max"] < 1 && m["cost_graph_max"] > 0) {
			t.Errorf("flops_kpca %v, cost_lpkpca_max %v, cost_graph_max %v", m["flops_kpca"], m["cost_lpkpca_max"], m["cost_graph_max"])
		}
		if !(m["mean_distance"] > 0) {
			t.Errorf("mean_distance %v", m["mean_distance"])
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "acc.png")); err != nil {
		t.Errorf("figure: %v", err)
	}
	// The table gives each mean with its t half-width over the 3 splits
	// (0: every split scores 100) and LPKPCA's wins over KPCA (none: ties),
	// read in tables.md, whose cells and captions are not wrapped as
	// tables.txt's are at 80 columns.
	b, err := os.ReadFile(filepath.Join(dir, "tables.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"wins", "100 ± 0", "0/3, 3 tied", "Student t-interval over the 3 splits"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("tables.md lacks %q", want)
		}
	}
}

// With shuffled labels the features carry no information: the mean
// per-class accuracy over 3 splits of 40 test images stays near chance
// (25% for 4 classes; the binomial std of one split is √(.25·.75/40) ≈ 7%,
// so 50% is more than 3 std above chance even for one split).
func TestShuffledLabels(t *testing.T) {
	src := strings.Replace(cfg, "{name: synthetic-images, classes: 4, groups: 2, per_cell: 10, width: 8, height: 8}", "{name: classify-test-shuffled}", 1)
	src = strings.Replace(src, "train_fraction: 0.5", "train_per_class: 10", 1)
	recs, _ := run(t, src)
	for _, r := range recs {
		for _, name := range []string{"kpca", "lpkpca_l0_k3"} {
			t.Logf("%v components: %s = %.1f%%", r.Params["components"], name, r.Metrics[name])
			if a := r.Metrics[name]; a > 50 {
				t.Errorf("%v components: %s = %v%% on shuffled labels, want near chance (25%%)", r.Params["components"], name, a)
			}
		}
	}
}

func TestErrors(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	for _, tc := range []struct{ name, old, new, want string }{
		{"both sizes", "train_fraction: 0.5", "train_fraction: 0.5\n  train_per_class: 3", "exactly one"},
		{"lambda", "lambda: [0, 0.05]", "lambda: [-1]", "impossible"},
		{"neighbors", "neighbors: [3]", "neighbors: [0.5]", "impossible"},
		{"no lambda", "  lambda: [0, 0.05]\n", "", "LPKPCA needs lambda"},
		{"kernel", "sigma: 1", "gamma: 1", "classify needs kernel"},
		{"methods", "experiment:", "methods: [{name: identity}]\nexperiment:", "compares KPCA and LPKPCA"},
		{"graph", "neighbors: [3]", "neighbors: [3]\n  graph: labelz", "want one of knn, labels"},
		{"graph_stats", "neighbors: [3]", "neighbors: [3]\n  graph_stats: 1", "want true or false"},
		// The reading options (readings.go), refused at their line.
		{"form", "neighbors: [3]", "neighbors: [3]\n  lpkpca_form: eq24", "test.yaml:12: experiment.lpkpca_form: want one of eq15, eq23"},
		{"vectors", "neighbors: [3]", "neighbors: [3]\n  kernel_vectors: half", "test.yaml:12: experiment.kernel_vectors: want one of centred, raw"},
		{"rate without mixed", "neighbors: [3]", "neighbors: [3]\n  same_rate: 0.5", "test.yaml:12: experiment.same_rate: only graph: mixed"},
		{"mixed without rate", "neighbors: [3]", "neighbors: [3]\n  graph: mixed", "test.yaml:12: experiment.graph: mixed needs same_rate"},
		{"rate range", "neighbors: [3]", "neighbors: [3]\n  graph: mixed\n  same_rate: 1.5", "want a fraction in [0, 1]"},
		{"random per class", "train_fraction: 0.5", "train_per_class: 5\n  split: random", "test.yaml:9: experiment.split: random draws train_fraction"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := config.Parse("test.yaml", []byte(strings.Replace(cfg, tc.old, tc.new, 1)))
			if err == nil {
				_, err = runner.Validate(c)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	// Too many training images per class is an error of the split.
	c, err := config.Parse("test.yaml", []byte(strings.Replace(cfg, "train_fraction: 0.5", "train_per_class: 20", 1)))
	if err != nil {
		t.Fatal(err)
	}
	plan, err := runner.Validate(c)
	if err != nil {
		t.Fatal(err)
	}
	_, err = plan.Kind.Start(runner.NewEnv(c, "", nil), plan.Options)
	if err == nil || !strings.Contains(err.Error(), "leaves no test or no training image") {
		t.Errorf("error %v, want the split's", err)
	}
}
