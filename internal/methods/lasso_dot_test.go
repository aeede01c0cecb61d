package methods

import (
	"math"
	"math/rand/v2"
	"syscall"
	"testing"

	"gonum.org/v1/gonum/floats"
)

// dotRef is lasso_lanes.go's dot product written out term by term: chain
// n mod 8 takes fma(w_n, x_n, ·), then the tree sum.
func dotRef(w, x []float64) float64 {
	var c [8]float64
	for n := range w {
		c[n%8] = math.FMA(w[n], x[n], c[n%8])
	}
	return ((c[0] + c[4]) + (c[2] + c[6])) + ((c[1] + c[5]) + (c[3] + c[7]))
}

// TestDot4Lanes checks that dot4, dot and dot1 give lasso_lanes.go's bits
// (dotRef), on every kernel this CPU runs (AVX-512, AVX2) and on the
// pure-Go path, for every length 0–450 (the blocks of eight and each
// tail length) and entries whose magnitudes span 2^±40 with mixed signs,
// so that any other summation order or an unfused product would show in
// the last bits (the test counts the vectors on which the sequential
// sum differs, to show it can tell). x_k longer than w checks that only
// len(w) terms are summed.
func TestDot4Lanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 4))
	wide := func() float64 {
		return rng.NormFloat64() * math.Exp2(float64(rng.IntN(81)-40))
	}
	for _, path := range kernelPaths(t) {
		path.use()
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
					want := dotRef(w, x[k][:n])
					if math.Float64bits(got[k]) != math.Float64bits(want) {
						t.Errorf("%s n=%d column %d: %v, want %v", path.name, n, k, got[k], want)
					}
					if one := dot(w, x[k]); math.Float64bits(one) != math.Float64bits(want) {
						t.Errorf("%s n=%d column %d: dot %v, want %v", path.name, n, k, one, want)
					}
					if one := dot1(w, x[k]); math.Float64bits(one) != math.Float64bits(want) {
						t.Errorf("%s n=%d column %d: dot1 %v, want %v", path.name, n, k, one, want)
					}
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
		if differ < 1000 {
			t.Errorf("%s: the sequential sum differed on only %d of 5412 vectors: the test cannot tell the orders apart", path.name, differ)
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
	for _, path := range kernelPaths(b) {
		name := "dot4/" + path.name
		path.use()
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

// kernelPath is one of GPS's kernel paths: the pure-Go one, AVX2's or
// AVX-512's.
type kernelPath struct {
	name         string
	avx2, avx512 bool
}

func (p kernelPath) use() { useAVX2, useAVX512 = p.avx2, p.avx512 }

// kernelPaths returns the paths a kernel test checks: the pure-Go one
// and, where the CPU and build have them, the assembly ones; the flags
// are restored when the test ends.
func kernelPaths(tb testing.TB) []kernelPath {
	saved := kernelPath{"saved", useAVX2, useAVX512}
	tb.Cleanup(saved.use)
	paths := []kernelPath{{name: "go"}}
	if !useAVX2 {
		tb.Log("no assembly kernel on this CPU or build: the pure-Go path only")
		return paths
	}
	paths = append(paths, kernelPath{"avx2", true, false})
	if useAVX512 {
		paths = append(paths, kernelPath{"avx512", true, true})
	}
	return paths
}
