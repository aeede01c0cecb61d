package kernel

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/vecmath"
)

// HOG computes Dalal & Triggs' histogram-of-oriented-gradients descriptor
// (CVPR 2005) of a grey image stored as one row-major vector of Width×Height
// pixels. It is the h(·) of Huang, Tian & De la Torre (2011, eq. 13).
//
// The steps follow Dalal & Triggs' default R-HOG:
//
//   - gradients by the centred mask [−1, 0, 1] in x and y (one-sided at the
//     image border), no smoothing;
//   - unsigned orientation θ = atan2(g_y, g_x) folded into [0°, 180°), Bins
//     bins whose centres are at b·180°/Bins (so a horizontal gradient, the
//     gradient of a vertical edge, lands wholly in bin 0); each pixel votes
//     its gradient magnitude, split linearly between the two nearest bin
//     centres;
//   - Cell×Cell pixel cells; blocks of Block×Block cells at a stride of one
//     cell; each block vector normalised by L2-Hys (L2, clip at 0.2,
//     L2 again, ε = 1e-3 per Dalal & Triggs' ε² added to the squared norm
//     relative to the block size).
//
// Dalal & Triggs also interpolate votes spatially between neighbouring
// cells (trilinear voting); this implementation votes into the pixel's own
// cell only, which the paper reports costs little accuracy. Pixels outside
// the last whole cell are ignored.
type HOG struct {
	Width, Height int
	// Cell is the cell side in pixels, Block the block side in cells.
	Cell, Block int
	// Bins is the number of orientation bins over [0°, 180°).
	Bins int
}

// Validate reports an impossible HOG geometry.
func (h HOG) Validate() error {
	if h.Width < 3 || h.Height < 3 {
		return fmt.Errorf("kernel: HOG needs an image of at least 3×3 pixels, got %d×%d", h.Width, h.Height)
	}
	if h.Cell < 1 || h.Block < 1 || h.Bins < 2 {
		return fmt.Errorf("kernel: HOG cell %d, block %d, bins %d: want cell ≥ 1, block ≥ 1, bins ≥ 2", h.Cell, h.Block, h.Bins)
	}
	if h.Width/h.Cell < h.Block || h.Height/h.Cell < h.Block {
		return fmt.Errorf("kernel: HOG blocks of %d×%d cells of %d px do not fit a %d×%d image", h.Block, h.Block, h.Cell, h.Width, h.Height)
	}
	return nil
}

// Len returns the descriptor length.
func (h HOG) Len() int {
	cx, cy := h.Width/h.Cell, h.Height/h.Cell
	return (cx - h.Block + 1) * (cy - h.Block + 1) * h.Block * h.Block * h.Bins
}

func (h HOG) String() string {
	return fmt.Sprintf("hog(%dx%d,cell=%d,block=%d,bins=%d)", h.Width, h.Height, h.Cell, h.Block, h.Bins)
}

// CellHistograms returns the unnormalised orientation histograms, cell
// (cy, cx) at [(cy·cellsX + cx)·Bins, …). img must hold Width×Height values.
func (h HOG) CellHistograms(img []float64) []float64 {
	if len(img) != h.Width*h.Height {
		panic(fmt.Sprintf("kernel: HOG of a %d-pixel vector, want %d×%d", len(img), h.Width, h.Height))
	}
	w, ht := h.Width, h.Height
	cx, cy := w/h.Cell, ht/h.Cell
	hist := make([]float64, cx*cy*h.Bins)
	binW := math.Pi / float64(h.Bins)
	for y := 0; y < cy*h.Cell; y++ {
		for x := 0; x < cx*h.Cell; x++ {
			gx := img[y*w+min(x+1, w-1)] - img[y*w+max(x-1, 0)]
			gy := img[min(y+1, ht-1)*w+x] - img[max(y-1, 0)*w+x]
			mag := math.Hypot(gx, gy)
			if mag == 0 {
				continue
			}
			// Image rows grow downwards; the sign convention does not
			// matter once the angle is folded into [0, π).
			th := math.Atan2(gy, gx)
			if th < 0 {
				th += math.Pi
			}
			if th >= math.Pi {
				th -= math.Pi
			}
			f := th / binW
			b0 := int(math.Floor(f))
			frac := f - float64(b0)
			b0 %= h.Bins
			b1 := (b0 + 1) % h.Bins
			base := ((y/h.Cell)*cx + x/h.Cell) * h.Bins
			hist[base+b0] += mag * (1 - frac)
			hist[base+b1] += mag * frac
		}
	}
	return hist
}

// Descriptor returns the block-normalised HOG descriptor of img.
func (h HOG) Descriptor(img []float64) []float64 {
	hist := h.CellHistograms(img)
	cx, cy := h.Width/h.Cell, h.Height/h.Cell
	bl := h.Block * h.Block * h.Bins
	out := make([]float64, 0, h.Len())
	v := make([]float64, bl)
	// ε² relative to the block size (Dalal & Triggs use a small constant on
	// their 0–255 gradients; here the images may be on [0, 1]).
	const eps2 = 1e-6
	for by := 0; by+h.Block <= cy; by++ {
		for bx := 0; bx+h.Block <= cx; bx++ {
			k := 0
			for j := 0; j < h.Block; j++ {
				for i := 0; i < h.Block; i++ {
					base := ((by+j)*cx + bx + i) * h.Bins
					k += copy(v[k:], hist[base:base+h.Bins])
				}
			}
			l2hys(v, eps2)
			out = append(out, v...)
		}
	}
	return out
}

// l2hys normalises v by L2, clips at 0.2 and normalises again.
func l2hys(v []float64, eps2 float64) {
	norm := func() {
		var s float64
		for _, x := range v {
			s += x * x
		}
		s = 1 / math.Sqrt(s+eps2)
		for i := range v {
			v[i] *= s
		}
	}
	norm()
	for i, x := range v {
		v[i] = math.Min(x, 0.2)
	}
	norm()
}

// Map returns the descriptors of every row of x, one per row.
func (h HOG) Map(x mat.Matrix) *mat.Dense {
	r, c := x.Dims()
	if c != h.Width*h.Height {
		panic(fmt.Sprintf("kernel: HOG of %d-column rows, want %d×%d", c, h.Width, h.Height))
	}
	if r == 0 {
		return &mat.Dense{}
	}
	out := mat.NewDense(r, h.Len(), nil)
	row := make([]float64, c)
	for i := 0; i < r; i++ {
		mat.Row(row, i, x)
		out.SetRow(i, h.Descriptor(row))
	}
	return out
}

// FeatureMap maps each input row to a feature vector.
type FeatureMap interface {
	// Map returns the features of every row of x, one per row.
	Map(x mat.Matrix) *mat.Dense
	String() string
}

// MappedGaussian is the Gaussian kernel on a feature map h:
// k(x, y) = exp(−‖h(x) − h(y)‖²/C). With h = HOG it is Huang et al.'s
// HOG kernel (eq. 13, C = σ²). It has no derivative with respect to x that
// the pre-image methods of Mika et al. or Kwok & Tsang could use (HOG's
// binning is piecewise constant in the orientation and its voting is not
// invertible), so it implements neither DistanceInverter nor is it a
// Gaussian: those estimators refuse it with an error.
type MappedGaussian struct {
	Map FeatureMap
	C   float64
}

// Eval returns exp(−‖h(x)−h(y)‖²/C).
func (k MappedGaussian) Eval(x, y []float64) float64 {
	a := k.Map.Map(mat.NewDense(1, len(x), append([]float64(nil), x...)))
	b := k.Map.Map(mat.NewDense(1, len(y), append([]float64(nil), y...)))
	return vecmath.Exp(-sqDist(a.RawRowView(0), b.RawRowView(0)) / k.C)
}

func (k MappedGaussian) String() string {
	return fmt.Sprintf("gaussian-on-%s(c=%g)", k.Map, k.C)
}

// GramTo writes k(a_i, b_j) into dst: the feature maps of both batches, then
// one product for the squared distances.
func (k MappedGaussian) GramTo(dst *mat.Dense, a, b mat.Matrix) {
	fa := k.Map.Map(a)
	fb := k.Map.Map(b)
	SqDist(dst, fa, fb)
	raw := dst.RawMatrix()
	for i := range raw.Rows {
		row := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
		for j, v := range row {
			row[j] = -v / k.C
		}
		vecmath.ExpTo(row, row)
	}
}

// Gramer is a kernel that computes its own batched Gram matrix (a kernel on
// a feature map computes the features once per batch, not once per pair).
type Gramer interface {
	GramTo(dst *mat.Dense, a, b mat.Matrix)
}

// ErrNoFeatures is returned by MeanDistance for fewer than two rows.
var ErrNoFeatures = errors.New("kernel: mean pairwise distance needs at least two points")

// MeanDistance returns the mean Euclidean distance over the distinct pairs
// of rows of x: the bandwidth rule of Huang, Tian & De la Torre (2011,
// §5.1: "the bandwidth σ … as the mean of the pairwise Euclidean
// distances"), and the distance matrix it came from.
func MeanDistance(x mat.Matrix) (float64, *mat.Dense, error) {
	n, _ := x.Dims()
	if n < 2 {
		return 0, nil, ErrNoFeatures
	}
	var d mat.Dense
	SqDist(&d, x, x)
	var s float64
	for i := 0; i < n; i++ {
		row := d.RawRowView(i)
		for j := range row {
			row[j] = math.Sqrt(row[j])
			if j > i {
				s += row[j]
			}
		}
	}
	return s / float64(n*(n-1)/2), &d, nil
}
