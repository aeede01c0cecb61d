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
// marked for the S set, and a largest lower bound that compares equal.
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
	for _, path := range kernelPaths(t) {
		path.use()
		avx := path.avx2
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
				lo := math.Inf(-1)
				up := make([]float64, n)
				var inS []int
				for j := range est {
					e, b := est[j], bnd[j]
					u := math.Abs(e) + b
					up[j] = u
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
				sweepBits(&a, gotLo, cb, sb)
				if gotLo != lo {
					t.Errorf("avx2=%t n=%d all=%t: lo %v, scalar %v", avx, n, all, gotLo, lo)
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

// TestWeightsLanes checks the weight update (weights), on every assembly
// kernel this CPU runs and on the pure-Go path, against lasso_lanes.go's
// definition written out below: the same new weights and the same bits
// of the three sums in their eight chains. Lengths 0–450 cover every
// tail; weights span 2^±30 with mixed signs, as γ_n k(z, x_n) does.
func TestWeightsLanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 6))
	wide := func() float64 {
		return rng.NormFloat64() * math.Exp2(float64(rng.IntN(61)-30))
	}
	for _, path := range kernelPaths(t) {
		path.use()
		avx := path.avx2
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
			// lasso_lanes.go's chains, written out: chain k mod 8.
			var cs, ca, cc [8]float64
			for k, wk := range want {
				// float64(…) keeps the rounding of GOAMD64=v1 at v3,
				// where the compiler would fuse the product into the sums.
				nw := float64(wk * e[k] * f)
				cc[k%8] += math.Abs(nw - wk)
				want[k] = nw
				cs[k%8] += nw
				ca[k%8] += math.Abs(nw)
			}
			tree := func(c [8]float64) float64 { return ((c[0] + c[4]) + (c[2] + c[6])) + ((c[1] + c[5]) + (c[3] + c[7])) }
			sum, abs, change := tree(cs), tree(ca), tree(cc)
			gs, ga, gc := weights(w, e, f)
			if math.Float64bits(gs) != math.Float64bits(sum) || math.Float64bits(ga) != math.Float64bits(abs) || math.Float64bits(gc) != math.Float64bits(change) {
				t.Errorf("%s n=%d: sums %v %v %v, want %v %v %v", path.name, n, gs, ga, gc, sum, abs, change)
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

// BenchmarkSweep times the bound sweep of one GPS step over D = 256
// components (USPS pixels), its two passes and the bitmaps' decoding, on
// the pure-Go and assembly paths, beside the scalar loop it replaced
// (gpsRow.bounds before issue #40: three AddScaledTo passes and a loop
// with the candidates and S tests). The terms are those of a stale step:
// positive bounds, a few components with z_j ≠ 0.
func BenchmarkSweep(b *testing.B) {
	const d = 256
	rng := rand.New(rand.NewPCG(1, 256))
	vec := func(scale float64) []float64 {
		v := make([]float64, d)
		for i := range v {
			v[i] = scale * rng.NormFloat64()
		}
		return v
	}
	a := sweepArgs{q: vec(1), coef: vec(1), p: vec(1e-3), rz: vec(1e-12), half: vec(1), sg: make([]float64, d),
		est: make([]float64, d), bnd: make([]float64, d), up: make([]float64, d), w: 0.7, a: 1e-3, s: 2}
	for i := range a.p {
		a.p[i], a.rz[i], a.half[i] = math.Abs(a.p[i]), math.Abs(a.rz[i]), math.Abs(a.half[i])
		if i%5 == 0 {
			a.sg[i] = float64(1 - 2*rng.IntN(2))
		}
	}
	cb, sb := make([]uint64, d/64), make([]uint64, d/64)
	cand, inS := make([]int, 0, d), make([]int, 0, d)
	benchPaths(b, "passes", func() { cand, inS = sweepScalar(&a, cand, inS) }, func() {
		lo := sweepLo(&a, false)
		clear(cb)
		clear(sb)
		sweepBits(&a, lo, cb, sb)
		cand, inS = appendBits(cand[:0], cb), appendBits(inS[:0], sb)
	})
}

// BenchmarkWeights times the weight update of one GPS step over N = 400
// training points (USPS, Fig. 4): the scalar loop it replaced and
// weights on the pure-Go and assembly paths. Its three sums are kept in
// order, so the bound is the latency of their adds, N of them in each
// chain.
func BenchmarkWeights(b *testing.B) {
	const n = 400
	rng := rand.New(rand.NewPCG(1, 400))
	// Factors of exactly 1 keep the weights where they are over the
	// benchmark's millions of updates (factors of a real step would
	// drift them into subnormals or overflow, which time differently);
	// the arithmetic is the same.
	w, e := make([]float64, n), make([]float64, n)
	for i := range w {
		w[i], e[i] = rng.NormFloat64(), 1
	}
	f := 1.0
	var sink float64
	benchPaths(b, "weights", func() {
		s, a, c := weightsScalar(w, e, f)
		sink += s + a + c
	}, func() {
		s, a, c := weights(w, e, f)
		sink += s + a + c
	})
	if math.IsNaN(sink) {
		b.Log(sink)
	}
}

// weightsScalar is gpsRow.move's weight update before issue #40.
func weightsScalar(w, e []float64, f float64) (sum, abs, change float64) {
	for k, wk := range w {
		nw := wk * e[k] * f
		change += math.Abs(nw - wk)
		w[k] = nw
		sum += nw
		abs += math.Abs(nw)
	}
	return sum, abs, change
}

// sweepScalar is gpsRow.bounds's sweep before issue #40, its candidates
// against the running largest lower bound.
func sweepScalar(a *sweepArgs, cand, inS []int) ([]int, []int) {
	floats.AddScaledTo(a.est, a.q, a.w, a.coef)
	floats.AddScaledTo(a.bnd, a.p, a.a, a.half)
	floats.AddScaled(a.bnd, a.s, a.rz)
	lo, k := math.Inf(-1), 0
	cand, inS = cand[:len(a.est)], inS[:0]
	for j := range a.est {
		e, bd := a.est[j], a.bnd[j]
		u := math.Abs(e) + bd
		a.up[j] = u
		if math.Abs(e)-bd > lo {
			lo = math.Abs(e) - bd
		}
		cand[k] = j
		if u >= lo {
			k++
		}
		if s := a.sg[j]; e*s < bd*(s*s) {
			inS = append(inS, j)
		}
	}
	return cand[:k], inS
}

// benchPaths times scalar, the loop a kernel replaced, as "scalar" and
// step on each kernel path as name+"/go" and name+"/avx2", with the CPU
// time per call besides the wall time (the benchmark machine is shared).
func benchPaths(b *testing.B, name string, scalar, step func()) {
	run := func(b *testing.B, f func()) {
		c0 := cpuSeconds(b)
		for b.Loop() {
			f()
		}
		b.ReportMetric((cpuSeconds(b)-c0)/float64(b.N)*1e9, "cpu-ns/op")
	}
	b.Run("scalar", func(b *testing.B) { run(b, scalar) })
	for _, path := range kernelPaths(b) {
		path.use()
		avx := path.avx2
		sub := name + "/go"
		if avx {
			sub = name + "/avx2"
		}
		b.Run(sub, func(b *testing.B) { run(b, step) })
	}
}
