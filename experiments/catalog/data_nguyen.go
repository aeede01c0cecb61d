package catalog

import (
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/runner"
)

// Datasets of Nguyen & De la Torre's reproduction: the frontal CMU PIE
// faces (for Fig. 5 and Table 2, split by the robust kind) and Oil Flow
// (Table 1).
func init() {
	runner.RegisterDataset(runner.DefineDataset(runner.Dataset[struct{}]{
		Name:      "pie68",
		Doc:       "CMU PIE frontal faces, 68 subjects × 42 lightings, 32×32 in [0, 255]; labels are subjects (the experiment splits them)",
		NeedsRoot: true,
		Parse:     runner.NoOptions,
		Shape:     func(struct{}) runner.Shape { return runner.Shape{Points: 68 * 42, Dim: 32 * 32} },
		Load: func(_ *runner.Env, root *datasets.Root, _ struct{}) (*runner.Data, error) {
			set, _, err := datasets.LoadPIE68(root)
			return train(set, err)
		},
	}))
	runner.RegisterDataset(runner.DefineDataset(runner.Dataset[string]{
		Name:      "oilflow",
		Doc:       "Bishop & James's three-phase oil flow data, 1000×12 per split (split: trn | tst | vdn)",
		NeedsRoot: true,
		Parse: func(s config.Section) (string, error) {
			r := s.Reader("dataset")
			split := r.String("split", "trn", "trn", "tst", "vdn")
			return split, r.Err()
		},
		Shape: func(string) runner.Shape { return runner.Shape{Points: 1000, Dim: 12} },
		Load: func(_ *runner.Env, root *datasets.Root, split string) (*runner.Data, error) {
			return train(datasets.LoadOilFlow(root, split))
		},
	}))
}
