package methods

import (
	"math/rand/v2"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
)

// TestLassoGPSLazyIsEager checks the claim of gpsRow: evaluating gradient
// components only when a decision depends on them gives the same path as
// evaluating all of them at every step. Both runs compute every evaluated
// component the same way, so the paths agree bit for bit, step counts and
// path λ included. The problems are seeded de-noising problems with
// very narrow (c a few hundredths of the median squared distance, where
// a handful of training points carry the weight), narrow, medium and wide
// kernels, and data on a coarse grid, where components tie exactly and
// the lower index must win in both.
func TestLassoGPSLazyIsEager(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, tc := range []struct {
		name  string
		scale float64 // of the median squared distance
		grid  bool
	}{
		{"very narrow", 0.03, false},
		{"narrow", 0.2, false},
		{"median", 1, false},
		{"wide", 20, false},
		{"grid", 1, true},
		{"narrow grid", 0.05, true},
	} {
		x := mat.NewDense(60, 16, nil)
		test := mat.NewDense(10, 16, nil)
		fillNormal(rng, tc.grid, x, test)
		var d2 mat.Dense
		kernel.SqDist(&d2, x, x)
		g := kernel.Gaussian{C: tc.scale * medianOf(&d2)}
		model, err := FitKPCA(x, g)
		if err != nil {
			t.Fatal(err)
		}
		p := NewProblem(model.Basis(), model.Project(test, 8).Gamma, test)
		lazy := &LassoGPS{StepFactor: 1e-2, Tol: 1e-6, Window: 50, MaxSteps: 100000}
		eager := *lazy
		eager.eager = true
		var zl, ze mat.Dense
		sl, err := lazy.PreImage(&zl, p)
		if err != nil {
			t.Fatal(err)
		}
		se, err := eager.PreImage(&ze, p)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(&zl, &ze) {
			t.Errorf("%s: lazy and eager paths end at different points", tc.name)
		}
		for i := range sl {
			a, b := sl[i], se[i]
			if a.Iterations != b.Iterations || a.Converged != b.Converged || a.Diag["lambda"] != b.Diag["lambda"] {
				t.Errorf("%s row %d: lazy %+v, eager %+v", tc.name, i, a, b)
			}
		}
	}
}

func medianOf(d2 *mat.Dense) float64 {
	n, _ := d2.Dims()
	var v []float64
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			v = append(v, d2.At(i, j))
		}
	}
	sort.Float64s(v)
	return v[len(v)/2]
}
