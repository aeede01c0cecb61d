package datasets

import (
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
