package common

import (
	"fmt"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/runner"
)

// Corrupted is a corrupted copy of a data set (datasets.Corrupted).
type Corrupted = datasets.Corrupted

// CorruptionOf describes the config's corruption for the datasets package.
// For an occlusion it checks that corruption.max_side fits set's images
// and reports it at the config line.
func CorruptionOf(c *config.Config, set *datasets.Set) (datasets.Corruption, error) {
	cr := c.Corruption
	out := datasets.Corruption{Std: cr.Std, MinSide: cr.MinSide, MaxSide: cr.MaxSide, Stretch: cr.Stretch, Clip: cr.Clip, Copies: cr.Copies}
	switch cr.Type {
	case "none":
		out.Kind = datasets.NoCorruption
	case "gaussian":
		out.Kind = datasets.GaussianNoise
	case "occlusion":
		out.Kind = datasets.BlackOcclusion
		if set.Width == 0 || set.Height == 0 {
			return out, fmt.Errorf("occlusion needs images, and dataset %s has no image size", set.Name)
		}
		if cr.MaxSide > set.Width || cr.MaxSide > set.Height {
			return out, cr.Options.Errorf("max_side", "corruption.max_side %d does not fit the %d×%d images", cr.MaxSide, set.Width, set.Height)
		}
	default:
		return out, fmt.Errorf("unknown corruption %q", cr.Type)
	}
	return out, nil
}

// Corrupt applies the config's corruption to every row of set, copies
// times, each image and copy with its own stream derived from the root seed
// (datasets.Corruption.Apply): an image's corruption never depends on the
// order or number of the others.
func Corrupt(env *runner.Env, set *datasets.Set) (*Corrupted, error) {
	cr, err := CorruptionOf(env.Config, set)
	if err != nil {
		return nil, err
	}
	return cr.Apply(set, runner.DeriveSeed(env.Config.Seed, "corruption"))
}

// CorruptRepeats applies the config's corruption max(repeats, 1) times,
// draw r with the seed runner.RepeatSeed(root, r): draw 0 is Corrupt's.
// Every method's cell sees the same draws, so per-item errors are paired
// across methods within a draw.
func CorruptRepeats(env *runner.Env, set *datasets.Set) ([]*Corrupted, error) {
	cr, err := CorruptionOf(env.Config, set)
	if err != nil {
		return nil, err
	}
	out := make([]*Corrupted, max(env.Config.Repeats, 1))
	for r := range out {
		if out[r], err = cr.Apply(set, runner.RepeatSeed(env.Config.Seed, r)); err != nil {
			return nil, err
		}
	}
	return out, nil
}
