package methods_test

import (
	"errors"
	"fmt"
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

func defaultLasso() *methods.LassoGPS {
	est, _, err := methods.New("lasso-gps", nil)
	if err != nil {
		panic(err)
	}
	return est.(*methods.LassoGPS)
}

// lasso1D is the 1-D problem of TestLassoGPS1D: Ψ = φ(0.8) with c = 4; the
// second training point, with γ = 0, only sets max|X| = 2, so Δ = 0.02.
func lasso1D() *methods.Problem {
	b := methods.NewBasis(line(0.8, -2), kernel.Gaussian{C: 4})
	return methods.NewProblem(b, mat.NewDense(1, 2, []float64{1, 0}), nil)
}

// TestLassoGPS1D checks GPS against the Lasso solution known in closed
// form on a 1-D problem, and the monotone path λ.
//
// With Ψ = φ(a), a = 0.8, c = 4, eq. 22 is ρ4(z) = −2e^{−(z−a)²/4} + λ|z|.
// For 0 < z < a, ρ4′(z) = −(4/c)(a − z)e^{−(a−z)²/c} + λ = −h(a − z) + λ with
// h(u) = u e^{−u²/4}, increasing for u < √2 > a; for z < 0, ρ4′ < 0; for
// z > a, ρ4′ > 0. So for 0 < λ < h(a) the Lasso solution is the unique z
// with h(a − z) = λ. Taking z* = 0.41 gives λ* = h(0.39) = 0.3754486606….
//
// GPS from z = 0: λ_1 = h(a − z) > 0 and z > 0, so S is empty and every
// step is +Δ, z_t = tΔ = 0.02t, with path λ_t = h(0.8 − 0.02t), decreasing
// in t. It first reaches λ* at t = 21 (h(0.38) = 0.3665 ≤ λ* < h(0.40)),
// z = 0.42: the solution to within the step, |z − z*| = 0.01 ≤ Δ.
func TestLassoGPS1D(t *testing.T) {
	p := lasso1D()
	lstar := 0.39 * math.Exp(-0.39*0.39/4) // h(a − z*), = 0.3754486606137238
	l := defaultLasso()
	l.Lambda = lstar
	var z mat.Dense
	st, err := l.PreImage(&z, p)
	checkNoErr(t, "PreImage", err)
	// Tolerance: the step, Δ = 0.02.
	if got := z.At(0, 0); !scalar.EqualWithinAbs(got, 0.41, 0.02) {
		t.Errorf("Lasso solution at λ* = %v: %v, want 0.41 to within Δ = 0.02", lstar, got)
	}
	if st[0].Iterations != 21 || !st[0].Converged || st[0].Err != nil {
		t.Errorf("status %+v, want 21 steps, converged", st[0])
	}
	// Tolerance: h(0.38) through the kernel's exponentials, 1e-12 relative.
	if got, want := st[0].Diag["lambda"], 0.38*math.Exp(-0.38*0.38/4); !scalar.EqualWithinRel(got, want, 1e-12) {
		t.Errorf("path λ at the stop %v, want h(0.38) = %v", got, want)
	}

	// The path λ after s steps, read from runs capped at s steps: it
	// falls at every step (h is increasing on [0, a]).
	prev := math.Inf(1)
	for s := 0; s <= 21; s++ {
		capped := defaultLasso()
		capped.MaxSteps = s
		st, err := capped.PreImage(&z, p)
		checkNoErr(t, "PreImage", err)
		lam := st[0].Diag["lambda"]
		want := (0.8 - 0.02*float64(s)) * math.Exp(-math.Pow(0.8-0.02*float64(s), 2)/4)
		if st[0].Converged || st[0].Iterations != s || !scalar.EqualWithinRel(lam, want, 1e-12) {
			t.Errorf("max_steps=%d: λ = %v with status %+v, want h(0.8 − 0.02s) = %v, not converged", s, lam, st[0], want)
		}
		if !(lam < prev) {
			t.Errorf("path λ rose from %v to %v at step %d", prev, lam, s)
		}
		prev = lam
	}
}

// TestLassoGPSEnd checks the end of the path (λ = 0, the default) on 1-D
// problems like that of TestLassoGPS1D, Ψ = φ(a), Δ = 0.02, where every
// step is +Δ until z reaches a.
//
// a = 0.8 = 40Δ is a lattice point: after 40 steps z = a, every λ_j is 0
// and the path ends there, converged.
//
// a = 0.805: after 40 steps z = 0.80 and λ_1 > 0, so GPS steps to 0.82;
// there λ_1 < 0 with z_1 > 0, the S rule sends it back, and it alternates
// between 0.80 and 0.82. R is smallest at 0.80, first reached at step 40,
// so R* stops improving and the row stops Window = 50 steps later, at step
// 90, on 0.80. (At step 89 the improvement over 50 steps, R(0.78) − R(0.80)
// ≈ 3e-4, is still 1e-3 of the total, above tol = 1e-6.)
func TestLassoGPSEnd(t *testing.T) {
	for _, tc := range []struct {
		a, want float64
		steps   int
	}{
		{0.8, 0.8, 40},
		{0.805, 0.8, 90},
	} {
		b := methods.NewBasis(line(tc.a, -2), kernel.Gaussian{C: 4})
		p := methods.NewProblem(b, mat.NewDense(1, 2, []float64{1, 0}), nil)
		var z mat.Dense
		st, err := defaultLasso().PreImage(&z, p)
		checkNoErr(t, "PreImage", err)
		// Tolerance: 40·0.02 against 0.8, an ulp.
		if got := z.At(0, 0); !scalar.EqualWithinAbs(got, tc.want, 1e-15) || !st[0].Converged || st[0].Iterations != tc.steps {
			t.Errorf("a = %v: %v after %d steps (status %+v), want %v after %d, converged", tc.a, got, st[0].Iterations, st[0], tc.want, tc.steps)
		}
	}
}

// TestLassoGPSSoftThreshold checks a problem in D = 4 whose Lasso solution
// is a soft threshold. With Ψ = φ(x), ρ4(z) = −2e^{−‖z−x‖²/c} + λ‖z‖₁ and
// its stationary points satisfy (4/c)e^{−‖z−x‖²/c}(x_j − z_j) = λ·sign(z_j)
// (|·| ≤ λ where z_j = 0): z = S(x, τ), the soft threshold
// S_j = sign(x_j)·max(|x_j| − τ, 0), with
//
//	λ(τ) = (4/c)·τ·e^{−ρ(τ)/c},  ρ(τ) = ‖S(x, τ) − x‖² = Σ_j min(|x_j|, τ)²,
//
// increasing in τ here (d log λ/dτ = 1/τ − 2τ·#{|x_j| > τ}/c > 0 for τ < 1).
//
// x = (0.903, −0.604, 0.307, −0.1), c = 10, τ = 0.25: S = (0.653, −0.354,
// 0.057, 0), ρ = 3·0.25² + 0.1² = 0.1975, λ* = 0.1·e^{−0.01975}. GPS
// (λ_j ∝ x_j − z_j with one positive factor, S empty) always steps the
// coordinate with the largest residual r_j = |x_j − z_j| towards x_j, so the
// moved coordinates' residuals lie in [M − Δ, M], M the largest. Let GPS stop
// at path λ_s = (4/c)e^{−ρ_s/c}·M, and let τ_s solve λ(τ_s) = λ_s:
// |ρ(τ_s) − ρ_s| ≤ 2·0.25·3Δ, so τ_s = M·e^{(ρ(τ_s)−ρ_s)/c} is within
// 5e-4 of M, and every coordinate is within Δ + 5e-4 of S(x, τ_s), the
// Lasso solution at GPS's own λ. Against λ*, the level M at the first
// λ_s ≤ λ* lies within Δ + 5e-4 of τ, so the bound is 2Δ + 1e-3. x_4,
// below τ, never moves and is exactly 0. The second training point (γ = 0)
// sets max|X| = 1, so Δ = 0.01.
func TestLassoGPSSoftThreshold(t *testing.T) {
	const c, delta = 10.0, 0.01
	xs := []float64{0.903, -0.604, 0.307, -0.1}
	x := mat.NewDense(2, 4, append(append([]float64(nil), xs...), 1, 1, 1, 1))
	b := methods.NewBasis(x, kernel.Gaussian{C: c})
	p := methods.NewProblem(b, mat.NewDense(1, 2, []float64{1, 0}), nil)
	l := defaultLasso()
	l.Lambda = 0.1 * math.Exp(-0.01975)
	var z mat.Dense
	st, err := l.PreImage(&z, p)
	checkNoErr(t, "PreImage", err)

	soft := func(tau float64) []float64 {
		s := make([]float64, len(xs))
		for j, v := range xs {
			s[j] = math.Copysign(math.Max(math.Abs(v)-tau, 0), v)
		}
		return s
	}
	lambda := func(tau float64) float64 {
		var rho float64
		for _, v := range xs {
			m := math.Min(math.Abs(v), tau)
			rho += m * m
		}
		return 4 / c * tau * math.Exp(-rho/c)
	}
	// τ_s by bisection on the increasing λ(τ).
	lo, hi := 0.0, 0.9
	for range 100 {
		if mid := (lo + hi) / 2; lambda(mid) < st[0].Diag["lambda"] {
			lo = mid
		} else {
			hi = mid
		}
	}
	for _, tc := range []struct {
		what string
		want []float64
		tol  float64 // derived above
	}{
		{"the Lasso solution at GPS's path λ", soft(lo), delta + 5e-4},
		{"the Lasso solution at λ*", soft(0.25), 2*delta + 1e-3},
	} {
		if d := floats.Distance(z.RawRowView(0), tc.want, math.Inf(1)); d > tc.tol {
			t.Errorf("%v is %.3g from %s %v, want ≤ %v", z.RawRowView(0), d, tc.what, tc.want, tc.tol)
		}
	}
	if z.At(0, 3) != 0 || st[0].Diag["nonzero"] != 3 {
		t.Errorf("z_4 = %v, %v nonzero; want exactly 0 (|x_4| < τ) and 3 nonzero", z.At(0, 3), st[0].Diag["nonzero"])
	}
}

// TestLassoGPSZeroRow checks a Γ row of zeros: every λ_j is 0, the path has
// ended before it starts, at z = 0, converged after 0 steps.
func TestLassoGPSZeroRow(t *testing.T) {
	b := methods.NewBasis(line(0.5, -1), kernel.Gaussian{C: 1})
	p := methods.NewProblem(b, mat.NewDense(2, 2, []float64{0, 0, 1, 0}), nil)
	var z mat.Dense
	st, err := defaultLasso().PreImage(&z, p)
	checkNoErr(t, "PreImage", err)
	if z.At(0, 0) != 0 || !st[0].Converged || st[0].Iterations != 0 || st[0].Diag["lambda"] != 0 {
		t.Errorf("zero row: %v with status %+v, want 0, converged after 0 steps with λ = 0", z.At(0, 0), st[0])
	}
	if st[1].Iterations == 0 {
		t.Errorf("row γ = e_1: status %+v, want a path", st[1])
	}
}

// TestLassoGPSDenoise runs the estimator on seeded de-noising problems and
// checks what holds for any path: finite results, the diagnostics, the
// integer-multiple lattice and that the feature distance R at the end is
// below R at z = 0 (GPS steps along −∇R).
func TestLassoGPSDenoise(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	x := randn(rng, 40, 10)
	test := randn(rng, 12, 10)
	m, err := methods.FitKPCA(x, medianGaussian(x))
	checkNoErr(t, "FitKPCA", err)
	proj := m.Project(test, 6)
	p := methods.NewProblem(m.Basis(), proj.Gamma, test)
	var z mat.Dense
	st, err := defaultLasso().PreImage(&z, p)
	checkNoErr(t, "PreImage", err)
	delta := 0.01 * floats.Max(absAll(x))
	r := methods.FeatureDist2(m.Basis(), &z, proj.Gamma, p.Terms.Norm2)
	r0 := methods.FeatureDist2(m.Basis(), mat.NewDense(12, 10, nil), proj.Gamma, p.Terms.Norm2)
	for i, s := range st {
		if s.Err != nil || !s.Converged {
			t.Errorf("row %d: status %+v, want converged", i, s)
			continue
		}
		nz := 0
		for _, v := range z.RawRowView(i) {
			// z_j = k·Δ for an integer k.
			if k := v / delta; math.Abs(k-math.Round(k)) > 1e-9 {
				t.Errorf("row %d: %v is not a multiple of Δ = %v", i, v, delta)
			}
			if v != 0 {
				nz++
			}
		}
		if s.Diag["steps"] != float64(s.Iterations) || s.Diag["nonzero"] != float64(nz) || !(s.Diag["lambda"] >= 0) {
			t.Errorf("row %d: diagnostics %v, want steps %d, nonzero %d and λ ≥ 0", i, s.Diag, s.Iterations, nz)
		}
		if !(r[i] < r0[i]) {
			t.Errorf("row %d: R = %v at the end, %v at z = 0", i, r[i], r0[i])
		}
	}
	checkFiniteRows(t, &z, st)
}

// TestLassoGPSMaxSteps checks the cap: a row stopped by max_steps is not
// converged, has made exactly that many steps and is not an error.
func TestLassoGPSMaxSteps(t *testing.T) {
	l := defaultLasso()
	l.MaxSteps = 7
	var z mat.Dense
	st, err := l.PreImage(&z, lasso1D())
	checkNoErr(t, "PreImage", err)
	// Seven steps of +Δ from 0 (see TestLassoGPS1D).
	if st[0].Converged || st[0].Iterations != 7 || st[0].Err != nil || !scalar.EqualWithinAbs(z.At(0, 0), 0.14, 1e-15) {
		t.Errorf("max_steps=7: %v with status %+v, want 0.14, 7 steps, not converged", z.At(0, 0), st[0])
	}
}

// TestLassoGPSRefuses checks the errors: a kernel other than the Gaussian,
// training inputs that are all zero (no step length), bad parameters, and
// a non-finite Γ row (that row only).
func TestLassoGPSRefuses(t *testing.T) {
	var z mat.Dense
	p := methods.NewProblem(methods.NewBasis(line(0, 1), kernel.Linear{}), unitRows(2, 1), nil)
	if _, err := defaultLasso().PreImage(&z, p); err == nil || !strings.Contains(err.Error(), "linear") {
		t.Errorf("linear kernel: error %v, want one naming the kernel", err)
	}
	p = methods.NewProblem(methods.NewBasis(line(0, 0), kernel.Gaussian{C: 1}), unitRows(2, 1), nil)
	if _, err := defaultLasso().PreImage(&z, p); err == nil || !strings.Contains(err.Error(), "max|X|") {
		t.Errorf("zero training inputs: error %v, want one about the step length", err)
	}
	for _, raw := range []map[string]any{{"step_factor": 0}, {"window": 0}, {"tol": -1}, {"lambda": -1}, {"max_steps": -1}} {
		if _, _, err := methods.New("lasso-gps", raw); err == nil {
			t.Errorf("%v accepted by the registry", raw)
		}
	}
	b := methods.NewBasis(line(0.5, -1), kernel.Gaussian{C: 1})
	p = methods.NewProblem(b, mat.NewDense(2, 2, []float64{math.NaN(), 0, 1, 0}), nil)
	st, err := defaultLasso().PreImage(&z, p)
	checkNoErr(t, "PreImage", err)
	if !errors.Is(st[0].Err, methods.ErrNotFinite) || st[1].Err != nil {
		t.Errorf("NaN in Γ: statuses %+v, %+v; want ErrNotFinite for that row only", st[0], st[1])
	}
}

func absAll(m *mat.Dense) []float64 {
	var out []float64
	r, _ := m.Dims()
	for i := 0; i < r; i++ {
		for _, v := range m.RawRowView(i) {
			out = append(out, math.Abs(v))
		}
	}
	return out
}

func checkFiniteRows(t *testing.T, z *mat.Dense, st []methods.Status) {
	t.Helper()
	for i := range st {
		if st[i].Err == nil {
			for _, v := range z.RawRowView(i) {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Errorf("row %d is not finite: %v", i, z.RawRowView(i))
					break
				}
			}
		}
	}
}

// TestLassoGPSRowsIndependent checks that a row's path does not depend on
// the batch: 64 rows over 64 training points in 16-D (large enough for the
// rows to be shared among workers) give, row for row, the same bits and
// statuses as each row solved alone.
func TestLassoGPSRowsIndependent(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	x := randn(rng, 64, 16)
	test := randn(rng, 64, 16)
	m, err := methods.FitKPCA(x, medianGaussian(x))
	checkNoErr(t, "FitKPCA", err)
	proj := m.Project(test, 8)
	var z mat.Dense
	st, err := defaultLasso().PreImage(&z, methods.NewProblem(m.Basis(), proj.Gamma, test))
	checkNoErr(t, "PreImage", err)
	for _, i := range []int{0, 17, 42, 63} {
		g := mat.NewDense(1, 64, append([]float64(nil), proj.Gamma.RawRowView(i)...))
		var zi mat.Dense
		sti, err := defaultLasso().PreImage(&zi, methods.NewProblem(m.Basis(), g, nil))
		checkNoErr(t, "PreImage", err)
		if !floats.Equal(z.RawRowView(i), zi.RawRowView(0)) || sti[0].Iterations != st[i].Iterations || sti[0].Diag["lambda"] != st[i].Diag["lambda"] {
			t.Errorf("row %d: alone %+v, in the batch %+v (same point: %v)", i, sti[0], st[i], floats.Equal(z.RawRowView(i), zi.RawRowView(0)))
		}
	}
}

func ExampleLassoGPS() {
	// Ψ = φ(x) for one training point x (the second, with γ = 0, only sets
	// the step Δ = 1e-2·max|X| = 0.01). The Lasso pre-image at λ is x soft-
	// thresholded: coordinates below the threshold stay exactly 0.
	x := mat.NewDense(2, 4, []float64{
		0.903, -0.604, 0.307, -0.1,
		1, 1, 1, 1,
	})
	b := methods.NewBasis(x, kernel.Gaussian{C: 10})
	p := methods.NewProblem(b, mat.NewDense(1, 2, []float64{1, 0}), nil)

	est, _, err := methods.New("lasso-gps", map[string]any{"lambda": 0.098})
	if err != nil {
		fmt.Println(err)
		return
	}
	var z mat.Dense
	st, err := est.(methods.PreImager).PreImage(&z, p)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("z = %.2f\n", z.RawRowView(0))
	fmt.Printf("nonzero: %v, steps: %v\n", st[0].Diag["nonzero"], st[0].Diag["steps"])
	// Output:
	// z = [0.66 -0.36 0.06 0.00]
	// nonzero: 3, steps: 108
}

// TestLassoGPSConstantColumns checks that a coordinate with no gradient is
// never moved. Every training image is the same point x* (N = 40 copies)
// with γ_n > 0 of mixed sizes, so λ_j = (Σ_n γ_n k_n)(x*_j − z_j), one
// positive factor for every j: the exact path steps each coordinate
// monotonically towards x*_j, S is always empty, and once z_j = x*_j its
// λ_j is exactly 0. x* lies on the lattice (Δ = max|X|/64 = 1/64), so the
// path ends at z = x* exactly after Σ_j |x*_j|/Δ = 64 + 32 + 16 + 0 + 48 +
// 32 + 8 + 64 = 264 steps, converged by the rule λ = 0 to rounding. The
// evaluated λ_j of a finished coordinate, v_j − z_j W with v_j and W sums
// of N terms in different orders, is rounding noise; before the fix its
// sign put j in S and the path stepped back and forth on it.
func TestLassoGPSConstantColumns(t *testing.T) {
	xstar := []float64{-1, 0.5, -0.25, 0, 0.75, -0.5, 0.125, 1}
	const n = 40
	x := mat.NewDense(n, len(xstar), nil)
	for i := 0; i < n; i++ {
		x.SetRow(i, xstar)
	}
	rng := rand.New(rand.NewPCG(4, 40))
	gam := mat.NewDense(6, n, nil)
	for i := 0; i < 6; i++ {
		for k := 0; k < n; k++ {
			gam.Set(i, k, math.Exp(3*rng.NormFloat64()))
		}
	}
	b := methods.NewBasis(x, kernel.Gaussian{C: 2})
	p := methods.NewProblem(b, gam, nil)
	l := defaultLasso()
	l.StepFactor = 1.0 / 64
	l.Tol = 0
	var z mat.Dense
	st, err := l.PreImage(&z, p)
	checkNoErr(t, "PreImage", err)
	for i := range st {
		if got := z.RawRowView(i); !floats.Equal(got, xstar) || st[i].Iterations != 264 || !st[i].Converged {
			t.Errorf("row %d: z = %v after %d steps (status %+v), want x* = %v after 264, converged", i, got, st[i].Iterations, st[i], xstar)
		}
	}
}
