//go:build !noasm && !gccgo && !safe

package methods

import "golang.org/x/sys/cpu"

// useAVX2 selects dot4's assembly kernel; tests switch it off to check the
// pure-Go path.
var useAVX2 = cpu.X86.HasAVX2

// dot4AVX2 is implemented in lasso_dot_amd64.s.
//
//go:noescape
func dot4AVX2(n int, w, x0, x1, x2, x3 *float64) (s0, s1, s2, s3 float64)

// dot4 returns floats.Dot(w, x_k) for k = 0…3, bit for bit, four at a
// time. Each x_k must be at least as long as w.
//
// gonum's amd64 DotUnitary sums four chains (see lasso_dot_amd64.s), each
// a sequence of dependent adds, so a single dot product is bound by the
// add latency; four of them interleaved are not.
func dot4(w, x0, x1, x2, x3 []float64) (s0, s1, s2, s3 float64) {
	n := len(w)
	if n == 0 {
		return 0, 0, 0, 0
	}
	x0, x1, x2, x3 = x0[:n], x1[:n], x2[:n], x3[:n]
	if useAVX2 {
		return dot4AVX2(n, &w[0], &x0[0], &x1[0], &x2[0], &x3[0])
	}
	return dotChains(w, x0), dotChains(w, x1), dotChains(w, x2), dotChains(w, x3)
}

// dotChains is gonum's amd64 DotUnitary in Go: chain l sums w_i x_i over
// the blocks of four with i ≡ l (mod 4), the last len(w) mod 4 terms go
// to chain 0, and the result is (c0+c2) + (c1+c3). The conversions
// float64(…) round each product before it is added, so the compiler
// cannot fuse them into FMA (at GOAMD64=v3 it would).
func dotChains(w, x []float64) float64 {
	x = x[:len(w)]
	var c0, c1, c2, c3 float64
	i := 0
	for ; i+4 <= len(w); i += 4 {
		c0 += float64(w[i] * x[i])
		c1 += float64(w[i+1] * x[i+1])
		c2 += float64(w[i+2] * x[i+2])
		c3 += float64(w[i+3] * x[i+3])
	}
	for ; i < len(w); i++ {
		c0 += float64(w[i] * x[i])
	}
	return (c0 + c2) + (c1 + c3)
}
