package catalog

import (
	"fmt"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/runner"
)

// The original Yale B frontal faces (10 subjects, 50×50 PNGs): a second
// stand-in for the LPKPCA paper's Yale B, beside CroppedYale
// ("yaleb").
func init() {
	runner.RegisterDataset(runner.DefineDataset(runner.Dataset[datasets.YaleBOrigOptions]{
		Name:      "yaleb-orig",
		Doc:       "original Yale B frontal faces (yaleBfaces.zip): 10 subjects × 64 lightings in illumination subsets 1–5, 50×50, resized, in [0, 1]",
		NeedsRoot: true,
		Parse:     yalebOrigOptions,
		Shape:     yalebOrigShape,
		Load: func(env *runner.Env, root *datasets.Root, o datasets.YaleBOrigOptions) (*runner.Data, error) {
			set, err := datasets.LoadYaleBOrig(root, o)
			if err != nil {
				return nil, err
			}
			env.Log.Info("loaded original Yale B", "images", set.X.RawMatrix().Rows, "subsets", o.Subsets, "size", fmt.Sprintf("%d×%d", set.Width, set.Height))
			return &runner.Data{Train: set}, nil
		},
	}))
}

func yalebOrigOptions(s config.Section) (datasets.YaleBOrigOptions, error) {
	r := s.Reader("dataset")
	var o datasets.YaleBOrigOptions
	var err error
	if o.Subsets, err = intList(s, r, "subsets", []int{1, 2, 3, 4, 5}, 1, 5); err != nil {
		return o, err
	}
	o.Width = r.Int("width", 0, 1)
	o.Height = r.Int("height", 0, 1)
	return o, checkResize(s, r, o.Width, o.Height)
}

// yalebOrigShape is the selection's exact size: every subject has every
// lighting of its subsets (LoadYaleBOrig checks it).
func yalebOrigShape(o datasets.YaleBOrigOptions) runner.Shape {
	per := 0
	for _, k := range o.Subsets {
		per += yaleBPerSubset[k]
	}
	w, h := datasets.YaleBOrigWidth, datasets.YaleBOrigHeight
	if o.Width > 0 {
		w, h = o.Width, o.Height
	}
	return runner.Shape{Points: datasets.YaleBOrigSubjects * per, Dim: runner.Product(w, h)}
}
