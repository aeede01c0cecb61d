package datasets

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"strings"
	"testing"
)

// dft is the O(n²) DFT of a by its definition, sign −1 forward and +1 for
// the unnormalised inverse.
func dft(a []complex128, sign float64) []complex128 {
	n := len(a)
	out := make([]complex128, n)
	for k := range out {
		for j, v := range a {
			out[k] += v * cmplx.Rect(1, sign*2*math.Pi*float64(j*k%n)/float64(n))
		}
	}
	return out
}

// TestBatchFFTRadix5Inner covers the radix-5 butterfly with twiddle
// factors (m > 1), which TestBatchFFT's lengths (5 always last) never
// reach: 25 = 5·5, 100 = 4·5·5, 175 = 5·5·7 and 125 = 5³, against the
// definition. Tolerance as TestBatchFFT's: 1e-12 of the largest output.
func TestBatchFFTRadix5Inner(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 5))
	for _, n := range []int{25, 100, 125, 175} {
		f := newBatchFFT(n)
		inner := false
		for _, st := range f.stages {
			inner = inner || (st.r == 5 && st.m > 1)
		}
		if !inner {
			t.Fatalf("n=%d: no radix-5 stage with m > 1 (stages %+v)", n, f.stages)
		}
		for _, inverse := range []bool{false, true} {
			a := make([]complex128, n)
			for i := range a {
				a[i] = complex(rng.NormFloat64(), rng.NormFloat64())
			}
			sign := -1.0
			if inverse {
				sign = 1
			}
			want := dft(a, sign)
			var scale float64
			for _, v := range want {
				scale = math.Max(scale, cmplx.Abs(v))
			}
			got := append([]complex128(nil), a...)
			f.transform(got, make([]complex128, 2*n), 1, inverse)
			for k := range got {
				if cmplx.Abs(got[k]-want[k]) > 1e-12*scale {
					t.Fatalf("n=%d inverse=%v: X[%d] = %v, want %v", n, inverse, k, got[k], want[k])
				}
			}
		}
	}
}

// TestFFT2 checks the 2-D transform against the separable definition
// X[u][v] = Σ_y Σ_x a[y][x]·e^{−2πi(uy+vx)/n} on a non-symmetric matrix
// (so that a missing transpose shows), and that inverseFull undoes it to
// 1e-13 of the largest input (round-off of two passes of n² terms).
func TestFFT2(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 7))
	for _, n := range []int{1, 4, 6, 10} {
		a := make([]complex128, n*n)
		for i := range a {
			a[i] = complex(rng.NormFloat64(), 0)
		}
		want := make([]complex128, n*n)
		var scale float64
		for u := 0; u < n; u++ {
			for v := 0; v < n; v++ {
				var s complex128
				for y := 0; y < n; y++ {
					for x := 0; x < n; x++ {
						s += a[y*n+x] * cmplx.Rect(1, -2*math.Pi*float64((u*y+v*x)%n)/float64(n))
					}
				}
				want[u*n+v] = s
				scale = math.Max(scale, cmplx.Abs(s))
			}
		}
		f := newFFT2(n)
		got := append([]complex128(nil), a...)
		f.forward(got)
		for i := range got {
			if cmplx.Abs(got[i]-want[i]) > 1e-12*scale {
				t.Fatalf("n=%d: X[%d][%d] = %v, want %v", n, i/n, i%n, got[i], want[i])
			}
		}
		f.inverseFull(got)
		for i := range got {
			if cmplx.Abs(got[i]-a[i]) > 1e-13*math.Max(1, scale) {
				t.Fatalf("n=%d: ifft2(fft2(a))[%d] = %v, want %v", n, i, got[i], a[i])
			}
		}
	}
}

// TestBatchFFTPanics: a length below 1 and data or work space of the wrong
// size are programmer errors and panic with the package's prefix.
func TestBatchFFTPanics(t *testing.T) {
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"length 0", func() { newBatchFFT(0) }},
		{"data not n×w", func() { newBatchFFT(4).transform(make([]complex128, 7), make([]complex128, 16), 2, false) }},
		{"work too short", func() { newBatchFFT(4).transform(make([]complex128, 8), make([]complex128, 15), 2, false) }},
	} {
		func() {
			defer func() {
				r := recover()
				if s, ok := r.(string); !ok || !strings.HasPrefix(s, "datasets: FFT") {
					t.Errorf("%s: recovered %v, want a datasets: FFT panic", c.name, r)
				}
			}()
			c.f()
		}()
	}
}
