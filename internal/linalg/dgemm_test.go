//go:build !openblas

package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"
)

// TestDgemmIsGemm: the registered Dgemm is the packed product, bit for bit
// gemm.go's contract, through blas64's argument conventions.
func TestDgemmIsGemm(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, sz := range [][3]int{{1, 1, 1}, {3, 5, 7}, {65, 130, 63}, {300, 1, 200}, {190, 200, 300}, {129, 257, 0}} {
		for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			for _, tB := range []blas.Transpose{blas.NoTrans, blas.Trans} {
				m, n, k := sz[0], sz[1], sz[2]
				ar, ac, br, bc := m, k, k, n
				if tA == blas.Trans {
					ar, ac = k, m
				}
				if tB == blas.Trans {
					br, bc = n, k
				}
				lda, ldb, ldc := ac+3, bc+1, n+2
				a, b, c := fill(rnd, max(ar, 1)*lda), fill(rnd, max(br, 1)*ldb), fill(rnd, m*ldc)
				want, got := append([]float64(nil), c...), append([]float64(nil), c...)
				gemmRef(tA == blas.Trans, tB == blas.Trans, m, n, k, -1.5, a, lda, b, ldb, 0.5, want, ldc)
				Implementation{}.Dgemm(tA, tB, m, n, k, -1.5, a, lda, b, ldb, 0.5, got, ldc)
				for i := range want {
					if !sameBits(want[i], got[i]) {
						t.Fatalf("m%d n%d k%d %c%c: c[%d] = %v, want %v", m, n, k, tA, tB, i, got[i], want[i])
					}
				}
			}
		}
	}
}

// TestSyrkIsGemm: Dsyrk's triangle has the full product's bits (so A·Aᵀ
// is symmetric bit for bit), and Dsyr2k's is the product [A B]·[B A]ᵀ;
// the other triangle is left as it was. Sizes cross triBlock and the
// recursion's halving at odd sizes.
func TestSyrkIsGemm(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 3))
	for _, nk := range [][2]int{{1, 1}, {5, 3}, {32, 7}, {33, 40}, {100, 64}, {257, 31}, {40, 0}} {
		n, k := nk[0], nk[1]
		for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
			for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
				for _, ab := range [][2]float64{{1, 0}, {-1, 1}, {0.7, -0.3}, {0, 2}} {
					name := fmt.Sprintf("n%d k%d %c %c α %g β %g", n, k, ul, tA, ab[0], ab[1])
					ar, ac := n, k
					if tA == blas.Trans {
						ar, ac = k, n
					}
					lda, ldc := ac+2, n+1
					a, bm, c := fill(rnd, max(ar, 1)*lda), fill(rnd, max(ar, 1)*lda), fill(rnd, n*ldc)
					// Dsyrk against the full product.
					full, got := append([]float64(nil), c...), append([]float64(nil), c...)
					gemmRef(tA == blas.Trans, tA != blas.Trans, n, n, k, ab[0], a, lda, a, lda, ab[1], full, ldc)
					Implementation{}.Dsyrk(ul, tA, n, k, ab[0], a, lda, ab[1], got, ldc)
					checkTri(t, "Dsyrk "+name, ul, n, ldc, c, full, got)
					// Dsyr2k against [A B]·[B A]ᵀ.
					x, y := make([]float64, n*2*k), make([]float64, n*2*k)
					for i := range n {
						for l := range k {
							at := i*lda + l
							if tA == blas.Trans {
								at = l*lda + i
							}
							ail, bil := a[at], bm[at]
							x[i*2*k+l], x[i*2*k+k+l] = ail, bil
							y[i*2*k+l], y[i*2*k+k+l] = bil, ail
						}
					}
					full, got = append([]float64(nil), c...), append([]float64(nil), c...)
					gemmRef(false, true, n, n, 2*k, ab[0], x, max(2*k, 1), y, max(2*k, 1), ab[1], full, ldc)
					Implementation{}.Dsyr2k(ul, tA, n, k, ab[0], a, lda, bm, lda, ab[1], got, ldc)
					checkTri(t, "Dsyr2k "+name, ul, n, ldc, c, full, got)
				}
			}
		}
	}
}

// checkTri: got's uplo triangle equals full's, its other triangle orig's.
func checkTri(t *testing.T, name string, ul blas.Uplo, n, ldc int, orig, full, got []float64) {
	t.Helper()
	for i := range n {
		for j := range n {
			want := orig[i*ldc+j]
			if ul == blas.Upper && j >= i || ul == blas.Lower && j <= i {
				want = full[i*ldc+j]
			}
			if !sameBits(got[i*ldc+j], want) {
				t.Fatalf("%s: c[%d,%d] = %v, want %v", name, i, j, got[i*ldc+j], want)
			}
		}
	}
}

// TestDsymvStrided: Dsymv with strided and negative increments is the
// contract's product of the gathered vectors.
func TestDsymvStrided(t *testing.T) {
	rnd := rand.New(rand.NewPCG(52, 6))
	const n = 37
	a, x, y := fill(rnd, n*n), fill(rnd, n), fill(rnd, n)
	want := append([]float64(nil), y...)
	symvRef(false, n, 1.5, a, n, x, 0.5, want)
	xs, ys := make([]float64, 3*n), make([]float64, 2*n)
	for i := range n {
		xs[3*i], ys[2*(n-1-i)] = x[i], y[i]
	}
	Implementation{}.Dsymv(blas.Lower, n, 1.5, a, n, xs, 3, 0.5, ys, -2)
	for i := range n {
		if !sameBits(ys[2*(n-1-i)], want[i]) {
			t.Fatalf("strided Dsymv: y[%d] = %v, want %v", i, ys[2*(n-1-i)], want[i])
		}
	}
}

// TestDsymmIsGemm: Dsymm is Dgemm on the symmetric matrix's full square,
// bit for bit, for both sides and triangles.
func TestDsymmIsGemm(t *testing.T) {
	rnd := rand.New(rand.NewPCG(52, 14))
	for _, mn := range [][2]int{{1, 1}, {5, 9}, {70, 33}, {200, 301}} {
		m, n := mn[0], mn[1]
		for _, side := range []blas.Side{blas.Left, blas.Right} {
			for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
				k := m
				if side == blas.Right {
					k = n
				}
				a, b, c := fill(rnd, k*(k+1)), fill(rnd, m*(n+2)), fill(rnd, m*(n+3))
				full := make([]float64, k*k)
				for i := range k {
					for j := range k {
						lo, hi := min(i, j), max(i, j)
						if ul == blas.Upper {
							full[i*k+j] = a[lo*(k+1)+hi]
						} else {
							full[i*k+j] = a[hi*(k+1)+lo]
						}
					}
				}
				want, got := append([]float64(nil), c...), append([]float64(nil), c...)
				if side == blas.Left {
					gemmRef(false, false, m, n, m, 0.7, full, k, b, n+2, -0.5, want, n+3)
				} else {
					gemmRef(false, false, m, n, n, 0.7, b, n+2, full, k, -0.5, want, n+3)
				}
				Implementation{}.Dsymm(side, ul, m, n, 0.7, a, k+1, b, n+2, -0.5, got, n+3)
				for i := range want {
					if !sameBits(want[i], got[i]) {
						t.Fatalf("m%d n%d side %c uplo %c: c[%d] = %v, want %v", m, n, side, ul, i, got[i], want[i])
					}
				}
			}
		}
	}
}

// TestDsyevIsGonum: the registered Dsyev (mat.EigenSym's) gives gonum's
// Dsyev's eigenvalues and vectors bit for bit, both triangles, with and
// without vectors, and with a matrix past Dsyev's safe range (scaled).
func TestDsyevIsGonum(t *testing.T) {
	rnd := rand.New(rand.NewPCG(52, 20))
	impl := gonum.Implementation{}
	for _, n := range []int{1, 2, 40, 97} {
		for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
			for _, jobz := range []lapack.EVJob{lapack.EVCompute, lapack.EVNone} {
				// 1e160 is past Dsyev's safe range (its scaling path);
				// 1e-160 trips a bound check in gonum's Dsterf at n = 2.
				for _, scale := range []float64{1, 1e160} {
					a := make([]float64, n*n)
					for i := range n {
						for j := i; j < n; j++ {
							v := rnd.NormFloat64() * scale
							a[i*n+j], a[j*n+i] = v, v
						}
					}
					a2 := append([]float64(nil), a...)
					w1, w2 := make([]float64, n), make([]float64, n)
					work := make([]float64, 1)
					impl.Dsyev(jobz, ul, n, a, n, w1, work, -1)
					work = make([]float64, int(work[0]))
					work2 := make([]float64, len(work))
					ok1 := impl.Dsyev(jobz, ul, n, a, n, w1, work, len(work))
					ok2 := LAPACK{}.Dsyev(jobz, ul, n, a2, n, w2, work2, len(work2))
					name := fmt.Sprintf("n=%d %c %c scale %g", n, ul, jobz, scale)
					if ok1 != ok2 {
						t.Fatalf("%s: converged %v, gonum %v", name, ok2, ok1)
					}
					for i := range w1 {
						if math.Float64bits(w1[i]) != math.Float64bits(w2[i]) {
							t.Fatalf("%s: w[%d] = %v, gonum %v", name, i, w2[i], w1[i])
						}
					}
					if jobz == lapack.EVCompute {
						for i := range a {
							if math.Float64bits(a[i]) != math.Float64bits(a2[i]) {
								t.Fatalf("%s: a[%d] = %v, gonum %v", name, i, a2[i], a[i])
							}
						}
					}
				}
			}
		}
	}
}
