package methods

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
)

// TestSweepIsScalar checks the bound sweep's two passes (sweepLo,
// sweepBits), on the assembly kernels where the CPU has AVX2 and on the
// pure-Go path, against the scalar loop they replace (gpsRow.bounds before
// issue #40, written out below): the same bits of est, bnd and up, the
// same candidates — those whose upper bound reaches the final largest
// lower bound, which is the set top ever considers — the same components
// marked for the S set, and largest lower and upper bounds that compare
// equal.
// Lengths 0–300 cover every tail of the blocks of four and of the 64-bit
// words; the entries span 2^±30 with mixed signs, and some are ±0, NaN,
// ±Inf or exact ties, where a comparison or a NaN rule written the other
// way round would show.
func TestSweepIsScalar(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 5))
	wide := func() float64 {
		switch rng.IntN(40) {
		case 0:
			return 0
		case 1:
			return math.Copysign(0, -1)
		case 2:
			return math.NaN()
		case 3:
			return math.Inf(1 - 2*rng.IntN(2))
		case 4, 5:
			return float64(rng.IntN(5) - 2) // ties
		}
		return rng.NormFloat64() * math.Exp2(float64(rng.IntN(61)-30))
	}
	for _, avx := range kernelPaths(t) {
		useAVX2 = avx
		for n := 0; n <= 300; n++ {
			for rep := 0; rep < 4; rep++ {
				all := rep%2 == 1
				vec := func() []float64 {
					v := make([]float64, n)
					for i := range v {
						v[i] = wide()
					}
					return v
				}
				a := sweepArgs{q: vec(), coef: vec(), p: vec(), rz: vec(), half: vec(), est: vec(), bnd: vec(), up: vec(), sg: make([]float64, n),
					w: wide(), a: math.Abs(wide()), s: math.Abs(wide())}
				for i := range a.sg {
					a.sg[i] = float64(rng.IntN(3) - 1)
				}
				if rep == 2 {
					a.w, a.a, a.s = 1.5, 0.25, 3 // finite scalars, mostly finite terms
				}
				// The scalar loop, on copies.
				est, bnd := append([]float64(nil), a.est...), append([]float64(nil), a.bnd...)
				if !all {
					floats.AddScaledTo(est, a.q, a.w, a.coef)
					floats.AddScaledTo(bnd, a.p, a.a, a.half)
					floats.AddScaled(bnd, a.s, a.rz)
				}
				lo, umax := math.Inf(-1), math.Inf(-1)
				up := make([]float64, n)
				var inS []int
				for j := range est {
					e, b := est[j], bnd[j]
					u := math.Abs(e) + b
					up[j] = u
					if u > umax {
						umax = u
					}
					if math.Abs(e)-b > lo {
						lo = math.Abs(e) - b
					}
					if s := a.sg[j]; e*s < b*(s*s) {
						inS = append(inS, j)
					}
				}
				var cand []int
				for j, u := range up {
					if u >= lo {
						cand = append(cand, j)
					}
				}

				gotLo := sweepLo(&a, all)
				cb, sb := make([]uint64, (n+63)/64), make([]uint64, (n+63)/64)
				gotMax := sweepBits(&a, gotLo, cb, sb)
				if gotLo != lo || gotMax != umax {
					t.Errorf("avx2=%t n=%d all=%t: lo %v, largest upper bound %v; scalar %v, %v", avx, n, all, gotLo, gotMax, lo, umax)
				}
				same := func(name string, got, want []float64) {
					for j := range want {
						if math.Float64bits(got[j]) != math.Float64bits(want[j]) && !(math.IsNaN(got[j]) && math.IsNaN(want[j])) {
							t.Errorf("avx2=%t n=%d all=%t: %s[%d] = %v, scalar %v", avx, n, all, name, j, got[j], want[j])
							return
						}
					}
				}
				same("est", a.est, est)
				same("bnd", a.bnd, bnd)
				same("up", a.up, up)
				sameBits := func(name string, b []uint64, want []int) {
					var got []int
					for j := 0; j < n; j++ {
						if b[j>>6]>>(j&63)&1 == 1 {
							got = append(got, j)
						}
					}
					for w := range b {
						if n < (w+1)*64 && b[w]>>(n-w*64) != 0 {
							t.Errorf("avx2=%t n=%d: %s bits set beyond n", avx, n, name)
						}
					}
					if len(got) != len(want) {
						t.Errorf("avx2=%t n=%d all=%t: %s %v, scalar %v", avx, n, all, name, got, want)
						return
					}
					for i := range got {
						if got[i] != want[i] {
							t.Errorf("avx2=%t n=%d all=%t: %s %v, scalar %v", avx, n, all, name, got, want)
							return
						}
					}
				}
				sameBits("candidates", cb, cand)
				sameBits("S marks", sb, inS)
			}
		}
	}
}

// TestWeightsIsScalar checks the weight update (weights), on the assembly
// kernel and on the pure-Go path, against gpsRow.move's scalar loop before
// issue #40 as it ran at the default GOAMD64=v1, written out below: the same new weights and the same bits of
// the three sums, which are kept in the loop's order (a sum taken four
// lanes at a time would differ in the last bits on most of these vectors,
// and the GPS path with it). Lengths 0–450 cover every tail; weights span
// 2^±30 with mixed signs, as γ_n k(z, x_n) does.
func TestWeightsIsScalar(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 6))
	wide := func() float64 {
		return rng.NormFloat64() * math.Exp2(float64(rng.IntN(61)-30))
	}
	for _, avx := range kernelPaths(t) {
		useAVX2 = avx
		for n := 0; n <= 450; n++ {
			w, e := make([]float64, n), make([]float64, n+n%3)
			for i := range w {
				w[i] = wide()
			}
			for i := range e {
				e[i] = math.Exp(rng.NormFloat64())
			}
			f := math.Exp(rng.NormFloat64())
			want := append([]float64(nil), w...)
			var sum, abs, change float64
			for k, wk := range want {
				// float64(…) keeps the rounding of GOAMD64=v1 at v3,
				// where the compiler would fuse the product into the sums.
				nw := float64(wk * e[k] * f)
				change += math.Abs(nw - wk)
				want[k] = nw
				sum += nw
				abs += math.Abs(nw)
			}
			gs, ga, gc := weights(w, e, f)
			if math.Float64bits(gs) != math.Float64bits(sum) || math.Float64bits(ga) != math.Float64bits(abs) || math.Float64bits(gc) != math.Float64bits(change) {
				t.Errorf("avx2=%t n=%d: sums %v %v %v, scalar %v %v %v", avx, n, gs, ga, gc, sum, abs, change)
			}
			for k := range want {
				if math.Float64bits(w[k]) != math.Float64bits(want[k]) {
					t.Errorf("avx2=%t n=%d: w[%d] = %v, scalar %v", avx, n, k, w[k], want[k])
					break
				}
			}
		}
	}
}
