package datasets

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// CorruptionKind names a corruption of Corruption.
type CorruptionKind uint8

const (
	// NoCorruption leaves the images as they are.
	NoCorruption CorruptionKind = iota
	// GaussianNoise adds N(0, Std²) to every entry, one rnd.NormFloat64
	// per entry in order (AddNoise), without clipping.
	GaussianNoise
	// BlackOcclusion sets to 0 a rectangle whose sides are uniform in
	// MinSide..MaxSide and stretches the image to [0, 1] (Occlude: Zheng
	// & Lai).
	BlackOcclusion
	// UniformOcclusion fills a MinSide×MinSide square with i.i.d. values
	// uniform in [0, Fill) (OccludeUniform: Nguyen & De la Torre's
	// occlusions of random values in [0, 255]).
	UniformOcclusion
	// MissingEntries deletes (sets to NaN) each entry independently with
	// probability P (DeleteEntries: Sanguinetti & Lawrence's missing data).
	MissingEntries
)

func (k CorruptionKind) String() string {
	return [...]string{"none", "gaussian", "black occlusion", "uniform occlusion", "missing entries"}[k]
}

// Corruption describes a corruption. The experiment layer builds one from
// a config; Func turns it into the CorruptFunc that draws it, and Apply
// corrupts a whole set with a stream per image and copy. Every corruption
// the experiments use is described here, so each is drawn in one place.
type Corruption struct {
	Kind CorruptionKind
	// Std is the GaussianNoise standard deviation.
	Std float64
	// MinSide and MaxSide bound an occlusion's sides in pixels; a
	// UniformOcclusion is a square of side MinSide (MaxSide must equal it
	// or be 0).
	MinSide, MaxSide int
	// Fill is the upper end of a UniformOcclusion's values.
	Fill float64
	// P is the MissingEntries deletion probability.
	P float64
	// Stretch maps each corrupted image onto [0, 1] afterwards (Stretch01).
	Stretch bool
	// Clip clamps each corrupted image's entries to [0, 1] afterwards
	// (Clip01), as image-noise routines do (MATLAB's imnoise, skimage's
	// random_noise with clip=True): the other reading of Zheng & Lai's
	// noise, beside Stretch. Clip and Stretch exclude each other.
	Clip bool
	// Copies is the number of corrupted copies Apply makes of each image;
	// 0 means 1.
	Copies int
}

// Func returns the CorruptFunc drawing c on width×height images (both 0
// for data that are not images, which only an occlusion minds). It returns
// an error when an occlusion does not fit the images or c is malformed.
func (c Corruption) Func(width, height int) (CorruptFunc, error) {
	if c.Clip && c.Stretch {
		return nil, fmt.Errorf("datasets: a corruption either clips to [0, 1] or stretches onto it, not both")
	}
	var f CorruptFunc
	switch c.Kind {
	case NoCorruption:
		f = func([]float64, *rand.Rand) {}
	case GaussianNoise:
		if !(c.Std >= 0) || math.IsInf(c.Std, 0) {
			return nil, fmt.Errorf("datasets: Gaussian noise std %g, want finite ≥ 0", c.Std)
		}
		f = AddNoise(c.Std)
	case BlackOcclusion, UniformOcclusion:
		if width == 0 || height == 0 {
			return nil, fmt.Errorf("occlusion needs images, and the data have no image size")
		}
		maxSide := c.MaxSide
		if c.Kind == UniformOcclusion && maxSide == 0 {
			maxSide = c.MinSide
		}
		if c.MinSide < 1 || c.MinSide > maxSide || maxSide > min(width, height) || (c.Kind == UniformOcclusion && maxSide != c.MinSide) {
			return nil, fmt.Errorf("occlusion sides %d..%d do not fit %d×%d images", c.MinSide, maxSide, width, height)
		}
		if c.Kind == BlackOcclusion {
			f = Occlude(width, height, c.MinSide, maxSide)
		} else {
			f = OccludeUniform(width, height, c.MinSide, c.Fill)
		}
	case MissingEntries:
		if !(c.P >= 0 && c.P <= 1) {
			return nil, fmt.Errorf("datasets: deletion probability %g, want one in [0, 1]", c.P)
		}
		f = DeleteEntries(c.P)
	default:
		return nil, fmt.Errorf("datasets: unknown corruption kind %d", c.Kind)
	}
	if c.Stretch {
		inner := f
		f = func(img []float64, rnd *rand.Rand) {
			inner(img, rnd)
			Stretch01(img)
		}
	}
	if c.Clip {
		inner := f
		f = func(img []float64, rnd *rand.Rand) {
			inner(img, rnd)
			Clip01(img)
		}
	}
	return f, nil
}

// Clip01 clamps every entry of x to [0, 1] in place: v < 0 becomes 0 and
// v > 1 becomes 1. A NaN (a deleted entry, DeleteEntries) stays NaN, so
// clipping never invents an observation. Unlike Stretch01 it leaves every
// entry already inside [0, 1] as it was, so the noise on mid-grey pixels
// is kept exactly and only the saturated ones lose theirs.
func Clip01(x []float64) {
	for i, v := range x {
		switch {
		case v < 0:
			x[i] = 0
		case v > 1:
			x[i] = 1
		}
	}
}

// Region returns which pixels of a width×height image the occlusion
// drawn from rnd covers: given the stream the CorruptFunc used (a fresh
// copy of it), it draws the same position again. It returns nil for a
// corruption that is no occlusion.
func (c Corruption) Region(width, height int, rnd *rand.Rand) []bool {
	var x0, y0, w, h int
	switch c.Kind {
	case BlackOcclusion:
		x0, y0, w, h = OcclusionRect(width, height, c.MinSide, c.MaxSide, rnd)
	case UniformOcclusion:
		x0, y0 = SquarePosition(width, height, c.MinSide, rnd)
		w, h = c.MinSide, c.MinSide
	default:
		return nil
	}
	reg := make([]bool, width*height)
	for y := y0; y < y0+h; y++ {
		for x := x0; x < x0+w; x++ {
			reg[y*width+x] = true
		}
	}
	return reg
}

// Corrupted is a corrupted copy of a data set, row-aligned with the clean
// images it came from.
type Corrupted struct {
	// Noisy holds the corrupted inputs, Clean their clean originals.
	Noisy, Clean *mat.Dense
	// Source gives, for each row, the row of the original set.
	Source []int
	// Labels are the original labels of each row (nil if the set has none).
	Labels []int
}

// Apply corrupts every row of set c.Copies times with CorruptEach under
// seed: copy k of row i draws from CorruptionRand(seed, i, k), so an
// image's corruption never depends on the order or number of the others.
func (c Corruption) Apply(set *Set, seed uint64) (*Corrupted, error) {
	f, err := c.Func(set.Width, set.Height)
	if err != nil {
		return nil, fmt.Errorf("dataset %s: %w", set.Name, err)
	}
	noisy, src := CorruptEach(set.X, max(c.Copies, 1), seed, f)
	_, d := set.X.Dims()
	clean := mat.NewDense(len(src), d, nil)
	out := &Corrupted{Noisy: noisy, Clean: clean, Source: src}
	for i, j := range src {
		clean.SetRow(i, set.X.RawRowView(j))
		if set.Labels != nil {
			out.Labels = append(out.Labels, set.Labels[j])
		}
	}
	return out, nil
}

// CorruptRows returns a copy of x with f applied to each row i, drawing
// from stream(i); x is not modified. It is CorruptEach for a caller that
// names each image's stream itself (the robust kind's
// "occlusion/<set>/<condition>/<i>").
func CorruptRows(x *mat.Dense, f CorruptFunc, stream func(i int) *rand.Rand) *mat.Dense {
	out := mat.DenseCopyOf(x)
	n, _ := x.Dims()
	for i := range n {
		f(out.RawRowView(i), stream(i))
	}
	return out
}

// AddNoise returns a CorruptFunc adding N(0, std²) to every entry, one
// rnd.NormFloat64 per entry in order, without clipping or stretching.
func AddNoise(std float64) CorruptFunc {
	return func(img []float64, rnd *rand.Rand) {
		for i := range img {
			img[i] += std * rnd.NormFloat64()
		}
	}
}

// SquarePosition draws the top-left corner of a side×side square inside a
// width×height image, uniform over the positions that keep it inside: the
// row y0 first (one rnd.IntN(height−side+1)), then the column x0.
//
// The order differs from OcclusionRect's (x0 before y0, after two side
// draws): each keeps the draws of the experiment it was written for
// (Nguyen & De la Torre here, Zheng & Lai there), so results stay as
// published in this repository.
func SquarePosition(width, height, side int, rnd *rand.Rand) (x0, y0 int) {
	y0 = rnd.IntN(height - side + 1)
	x0 = rnd.IntN(width - side + 1)
	return x0, y0
}

// OccludeUniform returns a CorruptFunc for width×height images stored
// row-major: it draws a side×side square with SquarePosition and replaces
// its pixels, row by row, with fill·rnd.Float64(), i.i.d. uniform in
// [0, fill). Nguyen & De la Torre occlude faces on the 0–255 scale by
// squares of random values: OccludeUniform(w, h, side, 255).
//
// OccludeUniform panics unless 1 ≤ side ≤ min(width, height).
func OccludeUniform(width, height, side int, fill float64) CorruptFunc {
	checkOcclusion("OccludeUniform", width, height, side, side)
	return func(img []float64, rnd *rand.Rand) {
		if len(img) != width*height {
			panic(fmt.Sprintf("datasets: OccludeUniform: image has %d pixels, want %d×%d", len(img), width, height))
		}
		x0, y0 := SquarePosition(width, height, side, rnd)
		for a := range side {
			for b := range side {
				img[(y0+a)*width+x0+b] = fill * rnd.Float64()
			}
		}
	}
}

// DeleteEntries returns a CorruptFunc that deletes each entry (sets it to
// NaN) with probability p: entry j is kept when rnd.Float64() ≥ p, one
// draw per entry in order. MissingMask draws the same mask.
func DeleteEntries(p float64) CorruptFunc {
	return func(img []float64, rnd *rand.Rand) {
		for j := range img {
			if rnd.Float64() < p {
				img[j] = math.NaN()
			}
		}
	}
}

// MissingMask sets mask[j] to 1 for an observed entry and 0 for a deleted
// one, deleting each with probability p: entry j is kept when
// rnd.Float64() ≥ p, one draw per entry in order, the draws of
// DeleteEntries.
func MissingMask(mask []float64, p float64, rnd *rand.Rand) {
	for j := range mask {
		if rnd.Float64() >= p {
			mask[j] = 1
		} else {
			mask[j] = 0
		}
	}
}
