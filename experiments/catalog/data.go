package catalog

import (
	"fmt"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/runner"
)

func init() {
	runner.RegisterDataset(runner.DefineDataset(runner.Dataset[datasets.RingsOptions]{
		Name:  "two-rings",
		Doc:   "synthetic two noisy (partial) rings in 2-D (Abrahamsen & Hansen Figs. 2–3); seeded, needs no data",
		Parse: ringsOptions,
		// The drawn points, in the plane.
		Shape: func(o datasets.RingsOptions) runner.Shape { return runner.Shape{Points: o.N, Dim: 2} },
		Load: func(env *runner.Env, _ *datasets.Root, o datasets.RingsOptions) (*runner.Data, error) {
			set, err := datasets.TwoRings(o, env.Rand("data"))
			return train(set, err)
		},
	}))
	runner.RegisterDataset(runner.DefineDataset(runner.Dataset[uspsOpts]{
		Name:      "usps",
		Doc:       "USPS digits (ESL zip.train.gz / zip.test.gz), 16×16 in [−1, 1]; seeded choice per digit",
		NeedsRoot: true,
		Parse:     uspsOptions,
		Shape:     uspsShape,
		Load:      loadUSPS,
	}))
	runner.RegisterDataset(runner.DefineDataset(runner.Dataset[datasets.YaleBOptions]{
		Name:      "yaleb",
		Doc:       "Extended Yale B cropped faces (CroppedYale PGMs) by illumination subset, resized, in [0, 1]",
		NeedsRoot: true,
		Parse:     yalebOptions,
		Shape:     yalebShape,
		Load: func(env *runner.Env, root *datasets.Root, o datasets.YaleBOptions) (*runner.Data, error) {
			set, imgs, err := datasets.LoadYaleB(root, o)
			if err != nil {
				return nil, err
			}
			env.Log.Info("loaded Yale B", "images", len(imgs), "subsets", o.Subsets, "size", fmt.Sprintf("%d×%d", set.Width, set.Height))
			return &runner.Data{Train: set}, nil
		},
	}))
}

// train is the data of a dataset without a test set: set, or err.
func train(set *datasets.Set, err error) (*runner.Data, error) {
	if err != nil {
		return nil, err
	}
	return &runner.Data{Train: set}, nil
}

// loadUSPS draws the digits and scales them.
func loadUSPS(env *runner.Env, root *datasets.Root, o uspsOpts) (*runner.Data, error) {
	tr, te, err := datasets.LoadUSPS(root, o.USPSOptions, env.Rand("data"))
	if err != nil {
		return nil, err
	}
	// The files hold [−1, 1] with background −1; scale: [0, 1] puts the
	// background at 0, where an ℓ1 penalty means "blank".
	for _, set := range []*datasets.Set{tr, te} {
		if err := datasets.Rescale(set.X, [2]float64{-1, 1}, [2]float64{o.lo, o.hi}); err != nil {
			return nil, err
		}
	}
	return &runner.Data{Train: tr, Test: te}, nil
}

// yaleBPerSubset is the number of lightings of each illumination subset
// in the 64 of Extended Yale B (Georghiades et al. 2001: 7, 12, 12, 14,
// 19); yaleBSubjects the subjects of the cropped set (yaleB01–13, 15–39).
var yaleBPerSubset = [6]int{1: 7, 2: 12, 3: 12, 4: 14, 5: 19}

const yaleBSubjects = 38

// yalebShape bounds the Yale B selection from above: every lighting of
// the selected subsets for every selected subject (the data root's bad
// and missing images only make it smaller).
func yalebShape(o datasets.YaleBOptions) runner.Shape {
	per := 0
	for _, k := range o.Subsets {
		per += yaleBPerSubset[k]
	}
	subj := len(o.Subjects)
	if subj == 0 {
		subj = yaleBSubjects
	}
	w, h := datasets.YaleBWidth, datasets.YaleBHeight
	if o.Width > 0 {
		w, h = o.Width, o.Height
	}
	return runner.Shape{Points: subj * per, Dim: runner.Product(w, h)}
}

// checkResize returns r's error, or else an error where width and height,
// the size to resize images to, are not both given or both left out (0).
func checkResize(s config.Section, r *config.Reader, width, height int) error {
	if err := r.Err(); err != nil {
		return err
	}
	if (width == 0) != (height == 0) {
		return s.Errorf("width", "dataset: give both width and height to resize, or neither")
	}
	return nil
}

func intList(s config.Section, r *config.Reader, key string, def []int, lo, hi int) ([]int, error) {
	vals := r.Floats(key, nil, -1)
	if vals == nil {
		return def, nil
	}
	out := make([]int, len(vals))
	for i, v := range vals {
		if v != float64(int(v)) || int(v) < lo || int(v) > hi {
			return nil, s.Errorf(key, "dataset.%s: want integers in [%d, %d], got %v", key, lo, hi, vals)
		}
		out[i] = int(v)
	}
	return out, nil
}

// yalebOptions reads the Yale B options; subsets are those of Georghiades
// et al. by the light's angle from the camera axis (subset 1 ≤ 12°).
func yalebOptions(s config.Section) (datasets.YaleBOptions, error) {
	r := s.Reader("dataset")
	var o datasets.YaleBOptions
	var err error
	if o.Subsets, err = intList(s, r, "subsets", []int{1}, 1, 5); err != nil {
		return o, err
	}
	if o.Subjects, err = intList(s, r, "subjects", nil, 1, 39); err != nil {
		return o, err
	}
	o.Width = r.Int("width", 0, 1)
	o.Height = r.Int("height", 0, 1)
	return o, checkResize(s, r, o.Width, o.Height)
}

// ringsOptions reads the two-rings options; the defaults are our reading
// of Fig. 2 (the paper gives no radii, noise or arcs: ambiguity a9).
func ringsOptions(s config.Section) (datasets.RingsOptions, error) {
	r := s.Reader("dataset")
	var o datasets.RingsOptions
	o.N = r.Int("n", 500, 2)
	pos := func(v float64) bool { return v > 0 }
	radii := r.Floats("radii", []float64{1, 2}, 2)
	o.Noise = r.Float("noise", 0.1, func(v float64) bool { return v >= 0 }, "a standard deviation ≥ 0")
	start := r.Floats("arc_start", []float64{0, 0}, 2)
	end := r.Floats("arc_end", []float64{360, 360}, 2)
	centre := r.Floats("centre", []float64{0, 0}, 2)
	if err := r.Err(); err != nil {
		return o, err
	}
	for i := 0; i < 2; i++ {
		if !pos(radii[i]) {
			return o, s.Errorf("radii", "dataset.radii: %v is impossible, want radii > 0", radii[i])
		}
		if l := end[i] - start[i]; l <= 0 || l > 360 {
			return o, s.Errorf("arc_end", "dataset: ring %d arc from %v° to %v° is impossible, want a length in (0, 360]", i, start[i], end[i])
		}
		o.Radii[i], o.ArcStart[i], o.ArcEnd[i] = radii[i], start[i], end[i]
	}
	o.Centre = [2]float64{centre[0], centre[1]}
	return o, nil
}

type uspsOpts struct {
	datasets.USPSOptions
	lo, hi float64 // the pixel range after scaling
}

// uspsShape is the drawn digits: the training and test images of each.
func uspsShape(o uspsOpts) runner.Shape {
	n := runner.Product(len(o.Digits), o.TrainPerDigit) + runner.Product(len(o.Digits), o.TestPerDigit)
	return runner.Shape{Points: n, Dim: datasets.USPSSide * datasets.USPSSide}
}

func uspsOptions(s config.Section) (uspsOpts, error) {
	r := s.Reader("dataset")
	var o uspsOpts
	digits := r.Floats("digits", []float64{0, 2, 4, 9}, -1)
	o.TrainPerDigit = r.Int("train_per_digit", 100, 1)
	o.TestPerDigit = r.Int("test_per_digit", 100, 1)
	scale := r.Floats("scale", []float64{-1, 1}, 2)
	if err := r.Err(); err != nil {
		return o, err
	}
	o.lo, o.hi = scale[0], scale[1]
	if !(o.hi > o.lo) {
		return o, s.Errorf("scale", "dataset.scale: want [low, high] with low < high, got %v", scale)
	}
	seen := map[int]bool{}
	for _, d := range digits {
		if d != float64(int(d)) || d < 0 || d > 9 || seen[int(d)] {
			return o, s.Errorf("digits", "dataset.digits: want distinct digits 0–9, got %v", digits)
		}
		seen[int(d)] = true
		o.Digits = append(o.Digits, int(d))
	}
	return o, nil
}
