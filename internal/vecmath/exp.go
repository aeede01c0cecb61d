package vecmath

import "math"

// Constants of the algorithm (doc.go). ln2Hi + ln2Lo is ln 2 to 106 bits;
// coefficient j of the polynomial is 1/j! rounded to double.
const (
	log2e = 1.4426950408889634
	ln2Hi = 0.6931471805599453
	ln2Lo = 2.3190468138462996e-17

	// fastLo and fastHi bound the arguments the vector kernels handle:
	// k = round(x·log₂e) is in [−1021, 1023], so 2^k is a normal number.
	fastLo = -707.0
	fastHi = 709.0

	overflow  = 709.782712893384   // exp(x) > MaxFloat64 above
	underflow = -745.1332191019412 // exp(x) < SmallestNonzeroFloat64/2 below
)

var coef = [14]float64{
	1.0, 1.0, 0.5, 0.16666666666666666, 0.041666666666666664, 0.008333333333333333,
	0.001388888888888889, 0.0001984126984126984, 2.48015873015873e-05, 2.7557319223985893e-06,
	2.755731922398589e-07, 2.505210838544172e-08, 2.08767569878681e-09, 1.6059043836821613e-10,
}

// Exp returns e^x by the algorithm of the package documentation. It is the
// definition the vector kernels follow bit for bit.
func Exp(x float64) float64 {
	switch {
	case x != x:
		return x
	case x > overflow:
		return math.Inf(1)
	case x < underflow:
		return 0
	}
	k, p := reduce(x)
	if x >= fastLo && x <= fastHi {
		return p * math.Float64frombits(uint64(int64(k)+1023)<<52)
	}
	// 2^k in two normal factors: p·2^k1 is exact, the second product
	// rounds once (to a subnormal, or to MaxFloat64's neighbourhood).
	ki := int64(k)
	k1 := ki / 2
	k2 := ki - k1
	return p * math.Float64frombits(uint64(k1+1023)<<52) * math.Float64frombits(uint64(k2+1023)<<52)
}

// reduce returns k and p = e^r for x = k·ln 2 + r.
func reduce(x float64) (k, p float64) {
	t := x * log2e
	k = math.RoundToEven(t)
	r := math.FMA(-k, ln2Hi, x)
	r = math.FMA(-k, ln2Lo, r)
	p = coef[13]
	for j := 12; j >= 0; j-- {
		p = math.FMA(p, r, coef[j])
	}
	return k, p
}

// ExpTo sets dst[i] = Exp(x[i]) for every i; dst and x must have the same
// length and may be the same slice.
func ExpTo(dst, x []float64) {
	if len(dst) != len(x) {
		panic("vecmath: length mismatch")
	}
	for i := 0; i < len(x); {
		done, block := expKernel(dst[i:], x[i:])
		i += done
		// A block with an argument outside the kernel's range, or the
		// tail: element by element.
		for end := min(i+block, len(x)); i < end; i++ {
			dst[i] = Exp(x[i])
		}
	}
}

// expKernelFunc does the blocks of block elements of dst = exp(x) from the
// start until one holds an argument outside [fastLo, fastHi], leaving that
// one and the tail shorter than a block unwritten, and returns how many
// elements it did.
type expKernelFunc func(dst, x []float64) (done, block int)

// expGo is the pure-Go expKernel: it leaves every element to ExpTo.
func expGo(dst, x []float64) (done, block int) { return 0, len(x) }
