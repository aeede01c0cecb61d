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

// TestDsteqrIsGonum: dsteqr (rotations recorded, then applied a block of
// rows at a time) gives gonum's Dsteqr's eigenvalues and vectors bit for
// bit, from the reduction of random symmetric matrices (compz EVOrig, Z
// the Householder matrix) and from the identity (EVTridiag), at sizes
// around the block of rotRows rows, and on tridiagonal matrices that
// split (zero off-diagonals), have repeated and graded eigenvalues, and
// a 2×2 block.
func TestDsteqrIsGonum(t *testing.T) {
	rnd := rand.New(rand.NewPCG(52, 18))
	impl := gonum.Implementation{}
	for _, n := range []int{1, 2, 3, 31, 32, 33, 65, 150} {
		for kind := range 9 {
			// A tridiagonal matrix and an orthogonal Z.
			d, e := make([]float64, n), make([]float64, max(n-1, 1))
			z := make([]float64, n*n)
			switch kind {
			case 0, 1: // the reduction of a random symmetric matrix
				a := make([]float64, n*n)
				for i := range n {
					for j := i; j < n; j++ {
						v := rnd.NormFloat64()
						a[i*n+j], a[j*n+i] = v, v
					}
				}
				tau := make([]float64, max(n-1, 1))
				work := make([]float64, 64*n+1)
				impl.Dsytrd(blas.Upper, n, a, n, d, e, tau, work, len(work))
				impl.Dorgtr(blas.Upper, n, a, n, tau, work, len(work))
				copy(z, a)
			case 2: // splits into blocks, a zero off-diagonal every 7
				for i := range d {
					d[i] = rnd.NormFloat64()
				}
				for i := range n - 1 {
					if i%7 != 6 {
						e[i] = rnd.NormFloat64()
					}
				}
			case 3: // repeated eigenvalues: the (1, 2, 1) matrix and copies
				for i := range d {
					d[i] = 2
				}
				for i := range n - 1 {
					e[i] = 1
					if i%10 == 9 {
						e[i] = 0
					}
				}
			case 4: // graded
				for i := range d {
					d[i] = math.Ldexp(1+rnd.Float64(), -i%40)
				}
				for i := range n - 1 {
					e[i] = math.Ldexp(rnd.Float64(), -i%40-1)
				}
			case 5, 6, 7: // blocks scaled down, up, then neither (gonum keeps the last block's scaling), and eigenvalues only
				for i := range d {
					d[i] = rnd.NormFloat64()
					switch i / 7 % 3 {
					case 0:
						d[i] *= 0x1p600
					case 1:
						d[i] *= 0x1p-600
					}
				}
				for i := range n - 1 {
					if i%7 != 6 {
						e[i] = d[i] * rnd.Float64()
					}
				}
			case 8: // a NaN: no convergence within the iteration limit
				for i := range d {
					d[i] = rnd.NormFloat64()
				}
				for i := range n - 1 {
					e[i] = rnd.NormFloat64()
				}
				d[n/2] = math.NaN()
			}
			compz := lapack.EVTridiag
			switch kind {
			case 0:
				compz = lapack.EVOrig
			case 7:
				compz = lapack.EVCompNone
			}
			d2, e2, z2 := append([]float64(nil), d...), append([]float64(nil), e...), append([]float64(nil), z...)
			w1, w2 := make([]float64, 2*n), make([]float64, 2*n)
			ok1 := impl.Dsteqr(compz, n, d, e, z, n, w1)
			ok2 := dsteqr(compz, n, d2, e2, z2, n, w2)
			name := fmt.Sprintf("n=%d kind %d", n, kind)
			if ok1 != ok2 {
				t.Fatalf("%s: gonum converged %v, dsteqr %v", name, ok1, ok2)
			}
			for i := range d {
				if math.Float64bits(d[i]) != math.Float64bits(d2[i]) {
					t.Fatalf("%s: eigenvalue %d = %v, gonum %v", name, i, d2[i], d[i])
				}
			}
			for i := range z {
				if math.Float64bits(z[i]) != math.Float64bits(z2[i]) {
					t.Fatalf("%s: z[%d] = %v, gonum %v", name, i, z2[i], z[i])
				}
			}
		}
	}
}

// BenchmarkDsteqr is the QL/QR iteration with vectors on the reduction of
// a random symmetric n×n matrix (Z the Householder matrix): gonum's
// Dsteqr against dsteqr, whose rotations are applied a block of rows at
// a time, the same bits.
func BenchmarkDsteqr(b *testing.B) {
	rnd := rand.New(rand.NewPCG(52, 19))
	impl := gonum.Implementation{}
	for _, n := range []int{300, 1000} {
		a := make([]float64, n*n)
		for i := range n {
			for j := i; j < n; j++ {
				v := rnd.NormFloat64()
				a[i*n+j], a[j*n+i] = v, v
			}
		}
		d, e, tau := make([]float64, n), make([]float64, n-1), make([]float64, n-1)
		work := make([]float64, 64*n)
		impl.Dsytrd(blas.Upper, n, a, n, d, e, tau, work, len(work))
		impl.Dorgtr(blas.Upper, n, a, n, tau, work, len(work))
		for _, v := range []struct {
			name string
			f    func(lapack.EVComp, int, []float64, []float64, []float64, int, []float64) bool
		}{{"gonum", impl.Dsteqr}, {"blocked", dsteqr}} {
			b.Run(fmt.Sprintf("%s/n=%d", v.name, n), func(b *testing.B) {
				z, dd, ee := make([]float64, n*n), make([]float64, n), make([]float64, n-1)
				for b.Loop() {
					copy(z, a)
					copy(dd, d)
					copy(ee, e)
					v.f(lapack.EVOrig, n, dd, ee, z, n, work)
				}
			})
		}
	}
}
