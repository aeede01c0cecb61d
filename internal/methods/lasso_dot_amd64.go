//go:build !noasm && !gccgo && !safe

package methods

import (
	"math"

	"golang.org/x/sys/cpu"

	"github.com/runexp/runexp/internal/vecmath"
)

// gonumDotChains: on this build floats.Dot is gonum's amd64 assembly,
// which sums four chains (dotChains), not one.
const gonumDotChains = true

// useAVX2 selects dot4's assembly kernel; tests switch it off to check the
// pure-Go path, and RUNEXP_NOASM=1 (vecmath.NoAsm) for the whole process.
var useAVX2 = cpu.X86.HasAVX2 && !vecmath.NoAsm()

// dot4AVX2 is implemented in lasso_dot_amd64.s.
//
//go:noescape
func dot4AVX2(n int, w, x0, x1, x2, x3 *float64) (s0, s1, s2, s3 float64)

// dot4 returns floats.Dot(w, x_k) for k = 0…3, bit for bit, four at a
// time. Each x_k must be at least as long as w.
//
// gonum's amd64 DotUnitary sums four chains (see lasso_dot_amd64.s), each
// a sequence of dependent adds, so a single dot product is bound by the
// add latency; four of them interleaved are not.
func dot4(w, x0, x1, x2, x3 []float64) (s0, s1, s2, s3 float64) {
	n := len(w)
	if n == 0 {
		return 0, 0, 0, 0
	}
	x0, x1, x2, x3 = x0[:n], x1[:n], x2[:n], x3[:n]
	if useAVX2 {
		return dot4AVX2(n, &w[0], &x0[0], &x1[0], &x2[0], &x3[0])
	}
	return dotChains(w, x0), dotChains(w, x1), dotChains(w, x2), dotChains(w, x3)
}

// dotChains is gonum's amd64 DotUnitary in Go: chain l sums w_i x_i over
// the blocks of four with i ≡ l (mod 4), the last len(w) mod 4 terms go
// to chain 0, and the result is (c0+c2) + (c1+c3). The conversions
// float64(…) round each product before it is added, so the compiler
// cannot fuse them into FMA (at GOAMD64=v3 it would).
func dotChains(w, x []float64) float64 {
	x = x[:len(w)]
	var c0, c1, c2, c3 float64
	i := 0
	for ; i+4 <= len(w); i += 4 {
		c0 += float64(w[i] * x[i])
		c1 += float64(w[i+1] * x[i+1])
		c2 += float64(w[i+2] * x[i+2])
		c3 += float64(w[i+3] * x[i+3])
	}
	for ; i < len(w); i++ {
		c0 += float64(w[i] * x[i])
	}
	return (c0 + c2) + (c1 + c3)
}

// sweepLoAVX2 and sweepBitsAVX2 are implemented in lasso_sweep_amd64.s;
// n is a multiple of 4.
//
//go:noescape
func sweepLoAVX2(n, all int, q, coef, p, rz, half, est, bnd *float64, w, a, s, lo float64) float64

//go:noescape
func sweepBitsAVX2(n int, est, bnd, sg, up *float64, lo float64, cand, s *uint64)

// sweepLo is sweepLoGo over every component, lo starting at −∞.
func sweepLo(a *sweepArgs, all bool) float64 {
	lo, from := math.Inf(-1), 0
	if n := len(a.est) &^ 3; useAVX2 && n > 0 {
		// Bounds checks of the assembly's reads and writes.
		_, _, _, _, _, _ = a.q[n-1], a.coef[n-1], a.p[n-1], a.rz[n-1], a.half[n-1], a.bnd[n-1]
		flag := 0
		if all {
			flag = 1
		}
		lo = sweepLoAVX2(n, flag, &a.q[0], &a.coef[0], &a.p[0], &a.rz[0], &a.half[0], &a.est[0], &a.bnd[0], a.w, a.a, a.s, lo)
		from = n
	}
	return sweepLoGo(a, all, from, lo)
}

// sweepBits is sweepBitsGo over every component.
func sweepBits(a *sweepArgs, lo float64, cand, s []uint64) {
	from := 0
	if n := len(a.est) &^ 3; useAVX2 && n > 0 {
		_, _, _, _, _ = a.bnd[n-1], a.sg[n-1], a.up[n-1], cand[(n-1)>>6], s[(n-1)>>6]
		sweepBitsAVX2(n, &a.est[0], &a.bnd[0], &a.sg[0], &a.up[0], lo, &cand[0], &s[0])
		from = n
	}
	sweepBitsGo(a, from, lo, cand, s)
}

// weightsAVX2 is implemented in lasso_sweep_amd64.s; n is a multiple of 4.
//
//go:noescape
func weightsAVX2(n int, w, e *float64, f float64) (sum, abs, change float64)

// weights is weightsGo over every weight.
func weights(w, e []float64, f float64) (sum, abs, change float64) {
	from := 0
	if n := len(w) &^ 3; useAVX2 && n > 0 {
		_ = e[n-1]
		sum, abs, change = weightsAVX2(n, &w[0], &e[0], f)
		from = n
	}
	return weightsGo(w, e, f, from, sum, abs, change)
}
