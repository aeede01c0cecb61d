package kernel_test

import (
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/linalg"
)

// BenchmarkGaussianGram is the Gaussian Gram matrix between n×D and n×D
// inputs (one product A·Bᵀ, the norms, n² exponentials) at the sizes of
// Scene-15 GIST (1500 × 512) and USPS (1000 × 256), on the registered
// BLAS. GFLOPS counts the product's 2n²D flops only, so it compares with
// BenchmarkDgemm's peak in internal/linalg; GFLOP/cpu-s divides by CPU
// time instead of wall time (the machine is shared).
func BenchmarkGaussianGram(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, c := range []struct{ n, d int }{{1000, 256}, {1500, 512}} {
		b.Run(fmt.Sprintf("%s/n=%d,D=%d", linalg.Backend(), c.n, c.d), func(b *testing.B) {
			x := mat.NewDense(c.n, c.d, nil)
			y := mat.NewDense(c.n, c.d, nil)
			for i := 0; i < c.n; i++ {
				for j := 0; j < c.d; j++ {
					x.Set(i, j, rng.Float64())
					y.Set(i, j, rng.Float64())
				}
			}
			k := kernel.Gaussian{C: float64(c.d) / 6}
			var g mat.Dense
			c0 := cpu(b)
			for b.Loop() {
				g.Reset()
				kernel.Gram(&g, k, x, y)
			}
			flops := 2 * float64(c.n) * float64(c.n) * float64(c.d) * float64(b.N)
			b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "GFLOPS")
			b.ReportMetric(flops/(cpu(b)-c0).Seconds()/1e9, "GFLOP/cpu-s")
		})
	}
}

func cpu(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkGaussianSelfGram is SelfGram of one n×D input with itself, the
// Gram matrix every fit builds, at the sizes of BenchmarkGaussianGram.
// GFLOPS counts 2n²D flops as for a full product, so a symmetric product
// that computes one triangle (n²D flops) shows as up to twice the
// throughput of the general one.
func BenchmarkGaussianSelfGram(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct{ n, d int }{{1000, 256}, {1500, 512}} {
		b.Run(fmt.Sprintf("%s/n=%d,D=%d", linalg.Backend(), c.n, c.d), func(b *testing.B) {
			x := mat.NewDense(c.n, c.d, nil)
			for i := 0; i < c.n; i++ {
				for j := 0; j < c.d; j++ {
					x.Set(i, j, rng.Float64())
				}
			}
			k := kernel.Gaussian{C: float64(c.d) / 6}
			c0 := cpu(b)
			for b.Loop() {
				kernel.SelfGram(k, x)
			}
			flops := 2 * float64(c.n) * float64(c.n) * float64(c.d) * float64(b.N)
			b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "GFLOPS")
			b.ReportMetric(flops/(cpu(b)-c0).Seconds()/1e9, "GFLOP/cpu-s")
		})
	}
}
