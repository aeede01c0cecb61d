package vecmath

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// BenchmarkExp is exp of 4096 arguments in [−50, 0] (a Gaussian kernel
// row's range) by each kernel this machine runs and by math.Exp in a
// loop, in nanoseconds per element.
func BenchmarkExp(b *testing.B) {
	rnd := rand.New(rand.NewPCG(52, 12))
	x, dst := make([]float64, 4096), make([]float64, 4096)
	for i := range x {
		x[i] = -50 * rnd.Float64()
	}
	per := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(x)), "ns/elem")
	}
	b.Run("math.Exp", func(b *testing.B) {
		for b.Loop() {
			for i, v := range x {
				dst[i] = math.Exp(v)
			}
		}
		per(b)
	})
	defer func(k expKernelFunc) { expKernel = k }(expKernel)
	for ki, k := range append([]expKernelFunc{expGo}, asmKernels()...) {
		b.Run(fmt.Sprint("kernel", ki), func(b *testing.B) {
			expKernel = k
			for b.Loop() {
				ExpTo(dst, x)
			}
			per(b)
		})
	}
}
