package vecmath

import (
	"math"
	"math/rand/v2"
	"testing"
)

// sqdistRef is sqdist.go's definition written out term by term.
func sqdistRef(x, y []float64) float64 {
	var c [8]float64
	for i := range x {
		t := x[i] - y[i]
		c[i%8] = math.FMA(t, t, c[i%8])
	}
	return ((c[0] + c[4]) + (c[2] + c[6])) + ((c[1] + c[5]) + (c[3] + c[7]))
}

// TestSqDist4KernelsAgree: SqDist4 through every kernel this CPU runs
// and the Go path, and SqDist, give the definition's bits at every length
// 0–300 (each tail of the blocks of eight), with entries spanning 2^±30;
// y_k longer than x checks that only len(x) terms are summed.
func TestSqDist4KernelsAgree(t *testing.T) {
	rnd := rand.New(rand.NewPCG(52, 17))
	wide := func() float64 { return rnd.NormFloat64() * math.Ldexp(1, rnd.IntN(61)-30) }
	defer func(k sqdistKernelFunc) { sqdistKernel = k }(sqdistKernel)
	for ki, k := range append([]sqdistKernelFunc{sqdistGo}, asmSqdist()...) {
		sqdistKernel = k
		for n := 0; n <= 300; n++ {
			x := make([]float64, n)
			for i := range x {
				x[i] = wide()
			}
			var y [4][]float64
			for j := range y {
				y[j] = make([]float64, n+j)
				for i := range y[j] {
					y[j][i] = wide()
				}
			}
			var got [4]float64
			got[0], got[1], got[2], got[3] = SqDist4(x, y[0], y[1], y[2], y[3])
			for j := range y {
				want := sqdistRef(x, y[j][:n])
				if math.Float64bits(got[j]) != math.Float64bits(want) {
					t.Fatalf("kernel %d n=%d y%d: %v, want %v", ki, n, j, got[j], want)
				}
				if one := SqDist(x, y[j]); math.Float64bits(one) != math.Float64bits(want) {
					t.Fatalf("n=%d y%d: SqDist %v, want %v", n, j, one, want)
				}
			}
		}
	}
}
