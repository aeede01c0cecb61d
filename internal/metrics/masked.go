package metrics

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// MaskedSSE returns Σ (z_ij − x_ij)² over the entries with mask_ij = 0: the
// squared error of imputed values z against the truth x over the entries
// that were deleted (Nguyen & De la Torre 2008, Table 1, our reading a7).
// Observed entries (mask ≠ 0) do not count, whatever z holds there. z, x
// and mask must have the same shape.
func MaskedSSE(z, x, mask mat.Matrix) float64 {
	r, c := x.Dims()
	if zr, zc := z.Dims(); zr != r || zc != c {
		panic(fmt.Sprintf("metrics: MaskedSSE of %d×%d and %d×%d", zr, zc, r, c))
	}
	if mr, mc := mask.Dims(); mr != r || mc != c {
		panic(fmt.Sprintf("metrics: MaskedSSE mask %d×%d for %d×%d", mr, mc, r, c))
	}
	var s float64
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if mask.At(i, j) == 0 {
				e := z.At(i, j) - x.At(i, j)
				s += e * e
			}
		}
	}
	return s
}
