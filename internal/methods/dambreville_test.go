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

// TestDambrevilleHand checks the weighted mean on a 1-D example worked by
// hand: x = (0, 1, 3), c = 1, so K = [1 e⁻¹ e⁻⁹; e⁻¹ 1 e⁻⁴; e⁻⁹ e⁻⁴ 1].
//
// Row 1, γ = (½, ½, 0): ‖Ψ‖² = ¼(2 + 2e⁻¹) = ½(1 + e⁻¹), ⟨Ψ, φ(x_1)⟩ =
// ⟨Ψ, φ(x_2)⟩ = ½(1 + e⁻¹), ⟨Ψ, φ(x_3)⟩ = ½(e⁻⁹ + e⁻⁴). The feature
// distances f_i = 1 − 2⟨Ψ, φ(x_i)⟩ + ‖Ψ‖² are f_1 = f_2 = ½(1 − e⁻¹) and
// f_3 = 3/2 + ½e⁻¹ − e⁻⁴ − e⁻⁹, so the weights w_i = 1 − f_i/2 are
// w_1 = w_2 = ¾ + ¼e⁻¹ and w_3 = ¼ − ¼e⁻¹ + ½(e⁻⁴ + e⁻⁹), and
// z = (w_2·1 + w_3·3)/(w_1 + w_2 + w_3) = 0.72586784….
//
// Row 2, γ = (3/2, −½, 0): ‖Ψ‖² = 5/2 − (3/2)e⁻¹, f_1 = ½(1 − e⁻¹) again,
// f_2 = 9/2 − (9/2)e⁻¹ = 2.84 and f_3 = 7/2 − (3/2)e⁻¹ − 3e⁻⁹ + e⁻⁴ = 2.97:
// both above 2, so their weights are clipped to 0 and z = x_1 = 0.
//
// Row 3, γ = (3, 0, 0): f_i = 10 − 6k(x_1, x_i) ≥ 4 for every i; every
// weight is clipped, the row fails with ErrDistanceRange and is NaN.
func TestDambrevilleHand(t *testing.T) {
	b := methods.NewBasis(line(0, 1, 3), kernel.Gaussian{C: 1})
	gamma := mat.NewDense(3, 3, []float64{
		0.5, 0.5, 0,
		1.5, -0.5, 0,
		3, 0, 0,
	})
	var z mat.Dense
	st, err := (&methods.Dambreville{}).PreImage(&z, methods.NewProblem(b, gamma, nil))
	checkNoErr(t, "PreImage", err)

	e1, e4, e9 := math.Exp(-1), math.Exp(-4), math.Exp(-9)
	w1 := 0.75 + 0.25*e1
	w3 := 0.25 - 0.25*e1 + 0.5*(e4+e9)
	want := (w1 + 3*w3) / (2*w1 + w3) // = 0.7258678466954106
	// Tolerance: the distances pass through ΓK and ‖Ψ‖², a few roundings
	// of O(1) values; 1e-12.
	if got := z.At(0, 0); st[0].Err != nil || !scalar.EqualWithinAbs(got, want, 1e-12) {
		t.Errorf("γ = (½, ½, 0): %v (status %+v), want %v", got, st[0], want)
	}
	// Clipped weights are exactly 0, so the mean is exactly x_1.
	if got := z.At(1, 0); st[1].Err != nil || got != 0 {
		t.Errorf("γ = (3/2, −½, 0): %v (status %+v), want x_1 = 0 (w_2, w_3 clipped)", got, st[1])
	}
	if !errors.Is(st[2].Err, methods.ErrDistanceRange) || !math.IsNaN(z.At(2, 0)) {
		t.Errorf("γ = (3, 0, 0): %v with status %+v, want NaN and ErrDistanceRange", z.At(2, 0), st[2])
	}
}

// TestDambrevilleNeighbors checks the neighbour count on row 1 of
// TestDambrevilleHand, where f_1 = f_2 < f_3. With two neighbours x_3 is
// left out and w_1 = w_2, so z is their midpoint ½; with one, the tie goes
// to the lower index and z = x_1 = 0. A count above N uses all N.
func TestDambrevilleNeighbors(t *testing.T) {
	b := methods.NewBasis(line(0, 1, 3), kernel.Gaussian{C: 1})
	p := methods.NewProblem(b, mat.NewDense(1, 3, []float64{0.5, 0.5, 0}), nil)
	solve := func(nb int) float64 {
		var z mat.Dense
		st, err := (&methods.Dambreville{Neighbors: nb}).PreImage(&z, p)
		checkNoErr(t, "PreImage", err)
		if st[0].Err != nil {
			t.Fatalf("neighbors=%d: %v", nb, st[0].Err)
		}
		return z.At(0, 0)
	}
	// Tolerance: w_1 and w_2 are computed from sums of the same terms in
	// different orders, equal to an ulp or two.
	if got := solve(2); !scalar.EqualWithinAbs(got, 0.5, 1e-15) {
		t.Errorf("neighbors=2: %v, want ½", got)
	}
	if got := solve(1); got != 0 {
		t.Errorf("neighbors=1: %v, want x_1 = 0 (ties go to the lower index)", got)
	}
	if all, big := solve(0), solve(10); all != big {
		t.Errorf("neighbors=10 > N gives %v, all (0) gives %v", big, all)
	}
}

// TestDambrevilleNarrowKernel checks Ψ = φ(x_j) with a kernel so narrow
// that every other training point is negligible: the weights are
// w_i = k(x_j, x_i) ≤ e⁻⁴⁰ for i ≠ j (c is a fortieth of the smallest
// squared distance) against w_j = 1, so ‖z − x_j‖ ≤ N·e⁻⁴⁰·max_i ‖x_i − x_j‖,
// below 1e-15 here.
func TestDambrevilleNarrowKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	x := randn(rng, 20, 5)
	var d2 mat.Dense
	kernel.SqDist(&d2, x, x)
	small := math.Inf(1)
	for i := 0; i < 20; i++ {
		for j := i + 1; j < 20; j++ {
			small = math.Min(small, d2.At(i, j))
		}
	}
	rows := []int{0, 7, 19}
	p := methods.NewProblem(methods.NewBasis(x, kernel.Gaussian{C: small / 40}), unitRows(20, rows...), nil)
	var z mat.Dense
	st, err := (&methods.Dambreville{}).PreImage(&z, p)
	checkNoErr(t, "PreImage", err)
	for i, j := range rows {
		// Tolerance: the bound above plus rounding of O(1) values.
		if d := floats.Distance(z.RawRowView(i), x.RawRowView(j), 2); st[i].Err != nil || d > 1e-12 {
			t.Errorf("pre-image of φ(x_%d) off by %.3g (status %+v)", j, d, st[i])
		}
	}
}

// TestDambrevilleRefuses checks the errors: a kernel other than the
// Gaussian, and a negative neighbour count.
func TestDambrevilleRefuses(t *testing.T) {
	x := line(0, 1, 2)
	var z mat.Dense
	_, err := (&methods.Dambreville{}).PreImage(&z, methods.NewProblem(methods.NewBasis(x, kernel.Linear{}), unitRows(3, 1), nil))
	if err == nil || !strings.Contains(err.Error(), "dambreville: needs a Gaussian kernel, got linear") {
		t.Errorf("linear kernel: error %v, want one naming the kernel", err)
	}
	if _, _, err := methods.New("dambreville", map[string]any{"neighbors": -1}); err == nil {
		t.Error("neighbors: -1 accepted by the registry")
	}
}

// TestDambrevilleGammaWeights works the γ-weighted reading on the example
// of TestDambrevilleHand. Row 1, γ = (½, ½, 0): the distance weights w_1 =
// w_2 = ¾ + ¼e⁻¹ are both halved and w_3 is multiplied by γ_3 = 0, so
// z = (½w_2·1)/(½w_1 + ½w_2) = ½ exactly. Row 2, γ = (3/2, −½, 0): w_2 and
// w_3 were clipped (distances above 2) and stay clipped, w_1 > 0 is
// scaled by 3/2, so z = x_1 = 0 as in the unweighted form.
func TestDambrevilleGammaWeights(t *testing.T) {
	b := methods.NewBasis(line(0, 1, 3), kernel.Gaussian{C: 1})
	gamma := mat.NewDense(2, 3, []float64{0.5, 0.5, 0, 1.5, -0.5, 0})
	est, _, err := methods.New("dambreville", map[string]any{"gamma_weights": true})
	if err != nil {
		t.Fatal(err)
	}
	var z mat.Dense
	st, err := est.(methods.PreImager).PreImage(&z, methods.NewProblem(b, gamma, nil))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{0.5, 0} {
		if st[i].Err != nil || math.Abs(z.At(i, 0)-want) > 1e-14 {
			t.Errorf("row %d: z = %v (%v), want %v", i, z.At(i, 0), st[i].Err, want)
		}
	}
}
