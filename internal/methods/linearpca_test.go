package methods_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/methods"
)

// TestLinearPCAIsReconstruct checks that the denoiser is PCA.Reconstruct on
// the model's training inputs, with q from DenoiseInput.Q, from
// components, and capped at the PCA rank (5 for 20 points in D = 5, while
// the Gaussian model's Q may reach 19).
func TestLinearPCAIsReconstruct(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	x := randn(rng, 20, 5)
	test := randn(rng, 6, 5)
	m, err := methods.FitKPCA(x, medianGaussian(x))
	checkNoErr(t, "FitKPCA", err)
	pca, err := methods.FitPCA(x)
	checkNoErr(t, "FitPCA", err)
	for _, tc := range []struct {
		est   methods.LinearPCA
		q     int // DenoiseInput.Q
		wantQ int
	}{
		{methods.LinearPCA{}, 2, 2},
		{methods.LinearPCA{}, 12, 5},
		{methods.LinearPCA{Components: 3}, 12, 3},
		{methods.LinearPCA{Components: 9}, 1, 5},
	} {
		var got, want mat.Dense
		st, err := tc.est.Denoise(&got, &methods.DenoiseInput{Model: m, Q: tc.q, X0: test})
		checkNoErr(t, "Denoise", err)
		if len(st) != 6 {
			t.Fatalf("%d statuses for 6 rows", len(st))
		}
		pca.Reconstruct(&want, test, tc.wantQ)
		// Tolerance: the same computation on an independently fitted PCA.
		if d := maxRelDiff(&got, &want); d > 1e-13 {
			t.Errorf("%+v with Q=%d differs from Reconstruct(q=%d) by %.3g", tc.est, tc.q, tc.wantQ, d)
		}
	}
}

// TestLinearPCAEnergy checks the energy rule on the hand-derived data set
// of TestKPCAComponents: (±√3, 0), (0, ±1) have eigenvalues 6 and 2, so
// energy 0.75 keeps the first axis only and (1, 1) reconstructs as (1, 0)
// (mean 0, leading direction ±e_1); energy 0.8 keeps both: (1, 1) itself.
func TestLinearPCAEnergy(t *testing.T) {
	s3 := math.Sqrt(3)
	x := mat.NewDense(4, 2, []float64{s3, 0, -s3, 0, 0, 1, 0, -1})
	m, err := methods.FitKPCA(x, kernel.Linear{})
	checkNoErr(t, "FitKPCA", err)
	in := &methods.DenoiseInput{Model: m, Q: 2, X0: mat.NewDense(1, 2, []float64{1, 1})}
	for _, tc := range []struct {
		energy float64
		want   []float64
	}{
		{0.75, []float64{1, 0}},
		{0.8, []float64{1, 1}},
	} {
		var z mat.Dense
		_, err := (&methods.LinearPCA{Components: 2, Energy: tc.energy}).Denoise(&z, in)
		checkNoErr(t, "Denoise", err)
		// Tolerance: rounding of O(1) values.
		if d := maxRelDiff(&z, mat.NewDense(1, 2, tc.want)); d > 1e-15 {
			t.Errorf("energy %v: %v, want %v", tc.energy, z.RawRowView(0), tc.want)
		}
	}
}

// TestLinearPCARefuses checks the errors: no component count, no model.
func TestLinearPCARefuses(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	x := randn(rng, 10, 3)
	m, err := methods.FitKPCA(x, kernel.Linear{})
	checkNoErr(t, "FitKPCA", err)
	var z mat.Dense
	if _, err := (&methods.LinearPCA{}).Denoise(&z, &methods.DenoiseInput{Model: m, Q: 0, X0: x}); err == nil {
		t.Error("Q = 0 with components = 0 accepted")
	}
	if _, err := (&methods.LinearPCA{}).Denoise(&z, &methods.DenoiseInput{Q: 1, X0: x}); err == nil {
		t.Error("no model accepted")
	}
	if _, _, err := methods.New("linear-pca", map[string]any{"pca_energy": 1.5}); err == nil {
		t.Error("energy 1.5 accepted by the registry")
	}
}
