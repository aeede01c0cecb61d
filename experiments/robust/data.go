package robust

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/experiments/internal/common"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/runner"
)

func start(env *runner.Env, o options) (runner.Instance, error) {
	set, err := common.LabelledTrain(env, "(subjects) to split by")
	if err != nil {
		return nil, err
	}
	in := &instance{env: env, opt: o, set: set}
	sp := datasets.GroupDisjoint(set.Labels, o.split, env.Rand("split"))
	for s := range 3 {
		in.counts[s], in.subjects[s] = len(sp.Parts[s]), sp.Groups[s]
	}
	parts := sp.Parts
	if len(parts[1]) == 0 || len(parts[2]) == 0 || len(parts[0]) < 2 {
		return nil, fmt.Errorf("the subject split left an empty set (%d/%d/%d images)", len(parts[0]), len(parts[1]), len(parts[2]))
	}
	in.train = datasets.SelectRows(set, "", parts[0]).X
	in.val = datasets.SelectRows(set, "", parts[1]).X
	in.test = datasets.SelectRows(set, "", parts[2]).X
	if err := in.corrupt(); err != nil {
		return nil, err
	}
	in.valX = stack(in.conds, func(c *condition) *mat.Dense { return c.val.noisy })
	in.testX = stack(in.conds, func(c *condition) *mat.Dense { return c.test.noisy })
	nt, _ := in.test.Dims()
	in.exRows = pickRows(nt, o.examples)
	return in, nil
}

// corrupt builds the conditions: one per occlusion size, each a square of
// the paper's share of the face filled with U[0, 255] values, or the
// config's Gaussian noise. Image i of a set draws from its own stream
// ("occlusion/<set>/<condition>/<i>" or "noise/<set>/<i>").
func (in *instance) corrupt() error {
	env, o := in.env, in.opt
	w, h := in.set.Width, in.set.Height
	if len(o.paperSides) == 0 {
		cr, err := common.CorruptionOf(env.Config, in.set)
		if err != nil {
			return err
		}
		c := condition{}
		if c.val, err = in.corruptSet("noise/val", in.val, cr); err != nil {
			return err
		}
		if c.test, err = in.corruptSet("noise/test", in.test, cr); err != nil {
			return err
		}
		in.conds = append(in.conds, c)
		return nil
	}
	if w == 0 || h == 0 {
		return fmt.Errorf("occlusions need images, and dataset %s has no image size", in.set.Name)
	}
	for i, ps := range o.paperSides {
		side := int(math.Round(math.Sqrt(o.paperFracs[i] * float64(w*h))))
		if side < 1 || side > min(w, h) {
			return env.Config.Experiment.Errorf("occlusion_paper_fractions", "experiment: fraction %g gives a %d px square on %d×%d images", o.paperFracs[i], side, w, h)
		}
		cr := datasets.Corruption{Kind: datasets.UniformOcclusion, MinSide: side, MaxSide: side, Fill: 255}
		c := condition{name: condName(ps), paperSide: ps, side: side, paperFrac: o.paperFracs[i]}
		var err error
		if c.val, err = in.corruptSet("occlusion/val/"+c.name, in.val, cr); err != nil {
			return err
		}
		if c.test, err = in.corruptSet("occlusion/test/"+c.name, in.test, cr); err != nil {
			return err
		}
		in.conds = append(in.conds, c)
	}
	return nil
}

// corruptSet corrupts every row of clean by cr, row i from the stream
// "<purpose>/<i>", and for an occlusion records the pixels it covers.
func (in *instance) corruptSet(purpose string, clean *mat.Dense, cr datasets.Corruption) (corrupted, error) {
	w, h := in.set.Width, in.set.Height
	f, err := cr.Func(w, h)
	if err != nil {
		return corrupted{}, err
	}
	stream := func(i int) *rand.Rand { return in.env.Rand(fmt.Sprintf("%s/%d", purpose, i)) }
	c := corrupted{noisy: datasets.CorruptRows(clean, f, stream)}
	if cr.Kind == datasets.UniformOcclusion {
		n, _ := clean.Dims()
		c.region = make([][]bool, n)
		for i := range n {
			c.region[i] = cr.Region(w, h, stream(i))
		}
	}
	return c, nil
}
