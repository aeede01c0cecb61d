package methods

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"
)

// topEigenSym returns the d largest eigenvalues (decreasing) of the
// symmetric matrix a and their eigenvectors (n×d, orthonormal columns).
// a's lower triangle is overwritten.
//
// # Method
//
// mat.EigenSym with vectors spends most of its time (about 70% at
// n = 1500, BenchmarkFitLPKPCA1500) applying the implicit QL rotations
// of Dsteqr to all n eigenvectors; here only d are wanted. So, as
// LAPACK's dsyevx does: Householder reduction to tridiagonal form
// (Dsytrd, O(n³) but in blocked BLAS-3, hence fast under the OpenBLAS
// build), all eigenvalues of the tridiagonal matrix by root-free QR
// (Dsterf, O(n²)), the d eigenvectors of the tridiagonal matrix by
// inverse iteration with Gram–Schmidt inside clusters of close
// eigenvalues (dstein's method, O(n·d) plus the clusters), and the
// Householder back-transformation of those d vectors only (Dormqr,
// O(n²·d)).
//
// ok is false if Dsterf does not converge; the caller then falls back to
// mat.EigenSym.
func topEigenSym(a *mat.SymDense, d int) (vals []float64, vecs *mat.Dense, ok bool) {
	n := a.SymmetricDim()
	if d < 1 || d > n {
		panic("methods: topEigenSym: bad number of eigenpairs")
	}
	t, ok := newTridiagEigen(a)
	if !ok {
		return nil, nil, false
	}
	vals = make([]float64, d)
	for k := range vals {
		vals[k] = t.ev[n-1-k]
	}
	return vals, t.vectors(vals), true
}

// tridiagEigen is a symmetric matrix reduced to tridiagonal form with all
// its eigenvalues: the first half of topEigenSym, for callers that choose
// how many eigenvectors they need from the eigenvalues (an energy rule).
// Its arrays are those of the tridiagWork that made it, valid until that
// work's next reduction.
type tridiagEigen struct {
	n, lda         int
	sa             []float64 // Dsytrd's reflectors below the subdiagonal
	diag, off, tau []float64
	ev             []float64 // every eigenvalue, increasing
	w              *tridiagWork
}

// tridiagWork holds the arrays of a reduction and of its eigenvectors,
// kept by a caller that reduces many matrices (RKPCA's imputation fits
// 250 models a repetition) so that they are allocated once per size
// instead of once per matrix. The arithmetic is the same whether they are
// new or reused: every element is written before it is read, and the
// LAPACK calls get exactly the workspace length their queries return.
type tridiagWork struct {
	t              tridiagEigen
	diag, off, tau []float64
	ev, e2, work   []float64
	z              []float64 // the eigenvectors, n×d
	zm             mat.Dense // z's header
	x, col         []float64 // inverse iteration's iterate and a cluster column
	lu             tridiagLU
	src            rand.PCG
	rng            *rand.Rand // over src
}

// newTridiagEigen reduces a (its lower triangle is overwritten) and
// computes all its eigenvalues in a work of its own; ok is false if
// Dsterf does not converge.
func newTridiagEigen(a *mat.SymDense) (t *tridiagEigen, ok bool) {
	return new(tridiagWork).reduce(a)
}

// reduce is newTridiagEigen in w's arrays: the result, and the previous
// result's arrays, are overwritten by w's next reduce.
func (w *tridiagWork) reduce(a *mat.SymDense) (t *tridiagEigen, ok bool) {
	n := a.SymmetricDim()
	raw := a.RawSymmetric()
	// Dsytrd(Lower) reads the lower triangle; SymDense keeps the upper.
	sa, lda := raw.Data, raw.Stride
	if raw.Uplo == blas.Upper {
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				sa[j*lda+i] = sa[i*lda+j]
			}
		}
	}
	impl := gonum.Implementation{}
	w.diag, w.off, w.tau = grow(w.diag, n), grow(w.off, max(n-1, 1)), grow(w.tau, max(n-1, 1))
	clear(w.diag)
	clear(w.off)
	clear(w.tau)
	w.t = tridiagEigen{n: n, lda: lda, sa: sa, diag: w.diag, off: w.off, tau: w.tau, w: w}
	t = &w.t
	var query [1]float64
	impl.Dsytrd(blas.Lower, n, sa, lda, t.diag, t.off, t.tau, query[:], -1)
	w.work = grow(w.work, int(query[0]))
	impl.Dsytrd(blas.Lower, n, sa, lda, t.diag, t.off, t.tau, w.work, len(w.work))

	// All eigenvalues, increasing.
	w.ev = append(w.ev[:0], t.diag...)
	w.e2 = append(w.e2[:0], t.off[:n-1]...)
	t.ev = w.ev
	if !impl.Dsterf(n, t.ev, w.e2) {
		return nil, false
	}
	return t, true
}

// vectors returns the unit eigenvectors (n×len(vals), one column each) for
// vals, eigenvalues of t in decreasing order as from t.ev. The matrix is
// t's work's, overwritten by its next vectors.
func (t *tridiagEigen) vectors(vals []float64) *mat.Dense {
	n, d := t.n, len(vals)
	w := t.w
	w.z = grow(w.z, n*d)
	clear(w.z)
	w.zm.SetRawMatrix(blas64.General{Rows: n, Cols: d, Stride: d, Data: w.z})
	z := &w.zm
	// Eigenvectors of the tridiagonal matrix T, one column each, in the
	// order of vals, then Z ← Q·Z.
	w.inverseIteration(t.diag, t.off[:n-1], vals, tridiagNorm(t.diag, t.off), z)
	t.backTransform(z)
	return z
}

// inverseIteration writes into the columns of z (n×len(mu)) the
// unit eigenvectors of the symmetric tridiagonal matrix with diagonal
// diag and off-diagonal off, for the eigenvalues mu (decreasing, as from
// Dsterf). As LAPACK's dstein: eigenvalues closer than 1e-3·‖T‖ form a
// cluster and each vector of a cluster is orthogonalised against the
// earlier ones at every iteration; eigenvalues closer than 10·ε·‖T‖ are
// pulled apart by that much so the shifted systems differ. Starting
// vectors are seeded (the same stream at every call), so the result is
// deterministic.
func (w *tridiagWork) inverseIteration(diag, off, mu []float64, tnorm float64, z *mat.Dense) {
	w.inverseIterationFrom(diag, off, mu, 0, tnorm, z)
}

// inverseIterationFrom is inverseIteration for the columns from on, the
// columns before from holding what inverseIteration wrote there: column k
// depends only on mu[:k+1], the columns before it and the k-th n draws of
// the seeded stream, so vectors computed in several calls, each extending
// the last, are bit for bit those of one call.
func (w *tridiagWork) inverseIterationFrom(diag, off, mu []float64, from int, tnorm float64, z *mat.Dense) {
	n := len(diag)
	if n == 1 {
		for k := from; k < len(mu); k++ {
			z.Set(0, k, 1)
		}
		return
	}
	eps := 1.1102230246251565e-16
	ortol := 1e-3 * tnorm
	pertol := 10 * eps * tnorm
	w.src.Seed(1, 1) // rand.NewPCG(1, 1)'s state
	if w.rng == nil {
		w.rng = rand.New(&w.src)
	}
	rng := w.rng
	for range from * n {
		rng.Float64()
	}
	f := &w.lu
	w.x, w.col = grow(w.x, n), grow(w.col, n)
	x, col := w.x, w.col
	clusterStart := 0
	prev := math.Inf(1)
	for k, m := range mu {
		if k > 0 && prev-m > ortol {
			clusterStart = k
		}
		if k > 0 && prev-m < pertol {
			m = prev - pertol
		}
		prev = m
		if k < from {
			continue
		}
		f.factor(diag, off, m, eps*tnorm)
		for i := range x {
			x[i] = rng.Float64() - 0.5
		}
		for it := 0; it < 4; it++ {
			// Scale so the solve cannot overflow, as dstein does.
			floats.Scale(float64(n)*tnorm/math.Max(floats.Norm(x, 1), 1e-300), x)
			f.solve(x)
			for j := clusterStart; j < k; j++ {
				mat.Col(col, j, z)
				floats.AddScaled(x, -floats.Dot(x, col), col)
			}
			floats.Scale(1/floats.Norm(x, 2), x)
		}
		z.SetCol(k, x)
	}
}

// tridiagLU is the LU factorisation with partial pivoting of T − μI for a
// symmetric tridiagonal T (LAPACK's dgttrf; solve is dgtts2).
type tridiagLU struct {
	d, dl, du, du2 []float64
	swap           []bool
}

// factor factorises T − mu·I; pivots smaller than tiny are replaced by
// tiny (inverse iteration wants a nearly singular system, not a zero
// division).
func (f *tridiagLU) factor(diag, off []float64, mu, tiny float64) {
	n := len(diag)
	if cap(f.d) < n {
		f.d, f.dl, f.du, f.du2 = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		f.swap = make([]bool, n)
	}
	d, dl, du, du2 := f.d[:n], f.dl[:n-1], f.du[:n-1], f.du2[:n]
	for i := range d {
		d[i] = diag[i] - mu
	}
	copy(dl, off)
	copy(du, off)
	clear(du2)
	for i := 0; i < n-1; i++ {
		f.swap[i] = math.Abs(d[i]) < math.Abs(dl[i])
		if !f.swap[i] {
			if d[i] != 0 {
				fact := dl[i] / d[i]
				dl[i] = fact
				d[i+1] -= fact * du[i]
			}
			continue
		}
		fact := d[i] / dl[i]
		d[i] = dl[i]
		dl[i] = fact
		t := du[i]
		du[i] = d[i+1]
		d[i+1] = t - fact*d[i+1]
		if i < n-2 {
			du2[i] = du[i+1]
			du[i+1] = -fact * du[i+1]
		}
	}
	for i := range d {
		if math.Abs(d[i]) < tiny {
			d[i] = math.Copysign(tiny, d[i])
		}
	}
}

// solve overwrites b with (T − μI)⁻¹b.
func (f *tridiagLU) solve(b []float64) {
	n := len(b)
	d, dl, du, du2 := f.d[:n], f.dl[:n-1], f.du[:n-1], f.du2[:n]
	for i := 0; i < n-1; i++ {
		if f.swap[i] {
			t := b[i] - dl[i]*b[i+1]
			b[i] = b[i+1]
			b[i+1] = t
		} else {
			b[i+1] -= dl[i] * b[i]
		}
	}
	b[n-1] /= d[n-1]
	if n > 1 {
		b[n-2] = (b[n-2] - du[n-2]*b[n-1]) / d[n-2]
	}
	for i := n - 3; i >= 0; i-- {
		b[i] = (b[i] - du[i]*b[i+1] - du2[i]*b[i+2]) / d[i]
	}
}
