package robust

import (
	"math"

	"github.com/runexp/runexp/experiments/internal/common"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/methods"
)

// tuneSpec is one method's validation grid.
type tuneSpec struct {
	label  string
	widths []float64      // kernel widths; nil keeps the cell's
	params config.Section // estimator parameters: lists are grid axes
	points []tunePoint    // the expanded grid, bound by check
}

// tunePoint is one point of a validation grid: the values as written (for
// the tuned_<name> metrics) and bound by the estimator's declaration.
type tunePoint struct {
	raw   map[string]any
	bound methods.Params // the tuned parameters only
}

type options struct {
	split      []int
	paperSides []int
	paperFracs []float64
	tunes      map[string]*tuneSpec
	examples   int
	figureName string
}

func parse(c *config.Config) (options, error) {
	s := c.Experiment
	r := s.Reader("experiment")
	o := options{tunes: map[string]*tuneSpec{}}
	split := r.Floats("split", []float64{700, 100, 300}, 3)
	for _, v := range split {
		if v < 1 || v != math.Trunc(v) {
			r.Fail("split", "want three positive image counts (train, validation, test), got %v", split)
		}
		o.split = append(o.split, int(v))
	}
	sides := r.Floats("occlusion_paper_sides", nil, -1)
	o.paperFracs = r.Floats("occlusion_paper_fractions", nil, -1)
	for _, v := range sides {
		o.paperSides = append(o.paperSides, int(v))
	}
	for _, f := range o.paperFracs {
		if !(f > 0 && f < 1) {
			r.Fail("occlusion_paper_fractions", "want fractions in (0, 1), got %v", o.paperFracs)
		}
	}
	o.examples = r.Int("examples", 0, 0)
	o.figureName = r.String("figure_name", "images")
	r.Touch("tune")
	if err := r.Err(); err != nil {
		return o, err
	}
	if len(o.paperSides) != len(o.paperFracs) {
		return o, s.Errorf("occlusion_paper_fractions", "experiment: occlusion_paper_sides and occlusion_paper_fractions need the same length (%d and %d)", len(o.paperSides), len(o.paperFracs))
	}
	occl := len(o.paperSides) > 0
	switch {
	case occl && c.Corruption.Type != "none":
		return o, c.Errorf(0, "corruption: the robust kind draws its own occlusions (experiment.occlusion_paper_sides); set corruption.type: none")
	case !occl && c.Corruption.Type != "gaussian":
		return o, c.Errorf(0, "corruption: without experiment.occlusion_paper_sides the robust kind needs corruption.type: gaussian")
	case c.Corruption.Copies != 1:
		return o, c.Errorf(0, "corruption: the robust kind corrupts each image once; remove corruption.copies")
	}
	return o, parseTune(c, &o)
}

// parseTune reads experiment.tune: a list of {method: label, <param>:
// [values]}, the model's width name among the params giving kernel widths.
func parseTune(c *config.Config, o *options) error {
	s := c.Experiment
	v, ok := s.Values["tune"]
	if !ok {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		return s.Errorf("tune", "experiment.tune: want a list of {method: label, <param>: [values]}")
	}
	for i, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			return s.Errorf("tune", "experiment.tune[%d]: want a mapping", i)
		}
		label, ok := m["method"].(string)
		if !ok {
			return s.Errorf("tune", "experiment.tune[%d]: want method: <a method label of the config>", i)
		}
		ts := &tuneSpec{label: label, params: config.Section{Values: map[string]any{}}}
		for k, x := range m {
			switch {
			case k == "method":
			case k == c.Model.WidthName && k != "":
				vals, ok := x.([]any)
				if !ok {
					vals = []any{x}
				}
				for _, w := range vals {
					f := common.Num(w)
					if !(f > 0) {
						return s.Errorf("tune", "experiment.tune[%d].%s: want widths > 0, got %v", i, k, w)
					}
					ts.widths = append(ts.widths, f)
				}
			default:
				ts.params.Values[k] = x
			}
		}
		if _, dup := o.tunes[label]; dup {
			return s.Errorf("tune", "experiment.tune: method %q tuned twice", label)
		}
		o.tunes[label] = ts
	}
	return nil
}

// methodLabel is a method's label in records: its own, or its estimator's
// title from the registry.
func methodLabel(m *config.Method) string {
	if m.Label != "" {
		return m.Label
	}
	if spec, ok := methods.Lookup(m.Name); ok {
		return spec.Title
	}
	return ""
}

func check(c *config.Config) (options, error) {
	o, err := parse(c)
	if err != nil {
		return o, err
	}
	if len(c.Model.Energy) == 0 {
		return o, c.ModelErrorf("model: the robust kind chooses subspaces by energy (model.energy)")
	}
	labels := map[string]*config.Method{}
	for i := range c.Methods {
		labels[methodLabel(&c.Methods[i])] = &c.Methods[i]
	}
	for label, ts := range o.tunes {
		m, ok := labels[label]
		if !ok {
			return o, c.Experiment.Errorf("tune", "experiment.tune: no method labelled %q", label)
		}
		spec, ok := methods.Lookup(m.Name)
		if !ok {
			continue // reported by the runner
		}
		if err := ts.bind(spec, m); err != nil {
			return o, c.Experiment.Errorf("tune", "experiment.tune (%s): %v", label, err)
		}
	}
	return o, nil
}

// bind expands the grid as config expands a method's parameter grid and
// binds each point once, beside the first value of each of the method's
// own parameters (the tuned values replace the cell's at run time, and a
// parameter's binding does not depend on the others).
func (ts *tuneSpec) bind(spec *methods.Spec, m *config.Method) error {
	ts.points = nil
	grid := config.Method{Name: m.Name, Label: ts.label, Params: ts.params}
	for _, pt := range grid.Expand(0) {
		raw := map[string]any{}
		for k, v := range m.Params.Values {
			if l, ok := v.([]any); ok && len(l) > 0 {
				v = l[0]
			}
			raw[k] = v
		}
		for k, v := range pt.Params {
			raw[k] = v
		}
		p, err := spec.Bind(raw)
		if err != nil {
			return err
		}
		tp := tunePoint{raw: pt.Params, bound: methods.Params{}}
		for k := range pt.Params {
			tp.bound[k] = p[k]
		}
		ts.points = append(ts.points, tp)
	}
	return nil
}
