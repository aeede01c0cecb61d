package methods_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/floats/scalar"
	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/methods"
)

func kwokTsang(n int) *methods.KwokTsang { return &methods.KwokTsang{Neighbors: n} }

// TestKwokTsangHand checks eq. 16 on a 1-D example worked by hand, linear
// kernel: x = (0, 2), γ = (¾, ¼), so Ψ = ½ and d² = (¼, 9/4). The
// neighbours' mean is x̄ = 1, H = [−1, 1] = UΣVᵀ with σ = √2, U = 1,
// V = (−1, 1)/√2 (up to a common sign), Z = ΣVᵀ = (−1, 1), d0² = (1, 1),
// and z = −½ σ⁻¹ Vᵀ(d² − d0²) = −½·(¾ + 5/4)/2 = −½: the pre-image is
// U z + x̄ = ½.
func TestKwokTsangHand(t *testing.T) {
	b := methods.NewBasis(line(0, 2), kernel.Linear{})
	p := methods.NewProblem(b, mat.NewDense(1, 2, []float64{0.75, 0.25}), nil)
	var z mat.Dense
	st, err := kwokTsang(2).PreImage(&z, p)
	checkNoErr(t, "PreImage", err)
	// Tolerance: a few roundings of O(1) values.
	if got := z.At(0, 0); st[0].Err != nil || !scalar.EqualWithinAbs(got, 0.5, 1e-15) {
		t.Errorf("pre-image %v (status %+v), want ½", got, st[0])
	}
}

// TestKwokTsangLinearClosedForm checks the closed form of the linear
// kernel: feature distances are input distances (InputDist2 is the
// identity) and Ψ = ΓX is an affine combination of the training points
// (Σγ = 1, Abrahamsen & Hansen eq. 10), so with every training point a
// neighbour the distance constraints are consistent and eq. 16 returns ΓX.
// Both N > D and N < D (the training points span a proper affine subspace)
// are covered, and a neighbour count above N uses all N.
func TestKwokTsangLinearClosedForm(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, sz := range []struct{ n, d int }{{15, 6}, {6, 10}} {
		x := randn(rng, sz.n, sz.d)
		test := randn(rng, 4, sz.d)
		m, err := methods.FitKPCA(x, kernel.Linear{})
		checkNoErr(t, "FitKPCA", err)
		for _, q := range []int{1, 3, m.Rank()} {
			proj := m.Project(test, q)
			var want mat.Dense
			want.Mul(proj.Gamma, x)
			for _, nb := range []int{sz.n, 1000} {
				var z mat.Dense
				st, err := kwokTsang(nb).PreImage(&z, methods.NewProblem(m.Basis(), proj.Gamma, test))
				checkNoErr(t, "PreImage", err)
				for i := range st {
					if st[i].Err != nil {
						t.Errorf("N=%d D=%d q=%d: row %d failed: %v", sz.n, sz.d, q, i, st[i].Err)
					}
				}
				// Tolerance: distances of O(10) and an SVD of O(1) data;
				// 1e-9 relative.
				if d := maxRelDiff(&z, &want); d > 1e-9 {
					t.Errorf("N=%d D=%d q=%d neighbours=%d: differs from ΓX by %.3g", sz.n, sz.d, q, nb, d)
				}
			}
		}
	}
}

// TestKwokTsangGaussianExact checks Ψ = φ(x_j) with a Gaussian kernel: the
// neighbour distances invert to the exact input distances
// (d² = −c log(1 − f/2), kernel.Gaussian.InputDist2), x_j is one of the
// neighbours, so x_j satisfies every constraint and eq. 16 recovers it for
// any neighbour count.
func TestKwokTsangGaussianExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	x := randn(rng, 20, 5)
	g := medianGaussian(x)
	rows := []int{0, 9, 19}
	p := methods.NewProblem(methods.NewBasis(x, g), unitRows(20, rows...), nil)
	for _, nb := range []int{1, 2, 3, 5, 10, 20} {
		var z mat.Dense
		st, err := kwokTsang(nb).PreImage(&z, p)
		checkNoErr(t, "PreImage", err)
		for i, j := range rows {
			// Tolerance: the inversion loses ε/k(x_i, x_j) relative, at
			// most ε·e^{3.4} here (the largest d²/c of this data set);
			// 1e-10 relative leaves room for the SVD.
			if d := floats.Distance(z.RawRowView(i), x.RawRowView(j), 2); st[i].Err != nil || d > 1e-10*floats.Norm(x.RawRowView(j), 2) {
				t.Errorf("neighbours=%d: pre-image of φ(x_%d) off by %.3g (status %+v)", nb, j, d, st[i])
			}
		}
	}
}

// TestKwokTsangOneNeighbour checks that with one neighbour the centred
// neighbour matrix is zero, so the pre-image is the training point nearest
// Ψ in feature space.
func TestKwokTsangOneNeighbour(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	x := randn(rng, 20, 5)
	test := randn(rng, 6, 5)
	m, err := methods.FitKPCA(x, medianGaussian(x))
	checkNoErr(t, "FitKPCA", err)
	proj := m.Project(test, 4)
	p := methods.NewProblem(m.Basis(), proj.Gamma, test)
	var f mat.Dense
	p.Terms.TrainDist2(&f, m.Diag())
	var z mat.Dense
	_, err = kwokTsang(1).PreImage(&z, p)
	checkNoErr(t, "PreImage", err)
	for i := 0; i < 6; i++ {
		j := floats.MinIdx(f.RawRowView(i))
		if !floats.Equal(z.RawRowView(i), x.RawRowView(j)) {
			t.Errorf("row %d: %v, want the nearest training point x_%d = %v", i, z.RawRowView(i), j, x.RawRowView(j))
		}
	}
}

// TestKwokTsangDistanceRange checks the handling of feature distances
// outside the Gaussian kernel's range [0, 2).
//
// Ψ = 3φ(x_j) has ‖Ψ − φ(x_n)‖² = 10 − 6k(x_j, x_n) ≥ 4 for every n: no
// neighbour is usable and the row fails with ErrDistanceRange, as NaN.
//
// Points 1 apart with c = 1e-3 have k = e^{−1000}, which underflows to 0,
// so every neighbour but x_j itself is at feature distance exactly 2 and is
// dropped: the pre-image of φ(x_j) is x_j, from the one usable neighbour.
func TestKwokTsangDistanceRange(t *testing.T) {
	x := line(0, 1, 2, 3, 4)
	b := methods.NewBasis(x, kernel.Gaussian{C: 1e-3})
	gamma := mat.NewDense(2, 5, []float64{
		0, 0, 3, 0, 0,
		0, 0, 1, 0, 0,
	})
	var z mat.Dense
	st, err := kwokTsang(3).PreImage(&z, methods.NewProblem(b, gamma, nil))
	checkNoErr(t, "PreImage", err)
	if !errors.Is(st[0].Err, methods.ErrDistanceRange) || !math.IsNaN(z.At(0, 0)) {
		t.Errorf("Ψ = 3φ(x_3): %v with status %+v, want NaN and ErrDistanceRange", z.At(0, 0), st[0])
	}
	if st[1].Err != nil || z.At(1, 0) != 2 {
		t.Errorf("Ψ = φ(x_3) with a very narrow kernel: %v with status %+v, want x_3 = 2", z.At(1, 0), st[1])
	}
}

// TestKwokTsangRefuses checks the errors: a kernel without a distance
// inverse, and a neighbour count below 1.
func TestKwokTsangRefuses(t *testing.T) {
	x := line(0, 1, 2)
	var z mat.Dense
	poly := kernel.Polynomial{Degree: 2, Offset: 1}
	_, err := kwokTsang(2).PreImage(&z, methods.NewProblem(methods.NewBasis(x, poly), unitRows(3, 1), nil))
	if err == nil || !strings.Contains(err.Error(), poly.String()) {
		t.Errorf("polynomial kernel: error %v, want one naming the kernel", err)
	}
	_, err = kwokTsang(0).PreImage(&z, methods.NewProblem(methods.NewBasis(x, kernel.Linear{}), unitRows(3, 1), nil))
	if err == nil {
		t.Error("0 neighbours accepted")
	}
	if _, _, err := methods.New("kwok-tsang", map[string]any{"neighbors": 0}); err == nil {
		t.Error("neighbors: 0 accepted by the registry")
	}
}
