package linalg

import "math"

// tileGo4x4 is the pure-Go micro-kernel: a 4×4 tile of C in sixteen
// accumulators, one math.FMA per element and step of the inner dimension
// (math.FMA is the hardware's fused multiply-add where the CPU has one,
// and a correctly rounded emulation where not: the same bits).
func tileGo4x4(kc int, a, b, c []float64, ldc int, load bool) {
	var c00, c01, c02, c03, c10, c11, c12, c13, c20, c21, c22, c23, c30, c31, c32, c33 float64
	c0, c1, c2, c3 := c[0:4:4], c[ldc:ldc+4:ldc+4], c[2*ldc:2*ldc+4:2*ldc+4], c[3*ldc:3*ldc+4:3*ldc+4]
	if load {
		c00, c01, c02, c03 = c0[0], c0[1], c0[2], c0[3]
		c10, c11, c12, c13 = c1[0], c1[1], c1[2], c1[3]
		c20, c21, c22, c23 = c2[0], c2[1], c2[2], c2[3]
		c30, c31, c32, c33 = c3[0], c3[1], c3[2], c3[3]
	}
	a, b = a[:4*kc], b[:4*kc]
	for l := 0; l+4 <= len(a); l += 4 {
		av, bv := a[l:l+4:l+4], b[l:l+4:l+4]
		a0, a1, a2, a3 := av[0], av[1], av[2], av[3]
		b0, b1, b2, b3 := bv[0], bv[1], bv[2], bv[3]
		c00, c01, c02, c03 = math.FMA(a0, b0, c00), math.FMA(a0, b1, c01), math.FMA(a0, b2, c02), math.FMA(a0, b3, c03)
		c10, c11, c12, c13 = math.FMA(a1, b0, c10), math.FMA(a1, b1, c11), math.FMA(a1, b2, c12), math.FMA(a1, b3, c13)
		c20, c21, c22, c23 = math.FMA(a2, b0, c20), math.FMA(a2, b1, c21), math.FMA(a2, b2, c22), math.FMA(a2, b3, c23)
		c30, c31, c32, c33 = math.FMA(a3, b0, c30), math.FMA(a3, b1, c31), math.FMA(a3, b2, c32), math.FMA(a3, b3, c33)
	}
	c0[0], c0[1], c0[2], c0[3] = c00, c01, c02, c03
	c1[0], c1[1], c1[2], c1[3] = c10, c11, c12, c13
	c2[0], c2[1], c2[2], c2[3] = c20, c21, c22, c23
	c3[0], c3[1], c3[2], c3[3] = c30, c31, c32, c33
}
