package classify

import "math"

// Counted operations of the feature extraction (Zheng et al. c5: "LPKPCA
// only adds a little bit computation burdens when constructing the
// neighborhood graph"; docs/readings.md). They are counted from the sizes,
// not timed: a wall-clock time in a record would make the records differ
// from run to run and machine to machine, where these are a function of
// the sizes alone and so identical in every run. One floating-point
// operation (flop) is one addition or multiplication; the counts of the
// dense factorisations are the textbook ones (Golub & Van Loan, Matrix
// Computations, 4th ed., §8.3: symmetric QR with the eigenvectors ≈ 9n³,
// tridiagonal reduction ≈ (4/3)n³), whichever backend runs them.
//
//	KPCA, as this kind computes it for N training and M test images of
//	dimension D with r kernel components:
//	  training Gram matrix     N²·D   (½N² entries, 2D each)
//	  centring                 3N²
//	  eigendecomposition       9N³    (every eigenpair)
//	  test Gram matrix         2·M·N·D
//	  test projections         2·M·N·r
//	k-NN graph (methods.KNNGraph):
//	  squared distances        2·N²·D (the full N×N product)
//	  sorting each row         N²·log₂N comparisons
//	LPKPCA beyond the graph (methods.FitLPKPCA, then the features):
//	  P = VΛ^½                 N·r
//	  L·P                      (N + nnz(W))·r
//	  PᵀLP, upper triangle     N·r²
//	  d leading eigenpairs     (4/3)r³ + 2r²·d   (reduction, back-transform)
//	  rotated features         2·(N + M)·r·q
//
// The graph's distances are those the Gaussian kernel needs too; the
// count keeps them, as the code computes them twice.
type sizes struct {
	n, m, dim, r, q, top int
}

// kpcaFlops is the KPCA feature extraction's count.
func (s sizes) kpcaFlops() float64 {
	n, m, d, r := float64(s.n), float64(s.m), float64(s.dim), float64(s.r)
	return n*n*d + 3*n*n + 9*n*n*n + 2*m*n*d + 2*m*n*r
}

// graphFlops is the k-NN graph's count.
func (s sizes) graphFlops() float64 {
	n, d := float64(s.n), float64(s.dim)
	return 2*n*n*d + n*n*math.Log2(n)
}

// lpkpcaFlops is LPKPCA's count beyond the graph, for a graph with nnz
// adjacency entries (twice its edges).
func (s sizes) lpkpcaFlops(nnz int) float64 {
	n, m, r, q, top := float64(s.n), float64(s.m), float64(s.r), float64(s.q), float64(s.top)
	return n*r + (n+float64(nnz))*r + n*r*r + 4*r*r*r/3 + 2*r*r*top + 2*(n+m)*r*q
}
