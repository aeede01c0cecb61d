package methods

import "math"

// GPS's N-term sums, with a rounding fixed by definition. Each sum over
// n = 0, …, N−1 is kept in eight chains: chain l takes the terms with
// n ≡ l (mod 8), in order of n, and the chains are added in one tree,
//
//	((c0 + c4) + (c2 + c6)) + ((c1 + c5) + (c3 + c7)),
//
// the lanes of one AVX-512 register (or two AVX2 ones) and the halving
// sum of the register. A dot product's chains take fused multiply-adds,
// fma(w_n, x_n, c); the weight update's three sums (Σ w, Σ |w|, Σ |w −
// old w|) take adds of the rounded terms. Eight independent chains keep
// the adds' latency off the loop (one chain per sum, which gonum's and
// the scalar loop's orders were, was what bounded it), and the assembly
// kernels (lasso_lanes_amd64.s) and the Go below give the same bits
// (TestDot4Lanes, TestWeightsLanes). Every error bound of lasso.go is
// Higham's γ_N for any order of summation, so it holds for this one.

// lanes is the number of chains of a sum.
const lanes = 8

// reduceLanes is the chains' tree sum.
func reduceLanes(c *[lanes]float64) float64 {
	return ((c[0] + c[4]) + (c[2] + c[6])) + ((c[1] + c[5]) + (c[3] + c[7]))
}

// dotFrom continues the chains c of Σ w_n x_n from n = from to len(w)
// (x at least as long), one fma per term, and returns their sum.
func dotFrom(w, x []float64, from int, c *[lanes]float64) float64 {
	x = x[:len(w)]
	n := from
	if from%lanes == 0 {
		c0, c1, c2, c3, c4, c5, c6, c7 := c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]
		for ; n+lanes <= len(w); n += lanes {
			ws, xs := w[n:n+lanes:n+lanes], x[n:n+lanes:n+lanes]
			c0, c1, c2, c3 = math.FMA(ws[0], xs[0], c0), math.FMA(ws[1], xs[1], c1), math.FMA(ws[2], xs[2], c2), math.FMA(ws[3], xs[3], c3)
			c4, c5, c6, c7 = math.FMA(ws[4], xs[4], c4), math.FMA(ws[5], xs[5], c5), math.FMA(ws[6], xs[6], c6), math.FMA(ws[7], xs[7], c7)
		}
		c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7] = c0, c1, c2, c3, c4, c5, c6, c7
	}
	for ; n < len(w); n++ {
		c[n%lanes] = math.FMA(w[n], x[n], c[n%lanes])
	}
	return reduceLanes(c)
}

// dot is Σ_n w_n x_n in the chains above (x at least as long as w).
func dot(w, x []float64) float64 {
	var c [lanes]float64
	return dotFrom(w, x, 0, &c)
}

// dot4Go is dot4 in Go.
func dot4Go(w, x0, x1, x2, x3 []float64) (s0, s1, s2, s3 float64) {
	return dot(w, x0), dot(w, x1), dot(w, x2), dot(w, x3)
}

// weightsFrom continues the weight update of a GPS step from k = from:
// w_k ← (w_k·e_k)·f, and the chains of Σ w_k, Σ |w_k| and
// Σ |w_k − old w_k| (c[0], c[1], c[2]); it returns their sums.
func weightsFrom(w, e []float64, f float64, from int, c *[3][lanes]float64) (sum, abs, change float64) {
	e = e[:len(w)]
	for k := from; k < len(w); k++ {
		wk := w[k]
		// float64(…) rounds the product before the sums take it, also
		// at GOAMD64=v3, where the compiler could fuse them.
		nw := float64(wk * e[k] * f)
		l := k % lanes
		c[2][l] += math.Abs(nw - wk)
		w[k] = nw
		c[0][l] += nw
		c[1][l] += math.Abs(nw)
	}
	return reduceLanes(&c[0]), reduceLanes(&c[1]), reduceLanes(&c[2])
}
