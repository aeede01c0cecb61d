package datasets

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"
)

// TestBatchFFT compares the batched Stockham FFT with the O(n²) DFT by
// its definition, for lengths covering every butterfly (radix 4, 2, 5 and
// the generic odd radix: 266 = 2·7·19 and 320 = 4³·5 are GIST's), both
// directions, batches of 1 and 3 columns. Tolerance: 1e-12 relative to
// the largest output, a few hundred ulps for sums of up to 320 terms.
func TestBatchFFT(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{1, 2, 3, 4, 5, 6, 8, 12, 15, 16, 20, 38, 49, 64, 266, 320} {
		for _, w := range []int{1, 3} {
			for _, inverse := range []bool{false, true} {
				a := make([]complex128, n*w)
				for i := range a {
					a[i] = complex(rng.NormFloat64(), rng.NormFloat64())
				}
				want := make([]complex128, n*w)
				sign := -1.0
				if inverse {
					sign = 1
				}
				var scale float64
				for c := 0; c < w; c++ {
					for k := 0; k < n; k++ {
						var s complex128
						for j := 0; j < n; j++ {
							s += a[j*w+c] * cmplx.Rect(1, sign*2*math.Pi*float64(j*k%n)/float64(n))
						}
						want[k*w+c] = s
						scale = math.Max(scale, cmplx.Abs(s))
					}
				}
				got := append([]complex128(nil), a...)
				newBatchFFT(n).transform(got, make([]complex128, 2*n*w), w, inverse)
				for i := range got {
					if cmplx.Abs(got[i]-want[i]) > 1e-12*scale {
						t.Fatalf("n=%d w=%d inverse=%v: value %d = %v, want %v", n, w, inverse, i, got[i], want[i])
					}
				}
			}
		}
	}
}
