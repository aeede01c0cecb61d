package catalog

import (
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/runner"
)

// synthetic-images is a small seeded labelled image set (subjects ×
// conditions) that needs no data root, so that every experiment kind runs
// start, Run and Report in the default tests.
func init() {
	runner.RegisterDataset(runner.DefineDataset(runner.Dataset[syntheticOpts]{
		Name:  "synthetic-images",
		Doc:   "seeded synthetic faces: classes × groups (lighting, shift) × per_cell images, needs no data; labels = class or group; test_per_cell holds images out as a test set",
		Parse: syntheticOptions,
		Shape: func(o syntheticOpts) runner.Shape {
			return runner.Shape{Points: runner.Product(o.Classes, o.Groups, o.PerCell), Dim: runner.Product(o.Width, o.Height)}
		},
		Load: loadSynthetic,
	}))
}

type syntheticOpts struct {
	datasets.SyntheticImagesOptions
	labels string // "class" or "group"
	test   int    // images of each (class, group) held out as the test set
	lo, hi float64
}

func syntheticOptions(s config.Section) (syntheticOpts, error) {
	r := s.Reader("dataset")
	var o syntheticOpts
	o.Classes = r.Int("classes", 4, 1)
	o.Groups = r.Int("groups", 3, 1)
	o.PerCell = r.Int("per_cell", 3, 1)
	o.Width = r.Int("width", 8, 2)
	o.Height = r.Int("height", 8, 2)
	o.Noise = r.Float("noise", 0.02, func(v float64) bool { return v >= 0 }, "a standard deviation ≥ 0")
	o.labels = r.String("labels", "class", "class", "group")
	o.test = r.Int("test_per_cell", 0, 0)
	scale := r.Floats("scale", []float64{0, 1}, 2)
	if err := r.Err(); err != nil {
		return o, err
	}
	o.lo, o.hi = scale[0], scale[1]
	if !(o.hi > o.lo) {
		return o, s.Errorf("scale", "dataset.scale: want [low, high] with low < high, got %v", scale)
	}
	if o.test >= o.PerCell {
		return o, s.Errorf("test_per_cell", "dataset.test_per_cell: %d leaves no training image of %d per cell", o.test, o.PerCell)
	}
	return o, nil
}

func loadSynthetic(env *runner.Env, _ *datasets.Root, o syntheticOpts) (*runner.Data, error) {
	set, info, err := datasets.SyntheticImages(o.SyntheticImagesOptions, env.Rand("data"))
	if err != nil {
		return nil, err
	}
	if err := datasets.Rescale(set.X, [2]float64{0, 1}, [2]float64{o.lo, o.hi}); err != nil {
		return nil, err
	}
	if o.labels == "group" {
		set.LabelNames = nil
		for i, in := range info {
			set.Labels[i] = in.Group
		}
		for g := 0; g < o.Groups; g++ {
			set.LabelNames = append(set.LabelNames, "group"+string(rune('A'+g%26)))
		}
	}
	if o.test == 0 {
		return &runner.Data{Train: set}, nil
	}
	// The last test_per_cell copies of every (class, group) are the test set.
	var tr, te []int
	for i := range info {
		if i%o.PerCell >= o.PerCell-o.test {
			te = append(te, i)
		} else {
			tr = append(tr, i)
		}
	}
	return &runner.Data{Train: datasets.SelectRows(set, "synthetic-train", tr), Test: datasets.SelectRows(set, "synthetic-test", te)}, nil
}
