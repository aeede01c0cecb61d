//go:build !noasm && !gccgo && !safe

package methods

import (
	"math"

	"golang.org/x/sys/cpu"

	"github.com/runexp/runexp/internal/vecmath"
)

// useAVX2 selects the assembly kernels of GPS (lasso_lanes_amd64.s and
// lasso_sweep_amd64.s) and useAVX512 their AVX-512 forms where there are
// some; tests switch them off to check the pure-Go path, and
// RUNEXP_NOASM=1 (vecmath.NoAsm) does for the whole process.
var (
	useAVX2   = cpu.X86.HasAVX2 && cpu.X86.HasFMA && !vecmath.NoAsm()
	useAVX512 = useAVX2 && cpu.X86.HasAVX512F
)

// dot4LanesAVX512 and dot4LanesAVX2 are implemented in
// lasso_lanes_amd64.s; n is a positive multiple of 8.
//
//go:noescape
func dot4LanesAVX512(n int, w, x0, x1, x2, x3 *float64, c *[4][lanes]float64)

//go:noescape
func dot4LanesAVX2(n int, w, x0, x1, x2, x3 *float64, c *[4][lanes]float64)

// dot4 returns dot(w, x_k) for k = 0…3 (lasso_lanes.go's chains), four
// at a time. Each x_k must be at least as long as w.
func dot4(w, x0, x1, x2, x3 []float64) (s0, s1, s2, s3 float64) {
	n := len(w)
	x0, x1, x2, x3 = x0[:n], x1[:n], x2[:n], x3[:n]
	m := n &^ (lanes - 1)
	if !useAVX2 || m == 0 {
		return dot4Go(w, x0, x1, x2, x3)
	}
	var c [4][lanes]float64
	if useAVX512 {
		dot4LanesAVX512(m, &w[0], &x0[0], &x1[0], &x2[0], &x3[0], &c)
	} else {
		dot4LanesAVX2(m, &w[0], &x0[0], &x1[0], &x2[0], &x3[0], &c)
	}
	return dotFrom(w, x0, m, &c[0]), dotFrom(w, x1, m, &c[1]), dotFrom(w, x2, m, &c[2]), dotFrom(w, x3, m, &c[3])
}

// dot1 is dot(w, x), by dot4's kernel with x in every column where it
// has one: the four chains run side by side in the kernel, so one
// product takes the latency of four, about 0.6 times the time of the
// scalar loop of dot.
func dot1(w, x []float64) float64 {
	if !useAVX2 || len(w) < lanes {
		return dot(w, x)
	}
	s, _, _, _ := dot4(w, x, x, x, x)
	return s
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

// weightsLanesAVX512 and weightsLanesAVX2 are implemented in
// lasso_lanes_amd64.s; n is a positive multiple of 8.
//
//go:noescape
func weightsLanesAVX512(n int, w, e *float64, f float64, c *[3][lanes]float64)

//go:noescape
func weightsLanesAVX2(n int, w, e *float64, f float64, c *[3][lanes]float64)

// weights is the weight update of a GPS step (weightsFrom) over every
// weight.
func weights(w, e []float64, f float64) (sum, abs, change float64) {
	var c [3][lanes]float64
	m := len(w) &^ (lanes - 1)
	switch {
	case !useAVX2 || m == 0:
		m = 0
	case useAVX512:
		_ = e[m-1]
		weightsLanesAVX512(m, &w[0], &e[0], f, &c)
	default:
		_ = e[m-1]
		weightsLanesAVX2(m, &w[0], &e[0], f, &c)
	}
	return weightsFrom(w, e, f, m, &c)
}
