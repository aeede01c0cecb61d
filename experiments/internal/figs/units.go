package figs

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/report"
)

// PixelScale names the scale of the pixel values of x for a caption:
// "pixel values on [-1, 1]" for USPS, "… on [0, 1]" for the faces
// stretched to it, "… on [0, 255]" for the PIE faces, so that an error or
// a noise level ("std 10.2") says what it is measured on. See PixelRange.
func PixelScale(x mat.Matrix) string {
	if r := PixelRange(x); r != "" {
		return "pixel values on " + r
	}
	return ""
}

// AxisUnits is the second line of an axis label in pixel units, such as
// "intensity\n(scale [0, 1])": short, so that a label stays shorter than
// a small panel's height.
func AxisUnits(x mat.Matrix) string {
	if r := PixelRange(x); r != "" {
		return "\n(scale " + r + ")"
	}
	return ""
}

// PixelRange is the range of the pixel values of x, "[-1, 1]". The observed
// minimum is snapped to the nearer of -1 and 0, the maximum to the nearer
// of 1 and 255, within 5% of the observed range (a clean digit need not
// reach -1 exactly), and otherwise printed to 3 significant digits. An empty
// matrix or one without finite values gives "".
func PixelRange(x mat.Matrix) string {
	r, c := x.Dims()
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range r {
		for j := range c {
			if v := x.At(i, j); !math.IsNaN(v) && !math.IsInf(v, 0) {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
	}
	if math.IsInf(lo, 1) {
		return ""
	}
	tol := 0.05 * (hi - lo)
	snap := func(v float64, to ...float64) float64 {
		best, d := v, tol
		for _, s := range to {
			if math.Abs(v-s) <= d {
				best, d = s, math.Abs(v-s)
			}
		}
		return best
	}
	return "[" + report.FormatFloat(snap(lo, -1, 0), 3) + ", " + report.FormatFloat(snap(hi, 1, 255), 3) + "]"
}
