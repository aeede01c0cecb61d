//go:build !openblas

package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// TestDgemmIsGonum: the product through par is gonum's Dgemm bit for bit,
// on both sides of gonum's threshold for going parallel (fewer than 4
// blocks of 64×64 in C), with k across its 64-wide steps, every
// transpose, the special alphas and betas, strides wider than the
// matrices, and entries that reach NaN and ±Inf. It fails if a block is
// summed along k in one call instead of gonum's 64-wide steps (the
// NoTrans·Trans products then round differently), or if C is not scaled
// by beta first.
func TestDgemmIsGonum(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	ts := []blas.Transpose{blas.NoTrans, blas.Trans}
	sizes := [][3]int{{1, 1, 1}, {3, 5, 7}, {64, 64, 64}, {65, 130, 63}, {128, 128, 65}, {1, 300, 129}, {300, 1, 200}, {190, 200, 256}, {129, 257, 0}}
	for _, sz := range sizes {
		for _, tA := range ts {
			for _, tB := range ts {
				for _, ab := range [][2]float64{{1, 0}, {1, 1}, {-2.5, 0.5}, {0, 0.5}, {0.3, 1}} {
					m, n, k := sz[0], sz[1], sz[2]
					name := fmt.Sprintf("m%d n%d k%d %c%c alpha %g beta %g", m, n, k, tA, tB, ab[0], ab[1])
					checkDgemm(t, name, rnd, tA, tB, m, n, k, ab[0], ab[1])
				}
			}
		}
	}
}

func checkDgemm(t *testing.T, name string, rnd *rand.Rand, tA, tB blas.Transpose, m, n, k int, alpha, beta float64) {
	t.Helper()
	ar, ac := m, k
	if tA == blas.Trans {
		ar, ac = k, m
	}
	br, bc := k, n
	if tB == blas.Trans {
		br, bc = n, k
	}
	lda, ldb, ldc := ac+3, bc+1, n+2
	a := fill(rnd, max(ar, 1)*lda)
	b := fill(rnd, max(br, 1)*ldb)
	c := fill(rnd, max(m, 1)*ldc)
	want := append([]float64(nil), c...)
	got := append([]float64(nil), c...)
	gonum.Implementation{}.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, want, ldc)
	Implementation{}.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, got, ldc)
	for i := range want {
		if math.Float64bits(want[i]) != math.Float64bits(got[i]) {
			t.Fatalf("%s: c[%d] = %v, gonum gives %v", name, i, got[i], want[i])
		}
	}
}

// fill returns n entries of mixed magnitude, a few of them NaN or ±Inf.
func fill(rnd *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = rnd.NormFloat64() * math.Ldexp(1, rnd.IntN(40)-20)
		switch rnd.IntN(5000) {
		case 0:
			v[i] = math.NaN()
		case 1:
			v[i] = math.Inf(1)
		case 2:
			v[i] = math.Inf(-1)
		}
	}
	return v
}
