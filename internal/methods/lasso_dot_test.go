package methods

import (
	"math"
	"math/rand/v2"
	"syscall"
	"testing"

	"gonum.org/v1/gonum/floats"
)

// TestDot4IsDot checks that dot4 gives floats.Dot's bits, on the assembly
// kernel (where the CPU has AVX2) and on the pure-Go path, for every length
// 0–450 (the blocks of four and each tail length) and entries whose
// magnitudes span 2^±40 with mixed signs, so that any other summation
// order or a fused multiply-add would show in the last bits. x_k longer
// than w checks that only len(w) terms are summed.
func TestDot4IsDot(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 4))
	wide := func() float64 {
		return rng.NormFloat64() * math.Exp2(float64(rng.IntN(81)-40))
	}
	for _, avx := range kernelPaths(t) {
		useAVX2 = avx
		differ := 0
		for n := 0; n <= 450; n++ {
			for rep := 0; rep < 3; rep++ {
				w := make([]float64, n)
				var x [4][]float64
				for i := range w {
					w[i] = wide()
				}
				for k := range x {
					x[k] = make([]float64, n+k)
					for i := range x[k] {
						x[k][i] = wide()
					}
				}
				var got [4]float64
				got[0], got[1], got[2], got[3] = dot4(w, x[0], x[1], x[2], x[3])
				for k := range x {
					want := floats.Dot(w, x[k][:n])
					if math.Float64bits(got[k]) != math.Float64bits(want) {
						t.Errorf("avx2=%t n=%d column %d: %v, floats.Dot %v", avx, n, k, got[k], want)
					}
					// The order matters at this dynamic range: the
					// sequential sum differs from floats.Dot's chains on
					// most long vectors (so a sequential kernel would
					// fail this test).
					seq := 0.0
					for i, v := range w {
						seq += float64(v * x[k][i])
					}
					if seq != want {
						differ++
					}
				}
			}
		}
		// Without gonum's assembly (noasm, safe, gccgo, other
		// architectures) floats.Dot is itself the sequential sum.
		if gonumDotChains && differ < 1000 {
			t.Errorf("avx2=%t: the sequential sum differed from floats.Dot on only %d of 5412 vectors: the test cannot tell the orders apart", avx, differ)
		}
	}
}

// BenchmarkDot4 times four dot products of length N = 400 (GPS's gradient
// evaluations on USPS: N training digits): floats.Dot four times, and
// dot4 on the assembly and pure-Go paths. 2N flops per dot product.
func BenchmarkDot4(b *testing.B) {
	const n = 400
	rng := rand.New(rand.NewPCG(1, 400))
	w := make([]float64, n)
	x := make([]float64, 4*n)
	for i := range w {
		w[i] = rng.NormFloat64()
	}
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	x0, x1, x2, x3 := x[:n], x[n:2*n], x[2*n:3*n], x[3*n:]
	var sink float64
	// GFLOPS per CPU-second as well as per wall second: the benchmark
	// machine is shared, and the wall time of a busy moment is mostly
	// waiting.
	var c0 float64
	start := func() { c0 = cpuSeconds(b) }
	flops := func(b *testing.B) {
		cpu := cpuSeconds(b) - c0
		b.ReportMetric(8*n*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
		b.ReportMetric(8*n*float64(b.N)/cpu/1e9, "GFLOP/cpu-s")
		b.ReportMetric(cpu/float64(b.N)*1e9, "cpu-ns/op")
	}
	b.Run("floats.Dot", func(b *testing.B) {
		start()
		for b.Loop() {
			sink += floats.Dot(w, x0) + floats.Dot(w, x1) + floats.Dot(w, x2) + floats.Dot(w, x3)
		}
		flops(b)
	})
	for _, avx := range kernelPaths(b) {
		name := "dot4/go"
		if avx {
			name = "dot4/avx2"
		}
		useAVX2 = avx
		b.Run(name, func(b *testing.B) {
			start()
			for b.Loop() {
				s0, s1, s2, s3 := dot4(w, x0, x1, x2, x3)
				sink += s0 + s1 + s2 + s3
			}
			flops(b)
		})
	}
	if math.IsNaN(sink) {
		b.Log(sink)
	}
}

// cpuSeconds is the process's user and system CPU time.
func cpuSeconds(tb testing.TB) float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// kernelPaths returns the paths a kernel test checks, the pure-Go one and,
// where the CPU has AVX2, the assembly one, and restores useAVX2 when the
// test ends; the test sets useAVX2 to each in turn.
func kernelPaths(tb testing.TB) []bool {
	saved := useAVX2
	tb.Cleanup(func() { useAVX2 = saved })
	if !useAVX2 {
		tb.Log("no AVX2 kernel on this CPU or build: the pure-Go path only")
		return []bool{false}
	}
	return []bool{false, true}
}
