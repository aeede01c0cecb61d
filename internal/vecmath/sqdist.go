package vecmath

import "math"

// SqDist4 returns ‖x − y_k‖² for k = 0…3 with a rounding fixed by
// definition: each sum in eight chains, chain l taking
// fma(t_i, t_i, ·) for t_i = x_i − y_i (rounded) with i ≡ l (mod 8), in
// order of i, and the chains added in one tree,
//
//	((c0 + c4) + (c2 + c6)) + ((c1 + c5) + (c3 + c7)).
//
// The assembly kernels (sqdist_amd64.s) and the Go below give the same
// bits (TestSqDist4KernelsAgree). Each y_k must be at least as long as x.
// Every chain adds non-negative terms, so a partial sum never exceeds the
// whole: callers may stop early once it passes a bound.
func SqDist4(x, y0, y1, y2, y3 []float64) (d0, d1, d2, d3 float64) {
	n := len(x)
	y0, y1, y2, y3 = y0[:n], y1[:n], y2[:n], y3[:n]
	var c [4][8]float64
	done := sqdistKernel(x, y0, y1, y2, y3, &c)
	return sqdistFrom(x, y0, done, &c[0]), sqdistFrom(x, y1, done, &c[1]), sqdistFrom(x, y2, done, &c[2]), sqdistFrom(x, y3, done, &c[3])
}

// SqDist is SqDist4 for one vector: ‖x − y‖² in the same chains.
func SqDist(x, y []float64) float64 {
	var c [8]float64
	return sqdistFrom(x, y[:len(x)], 0, &c)
}

// sqdistFrom continues the chains c from i = from and returns their sum.
func sqdistFrom(x, y []float64, from int, c *[8]float64) float64 {
	y = y[:len(x)]
	i := from
	if from%8 == 0 {
		c0, c1, c2, c3, c4, c5, c6, c7 := c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]
		for ; i+8 <= len(x); i += 8 {
			xs, ys := x[i:i+8:i+8], y[i:i+8:i+8]
			t0, t1, t2, t3 := xs[0]-ys[0], xs[1]-ys[1], xs[2]-ys[2], xs[3]-ys[3]
			t4, t5, t6, t7 := xs[4]-ys[4], xs[5]-ys[5], xs[6]-ys[6], xs[7]-ys[7]
			c0, c1, c2, c3 = math.FMA(t0, t0, c0), math.FMA(t1, t1, c1), math.FMA(t2, t2, c2), math.FMA(t3, t3, c3)
			c4, c5, c6, c7 = math.FMA(t4, t4, c4), math.FMA(t5, t5, c5), math.FMA(t6, t6, c6), math.FMA(t7, t7, c7)
		}
		c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7] = c0, c1, c2, c3, c4, c5, c6, c7
	}
	for ; i < len(x); i++ {
		t := x[i] - y[i]
		c[i%8] = math.FMA(t, t, c[i%8])
	}
	return ((c[0] + c[4]) + (c[2] + c[6])) + ((c[1] + c[5]) + (c[3] + c[7]))
}

// sqdistKernelFunc does the first blocks of eight of SqDist4's chains into
// c and returns how many elements it did.
type sqdistKernelFunc func(x, y0, y1, y2, y3 []float64, c *[4][8]float64) int

// sqdistGo is the pure-Go sqdistKernel: it leaves every element to
// sqdistFrom.
func sqdistGo(x, y0, y1, y2, y3 []float64, c *[4][8]float64) int { return 0 }
