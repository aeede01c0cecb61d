package methods

import (
	"math"
	"math/rand/v2"
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
	paths := []bool{false}
	if useAVX2 {
		paths = append(paths, true)
	} else {
		t.Log("no AVX2 kernel on this CPU or build: the pure-Go path only")
	}
	saved := useAVX2
	defer func() { useAVX2 = saved }()
	for _, avx := range paths {
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
		if differ < 1000 {
			t.Errorf("avx2=%t: the sequential sum differed from floats.Dot on only %d of 5412 vectors: the test cannot tell the orders apart", avx, differ)
		}
	}
}
