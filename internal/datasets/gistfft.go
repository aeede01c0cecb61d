package datasets

import (
	"fmt"
	"math"
)

// batchFFT is a mixed-radix Stockham (self-sorting) FFT of length n
// applied to many sequences at once: the data is an n×w row-major matrix
// and every column is transformed (along axis 0). The innermost loop of
// every butterfly then runs over a contiguous row of w values, which is
// what makes it several times faster than transforming the columns one at
// a time through gonum's fourier.CmplxFFT (BenchmarkGIST). GIST's 2-D
// transforms are two such passes with a transpose between them.
//
// Each stage of radix r splits a length r·m transform into r transforms of
// length m (decimation in frequency):
//
//	dst[q + s·(r·p + v)] = ω_{rm}^{p·v} · Σ_u ω_r^{u·v} · src[q + s·(p + u·m)]
//
// for p < m, v < r and q < s, s the product of w and the radices of the
// earlier stages (OTFFT's formulation). The output is in natural order.
// A batchFFT is read-only after construction and safe for concurrent use.
type batchFFT struct {
	n      int
	stages []fftStage
}

type fftStage struct {
	r, m int
	// tw[dir][p·r+v] = ω_{rm}^{±p·v}, dir 0 the forward (e^{−2πi/N})
	// and 1 the inverse sign.
	tw [2][]complex128
	// roots[dir][j] = ω_r^{±j}.
	roots [2][]complex128
}

// newBatchFFT plans a transform of length n ≥ 1, radices 4 first, then
// 2, 3, 5 and any other prime factor.
func newBatchFFT(n int) *batchFFT {
	if n < 1 {
		panic(fmt.Sprintf("datasets: FFT of length %d", n))
	}
	var radices []int
	k := n
	for k%4 == 0 {
		radices = append(radices, 4)
		k /= 4
	}
	for f := 2; k > 1; f++ {
		for k%f == 0 {
			radices = append(radices, f)
			k /= f
		}
	}
	f := &batchFFT{n: n}
	l := n
	for _, r := range radices {
		m := l / r
		st := fftStage{r: r, m: m}
		for dir, sign := range [2]float64{-1, 1} {
			st.tw[dir] = make([]complex128, m*r)
			for p := 0; p < m; p++ {
				for v := 0; v < r; v++ {
					st.tw[dir][p*r+v] = unitRoot(sign, p*v, l)
				}
			}
			st.roots[dir] = make([]complex128, r)
			for j := range st.roots[dir] {
				st.roots[dir][j] = unitRoot(sign, j, r)
			}
		}
		f.stages = append(f.stages, st)
		l = m
	}
	return f
}

// unitRoot returns e^{sign·2πi·j/n}, reduced so that exact values (±1,
// ±i) come out exact.
func unitRoot(sign float64, j, n int) complex128 {
	j %= n
	switch {
	case j == 0:
		return 1
	case 4*j == n:
		return complex(0, sign)
	case 2*j == n:
		return -1
	case 4*j == 3*n:
		return complex(0, -sign)
	}
	s, c := math.Sincos(2 * math.Pi * float64(j) / float64(n))
	return complex(c, sign*s)
}

// transform replaces every column of the n×w matrix a by its DFT (inverse
// false: Σ_j a_j e^{−2πijk/n}) or its unnormalised inverse (Σ_j a_j
// e^{+2πijk/n}). tmp is work space of twice the length of a.
func (f *batchFFT) transform(a, tmp []complex128, w int, inverse bool) {
	if len(a) != f.n*w || len(tmp) < 2*len(a) {
		panic(fmt.Sprintf("datasets: FFT of %d values (work %d) as %d×%d", len(a), len(tmp), f.n, w))
	}
	dir := 0
	if inverse {
		dir = 1
	}
	src, dst := a, tmp[:len(a)]
	scratch := tmp[len(a):]
	s := w
	for i := range f.stages {
		st := &f.stages[i]
		switch st.r {
		case 2:
			st.radix2(dst, src, s, dir)
		case 4:
			st.radix4(dst, src, s, dir)
		case 5:
			if st.m == 1 {
				st.radix5Last(dst, src, s, dir)
			} else {
				st.radix5(dst, src, s, dir)
			}
		default:
			st.generic(dst, src, scratch, s, dir)
		}
		src, dst = dst, src
		s *= st.r
	}
	if len(f.stages)%2 == 1 {
		copy(a, src)
	}
}

func (st *fftStage) radix2(dst, src []complex128, s, dir int) {
	m := st.m
	for p := 0; p < m; p++ {
		w1 := st.tw[dir][p*2+1]
		x0 := src[s*p : s*p+s]
		x1 := src[s*(p+m) : s*(p+m)+s]
		y0 := dst[s*(2*p) : s*(2*p)+s]
		y1 := dst[s*(2*p+1) : s*(2*p+1)+s]
		for q := range y0 {
			a, b := x0[q], x1[q]
			y0[q] = a + b
			y1[q] = (a - b) * w1
		}
	}
}

func (st *fftStage) radix4(dst, src []complex128, s, dir int) {
	m := st.m
	// ω_4 is −i forward and +i inverse: multiplying by it swaps parts.
	jr := 1.0
	if dir == 0 {
		jr = -1
	}
	for p := 0; p < m; p++ {
		tw := st.tw[dir][p*4 : p*4+4]
		w1, w2, w3 := tw[1], tw[2], tw[3]
		x0 := src[s*p : s*p+s]
		x1 := src[s*(p+m) : s*(p+m)+s]
		x2 := src[s*(p+2*m) : s*(p+2*m)+s]
		x3 := src[s*(p+3*m) : s*(p+3*m)+s]
		o := s * 4 * p
		y0 := dst[o : o+s]
		y1 := dst[o+s : o+2*s]
		y2 := dst[o+2*s : o+3*s]
		y3 := dst[o+3*s : o+4*s]
		for q := range y0 {
			a0, a1, a2, a3 := x0[q], x1[q], x2[q], x3[q]
			t0, t1 := a0+a2, a0-a2
			t2, d := a1+a3, a1-a3
			t3 := complex(-jr*imag(d), jr*real(d)) // (a1 − a3)·ω_4
			y0[q] = t0 + t2
			y1[q] = (t1 + t3) * w1
			y2[q] = (t0 - t2) * w2
			y3[q] = (t1 - t3) * w3
		}
	}
}

func (st *fftStage) radix5(dst, src []complex128, s, dir int) {
	m := st.m
	sg := -1.0 // the sign of the exponent
	if dir == 1 {
		sg = 1
	}
	c1, c2 := math.Cos(2*math.Pi/5), math.Cos(4*math.Pi/5)
	s1, s2 := sg*math.Sin(2*math.Pi/5), sg*math.Sin(4*math.Pi/5)
	for p := 0; p < m; p++ {
		tw := st.tw[dir][p*5 : p*5+5]
		x0 := src[s*p : s*p+s]
		x1 := src[s*(p+m) : s*(p+m)+s]
		x2 := src[s*(p+2*m) : s*(p+2*m)+s]
		x3 := src[s*(p+3*m) : s*(p+3*m)+s]
		x4 := src[s*(p+4*m) : s*(p+4*m)+s]
		o := s * 5 * p
		y0 := dst[o : o+s]
		y1 := dst[o+s : o+2*s]
		y2 := dst[o+2*s : o+3*s]
		y3 := dst[o+3*s : o+4*s]
		y4 := dst[o+4*s : o+5*s]
		for q := range y0 {
			a0 := x0[q]
			b1, d1 := x1[q]+x4[q], x1[q]-x4[q]
			b2, d2 := x2[q]+x3[q], x2[q]-x3[q]
			t1 := a0 + complex(c1, 0)*b1 + complex(c2, 0)*b2
			t2 := a0 + complex(c2, 0)*b1 + complex(c1, 0)*b2
			u1 := complex(s1, 0)*d1 + complex(s2, 0)*d2
			u2 := complex(s2, 0)*d1 - complex(s1, 0)*d2
			// i·u = (−imag u, real u)
			iu1 := complex(-imag(u1), real(u1))
			iu2 := complex(-imag(u2), real(u2))
			y0[q] = a0 + b1 + b2
			y1[q] = (t1 + iu1) * tw[1]
			y2[q] = (t2 + iu2) * tw[2]
			y3[q] = (t2 - iu2) * tw[3]
			y4[q] = (t1 - iu1) * tw[4]
		}
	}
}

// radix5Last is radix5 for the last stage (m = 1), whose twiddle factors
// are all 1: the same values without the multiplications.
func (st *fftStage) radix5Last(dst, src []complex128, s, dir int) {
	sg := -1.0
	if dir == 1 {
		sg = 1
	}
	c1, c2 := math.Cos(2*math.Pi/5), math.Cos(4*math.Pi/5)
	s1, s2 := sg*math.Sin(2*math.Pi/5), sg*math.Sin(4*math.Pi/5)
	x0, x1, x2, x3, x4 := src[:s], src[s:2*s], src[2*s:3*s], src[3*s:4*s], src[4*s:5*s]
	y0, y1, y2, y3, y4 := dst[:s], dst[s:2*s], dst[2*s:3*s], dst[3*s:4*s], dst[4*s:5*s]
	for q := range y0 {
		a0 := x0[q]
		b1, d1 := x1[q]+x4[q], x1[q]-x4[q]
		b2, d2 := x2[q]+x3[q], x2[q]-x3[q]
		t1 := a0 + complex(c1, 0)*b1 + complex(c2, 0)*b2
		t2 := a0 + complex(c2, 0)*b1 + complex(c1, 0)*b2
		u1 := complex(s1, 0)*d1 + complex(s2, 0)*d2
		u2 := complex(s2, 0)*d1 - complex(s1, 0)*d2
		iu1 := complex(-imag(u1), real(u1))
		iu2 := complex(-imag(u2), real(u2))
		y0[q] = a0 + b1 + b2
		y1[q] = t1 + iu1
		y2[q] = t2 + iu2
		y3[q] = t2 - iu2
		y4[q] = t1 - iu1
	}
}

// generic is any odd radix r by the definition, pairing u with r−u:
// Σ_u a_u ω^{uv} = a_0 + Σ_{u ≤ r/2} (a_u + a_{r−u})·cos(2πuv/r)
// ± i·(a_u − a_{r−u})·sin(2πuv/r). The sums and differences are kept in
// scratch (r−1 rows of s values).
func (st *fftStage) generic(dst, src, scratch []complex128, s, dir int) {
	r, m := st.r, st.m
	h := r / 2
	sg := -1.0
	if dir == 1 {
		sg = 1
	}
	cs := make([]float64, r)
	sn := make([]float64, r)
	for j := range cs {
		sn[j], cs[j] = math.Sincos(2 * math.Pi * float64(j) / float64(r))
		sn[j] *= sg
	}
	for p := 0; p < m; p++ {
		x0 := src[s*p : s*p+s]
		for u := 1; u <= h; u++ {
			xa := src[s*(p+u*m) : s*(p+u*m)+s]
			xb := src[s*(p+(r-u)*m) : s*(p+(r-u)*m)+s]
			sum := scratch[(2*u-2)*s : (2*u-1)*s]
			dif := scratch[(2*u-1)*s : 2*u*s]
			for q := range sum {
				sum[q] = xa[q] + xb[q]
				dif[q] = xa[q] - xb[q]
			}
		}
		tw := st.tw[dir][p*r : p*r+r]
		y := dst[s*r*p : s*r*p+s]
		copy(y, x0)
		for u := 1; u <= h; u++ {
			for q, v := range scratch[(2*u-2)*s : (2*u-1)*s] {
				y[q] += v
			}
		}
		for v := 1; v <= h; v++ {
			ya := dst[s*(r*p+v) : s*(r*p+v)+s]
			yb := dst[s*(r*p+r-v) : s*(r*p+r-v)+s]
			copy(ya, x0)
			copy(yb, x0)
			for u := 1; u <= h; u++ {
				c, sv := cs[(u*v)%r], sn[(u*v)%r]
				sum := scratch[(2*u-2)*s : (2*u-1)*s]
				dif := scratch[(2*u-1)*s : 2*u*s]
				for q := range ya {
					re := complex(c*real(sum[q]), c*imag(sum[q]))
					im := complex(-sv*imag(dif[q]), sv*real(dif[q]))
					ya[q] += re + im
					yb[q] += re - im
				}
			}
			wa, wb := tw[v], tw[r-v]
			for q := range ya {
				ya[q] *= wa
				yb[q] *= wb
			}
		}
	}
}

// transpose writes the h×w matrix a into the w×h matrix t.
func transpose(t, a []complex128, h, w int) {
	const b = 16
	for y0 := 0; y0 < h; y0 += b {
		y1 := min(y0+b, h)
		for x0 := 0; x0 < w; x0 += b {
			x1 := min(x0+b, w)
			for y := y0; y < y1; y++ {
				row := a[y*w : y*w+w]
				for x := x0; x < x1; x++ {
					t[x*h+y] = row[x]
				}
			}
		}
	}
}

// fft2 is the n×n 2-D DFT of a row-major matrix, in place, with its
// work space: columns first (batched), then rows through two transposes.
// An fft2 is not safe for concurrent use.
type fft2 struct {
	n        int
	f        *batchFFT
	tmp, tra []complex128
}

func newFFT2(n int) *fft2 {
	return &fft2{n: n, f: newBatchFFT(n), tmp: make([]complex128, 2*n*n), tra: make([]complex128, n*n)}
}

// forward transforms a in place (unnormalised).
func (f *fft2) forward(a []complex128) { f.apply(a, false) }

// inverseFull is ifft2 of a in place, normalised.
func (f *fft2) inverseFull(a []complex128) {
	f.apply(a, true)
	s := complex(1/float64(f.n*f.n), 0)
	for i := range a {
		a[i] *= s
	}
}

func (f *fft2) apply(a []complex128, inverse bool) {
	n := f.n
	f.f.transform(a, f.tmp, n, inverse) // along y
	transpose(f.tra, a, n, n)
	f.f.transform(f.tra, f.tmp, n, inverse) // along x
	transpose(a, f.tra, n, n)
}
