//go:build !amd64 || noasm || gccgo || safe

package methods

import (
	"math"
)

// useAVX2 and useAVX512 are false: there are no assembly kernels on this
// build.
var useAVX2, useAVX512 = false, false

// dot4 returns dot(w, x_k) for k = 0…3.
func dot4(w, x0, x1, x2, x3 []float64) (s0, s1, s2, s3 float64) {
	return dot4Go(w, x0, x1, x2, x3)
}

// dot1 is dot(w, x).
func dot1(w, x []float64) float64 { return dot(w, x) }

// sweepLo is sweepLoGo over every component, lo starting at −∞.
func sweepLo(a *sweepArgs, all bool) float64 { return sweepLoGo(a, all, 0, math.Inf(-1)) }

// sweepBits is sweepBitsGo over every component.
func sweepBits(a *sweepArgs, lo float64, cand, s []uint64) { sweepBitsGo(a, 0, lo, cand, s) }

// weights is the weight update of a GPS step (weightsFrom) over every
// weight.
func weights(w, e []float64, f float64) (sum, abs, change float64) {
	var c [3][lanes]float64
	return weightsFrom(w, e, f, 0, &c)
}
