//go:build !amd64 || noasm || gccgo || safe

package methods

import (
	"math"

	"gonum.org/v1/gonum/floats"
)

// gonumDotChains is false: floats.Dot is gonum's pure-Go loop here.
const gonumDotChains = false

// useAVX2 is false: there is no assembly kernel on this build.
var useAVX2 = false

// dot4 returns floats.Dot(w, x_k) for k = 0…3. Without gonum's amd64
// assembly, floats.Dot is gonum's pure-Go loop, whose order is its own;
// calling it keeps the bits.
func dot4(w, x0, x1, x2, x3 []float64) (s0, s1, s2, s3 float64) {
	return floats.Dot(w, x0[:len(w)]), floats.Dot(w, x1[:len(w)]), floats.Dot(w, x2[:len(w)]), floats.Dot(w, x3[:len(w)])
}

// sweepLo is sweepLoGo over every component, lo starting at −∞.
func sweepLo(a *sweepArgs, all bool) float64 { return sweepLoGo(a, all, 0, math.Inf(-1)) }

// sweepBits is sweepBitsGo over every component.
func sweepBits(a *sweepArgs, lo float64, cand, s []uint64) { sweepBitsGo(a, 0, lo, cand, s) }

// weights is weightsGo over every weight.
func weights(w, e []float64, f float64) (sum, abs, change float64) {
	return weightsGo(w, e, f, 0, 0, 0, 0)
}
