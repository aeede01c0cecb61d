package methods

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
)

// BenchmarkKPCAFitTop is the peer benchmark's kernel PCA fit on data of
// its shape: N = 1000 points of D = 256 U(0, 1) pixels, 50 components
// (FitKPCA, then Alpha(50): the top-q solver).
func BenchmarkKPCAFitTop(b *testing.B) {
	rng := rand.New(rand.NewPCG(52, 9))
	x := mat.NewDense(1000, 256, nil)
	for i := range x.RawMatrix().Data {
		x.RawMatrix().Data[i] = rng.Float64()
	}
	k := kernel.Gaussian{C: 256.0 / 6}
	for b.Loop() {
		m, err := FitKPCA(x, k)
		if err != nil {
			b.Fatal(err)
		}
		m.Alpha(50)
	}
}
