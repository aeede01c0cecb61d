package methods

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
)

// TestFitKPCAGramEnergy checks the truncated fit of RKPCA's imputation
// against the full one: the same q, the same leading eigenvalues and the
// same projections Γ (which do not depend on the eigenvectors' signs) to
// rounding. Tolerance 1e-9 relative: both are backward stable
// eigensolvers (LAPACK Users' Guide §4.7), and inverse iteration's vectors
// differ from QR's by ε‖K̃‖/gap, with gaps here far above 1e-6‖K̃‖.
func TestFitKPCAGramEnergy(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for _, tc := range []struct {
		n, d   int
		energy float64
	}{{90, 12, 0.9}, {90, 12, 0.99}, {40, 5, 1}, {120, 3, 0.5}} {
		x := mat.NewDense(tc.n, tc.d, normals(rng, tc.n*tc.d))
		k := kernel.NewGaussianGamma(0.3)
		g := kernel.SelfGram(k, x)
		full, err := FitKPCAGram(x, k, g)
		if err != nil {
			t.Fatal(err)
		}
		top, q, err := fitKPCAGramEnergy(x, k, mat.NewSymDense(tc.n, append([]float64(nil), g.RawSymmetric().Data...)), tc.energy)
		if err != nil {
			t.Fatal(err)
		}
		if want := full.Components(tc.energy); q != want || top.Rank() != q {
			t.Fatalf("n=%d energy=%v: q %d (rank %d), full fit's Components %d", tc.n, tc.energy, q, top.Rank(), want)
		}
		for i := 0; i < q; i++ {
			if d := math.Abs(top.Values[i] - full.Values[i]); d > 1e-9*full.Values[0] {
				t.Errorf("n=%d: eigenvalue %d: %v, full %v", tc.n, i, top.Values[i], full.Values[i])
			}
		}
		test := mat.NewDense(7, tc.d, normals(rng, 7*tc.d))
		a, b := top.Project(test, q).Gamma, full.Project(test, q).Gamma
		if !mat.EqualApprox(a, b, 1e-9*mat.Norm(b, math.Inf(1))) {
			t.Errorf("n=%d energy=%v: projections differ by %v", tc.n, tc.energy, maxAbsDiff(a, b))
		}
	}
}

func maxAbsDiff(a, b mat.Matrix) float64 {
	var d mat.Dense
	d.Sub(a, b)
	return mat.Norm(&d, math.Inf(1))
}

// normals returns n standard normal draws.
func normals(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	return v
}
