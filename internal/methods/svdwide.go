package methods

import (
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"
)

// wideSVD is the thin SVD of a wide k×D matrix H (k ≤ D) by way of its LQ
// factorisation, as LAPACK's dgesvd does when D is much larger than k:
// H = L·Q with Q's k rows orthonormal (Dgelqf, Dorglq), L = U_L·Σ·V_Lᵀ
// the SVD of the k×k triangle L (mat.SVD), so H = U_L·Σ·(Qᵀ·V_L)ᵀ.
// Kwok–Tsang takes one per pre-image (k ≤ 30 neighbours of D ≥ 256
// pixels); calling gonum's Dgesvd on H itself scanned all of H with
// math.Max for its scaling and applied the bidiagonal QR's rotations to
// the D-long rows of Vᵀ, where here they act on k×k matrices and one
// product forms V. The scratch is kept across calls.
type wideSVD struct {
	lq, tau, work []float64
	l, q, u, v    mat.Dense
	svd           mat.SVD
	s             []float64
}

// factorize computes the SVD of h (k×D, k ≤ D); false if it does not
// converge. Its results, valid until the next call: values (decreasing),
// U (k×k) and V (D×k).
func (w *wideSVD) factorize(h *mat.Dense) bool {
	k, d := h.Dims()
	if k > d {
		panic("methods: wideSVD of a tall matrix")
	}
	impl := gonum.Implementation{}
	w.lq = grow(w.lq, k*d)
	for i := range k {
		copy(w.lq[i*d:(i+1)*d], h.RawRowView(i))
	}
	w.tau = grow(w.tau, k)
	var query [1]float64
	impl.Dgelqf(k, d, w.lq, d, w.tau, query[:], -1)
	nw := int(query[0])
	impl.Dorglq(k, d, k, w.lq, d, w.tau, query[:], -1)
	nw = max(nw, int(query[0]))
	w.work = grow(w.work, nw)
	impl.Dgelqf(k, d, w.lq, d, w.tau, w.work, len(w.work))
	// L: the lower triangle of the factored matrix's first k columns.
	w.l.Reset()
	w.l.ReuseAs(k, k)
	for i := range k {
		row := w.l.RawRowView(i)
		clear(row)
		copy(row[:i+1], w.lq[i*d:i*d+i+1])
	}
	impl.Dorglq(k, d, k, w.lq, d, w.tau, w.work, len(w.work))
	w.q.SetRawMatrix(blas64.General{Rows: k, Cols: d, Stride: d, Data: w.lq[:k*d]})
	if !w.svd.Factorize(&w.l, mat.SVDFull) {
		return false
	}
	w.s = w.svd.Values(nil)
	w.u.Reset()
	w.svd.UTo(&w.u)
	var vl mat.Dense
	w.svd.VTo(&vl)
	w.v.Reset()
	w.v.Mul(w.q.T(), &vl)
	return true
}
