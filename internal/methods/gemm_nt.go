package methods

import (
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/linalg"
)

// Why a product of our own: the fixed points (RKPCA, Algorithm 1's fits,
// every projection) form small products a·bᵀ at every step, the kernel
// rows z·Dᵀ and the projection coefficients β·α_qᵀ, whose inner
// dimension (the data's 12 attributes on Oil Flow, q components) is at
// most gonum's block of 64. gonum's Dgemm computes each entry of such a
// product as one DotUnitary over the whole inner dimension, added to
// the zeroed output (serially, or in a 64×64 block of its parallel path:
// the inner dimension is one block either way), one call per entry: at
// N = 90 training points that is 9000 short calls a step, bound by the
// latency of DotUnitary's add chains. dot4 computes four of those dot
// products at once, each bit for bit DotUnitary's (lasso_dot_amd64.go,
// TestDot4IsDot), so the product is gonum's, bit for bit.

// smallNT reports whether mulNT computes a·bᵀ as gonum's Dgemm does: an
// inner dimension of at most one of Dgemm's blocks, under gonum's BLAS
// (another backend rounds otherwise).
func smallNT(k int) bool { return k <= 64 && linalg.PureGo() }

// mulNT sets dst = a·bᵀ (a is M×K, b is N×K, dst M×N already): through
// dot4, four entries at a time, each DotUnitary(a_i, b_j) as gonum's
// Dgemm leaves it (it adds the dot product to its zeroed output, which
// changes nothing: DotUnitary's chains start at +0, so no dot product is
// −0), where smallNT says that is gonum's product; dst.Mul otherwise.
func mulNT(dst, a, b *mat.Dense) {
	m, k := a.Dims()
	if !smallNT(k) {
		dst.Mul(a, b.T())
		return
	}
	n, _ := b.Dims()
	raw := dst.RawMatrix()
	for i := range m {
		ai := a.RawRowView(i)[:k]
		ci := raw.Data[i*raw.Stride : i*raw.Stride+n]
		j := 0
		for ; j+4 <= n; j += 4 {
			s0, s1, s2, s3 := dot4(ai, b.RawRowView(j), b.RawRowView(j+1), b.RawRowView(j+2), b.RawRowView(j+3))
			ci[j], ci[j+1], ci[j+2], ci[j+3] = s0, s1, s2, s3
		}
		for ; j < n; j++ {
			ci[j] = floats.Dot(ai, b.RawRowView(j)[:k])
		}
	}
}
