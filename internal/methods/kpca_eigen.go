package methods

import (
	"math"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/linalg"
)

// Why the eigenvectors of a fit are computed when asked for: a kernel PCA
// fit is shared by every cell with the same data and kernel, and most
// cells use q ≪ N components (A&H Fig. 4: q ≤ 100 of N = 400; the peer
// benchmark: 50 of 1000), while the full symmetric eigensolver spends
// most of its time (83% at N = 1000) applying QR rotations to all N
// eigenvectors. So FitKPCA reduces K̃ to tridiagonal form once (Dsytrd)
// and computes all its eigenvalues (Dsterf, O(N²)), which decide Rank
// and every energy rule, and Alpha(q) computes eigenvectors only when a
// caller asks, by one of two solvers fixed by q and the spectrum alone:
//
//   - the top-q solver (topEigenSym's: inverse iteration on the
//     tridiagonal matrix, then the Householder back-transformation of
//     those vectors only) when q ≤ N/2 and every gap among the first q+1
//     eigenvalues, λ_k − λ_{k+1} for k < q, is at least
//     kpcaGapTol·λ_1. Its vectors are extended as callers ask for more:
//     vector k depends only on the eigenvalues, the vectors before it and
//     a seeded stream (inverseIterationFrom), so they are the same bits
//     whichever q was asked for first;
//   - otherwise the full solver (Dorgtr and Dsteqr on the same reduction:
//     LAPACK's dsyev; Dsteqr is linalg's, gonum's bit for bit with its
//     rotations applied a block of rows at a time), computed once for
//     every component. Near-degenerate
//     eigenvalues among the leading q leave their eigenvectors defined
//     only up to a rotation, which each solver picks in its own way; the
//     full solver is then used so that the components are the reference
//     solver's, and FullSolver(q) reports it (setup records it in the
//     cell's log).
//
// Both solvers' eigenvectors agree to ε·λ_1/gap (Davis–Kahan), so with
// gaps of at least kpcaGapTol·λ_1 the top-q vectors equal the full
// solver's to about 1e-10 (TestKPCATopMatchesFull).

// kpcaGapTol is the smallest gap among the leading eigenvalues, relative
// to the largest, for which Alpha uses the top-q solver.
const kpcaGapTol = 1e-6

// kpcaEigen is a centred Gram matrix reduced to tridiagonal form, with
// all its eigenvalues and the eigenvectors computed so far.
type kpcaEigen struct {
	mu   sync.Mutex
	n    int
	red  tridiagWork // the reduction (Dsytrd's reflectors in red.t.sa), and inverse iteration's scratch
	vals []float64   // the positive eigenvalues, decreasing (KPCA.Values)
	next []float64   // next[k] is the eigenvalue after vals[k] (the (k+1)-th largest of all)

	z   *mat.Dense // the tridiagonal matrix's eigenvectors for vals[:nzT], n×nzT
	nzT int
	top *mat.Dense // α for vals[:nz] by the top-q solver, n×nz
	nz  int
	byQ map[int]*mat.Dense // α per q, under a BLAS other than the pure-Go one

	full    *mat.Dense // α for every component by the full solver, once asked
	fullErr bool       // the full solver did not converge

	fallback *mat.Dense // α by mat.EigenSym on K̃, where fullErr
}

// setValues records the positive eigenvalues vals (decreasing) of the
// matrix e.red reduced.
func (e *kpcaEigen) setValues(vals []float64) {
	t := &e.red.t
	n := t.n
	e.n, e.vals, e.next = n, vals, make([]float64, len(vals))
	for k := range vals {
		// vals[k] is t.ev[n−1−k].
		if i := n - 2 - k; i >= 0 {
			e.next[k] = t.ev[i]
		} else {
			e.next[k] = math.Inf(-1)
		}
	}
}

// useTop reports whether the leading q eigenvectors come from the top-q
// solver.
func (e *kpcaEigen) useTop(q int) bool {
	if 2*q > e.n {
		return false
	}
	tol := kpcaGapTol * e.vals[0]
	for k := range q {
		if e.vals[k]-e.next[k] < tol {
			return false
		}
	}
	return true
}

// alpha returns α for the leading q components (n×q), or nil if the full
// solver is needed and did not converge.
func (e *kpcaEigen) alpha(q int) *mat.Dense {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.useTop(q) {
		e.extendZ(q)
		if !linalg.PureGo() {
			return e.alphaOf(q)
		}
		e.extend(q)
		return e.top.Slice(0, e.n, 0, q).(*mat.Dense)
	}
	if e.full == nil && !e.fullErr {
		e.full = e.fullSolve()
		e.fullErr = e.full == nil
	}
	if e.full == nil {
		return nil
	}
	return e.full.Slice(0, e.n, 0, q).(*mat.Dense)
}

// extendZ computes the tridiagonal matrix's eigenvectors up to q
// (inverse iteration: column k's bits do not depend on how many were
// asked for before).
func (e *kpcaEigen) extendZ(q int) {
	if q <= e.nzT {
		return
	}
	n, t := e.n, &e.red.t
	z := mat.NewDense(n, q, nil)
	if e.nzT > 0 {
		z.Slice(0, n, 0, e.nzT).(*mat.Dense).Copy(e.z)
	}
	e.red.inverseIterationFrom(t.diag, t.off[:max(n-1, 0)], e.vals[:q], e.nzT, tridiagNorm(t.diag, t.off), z)
	e.z, e.nzT = z, q
}

// extend back-transforms the tridiagonal vectors from e.nz to q and
// appends them to e.top. Under the pure-Go backend column j of Q·Z depends
// on column j of Z only (the products' contract), so extending gives the
// bits of one call.
func (e *kpcaEigen) extend(q int) {
	if q <= e.nz {
		return
	}
	n, t := e.n, &e.red.t
	c := mat.DenseCopyOf(e.z.Slice(0, n, e.nz, q))
	t.backTransform(c)
	top := mat.NewDense(n, q, nil)
	if e.nz > 0 {
		top.Slice(0, n, 0, e.nz).(*mat.Dense).Copy(e.top)
	}
	for j := e.nz; j < q; j++ {
		s := 1 / math.Sqrt(e.vals[j])
		for r := range n {
			top.Set(r, j, c.At(r, j-e.nz)*s)
		}
	}
	e.top, e.nz = top, q
}

// alphaOf is α for the leading q components under a BLAS whose products'
// bits may depend on how many columns they take (OpenBLAS): the q vectors
// back-transformed together, kept per q, so that a q gives the same bits
// whatever was asked before.
func (e *kpcaEigen) alphaOf(q int) *mat.Dense {
	if a, ok := e.byQ[q]; ok {
		return a
	}
	n, t := e.n, &e.red.t
	c := mat.DenseCopyOf(e.z.Slice(0, n, 0, q))
	t.backTransform(c)
	for j := range q {
		s := 1 / math.Sqrt(e.vals[j])
		for r := range n {
			c.Set(r, j, c.At(r, j)*s)
		}
	}
	if e.byQ == nil {
		e.byQ = map[int]*mat.Dense{}
	}
	e.byQ[q] = c
	return c
}

// fullSolve returns α for every component by the full solver on the kept
// reduction: Q from the reflectors (Dorgtr), then the implicit QL/QR
// iteration with the rotations applied to Q (Dsteqr). nil if it does not
// converge.
func (e *kpcaEigen) fullSolve() *mat.Dense {
	n, t := e.n, &e.red.t
	impl := gonum.Implementation{}
	q := make([]float64, n*n)
	for i := range n {
		copy(q[i*n:i*n+i+1], t.sa[i*t.lda:i*t.lda+i+1])
	}
	var query [1]float64
	impl.Dorgtr(blas.Lower, n, q, n, t.tau, query[:], -1)
	work := make([]float64, max(int(query[0]), 2*n))
	impl.Dorgtr(blas.Lower, n, q, n, t.tau, work, len(work))
	d := append([]float64(nil), t.diag...)
	off := append([]float64(nil), t.off[:max(n-1, 0)]...)
	if !linalg.Dsteqr(lapack.EVOrig, n, d, off, q, n, work) {
		return nil
	}
	a := mat.NewDense(n, len(e.vals), nil)
	for j, v := range e.vals {
		s := 1 / math.Sqrt(v)
		col := n - 1 - j
		for r := range n {
			a.Set(r, j, q[r*n+col]*s)
		}
	}
	return a
}

// tridiagNorm is ‖T‖∞ of the symmetric tridiagonal matrix with diagonal
// diag and off-diagonal off (len(diag)−1 entries used).
func tridiagNorm(diag, off []float64) float64 {
	n := len(diag)
	var tnorm float64
	for i := range n {
		s := math.Abs(diag[i])
		if i > 0 {
			s += math.Abs(off[i-1])
		}
		if i < n-1 {
			s += math.Abs(off[i])
		}
		tnorm = math.Max(tnorm, s)
	}
	return tnorm
}

// backTransform overwrites c (n×d, row-major) with Q·c, Q = H(0)…H(n−2)
// from Dsytrd(Lower): Dormqr on the trailing (n−1)×(n−1) block (LAPACK's
// dormtr).
func (t *tridiagEigen) backTransform(c *mat.Dense) {
	n := t.n
	if n <= 1 {
		return
	}
	_, d := c.Dims()
	impl := gonum.Implementation{}
	cr := c.RawMatrix()
	var query [1]float64
	impl.Dormqr(blas.Left, blas.NoTrans, n-1, d, n-1, t.sa[t.lda:], t.lda, t.tau, cr.Data[cr.Stride:], cr.Stride, query[:], -1)
	w := t.w
	w.work = grow(w.work, int(query[0]))
	impl.Dormqr(blas.Left, blas.NoTrans, n-1, d, n-1, t.sa[t.lda:], t.lda, t.tau, cr.Data[cr.Stride:], cr.Stride, w.work, len(w.work))
}
