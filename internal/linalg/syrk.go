package linalg

// triBlock is the order of the diagonal blocks gemmTri computes whole
// (into a scratch tile) rather than splitting further.
const triBlock = 32

// gemmTri computes the upper (or lower) triangle of the n×n matrix
// C = α·op(A)·op(B) + β·C, op(A) n×k and op(B) k×n, under gemm.go's
// contract, leaving the other triangle as it was: it splits C into two
// diagonal halves, computes the off-diagonal rectangle with one Gemm and
// recurses; a diagonal block of at most triBlock rows is computed whole
// into a scratch copy of its C, and only its triangle copied back. Every
// element it writes has Gemm's bits, since they do not depend on how the
// product is cut.
func gemmTri(upper bool, n, k int, alpha float64, tA bool, a []float64, lda int, tB bool, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if n <= triBlock {
		buf, t := scratch(n * n)
		defer vecPool.Put(buf)
		for i := range n {
			copy(t[i*n:i*n+n], c[i*ldc:i*ldc+n])
		}
		Gemm(tA, tB, n, n, k, alpha, a, lda, b, ldb, beta, t, n)
		for i := range n {
			if upper {
				copy(c[i*ldc+i:i*ldc+n], t[i*n+i:i*n+n])
			} else {
				copy(c[i*ldc:i*ldc+i+1], t[i*n:i*n+i+1])
			}
		}
		return
	}
	h := (n/2 + triBlock - 1) / triBlock * triBlock // a multiple of the block: fewer scratch tiles
	// Rows [0, h) and [h, n) of op(A), columns [0, h) and [h, n) of op(B).
	a0, a1 := a, rowsOf(a, lda, tA, h)
	b0, b1 := b, colsOf(b, ldb, tB, h)
	gemmTri(upper, h, k, alpha, tA, a0, lda, tB, b0, ldb, beta, c, ldc)
	if upper {
		// C[0:h, h:n] = op(A)[0:h]·op(B)[:, h:n].
		Gemm(tA, tB, h, n-h, k, alpha, a0, lda, b1, ldb, beta, c[h:], ldc)
	} else {
		// C[h:n, 0:h] = op(A)[h:n]·op(B)[:, 0:h].
		Gemm(tA, tB, n-h, h, k, alpha, a1, lda, b0, ldb, beta, c[h*ldc:], ldc)
	}
	gemmTri(upper, n-h, k, alpha, tA, a1, lda, tB, b1, ldb, beta, c[h*ldc+h:], ldc)
}

// rowsOf returns op(A) from row h on: A's rows (A itself) or columns (Aᵀ).
func rowsOf(a []float64, lda int, t bool, h int) []float64 {
	if t {
		return a[h:]
	}
	return a[h*lda:]
}

// colsOf returns op(B) from column h on: B's columns (B itself) or rows (Bᵀ).
func colsOf(b []float64, ldb int, t bool, h int) []float64 {
	if t {
		return b[h*ldb:]
	}
	return b[h:]
}
