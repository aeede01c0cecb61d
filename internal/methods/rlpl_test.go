package methods

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
)

// TestRLPLClosedForm: with s = N and λ → 0 the weights (K + λI)⁻¹Kγ tend
// to γ (Zheng & Lai eq. 9 with K̂ = K), so the pre-image is Σ_n γ_n x_n.
// The Gaussian Gram matrix of 10 random points with c = 1 is well
// conditioned, so λ = 1e-12 moves the weights by ~λ·‖K⁻¹‖; tolerance 1e-8.
func TestRLPLClosedForm(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 1))
	x := mat.NewDense(10, 3, nil)
	for i := 0; i < 10; i++ {
		for j := 0; j < 3; j++ {
			x.Set(i, j, 2*rnd.NormFloat64())
		}
	}
	m, err := FitKPCA(x, kernel.Gaussian{C: 1})
	if err != nil {
		t.Fatal(err)
	}
	x0 := mat.NewDense(4, 3, nil)
	for i := 0; i < 4; i++ {
		for j := 0; j < 3; j++ {
			x0.Set(i, j, rnd.NormFloat64())
		}
	}
	proj := m.Project(x0, 5)
	p := NewProblem(m.Basis(), proj.Gamma, x0)
	var z mat.Dense
	st, err := (&RLPL{Lambda: 1e-12, Neighbors: 10}).PreImage(&z, p)
	if err != nil {
		t.Fatal(err)
	}
	var want mat.Dense
	want.Mul(proj.Gamma, x)
	for i := 0; i < 4; i++ {
		if st[i].Err != nil {
			t.Fatalf("row %d: %v", i, st[i].Err)
		}
		for j := 0; j < 3; j++ {
			if !scalar.EqualWithinAbsOrRel(z.At(i, j), want.At(i, j), 1e-8, 1e-8) {
				t.Errorf("z[%d,%d] = %v, Σγx = %v", i, j, z.At(i, j), want.At(i, j))
			}
		}
	}
}

// TestRLPLHand works eq. 9–10 by hand for two 1-D training points x = 0, 1
// with a linear kernel (K = [[0, 0], [0, 1]]) and Ψ = 0.5·φ(x_2): then
// k̂ = (0, 0.5) and with λ = 1, W = (K + I)⁻¹k̂ = (0, 0.25), so x̃ = 0.25.
func TestRLPLHand(t *testing.T) {
	x := mat.NewDense(2, 1, []float64{0, 1})
	b := NewBasis(x, kernel.Linear{})
	p := NewProblem(b, mat.NewDense(1, 2, []float64{0, 0.5}), nil)
	var z mat.Dense
	st, err := (&RLPL{Lambda: 1, Neighbors: 2}).PreImage(&z, p)
	if err != nil || st[0].Err != nil {
		t.Fatal(err, st[0].Err)
	}
	if got := z.At(0, 0); math.Abs(got-0.25) > 1e-15 {
		t.Errorf("x̃ = %v, want 0.25", got)
	}
}

// TestRLPLOneNeighbour: s = 1 with λ → 0 returns the nearest training point
// scaled by k̂/(K̂ + λ); for Ψ = φ(x_j) and a Gaussian kernel that is x_j.
func TestRLPLOneNeighbour(t *testing.T) {
	x := mat.NewDense(3, 2, []float64{0, 0, 1, 0, 0, 1})
	b := NewBasis(x, kernel.Gaussian{C: 0.5})
	g := mat.NewDense(1, 3, []float64{0, 1, 0})
	var z mat.Dense
	st, err := (&RLPL{Lambda: 0, Neighbors: 1}).PreImage(&z, NewProblem(b, g, nil))
	if err != nil || st[0].Err != nil {
		t.Fatal(err, st[0].Err)
	}
	if z.At(0, 0) != 1 || z.At(0, 1) != 0 {
		t.Errorf("pre-image %v, want x_2 = (1, 0)", z.RawRowView(0))
	}
}
