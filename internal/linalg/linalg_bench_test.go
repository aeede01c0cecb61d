package linalg_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/linalg"
)

func randDense(rng *rand.Rand, r, c int) *mat.Dense {
	a := mat.NewDense(r, c, nil)
	raw := a.RawMatrix().Data
	for i := range raw {
		raw[i] = rng.NormFloat64()
	}
	return a
}

func randSym(rng *rand.Rand, n int) *mat.SymDense {
	s := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			s.SetSym(i, j, rng.NormFloat64())
		}
	}
	return s
}

// BenchmarkDgemm is C = A·B for n×n matrices on the registered BLAS,
// reporting achieved GFLOPS (2n³ flops a product): the peak the other
// dense kernels are measured against in docs/performance.md.
func BenchmarkDgemm(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{500, 1000, 2000} {
		b.Run(fmt.Sprintf("%s/n=%d", linalg.Backend(), n), func(b *testing.B) {
			x, y := randDense(rng, n, n), randDense(rng, n, n)
			var c mat.Dense
			c0 := cpuTime(b)
			for b.Loop() {
				c.Mul(x, y)
			}
			flops := 2 * float64(n) * float64(n) * float64(n) * float64(b.N)
			b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "GFLOPS")
			b.ReportMetric(flops/(cpuTime(b)-c0).Seconds()/1e9, "GFLOP/cpu-s")
		})
	}
}

// BenchmarkEigenSym is mat.EigenSym with vectors of an n×n symmetric
// matrix on the registered LAPACK. Its GFLOPS use the nominal 9n³ of
// Golub & Van Loan for the symmetric QR algorithm with vectors (dsyevd
// does fewer), so they compare backends rather than count true flops.
func BenchmarkEigenSym(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{500, 1000, 1500} {
		b.Run(fmt.Sprintf("%s/n=%d", linalg.Backend(), n), func(b *testing.B) {
			a := randSym(rng, n)
			var eig mat.EigenSym
			c0 := cpuTime(b)
			for b.Loop() {
				if !eig.Factorize(a, true) {
					b.Fatal("no convergence")
				}
			}
			flops := 9 * float64(n) * float64(n) * float64(n) * float64(b.N)
			b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "GFLOPS")
			b.ReportMetric(flops/(cpuTime(b)-c0).Seconds()/1e9, "GFLOP/cpu-s")
		})
	}
}
