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
	runner.RegisterDataset(runner.DatasetSpec{
		Name:      "pie68",
		Doc:       "CMU PIE frontal faces, 68 subjects × 42 lightings, 32×32 in [0, 255]; labels are subjects (the experiment splits them)",
		NeedsRoot: true,
		Check: func(s config.Section) error {
			return s.Reader("dataset").Err()
		},
		Shape: func(s config.Section) (runner.Shape, error) {
			return runner.Shape{Points: 68 * 42, Dim: 32 * 32}, s.Reader("dataset").Err()
		},
		Load: func(env *runner.Env, s config.Section) (*runner.Data, error) {
			if err := s.Reader("dataset").Err(); err != nil {
				return nil, err
			}
			root, err := env.Root()
			if err != nil {
				return nil, err
			}
			set, _, err := datasets.LoadPIE68(root)
			if err != nil {
				return nil, err
			}
			return &runner.Data{Train: set}, nil
		},
	})
	runner.RegisterDataset(runner.DatasetSpec{
		Name:      "oilflow",
		Doc:       "Bishop & James's three-phase oil flow data, 1000×12 per split (split: trn | tst | vdn)",
		NeedsRoot: true,
		Check: func(s config.Section) error {
			r := s.Reader("dataset")
			r.String("split", "trn", "trn", "tst", "vdn")
			return r.Err()
		},
		Shape: func(s config.Section) (runner.Shape, error) {
			r := s.Reader("dataset")
			r.String("split", "trn", "trn", "tst", "vdn")
			return runner.Shape{Points: 1000, Dim: 12}, r.Err()
		},
		Load: func(env *runner.Env, s config.Section) (*runner.Data, error) {
			r := s.Reader("dataset")
			split := r.String("split", "trn", "trn", "tst", "vdn")
			if err := r.Err(); err != nil {
				return nil, err
			}
			root, err := env.Root()
			if err != nil {
				return nil, err
			}
			set, err := datasets.LoadOilFlow(root, split)
			if err != nil {
				return nil, err
			}
			return &runner.Data{Train: set}, nil
		},
	})
}
