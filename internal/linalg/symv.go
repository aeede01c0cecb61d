package linalg

import "math"

// The symmetric matrix–vector product's rounding, fixed by definition as
// Gemm's is. Dsymv sets y ← β·y (+0 for β = 0; nothing for β = 1), and
// then, for α ≠ 0, for each row i in order, with xv = α·x_i rounded once
// and the stored part of row i off the diagonal (j > i for Upper, j < i
// for Lower, in increasing j):
//
//	lane[(j − j0) mod 8] ← fma(a_ij, x_j, lane[…])   (the lanes start at +0; j0 the part's first j)
//	y_j ← fma(xv, a_ij, y_j)
//	s ← ((lane[0]+lane[4]) + (lane[2]+lane[6])) + ((lane[1]+lane[5]) + (lane[3]+lane[7]))
//	y_i ← fma(α, fma(a_ii, x_i, s), y_i)
//
// Each row's off-diagonal part is read once for both its dot product
// (eight chains, the lanes of one AVX-512 register or two AVX2 ones,
// summed in a fixed tree) and the columns' updates, which is what makes
// the product bound by memory rather than by the adds' latency. The
// assembly kernels do the lanes' full blocks of eight; the rest, the
// reduction and the diagonal are the same Go for every kernel, so the
// assembly and the pure-Go kernel give the same bits (TestSymvKernelsAgree).

// symvLanes is the number of chains of a row's dot product.
const symvLanes = 8

// symvRow does a row's off-diagonal part a (len(a) elements, against x
// and y of the same length): it returns the lanes of Σ a_j·x_j, from +0,
// and updates y_j ← fma(xv, a_j, y_j), for the first len(a) &^ 7
// elements. (The lanes are returned by value: a pointer passed through a
// function value would move them to the heap at every row.)
type symvRowKernel func(a, x, y []float64, xv float64) [symvLanes]float64

// symvRowGo is the pure-Go symvRowKernel.
func symvRowGo(a, x, y []float64, xv float64) (lanes [symvLanes]float64) {
	n := len(a) &^ (symvLanes - 1)
	a, x, y = a[:n], x[:n], y[:n]
	var l0, l1, l2, l3, l4, l5, l6, l7 float64
	for j := 0; j+symvLanes <= n; j += symvLanes {
		av, xs, ys := a[j:j+8:j+8], x[j:j+8:j+8], y[j:j+8:j+8]
		l0, l1, l2, l3 = math.FMA(av[0], xs[0], l0), math.FMA(av[1], xs[1], l1), math.FMA(av[2], xs[2], l2), math.FMA(av[3], xs[3], l3)
		l4, l5, l6, l7 = math.FMA(av[4], xs[4], l4), math.FMA(av[5], xs[5], l5), math.FMA(av[6], xs[6], l6), math.FMA(av[7], xs[7], l7)
		ys[0], ys[1], ys[2], ys[3] = math.FMA(xv, av[0], ys[0]), math.FMA(xv, av[1], ys[1]), math.FMA(xv, av[2], ys[2]), math.FMA(xv, av[3], ys[3])
		ys[4], ys[5], ys[6], ys[7] = math.FMA(xv, av[4], ys[4]), math.FMA(xv, av[5], ys[5]), math.FMA(xv, av[6], ys[6]), math.FMA(xv, av[7], ys[7])
	}
	return [symvLanes]float64{l0, l1, l2, l3, l4, l5, l6, l7}
}

// symvRow is the row kernel symv uses: the assembly one where the CPU has
// it (symv_amd64.go).
var symvRow symvRowKernel = symvRowGo

// symv computes y ← β·y + α·A·x for the n×n symmetric A whose upper (or
// lower) triangle is stored row-major in a with leading dimension lda, x
// and y contiguous, under the contract above, with the row kernel row.
func symv(row symvRowKernel, upper bool, n int, alpha float64, a []float64, lda int, x []float64, beta float64, y []float64) {
	x, y = x[:n], y[:n]
	scaleC(1, n, beta, y, n)
	if alpha == 0 {
		return
	}
	for i := range n {
		xv := alpha * x[i]
		lo, hi := 0, i
		if upper {
			lo, hi = i+1, n
		}
		ar, xr, yr := a[i*lda+lo:i*lda+hi], x[lo:hi], y[lo:hi]
		lanes := row(ar, xr, yr, xv)
		for j := len(ar) &^ (symvLanes - 1); j < len(ar); j++ {
			lanes[j%symvLanes] = math.FMA(ar[j], xr[j], lanes[j%symvLanes])
			yr[j] = math.FMA(xv, ar[j], yr[j])
		}
		s := ((lanes[0] + lanes[4]) + (lanes[2] + lanes[6])) + ((lanes[1] + lanes[5]) + (lanes[3] + lanes[7]))
		y[i] = math.FMA(alpha, math.FMA(a[i*lda+i], x[i], s), y[i])
	}
}
