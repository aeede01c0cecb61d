//go:build !openblas

package linalg

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
)

// The pure-Go backend is gonum's BLAS and LAPACK with the level-3
// routines that carry the flops replaced by this package's packed product
// (gemm.go): Dgemm, and Dsyrk and Dsyr2k, which compute their triangle
// with it (syrk.go). Their rounding is gemm.go's contract (one fused
// multiply-add chain per element), the same bits with the assembly
// micro-kernels or without, at any GOMAXPROCS; gonum's LAPACK calls them
// through blas64, so its blocked factorisations (Dsytrd's Dsyr2k,
// Dlarfb's Dgemm, Dpotrf's Dsyrk and Dgemm) get them too. A large product
// hands its blocks out through package par, which inside a pool's cell
// borrows only idle cores and charges their CPU time to the cell.
func init() { blas64.Use(Implementation{}) }

// Implementation is gonum's pure-Go BLAS with Dgemm, Dsymm, Dsyrk and
// Dsyr2k computed by the packed product and Dsymv by symv.go's kernels.
type Implementation struct{ gonum.Implementation }

// Dgemm computes C = alpha·op(A)·op(B) + beta·C under gemm.go's contract.
// Arguments gonum panics on are passed to gonum, which panics with its
// message.
func (impl Implementation) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if !dgemmValid(tA, tB, m, n, k, a, lda, b, ldb, c, ldc) {
		impl.Implementation.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	Gemm(tA != blas.NoTrans, tB != blas.NoTrans, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// dgemmValid reports whether gonum's Dgemm accepts the arguments without
// a panic and has work to do (m and n positive).
func dgemmValid(tA, tB blas.Transpose, m, n, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) bool {
	ok := func(t blas.Transpose) bool { return t == blas.NoTrans || t == blas.Trans || t == blas.ConjTrans }
	if !ok(tA) || !ok(tB) || m < 0 || n < 0 || k < 0 || ldc < max(1, n) || m == 0 || n == 0 {
		return false
	}
	aTrans, bTrans := tA != blas.NoTrans, tB != blas.NoTrans
	if aTrans && (lda < max(1, m) || len(a) < (k-1)*lda+m) || !aTrans && (lda < max(1, k) || len(a) < (m-1)*lda+k) {
		return false
	}
	if bTrans && (ldb < max(1, k) || len(b) < (n-1)*ldb+k) || !bTrans && (ldb < max(1, n) || len(b) < (k-1)*ldb+n) {
		return false
	}
	return len(c) >= (m-1)*ldc+n
}

// Dsyrk computes the uplo triangle of C = alpha·A·Aᵀ + beta·C (tA ==
// NoTrans, A n×k) or alpha·Aᵀ·A + beta·C (A k×n) under gemm.go's
// contract: each element of the triangle has the bits Dgemm gives it,
// and since a fused multiply-add does not depend on the order of its
// two factors, the element (j, i) of the full product has the same bits
// as (i, j).
func (impl Implementation) Dsyrk(ul blas.Uplo, tA blas.Transpose, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) {
	if !syrkValid(ul, tA, n, k, a, lda, a, lda, c, ldc) {
		impl.Implementation.Dsyrk(ul, tA, n, k, alpha, a, lda, beta, c, ldc)
		return
	}
	if k == 0 || alpha == 0 {
		scaleTri(ul == blas.Upper, n, beta, c, ldc)
		return
	}
	t := tA != blas.NoTrans
	gemmTri(ul == blas.Upper, n, k, alpha, t, a, lda, !t, a, lda, beta, c, ldc)
}

// Dsyr2k computes the uplo triangle of C = alpha·(A·Bᵀ + B·Aᵀ) + beta·C
// (tA == NoTrans, A and B n×k) or alpha·(Aᵀ·B + Bᵀ·A) + beta·C (A and B
// k×n) as one product of inner dimension 2k under gemm.go's contract:
// [A B]·[B A]ᵀ, the terms of A·Bᵀ first.
func (impl Implementation) Dsyr2k(ul blas.Uplo, tA blas.Transpose, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if !syrkValid(ul, tA, n, k, a, lda, b, ldb, c, ldc) {
		impl.Implementation.Dsyr2k(ul, tA, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	if k == 0 || alpha == 0 {
		scaleTri(ul == blas.Upper, n, beta, c, ldc)
		return
	}
	// x = [A B] and y = [B A], n×2k, row-major.
	buf, xy := scratch(4 * n * k)
	defer vecPool.Put(buf)
	x, y := xy[:2*n*k], xy[2*n*k:]
	for i := range n {
		xi, yi := x[2*i*k:2*(i+1)*k], y[2*i*k:2*(i+1)*k]
		if tA == blas.NoTrans {
			copy(xi[:k], a[i*lda:i*lda+k])
			copy(xi[k:], b[i*ldb:i*ldb+k])
		} else {
			for l := range k {
				xi[l], xi[k+l] = a[l*lda+i], b[l*ldb+i]
			}
		}
		copy(yi[:k], xi[k:])
		copy(yi[k:], xi[:k])
	}
	gemmTri(ul == blas.Upper, n, 2*k, alpha, false, x, 2*k, true, y, 2*k, beta, c, ldc)
}

// scaleTri sets the triangle of C to beta·C (+0 for beta = 0).
func scaleTri(upper bool, n int, beta float64, c []float64, ldc int) {
	for i := range n {
		lo, hi := 0, i+1
		if upper {
			lo, hi = i, n
		}
		scaleC(1, hi-lo, beta, c[i*ldc+lo:], ldc)
	}
}

// Dsymm computes C = alpha·A·B + beta·C (side Left) or C = alpha·B·A +
// beta·C (side Right) for the symmetric A stored in the uplo triangle of
// a, as Dgemm on A's full square: the stored triangle is mirrored into a
// scratch matrix (O(n²) against the product's O(n²·m)), so the product has
// gemm.go's contract.
func (impl Implementation) Dsymm(s blas.Side, ul blas.Uplo, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if !symmValid(s, ul, m, n, a, lda, b, ldb, c, ldc) {
		impl.Implementation.Dsymm(s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	k := m
	if s == blas.Right {
		k = n
	}
	buf, full := scratch(k * k)
	defer vecPool.Put(buf)
	for i := range k {
		for j := i; j < k; j++ {
			v := a[i*lda+j]
			if ul == blas.Lower {
				v = a[j*lda+i]
			}
			full[i*k+j], full[j*k+i] = v, v
		}
	}
	if s == blas.Left {
		Gemm(false, false, m, n, m, alpha, full, k, b, ldb, beta, c, ldc)
		return
	}
	Gemm(false, false, m, n, n, alpha, b, ldb, full, k, beta, c, ldc)
}

// symmValid reports whether gonum's Dsymm accepts the arguments without a
// panic and has work to do (m and n positive).
func symmValid(s blas.Side, ul blas.Uplo, m, n int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) bool {
	if s != blas.Left && s != blas.Right || ul != blas.Upper && ul != blas.Lower || m <= 0 || n <= 0 || ldb < n || ldc < n {
		return false
	}
	k := m
	if s == blas.Right {
		k = n
	}
	return lda >= k && len(a) >= lda*(k-1)+k && len(b) >= ldb*(m-1)+n && len(c) >= ldc*(m-1)+n
}

// Dsymv computes y = alpha·A·x + beta·y for the n×n symmetric A stored in
// the uplo triangle of a, under symv.go's contract (x and y strided by
// incX and incY are copied to and from contiguous vectors first).
// Arguments gonum panics on go to gonum, which panics with its message.
func (impl Implementation) Dsymv(ul blas.Uplo, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	if !symvValid(ul, n, a, lda, x, incX, y, incY) || alpha == 0 && beta == 1 {
		impl.Implementation.Dsymv(ul, n, alpha, a, lda, x, incX, beta, y, incY)
		return
	}
	if incX == 1 && incY == 1 {
		symv(symvRow, ul == blas.Upper, n, alpha, a, lda, x, beta, y)
		return
	}
	buf, xy := scratch(2 * n)
	xs, ys := xy[:n], xy[n:]
	kx, ky := 0, 0
	if incX < 0 {
		kx = -(n - 1) * incX
	}
	if incY < 0 {
		ky = -(n - 1) * incY
	}
	for i := range n {
		xs[i], ys[i] = x[kx+i*incX], y[ky+i*incY]
	}
	symv(symvRow, ul == blas.Upper, n, alpha, a, lda, xs, beta, ys)
	for i, v := range ys {
		y[ky+i*incY] = v
	}
	vecPool.Put(buf)
}

// symvValid reports whether gonum's Dsymv accepts the arguments without a
// panic and has work to do (n positive).
func symvValid(ul blas.Uplo, n int, a []float64, lda int, x []float64, incX int, y []float64, incY int) bool {
	if ul != blas.Upper && ul != blas.Lower || n <= 0 || lda < n || incX == 0 || incY == 0 || len(a) < lda*(n-1)+n {
		return false
	}
	short := func(v []float64, inc int) bool {
		return inc > 0 && len(v) <= (n-1)*inc || inc < 0 && len(v) <= (1-n)*inc
	}
	return !short(x, incX) && !short(y, incY)
}

// syrkValid reports whether gonum's Dsyrk or Dsyr2k accepts the arguments
// without a panic and has work to do (n positive).
func syrkValid(ul blas.Uplo, tA blas.Transpose, n, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) bool {
	if ul != blas.Upper && ul != blas.Lower || tA != blas.NoTrans && tA != blas.Trans && tA != blas.ConjTrans || n <= 0 || k < 0 || ldc < n {
		return false
	}
	row, col := k, n
	if tA == blas.NoTrans {
		row, col = n, k
	}
	if lda < max(1, col) || ldb < max(1, col) {
		return false
	}
	if row > 0 && (len(a) < lda*(row-1)+col || len(b) < ldb*(row-1)+col) {
		return false
	}
	return len(c) >= ldc*(n-1)+n
}

// PureGo reports whether the registered BLAS is this package's (the
// packed product's rounding): code that chooses between a product and a
// routine of other rounding asks this, not the type.
func PureGo() bool {
	_, ok := blas64.Implementation().(Implementation)
	return ok
}
