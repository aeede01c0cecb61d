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

func defaultMika() *methods.Mika {
	est, _, err := methods.New("mika", nil)
	if err != nil {
		panic(err)
	}
	return est.(*methods.Mika)
}

// line returns n points of the real line as an n×1 matrix.
func line(v ...float64) *mat.Dense { return mat.NewDense(len(v), 1, v) }

// TestMikaOneStepExact checks eq. 13 with γ = e_j: every weight but the
// j-th is zero, so z_1 = γ_j k(z_0, x_j) x_j / γ_j k(z_0, x_j) = x_j from any
// start. The start lies 100 from x_j in every coordinate, where k(z_0, x_j)
// = exp(−4·10⁴/c) underflows to zero: the common factor divided out by the
// implementation keeps the step exact.
func TestMikaOneStepExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	x := randn(rng, 12, 4)
	g := medianGaussian(x)
	b := methods.NewBasis(x, g)
	rows := []int{0, 7, 11}
	x0 := mat.NewDense(3, 4, nil)
	for i, j := range rows {
		for c := 0; c < 4; c++ {
			x0.Set(i, c, x.At(j, c)+100)
		}
	}
	p := methods.NewProblem(b, unitRows(12, rows...), x0)

	one := defaultMika()
	one.MaxIter = 1
	var z mat.Dense
	st, err := one.PreImage(&z, p)
	checkNoErr(t, "PreImage", err)
	for i, j := range rows {
		// Tolerance: one multiplication and one division by the same
		// weight, a few ulps.
		if d := floats.Distance(z.RawRowView(i), x.RawRowView(j), math.Inf(1)); d > 1e-15*math.Max(1, floats.Norm(x.RawRowView(j), math.Inf(1))) {
			t.Errorf("one step towards x_%d lands at %v, want %v", j, z.RawRowView(i), x.RawRowView(j))
		}
		// The step from z_0 to x_j is large, so one step is not converged.
		if !sameStatus(st[i], methods.Status{Iterations: 1}) {
			t.Errorf("row %d: status %+v after max_iter=1, want 1 iteration, not converged, no error", i, st[i])
		}
	}

	// With room to iterate, the second step does not move: converged.
	st, err = defaultMika().PreImage(&z, p)
	checkNoErr(t, "PreImage", err)
	for i := range rows {
		if !sameStatus(st[i], methods.Status{Iterations: 2, Converged: true}) {
			t.Errorf("row %d: status %+v, want 2 iterations, converged", i, st[i])
		}
	}
}

// TestMikaTwoPoints checks a 1-D example derived by hand from eq. 13:
// x_1 = 0, x_2 = 1, c = 1, γ = (½, ½). Then
//
//	z' = ½e^{−(z−1)²}·1 / (½e^{−z²} + ½e^{−(z−1)²}) = 1 / (1 + e^{1−2z}),
//
// so from z_0 = ¼ one step gives 1/(1 + e^{½}) = 0.3775406687981454. The
// fixed point is z = ½, where the map's slope is 2·½·½ = ½ < 1: the
// iteration converges linearly with rate ½, and the error after the
// stopping step (≤ tol = 1e-9) is at most that step.
func TestMikaTwoPoints(t *testing.T) {
	b := methods.NewBasis(line(0, 1), kernel.Gaussian{C: 1})
	p := methods.NewProblem(b, mat.NewDense(1, 2, []float64{0.5, 0.5}), line(0.25))

	one := defaultMika()
	one.MaxIter = 1
	var z mat.Dense
	st, err := one.PreImage(&z, p)
	checkNoErr(t, "PreImage", err)
	want := 1 / (1 + math.Exp(0.5)) // = 0.3775406687981454
	// Tolerance: a handful of roundings of O(1) values, 1e-15.
	if got := z.At(0, 0); !scalar.EqualWithinAbs(got, want, 1e-15) {
		t.Errorf("one step from ¼: %v, want %v", got, want)
	}
	if st[0].Converged || st[0].Iterations != 1 || st[0].Err != nil {
		t.Errorf("max_iter=1: status %+v, want 1 iteration, not converged (a cap, not an error)", st[0])
	}

	st, err = defaultMika().PreImage(&z, p)
	checkNoErr(t, "PreImage", err)
	if !st[0].Converged || st[0].Err != nil {
		t.Fatalf("status %+v, want converged", st[0])
	}
	// Tolerance: the last step bounds the error (rate ½), 1e-9; 2e-9 for
	// rounding.
	if got := z.At(0, 0); !scalar.EqualWithinAbs(got, 0.5, 2e-9) {
		t.Errorf("fixed point %v, want ½", got)
	}
	// Error ¼ halves each step and stopping needs a step ≤ 1e-9:
	// about log2(2.5e8) ≈ 28 steps.
	if st[0].Iterations < 20 || st[0].Iterations > 40 {
		t.Errorf("%d iterations, want about 28 (linear rate ½ from error ¼)", st[0].Iterations)
	}
}

// TestMikaDenominator checks that a vanishing denominator fails its row
// only. With x_1 = x_2 and γ = (1, −1, 0) the weights cancel exactly,
// Σ_n γ_n k(z, x_n) = 0 for every z; a row of zeros has no weight at all.
// The failed rows keep their start; the healthy row (γ = e_3) lands on x_3.
func TestMikaDenominator(t *testing.T) {
	x := mat.NewDense(3, 2, []float64{1, 2, 1, 2, 0, 0})
	b := methods.NewBasis(x, kernel.Gaussian{C: 1})
	gamma := mat.NewDense(3, 3, []float64{
		1, -1, 0,
		0, 0, 1,
		0, 0, 0,
	})
	x0 := mat.NewDense(3, 2, []float64{0.5, 0.5, 0.5, 0.5, 0.25, 0.75})
	p := methods.NewProblem(b, gamma, x0)
	var z mat.Dense
	st, err := defaultMika().PreImage(&z, p)
	checkNoErr(t, "PreImage", err)
	for _, i := range []int{0, 2} {
		if !errors.Is(st[i].Err, methods.ErrDenominator) || st[i].Iterations != 0 {
			t.Errorf("row %d: status %+v, want ErrDenominator after 0 iterations", i, st[i])
		}
		if !floats.Equal(z.RawRowView(i), x0.RawRowView(i)) {
			t.Errorf("row %d: %v, want its start %v kept", i, z.RawRowView(i), x0.RawRowView(i))
		}
	}
	if st[1].Err != nil || !st[1].Converged || !floats.Equal(z.RawRowView(1), []float64{0, 0}) {
		t.Errorf("healthy row: %v with status %+v, want x_3 = (0, 0), converged", z.RawRowView(1), st[1])
	}

	// Near cancellation: γ = (1, −(1−1e-14), 0) leaves a denominator of
	// 1e-14 of Σ|γ_n k_n|, below the default eps = 1e-12 but above eps = 0.
	gamma = mat.NewDense(1, 3, []float64{1, -(1 - 1e-14), 0})
	p = methods.NewProblem(b, gamma, line2(0.5, 0.5))
	z.Reset()
	st, err = defaultMika().PreImage(&z, p)
	checkNoErr(t, "PreImage", err)
	if !errors.Is(st[0].Err, methods.ErrDenominator) {
		t.Errorf("eps=1e-12: status %+v, want ErrDenominator", st[0])
	}
	loose := defaultMika()
	loose.Eps = 0
	st, err = loose.PreImage(&z, p)
	checkNoErr(t, "PreImage", err)
	if errors.Is(st[0].Err, methods.ErrDenominator) {
		t.Errorf("eps=0: status %+v, want the iteration to proceed", st[0])
	}
}

// sameStatus compares two statuses field by field (Status holds a map, so
// it is not comparable with ==).
func sameStatus(a, b methods.Status) bool {
	return a.Iterations == b.Iterations && a.Converged == b.Converged && a.Err == b.Err && len(a.Diag) == len(b.Diag)
}

func line2(a, b float64) *mat.Dense { return mat.NewDense(1, 2, []float64{a, b}) }

// TestMikaStart checks the start rules by one step of eq. 13 on the 1-D set
// x = (0, 1, 3), c = 1, γ = (0.3, 0.7, 0). From z_0 the step is
//
//	z_1 = 0.7e^{−(z_0−1)²} / (0.3e^{−z_0²} + 0.7e^{−(z_0−1)²}),
//
// with z_0 = 4/3 for "mean" (the training mean), z_0 = 1 for "nearest"
// (⟨Ψ, φ(x_n)⟩ = 0.3 + 0.7e^{−1}, 0.3e^{−1} + 0.7, 0.3e^{−9} + 0.7e^{−4}:
// the second is largest, and ‖φ(x_n)‖ = 1, so x_2 is nearest), and
// z_0 = X0 = 2 for "noisy". Problem.Start overrides the rule.
func TestMikaStart(t *testing.T) {
	b := methods.NewBasis(line(0, 1, 3), kernel.Gaussian{C: 1})
	gamma := mat.NewDense(1, 3, []float64{0.3, 0.7, 0})
	step := func(z0 float64) float64 {
		a := 0.7 * math.Exp(-(z0-1)*(z0-1))
		return a / (0.3*math.Exp(-z0*z0) + a)
	}
	for _, tc := range []struct {
		start string
		x0    *mat.Dense
		force *mat.Dense
		z0    float64
	}{
		{start: "mean", x0: line(2), z0: 4.0 / 3},
		{start: "nearest", x0: line(2), z0: 1},
		{start: "noisy", x0: line(2), z0: 2},
		{start: "mean", x0: nil, z0: 4.0 / 3},
		{start: "mean", x0: line(2), force: line(-0.5), z0: -0.5},
	} {
		est := defaultMika()
		est.Start = tc.start
		est.MaxIter = 1
		p := methods.NewProblem(b, gamma, tc.x0)
		p.Start = tc.force
		var z mat.Dense
		_, err := est.PreImage(&z, p)
		checkNoErr(t, "PreImage", err)
		// Tolerance: a handful of roundings of O(1) values.
		if got, want := z.At(0, 0), step(tc.z0); !scalar.EqualWithinAbsOrRel(got, want, 1e-15, 1e-15) {
			t.Errorf("start %q (Start %v): one step gives %v, want %v from z_0 = %v", tc.start, tc.force != nil, got, want, tc.z0)
		}
	}

	est := defaultMika()
	var z mat.Dense
	if _, err := est.PreImage(&z, methods.NewProblem(b, gamma, nil)); err == nil || !strings.Contains(err.Error(), "X0") {
		t.Errorf("start \"noisy\" without X0: error %v, want one naming X0", err)
	}
	if _, _, err := methods.New("mika", map[string]any{"start": "random"}); err == nil {
		t.Error(`start "random" was accepted`)
	}
}

// TestMikaNonFiniteStart checks that a NaN start fails its row with
// ErrNotFinite without iterating, and leaves the other rows alone.
func TestMikaNonFiniteStart(t *testing.T) {
	b := methods.NewBasis(line(0, 1), kernel.Gaussian{C: 1})
	p := methods.NewProblem(b, unitRows(2, 0, 1), line(math.NaN(), 0.3))
	var z mat.Dense
	st, err := defaultMika().PreImage(&z, p)
	checkNoErr(t, "PreImage", err)
	if !errors.Is(st[0].Err, methods.ErrNotFinite) || st[0].Iterations != 0 {
		t.Errorf("NaN start: status %+v, want ErrNotFinite after 0 iterations", st[0])
	}
	if st[1].Err != nil || z.At(1, 0) != 1 {
		t.Errorf("healthy row: %v, status %+v, want x_2 = 1", z.At(1, 0), st[1])
	}
}

// TestMikaKernels checks that kernels other than the Gaussian are refused
// with an error naming the kernel.
func TestMikaKernels(t *testing.T) {
	x := line(0, 1, 2)
	for _, k := range []kernel.Kernel{kernel.Linear{}, kernel.Polynomial{Degree: 2, Offset: 1}} {
		p := methods.NewProblem(methods.NewBasis(x, k), unitRows(3, 1), line(1))
		var z mat.Dense
		_, err := defaultMika().PreImage(&z, p)
		if err == nil || !strings.Contains(err.Error(), "mika: needs a Gaussian kernel, got "+k.String()) {
			t.Errorf("%v: error %v, want \"mika: needs a Gaussian kernel, got %v\"", k, err, k)
		}
	}
	// A pointer to a Gaussian is a Gaussian.
	p := methods.NewProblem(methods.NewBasis(x, &kernel.Gaussian{C: 1}), unitRows(3, 1), line(1.2))
	var z mat.Dense
	if _, err := defaultMika().PreImage(&z, p); err != nil {
		t.Errorf("*kernel.Gaussian: %v", err)
	}
}
