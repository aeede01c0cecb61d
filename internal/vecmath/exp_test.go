package vecmath

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// expArgs returns n arguments across exp's range: uniform on the fast
// path's [−707, 709], on the Gaussian kernel's usual [−50, 0], near 0,
// in the subnormal and overflow margins, exact multiples of ln 2/2
// (where the reduction's rounding of k is a tie) and the special values.
func expArgs(rnd *rand.Rand, n int) []float64 {
	x := make([]float64, 0, n+16)
	x = append(x, 0, math.Copysign(0, -1), 1, -1, math.NaN(), math.Inf(1), math.Inf(-1), fastLo, fastHi,
		math.Nextafter(fastLo, -1), math.Nextafter(fastHi, 1000), overflow, math.Nextafter(overflow, 1000),
		underflow, math.Nextafter(underflow, 0), -745, 709.7, -708.5)
	for len(x) < n {
		var v float64
		switch rnd.IntN(6) {
		case 0:
			v = fastLo + (fastHi-fastLo)*rnd.Float64()
		case 1:
			v = -50 * rnd.Float64()
		case 2:
			v = (rnd.Float64() - 0.5) * math.Ldexp(1, -rnd.IntN(60))
		case 3:
			v = -745.2 + 38*rnd.Float64()
		case 4:
			v = 708 + 2*rnd.Float64()
		case 5:
			v = float64(rnd.IntN(4000)-2000) * math.Ln2 / 2
		}
		x = append(x, v)
	}
	return x
}

// TestExpKernelsAgree: ExpTo through every assembly kernel this CPU
// runs, and through the pure-Go path, gives Exp's bits on every argument
// (NaN for NaN), at every length around the kernels' blocks of 4 and 8.
func TestExpKernelsAgree(t *testing.T) {
	rnd := rand.New(rand.NewPCG(52, 10))
	x := expArgs(rnd, 200_000)
	want := make([]float64, len(x))
	for i, v := range x {
		want[i] = Exp(v)
	}
	defer func(k expKernelFunc) { expKernel = k }(expKernel)
	for ki, k := range append([]expKernelFunc{expGo}, asmKernels()...) {
		expKernel = k
		for _, n := range []int{0, 1, 3, 4, 5, 7, 8, 9, 17, len(x)} {
			got := make([]float64, n)
			ExpTo(got, x[:n])
			for i := range got {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
					t.Fatalf("kernel %d, length %d: exp(%v) = %v, Exp gives %v", ki, n, x[i], got[i], want[i])
				}
			}
		}
		// In place.
		in := append([]float64(nil), x...)
		ExpTo(in, in)
		for i := range in {
			if math.Float64bits(in[i]) != math.Float64bits(want[i]) && !(math.IsNaN(in[i]) && math.IsNaN(want[i])) {
				t.Fatalf("kernel %d in place: exp(%v) = %v, Exp gives %v", ki, x[i], in[i], want[i])
			}
		}
	}
}

// bigExp returns e^x to prec bits: e^(x/2^s) by its Taylor series for
// |x/2^s| < 2^−8, then squared s times (each squaring doubles the
// relative error, so 2^s·2^−prec stays far below 2^−60).
func bigExp(x float64, prec uint) *big.Float {
	s := 0
	for math.Abs(x)/math.Ldexp(1, s) >= 1.0/256 {
		s++
	}
	y := new(big.Float).SetPrec(prec).SetFloat64(math.Ldexp(x, -s))
	sum := new(big.Float).SetPrec(prec).SetInt64(1)
	term := new(big.Float).SetPrec(prec).SetInt64(1)
	for j := 1; j < 40; j++ {
		term.Mul(term, y)
		term.Quo(term, new(big.Float).SetPrec(prec).SetInt64(int64(j)))
		sum.Add(sum, term)
	}
	for range s {
		sum.Mul(sum, sum)
	}
	return sum
}

// TestExpAccuracy: Exp is within 1 ulp of e^x (math/big at 320 bits) at
// 40 000 arguments across the range where the result is normal, and
// reports its largest error and math.Exp's at the same points (math.Exp
// documents no bound; its source, FreeBSD's e_exp.c, says < 1 ulp); a
// subnormal result is within one subnormal step of e^x.
func TestExpAccuracy(t *testing.T) {
	if testing.Short() {
		t.Skip("big-float exponentials")
	}
	rnd := rand.New(rand.NewPCG(52, 11))
	var worst, worstStd float64
	var at float64
	for _, x := range expArgs(rnd, 40_000) {
		if math.IsNaN(x) || math.IsInf(x, 0) || x > overflow || x < -708.39 {
			continue
		}
		ref := bigExp(x, 320)
		exact, _ := ref.Float64()
		ulp := math.Nextafter(exact, math.Inf(1)) - exact
		errOf := func(v float64) float64 {
			d := new(big.Float).SetPrec(320).SetFloat64(v)
			d.Sub(d, ref)
			f, _ := d.Float64()
			return math.Abs(f) / ulp
		}
		if e := errOf(Exp(x)); e > worst {
			worst, at = e, x
		}
		if s := math.Exp(x); !math.IsInf(s, 0) {
			worstStd = math.Max(worstStd, errOf(s))
		}
	}
	t.Logf("largest error %.3f ulp (at x = %v); math.Exp's %.3f ulp", worst, at, worstStd)
	if worst > 1 {
		t.Errorf("Exp's error reaches %.3f ulp at x = %v, want ≤ 1", worst, at)
	}
	// Subnormal results: the last rounding is to a multiple of 2^−1074.
	for _, x := range []float64{-708.5, -720, -740, -744.4, -745.1} {
		exact, _ := bigExp(x, 320).Float64()
		if d := math.Abs(Exp(x) - exact); d > 0x1p-1074 {
			t.Errorf("Exp(%v) = %v, e^x = %v (subnormal): off by %g", x, Exp(x), exact, d)
		}
	}
	if math.IsInf(Exp(overflow), 1) || !math.IsInf(Exp(math.Nextafter(overflow, 1000)), 1) || Exp(math.Nextafter(underflow, -1000)) != 0 {
		t.Errorf("thresholds: Exp(%v) = %v, Exp(next) = %v, Exp(below %v) = %v", overflow, Exp(overflow), Exp(math.Nextafter(overflow, 1000)), underflow, Exp(math.Nextafter(underflow, -1000)))
	}
}
