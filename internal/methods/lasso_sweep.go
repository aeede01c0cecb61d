package methods

import (
	"math"
	"math/bits"
)

// The bound sweep of a GPS step (gpsRow.bounds) as two passes over the D
// components, each a vector loop on amd64 with AVX2 (lasso_sweep_amd64.s)
// and the loops below elsewhere. Both give the same bits: no pass sums
// anything, every product and sum is rounded on its own as in the scalar
// expressions, and the one reduction, a maximum, is exact in any order
// (a ±0 tie can flip the sign of a zero maximum, which no comparison
// sees).

// sweepArgs are the per-component terms of the sweep, all of length D, and
// the step's scalars: W = Σ_n w_n, A the bound's drift term (with its
// margin) and S = Σ_n |w_n|.
type sweepArgs struct {
	q, coef, p, rz, half []float64 // the estimate's and bound's terms (gpsRow.eval)
	sg                   []float64 // sign(z_j)
	est, bnd, up         []float64 // the outputs
	w, a, s              float64
}

// sweepLoGo is the first pass: unless all, est_j = q_j + W·coef_j and
// bnd_j = (p_j + A·half_j) + S·rz_j for j in [from, len(est)); it returns
// the largest of lo and the lower bounds |est_j| − bnd_j, a NaN bound
// being skipped. The conversions float64(…) round the products before
// they are added, so that the compiler cannot fuse them into FMA (at
// GOAMD64=v3 it would), as gonum's AddScaledTo does not.
func sweepLoGo(a *sweepArgs, all bool, from int, lo float64) float64 {
	est, bnd := a.est, a.bnd[:len(a.est)]
	if !all {
		q, coef, p, rz, half := a.q[:len(est)], a.coef[:len(est)], a.p[:len(est)], a.rz[:len(est)], a.half[:len(est)]
		for j := from; j < len(est); j++ {
			est[j] = q[j] + float64(a.w*coef[j])
			bnd[j] = (p[j] + float64(a.a*half[j])) + float64(a.s*rz[j])
		}
	}
	for j := from; j < len(est); j++ {
		if l := math.Abs(est[j]) - bnd[j]; l > lo {
			lo = l
		}
	}
	return lo
}

// sweepBitsGo is the second pass, for j in [from, len(est)): up_j =
// |est_j| + bnd_j; bit j of cand (a bitmap, bit j%64 of word j/64) is set
// when up_j ≥ lo, and bit j of s when est_j·sg_j < bnd_j·sg_j², the test
// for the S set in gpsRow.bounds. The bits must be clear on entry.
func sweepBitsGo(a *sweepArgs, from int, lo float64, cand, s []uint64) {
	est, bnd, up, sg := a.est, a.bnd[:len(a.est)], a.up[:len(a.est)], a.sg[:len(a.est)]
	for j := from; j < len(est); j++ {
		u := math.Abs(est[j]) + bnd[j]
		up[j] = u
		if u >= lo {
			cand[j>>6] |= 1 << (j & 63)
		}
		if g := sg[j]; est[j]*g < bnd[j]*(g*g) {
			s[j>>6] |= 1 << (j & 63)
		}
	}
}

// appendBits appends to dst the indices of the bits set in b (bit j%64 of
// word j/64), in increasing order.
func appendBits(dst []int, b []uint64) []int {
	for w, x := range b {
		for ; x != 0; x &= x - 1 {
			dst = append(dst, w<<6+bits.TrailingZeros64(x))
		}
	}
	return dst
}
