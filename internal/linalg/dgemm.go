//go:build !openblas

package linalg

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/runexp/runexp/internal/par"
)

// Why Dgemm goes through package par: gonum's Dgemm splits a large product
// into 64×64 blocks of C and computes them on goroutines of its own, up to
// GOMAXPROCS at once. Inside a pool those goroutines compete with the
// other workers' cells (at -j 2 a cell's product took both cores while the
// other worker's cell waited), and no thread clock sees their CPU time, so
// the cell's measured CPU and the suite's attribution to families missed
// it (nguyen-fig5's RKPCA cells: 19 CPU-s measured in 246 s of wall). The
// product here is gonum's, block for block: the same blocks, each summed
// along k in the same 64-wide steps by gonum's own serial kernel (a call of
// gonum's Dgemm on one block, which is below gonum's threshold for going
// parallel), so every element gets the same operations in the same order
// and the result is bit for bit gonum's. Only who computes the blocks
// changes: par.Run, which inside a pool's cell borrows only idle cores and
// charges their CPU time to the cell.

func init() { blas64.Use(Implementation{}) }

// Implementation is gonum's pure-Go BLAS with Dgemm's blocks handed out by
// par.Run instead of gonum's own goroutines.
type Implementation struct{ gonum.Implementation }

// gonum's blocking (blas/gonum/gonum.go, v0.17.0): blocks of C are
// blockSize × blockSize, and a product of fewer than minParBlock blocks
// is computed serially.
const (
	blockSize   = 64
	minParBlock = 4
)

func blocks(dim, bsize int) int { return (dim + bsize - 1) / bsize }

// Dgemm computes C = alpha·op(A)·op(B) + beta·C as gonum's Dgemm does.
func (impl Implementation) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	g := impl.Implementation
	// Serial in gonum, or an argument gonum panics on or returns early
	// for: gonum itself, unchanged.
	if blocks(m, blockSize)*blocks(n, blockSize) < minParBlock || !dgemmValid(tA, tB, m, n, k, a, lda, b, ldb, c, ldc) || alpha == 0 || k == 0 {
		g.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	// gonum scales C by beta first, row by row, with these expressions.
	if beta != 1 {
		for i := 0; i < m; i++ {
			ctmp := c[i*ldc : i*ldc+n]
			if beta == 0 {
				for j := range ctmp {
					ctmp[j] = 0
				}
				continue
			}
			for j := range ctmp {
				ctmp[j] *= beta
			}
		}
	}
	aTrans := tA != blas.NoTrans
	bTrans := tB != blas.NoTrans
	bm, bn := blocks(m, blockSize), blocks(n, blockSize)
	par.Run(bm*bn, func(next func() (int, bool)) {
		for t, ok := next(); ok; t, ok = next() {
			i, j := (t/bn)*blockSize, (t%bn)*blockSize
			leni, lenj := min(blockSize, m-i), min(blockSize, n-j)
			cSub := view(c, ldc, i, j, leni, lenj)
			for l := 0; l < k; l += blockSize {
				lenk := min(blockSize, k-l)
				var aSub, bSub []float64
				if aTrans {
					aSub = view(a, lda, l, i, lenk, leni)
				} else {
					aSub = view(a, lda, i, l, leni, lenk)
				}
				if bTrans {
					bSub = view(b, ldb, j, l, lenj, lenk)
				} else {
					bSub = view(b, ldb, l, j, lenk, lenj)
				}
				// One block: gonum's serial kernel (1 block < minParBlock).
				g.Dgemm(tA, tB, leni, lenj, lenk, alpha, aSub, lda, bSub, ldb, 1, cSub, ldc)
			}
		}
	})
}

// view is gonum's sliceView64: the r×c block at (i, j) of a row-major
// matrix with stride lda.
func view(a []float64, lda, i, j, r, c int) []float64 {
	return a[i*lda+j : (i+r-1)*lda+j+c]
}

// dgemmValid reports whether gonum's Dgemm accepts the arguments without
// a panic (the cases that panic are left to it, with its messages).
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

// PureGo reports whether the registered BLAS rounds as gonum's pure-Go
// BLAS: gonum's own, or this package's Implementation (the same
// operations in the same order). Code that chooses between a product and
// a cheaper routine of other rounding (Dsyrk) asks this, not the type.
func PureGo() bool {
	switch blas64.Implementation().(type) {
	case gonum.Implementation, Implementation:
		return true
	}
	return false
}
