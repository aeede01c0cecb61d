package catalog

import (
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/runner"
)

func init() {
	runner.RegisterDataset(runner.DatasetSpec{
		Name:      "orl",
		Doc:       "ORL / AT&T faces (orl/att_faces.zip): 40 subjects × 10 images, 92×112 in [0, 1], labels 1–40",
		NeedsRoot: true,
		Check: func(s config.Section) error {
			return s.Reader("dataset").Err()
		},
		Shape: func(s config.Section) (runner.Shape, error) {
			return runner.Shape{Points: datasets.ORLSubjects * datasets.ORLImages, Dim: datasets.ORLWidth * datasets.ORLHeight}, s.Reader("dataset").Err()
		},
		Load: func(env *runner.Env, s config.Section) (*runner.Data, error) {
			if err := s.Reader("dataset").Err(); err != nil {
				return nil, err
			}
			root, err := env.Root()
			if err != nil {
				return nil, err
			}
			set, err := datasets.LoadORL(root)
			if err != nil {
				return nil, err
			}
			return &runner.Data{Train: set}, nil
		},
	})
}
