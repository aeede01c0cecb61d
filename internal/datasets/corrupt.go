package datasets

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// AddGaussian returns a copy of x with independent N(0, std²) noise added to
// every entry; x is not modified.
//
// Noise is drawn in row-major order, one rnd.NormFloat64 per entry, even
// when std is 0, so the same rnd state gives the same noise pattern (scaled)
// at every noise level.
//
// AddGaussian panics if std is negative or not finite or rnd is nil: those are
// programmer errors, since configs are validated before data is corrupted.
func AddGaussian(x *mat.Dense, std float64, rnd *rand.Rand) *mat.Dense {
	if !(std >= 0) || math.IsInf(std, 0) {
		panic("datasets: AddGaussian: noise standard deviation must be finite and non-negative")
	}
	if rnd == nil {
		panic("datasets: AddGaussian: nil random generator")
	}
	var y mat.Dense
	y.CloneFrom(x)
	raw := y.RawMatrix()
	for i := range raw.Rows {
		row := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
		for j := range row {
			row[j] += std * rnd.NormFloat64()
		}
	}
	return &y
}

// Stretch01 maps x linearly onto [0, 1] in place: its minimum becomes 0, its
// maximum 1 and every other value (v−min)/(max−min). The minimum and maximum
// map exactly to 0 and 1 and the results never leave [0, 1]. A constant x
// (including a single value) has no range to stretch and becomes all 0.5,
// the middle of the range, rather than NaN. An empty x is left alone.
//
// This is the "linearly stretched to full range of pixel values of [0, 1]"
// that Zheng & Lai apply to every clean, noisy and occluded image.
//
// Stretch01 panics if x holds NaN or ±Inf: corruptions are applied to
// loaded images, which are finite, so such a value is a programmer error.
func Stretch01(x []float64) {
	if len(x) == 0 {
		return
	}
	lo, hi := x[0], x[0]
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			panic("datasets: Stretch01: image holds a value that is not finite")
		}
		lo = math.Min(lo, v)
		hi = math.Max(hi, v)
	}
	if lo == hi {
		for i := range x {
			x[i] = 0.5
		}
		return
	}
	// Halving both sides keeps max−min finite for values near ±MaxFloat64;
	// it changes nothing else, since halving is exact away from subnormals.
	half := 1.0
	if math.IsInf(hi-lo, 0) {
		half = 0.5
	}
	r := hi*half - lo*half
	for i, v := range x {
		x[i] = (v*half - lo*half) / r
	}
}

// CorruptFunc corrupts one image in place, drawing any randomness it needs
// from rnd. CorruptEach applies one to every copy of every image, and
// Corruption.Func builds one from a description.
type CorruptFunc func(img []float64, rnd *rand.Rand)

// CorruptionRand returns the generator CorruptEach hands to the corruption
// of copy k of image (row) i under seed: a PCG stream (math/rand/v2) whose
// two 64-bit seeds are the first 16 bytes, read as two little-endian
// uint64, of the SHA-256 of seed, i and k written as little-endian uint64.
//
// Because each copy has its own stream, a corrupted image does not depend on
// how many other images there are, what they hold, or the order in which
// they are corrupted, and whatever a corruption drew (the occluding
// rectangle, say) can be drawn again later from the same stream.
func CorruptionRand(seed uint64, i, k int) *rand.Rand {
	var b [24]byte
	binary.LittleEndian.PutUint64(b[0:], seed)
	binary.LittleEndian.PutUint64(b[8:], uint64(i))
	binary.LittleEndian.PutUint64(b[16:], uint64(k))
	h := sha256.Sum256(b[:])
	return rand.New(rand.NewPCG(binary.LittleEndian.Uint64(h[0:8]), binary.LittleEndian.Uint64(h[8:16])))
}

// CorruptEach returns copies corrupted versions of every row of x, and for
// each output row the row of x it came from; x is not modified.
//
// Output row i·copies+k is copy k (0 ≤ k < copies) of row i: a copy of the
// row passed to f with CorruptionRand(seed, i, k). For Zheng & Lai's two
// noisy copies of each face, for example:
//
//	noisy, src := CorruptEach(faces.X, 2, seed, GaussianStretch(0.5))
//
// and the clean image of noisy row r is row src[r] of faces.X. The caller
// derives seed from its own stream (e.g. rnd.Uint64()), so the corruption
// is reproducible from the cell's seed.
//
// CorruptEach panics if copies is less than 1 or f is nil: those are
// programmer errors.
func CorruptEach(x *mat.Dense, copies int, seed uint64, f CorruptFunc) (*mat.Dense, []int) {
	if copies < 1 {
		panic(fmt.Sprintf("datasets: CorruptEach: %d copies, want at least 1", copies))
	}
	if f == nil {
		panic("datasets: CorruptEach: nil corruption")
	}
	n, d := x.Dims()
	out := mat.NewDense(n*copies, d, nil)
	src := make([]int, n*copies)
	for i := range n {
		row := x.RawRowView(i)
		for k := range copies {
			r := i*copies + k
			dst := out.RawRowView(r)
			copy(dst, row)
			f(dst, CorruptionRand(seed, i, k))
			src[r] = i
		}
	}
	return out, src
}

// GaussianStretch returns a CorruptFunc that adds independent N(0, variance)
// noise to every pixel, one rnd.NormFloat64 per pixel in order, each scaled
// by √variance, and then stretches the image to [0, 1] with Stretch01
// (Zheng & Lai: "Gaussian with mean 0 and variance with 0.5", then "all
// images … are linearly stretched to full range of pixel values of [0, 1]").
//
// Note that the argument is the variance, not the standard deviation as in
// AddGaussian. GaussianStretch panics if variance is negative or not finite.
func GaussianStretch(variance float64) CorruptFunc {
	if !(variance >= 0) || math.IsInf(variance, 0) {
		panic("datasets: GaussianStretch: noise variance must be finite and non-negative")
	}
	std := math.Sqrt(variance)
	return func(img []float64, rnd *rand.Rand) {
		for j := range img {
			img[j] += std * rnd.NormFloat64()
		}
		Stretch01(img)
	}
}

// OcclusionRect draws the black rectangle of Occlude for a width×height
// image: its width w and height h independently and uniformly among the
// integers minSide..maxSide, then its top-left corner (x0, y0) uniformly
// among the positions that keep it inside the image, x0 in 0..width−w and
// y0 in 0..height−h. It consumes rnd in that order, with one rnd.IntN call
// each for w, h, x0 and y0.
//
// Given the stream a corruption used, OcclusionRect draws the same
// rectangle again, e.g. for an error measured on the occluded region only:
//
//	x0, y0, w, h := OcclusionRect(92, 112, 20, 50, CorruptionRand(seed, src[r], r%copies))
//
// OcclusionRect panics unless 1 ≤ minSide ≤ maxSide ≤ min(width, height).
func OcclusionRect(width, height, minSide, maxSide int, rnd *rand.Rand) (x0, y0, w, h int) {
	checkOcclusion("OcclusionRect", width, height, minSide, maxSide)
	w = minSide + rnd.IntN(maxSide-minSide+1)
	h = minSide + rnd.IntN(maxSide-minSide+1)
	x0 = rnd.IntN(width - w + 1)
	y0 = rnd.IntN(height - h + 1)
	return x0, y0, w, h
}

// Occlude returns a CorruptFunc for width×height images stored row-major:
// it sets to 0 (black) the pixels of a rectangle drawn by OcclusionRect and
// then stretches the image to [0, 1] with Stretch01. For images already in
// [0, 1] the rectangle stays exactly 0 after the stretch.
//
// Zheng & Lai occlude with "a rectangle black patch at a random coordinate,
// where the width and the height of the patch are … 20 pixels at least and
// 50 pixels at most": Occlude(92, 112, 20, 50). The paper does not say the
// sides are uniform or that the patch lies inside the image; we take both.
//
// Occlude panics unless 1 ≤ minSide ≤ maxSide ≤ min(width, height), and the
// CorruptFunc panics if an image does not have width×height pixels.
func Occlude(width, height, minSide, maxSide int) CorruptFunc {
	checkOcclusion("Occlude", width, height, minSide, maxSide)
	return func(img []float64, rnd *rand.Rand) {
		if len(img) != width*height {
			panic(fmt.Sprintf("datasets: Occlude: image has %d pixels, want %d×%d", len(img), width, height))
		}
		x0, y0, w, h := OcclusionRect(width, height, minSide, maxSide, rnd)
		for y := y0; y < y0+h; y++ {
			clear(img[y*width+x0 : y*width+x0+w])
		}
		Stretch01(img)
	}
}

func checkOcclusion(fn string, width, height, minSide, maxSide int) {
	if minSide < 1 || minSide > maxSide || maxSide > min(width, height) {
		panic(fmt.Sprintf("datasets: %s: sides %d..%d for a %d×%d image, want 1 ≤ min ≤ max ≤ %d",
			fn, minSide, maxSide, width, height, min(width, height)))
	}
}
