package catalog

import (
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/runner"
)

func init() {
	runner.RegisterDataset(runner.DefineDataset(runner.Dataset[struct{}]{
		Name:      "orl",
		Doc:       "ORL / AT&T faces (orl/att_faces.zip): 40 subjects × 10 images, 92×112 in [0, 1], labels 1–40",
		NeedsRoot: true,
		Parse:     runner.NoOptions,
		Shape: func(struct{}) runner.Shape {
			return runner.Shape{Points: datasets.ORLSubjects * datasets.ORLImages, Dim: datasets.ORLWidth * datasets.ORLHeight}
		},
		Load: func(_ *runner.Env, root *datasets.Root, _ struct{}) (*runner.Data, error) {
			return train(datasets.LoadORL(root))
		},
	}))
}
