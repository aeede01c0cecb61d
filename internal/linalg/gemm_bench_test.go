package linalg

import (
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"
)

// processCPU is the process's user+system CPU time (getrusage): the
// machine is shared, and flops per CPU-second are disturbed less by other
// processes than flops per wall-second.
func processCPU(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkGemmKernel is C = A·B (n×n, 2n³ flops) through the packed
// product with each micro-kernel this machine runs, one goroutine
// (GOMAXPROCS does not matter below: -cpu 1 is what docs/performance.md
// compares with single-thread OpenBLAS, BenchmarkDgemm under -tags
// openblas with OPENBLAS_NUM_THREADS=1). It reports GFLOP per CPU-second.
func BenchmarkGemmKernel(b *testing.B) {
	rnd := rand.New(rand.NewPCG(52, 4))
	for _, kern := range kernels() {
		for _, n := range []int{64, 200, 500, 1000, 2000} {
			b.Run(fmt.Sprintf("%s/n=%d", kern.name, n), func(b *testing.B) {
				x, y, c := make([]float64, n*n), make([]float64, n*n), make([]float64, n*n)
				for i := range x {
					x[i], y[i] = rnd.NormFloat64(), rnd.NormFloat64()
				}
				c0 := processCPU(b)
				for b.Loop() {
					gemmWith(kern, false, false, n, n, n, 1, x, n, y, n, 0, c, n)
				}
				flops := 2 * float64(n) * float64(n) * float64(n) * float64(b.N)
				b.ReportMetric(flops/(processCPU(b)-c0).Seconds()/1e9, "GFLOP/cpu-s")
				b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "GFLOPS")
			})
		}
	}
}

// BenchmarkGemmMicroKernel is one micro-kernel alone on a tile whose
// packed panels (256 deep) stay in the L1 cache: the ceiling the packed
// product approaches.
func BenchmarkGemmMicroKernel(b *testing.B) {
	for _, kern := range kernels() {
		b.Run(kern.name, func(b *testing.B) {
			const kc = 256
			pa, pb := make([]float64, kern.mr*kc), make([]float64, kern.nr*kc)
			for i := range pa {
				pa[i] = 1e-3
			}
			for i := range pb {
				pb[i] = 1e-3
			}
			c := make([]float64, kern.mr*64)
			c0 := processCPU(b)
			for b.Loop() {
				kern.tile(kc, pa, pb, c, 64, true)
			}
			flops := 2 * float64(kern.mr*kern.nr*kc) * float64(b.N)
			b.ReportMetric(flops/(processCPU(b)-c0).Seconds()/1e9, "GFLOP/cpu-s")
		})
	}
}

// BenchmarkGemmSmall is the product a fixed point repeats at every step
// in RKPCA's Algorithm 1 on Oil Flow (configs/nguyen-table1.yaml): the
// active iterates' kernel rows or weights (m = 7 or 10 rows of N = 90
// training points) times a packed right operand (X, 90 × 12), where
// packing the few rows of A costs as much as the product.
func BenchmarkGemmSmall(b *testing.B) {
	rnd := rand.New(rand.NewPCG(52, 5))
	const k, n = 90, 12
	x := make([]float64, k*n)
	for i := range x {
		x[i] = rnd.NormFloat64()
	}
	pb := PackB(false, k, n, x, n)
	for _, m := range []int{7, 10} {
		b.Run(fmt.Sprintf("%s/m=%d", gemmKernel.name, m), func(b *testing.B) {
			a, c := make([]float64, m*k), make([]float64, m*n)
			for i := range a {
				a[i] = rnd.NormFloat64()
			}
			c0 := processCPU(b)
			for b.Loop() {
				GemmPacked(false, m, 1, a, k, pb, 0, c, n)
			}
			flops := 2 * float64(m*n*k) * float64(b.N)
			b.ReportMetric(flops/(processCPU(b)-c0).Seconds()/1e9, "GFLOP/cpu-s")
		})
	}
}
