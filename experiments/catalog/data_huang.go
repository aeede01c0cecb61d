package catalog

import (
	"fmt"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/runner"
)

// Data sets of Huang, Tian & De la Torre (2011): the original Yale faces
// (de-noising by condition) and the 10-subject CMU PIE 32×32 (expressions
// for de-noising, the 5 poses × 21 flashes for kernel k-means).

func init() {
	runner.RegisterDataset(runner.DefineDataset(runner.Dataset[yaleFacesOpts]{
		Name:      "yalefaces",
		Doc:       "original Yale faces (15 subjects × 11 conditions, GIF), row 0 cropped, in [0, 1]; labels = condition or subject",
		NeedsRoot: true,
		Parse:     yaleFacesOptions,
		Shape:     yaleFacesShape,
		Load:      loadYaleFaces,
	}))
	runner.RegisterDataset(runner.DefineDataset(runner.Dataset[datasets.PIE10Selection]{
		Name:      "pie10",
		Doc:       "CMU PIE 32×32, first 10 subjects (5 poses): expressions (indices 0–14) or 5 poses × 21 flashes (15–119), in [0, 1]; labels = expression, pose or subject",
		NeedsRoot: true,
		Parse:     pieOptions,
		Shape:     pieShape,
		Load: func(env *runner.Env, root *datasets.Root, o datasets.PIE10Selection) (*runner.Data, error) {
			all, info, err := datasets.LoadPIE10(root)
			if err != nil {
				return nil, err
			}
			set, err := datasets.SelectPIE10(all, info, o)
			if err != nil {
				return nil, err
			}
			n, _ := set.X.Dims()
			env.Log.Info("loaded CMU PIE", "images", n, "subset", o.Subset, "labels", o.Labels)
			return &runner.Data{Train: set}, nil
		},
	}))
}

// loadYaleFaces reads the faces and labels them by condition or subject.
func loadYaleFaces(env *runner.Env, root *datasets.Root, o yaleFacesOpts) (*runner.Data, error) {
	set, faces, err := datasets.LoadYaleFaces(root, o.YaleFacesOptions)
	if err != nil {
		return nil, err
	}
	if o.labels == "condition" {
		for i, f := range faces {
			set.Labels[i] = f.Group
		}
		set.LabelNames = datasets.YaleFacesConditions
	} else {
		set.LabelNames = nil
		for s := 1; s <= 15; s++ {
			set.LabelNames = append(set.LabelNames, fmt.Sprintf("subject%02d", s))
		}
	}
	env.Log.Info("loaded Yale faces", "images", len(faces), "size", fmt.Sprintf("%d×%d", set.Width, set.Height), "labels", o.labels)
	return &runner.Data{Train: set}, nil
}

// yaleFacesShape: 15 × 11 files, 156 distinct (PROVENANCE.md), row 0
// cropped.
func yaleFacesShape(o yaleFacesOpts) runner.Shape {
	n, w, h := 165, datasets.YaleFacesWidth, datasets.YaleFacesHeight-1
	if o.Dedupe {
		n = 156
	}
	if o.Width > 0 {
		w, h = o.Width, o.Height
	}
	return runner.Shape{Points: n, Dim: runner.Product(w, h)}
}

// pieShape: 15 expression images or 5 poses × 21 flashes a subject
// (PROVENANCE.md's index map), of 32×32.
func pieShape(o datasets.PIE10Selection) runner.Shape {
	per := map[string]int{"expression": 15, "poses": 105}[o.Subset]
	subj := len(o.Subjects)
	if subj == 0 {
		subj = 10
	}
	return runner.Shape{Points: subj * per, Dim: 32 * 32}
}

// yaleFacesOpts are the Yale faces options and the labels asked for.
type yaleFacesOpts struct {
	datasets.YaleFacesOptions
	labels string // "condition" or "subject"
}

func yaleFacesOptions(s config.Section) (yaleFacesOpts, error) {
	r := s.Reader("dataset")
	var o yaleFacesOpts
	o.Width = r.Int("width", 0, 1)
	o.Height = r.Int("height", 0, 1)
	o.Dedupe = r.Bool("dedupe", true)
	o.labels = r.String("labels", "condition", "condition", "subject")
	return o, checkResize(s, r, o.Width, o.Height)
}

// pieOptions reads the pie10 options; labels default to the subset's own
// (expression for expression, pose for poses).
func pieOptions(s config.Section) (datasets.PIE10Selection, error) {
	r := s.Reader("dataset")
	o := datasets.PIE10Selection{
		Subset: r.String("subset", "expression", "expression", "poses"),
		Labels: r.String("labels", "", "expression", "pose", "subject"),
	}
	var err error
	if o.Subjects, err = intList(s, r, "subjects", nil, 0, 9); err != nil {
		return o, err
	}
	if err := r.Err(); err != nil {
		return o, err
	}
	if o.Labels == "" {
		o.Labels = map[string]string{"expression": "expression", "poses": "pose"}[o.Subset]
	}
	if o.Labels == "expression" && o.Subset != "expression" {
		return o, s.Errorf("labels", "dataset.labels: expression labels need subset: expression")
	}
	return o, nil
}
