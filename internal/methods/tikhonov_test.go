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

func defaultTikhonov() *methods.Tikhonov {
	est, _, err := methods.New("tikhonov", nil)
	if err != nil {
		panic(err)
	}
	return est.(*methods.Tikhonov)
}

// tikhonovProblem returns de-noising problems on seeded data: 30 training
// points in 6-D, 8 noisy inputs projected onto 4 components of a Gaussian
// kernel of median width.
func tikhonovProblem() *methods.Problem {
	rng := rand.New(rand.NewPCG(1, 1))
	x := randn(rng, 30, 6)
	test := randn(rng, 8, 6)
	m, err := methods.FitKPCA(x, medianGaussian(x))
	if err != nil {
		panic(err)
	}
	return methods.NewProblem(m.Basis(), m.Project(test, 4).Gamma, test)
}

// TestTikhonovZeroLambdaIsMika checks that eq. 20 with λ = 0 is eq. 13:
// the same start, iterations, statuses and, since the pull term is then
// skipped rather than added as zero, the same bits.
func TestTikhonovZeroLambdaIsMika(t *testing.T) {
	p := tikhonovProblem()
	for _, start := range methods.StartRules {
		tk := defaultTikhonov()
		tk.Lambda, tk.Start = 0, start
		mk := defaultMika()
		mk.Start = start
		var zt, zm mat.Dense
		stt, err := tk.PreImage(&zt, p)
		checkNoErr(t, "Tikhonov", err)
		stm, err := mk.PreImage(&zm, p)
		checkNoErr(t, "Mika", err)
		for i := range stt {
			if !sameStatus(stt[i], stm[i]) {
				t.Errorf("start %q row %d: status %+v, Mika %+v", start, i, stt[i], stm[i])
			}
		}
		if !mat.Equal(&zt, &zm) {
			t.Errorf("start %q: λ = 0 differs from Mika by %.3g", start, maxRelDiff(&zt, &zm))
		}
	}
}

// TestTikhonovLargeLambda checks the other limit: with λ = 1e12 the λ terms
// of eq. 20 dominate, z_{t+1} − x0 = (2/c) Σ_n γ_n k_n (x_n − x0) / ((2/c)
// Σ_n γ_n k_n + λ), of order ‖x_n − x0‖/(cλ) ≈ 1e-12 here, so the
// iteration returns x0 to 1e-9 (measured 9e-14).
func TestTikhonovLargeLambda(t *testing.T) {
	p := tikhonovProblem()
	tk := defaultTikhonov()
	tk.Lambda = 1e12
	var z mat.Dense
	st, err := tk.PreImage(&z, p)
	checkNoErr(t, "PreImage", err)
	for i := range st {
		if st[i].Err != nil || !st[i].Converged {
			t.Errorf("row %d: status %+v, want converged", i, st[i])
		}
	}
	// Tolerance: derived above, 1e-9 relative.
	if d := maxRelDiff(&z, p.X0); d > 1e-9 {
		t.Errorf("λ = 1e12: pre-images differ from X0 by %.3g, want ≤ 1e-9", d)
	}
}

// TestTikhonovOneStep checks one step of eq. 20 derived by hand: x = (0, 1),
// c = 1, γ = (½, ½), λ = 1, x0 = 2 and z_0 = ¼ (Problem.Start). Then
// (2/c) Σ γ_n k(z_0, x_n) x_n = e^{−9/16} and (2/c) Σ γ_n k(z_0, x_n) =
// e^{−1/16} + e^{−9/16}, so
//
//	z_1 = (e^{−9/16} + 2) / (e^{−1/16} + e^{−9/16} + 1) = 1.0241459574707883.
func TestTikhonovOneStep(t *testing.T) {
	b := methods.NewBasis(line(0, 1), kernel.Gaussian{C: 1})
	p := methods.NewProblem(b, mat.NewDense(1, 2, []float64{0.5, 0.5}), line(2))
	p.Start = line(0.25)
	tk := defaultTikhonov()
	tk.Lambda, tk.MaxIter = 1, 1
	var z mat.Dense
	st, err := tk.PreImage(&z, p)
	checkNoErr(t, "PreImage", err)
	a, b1 := math.Exp(-9.0/16), math.Exp(-1.0/16)
	want := (a + 2) / (b1 + a + 1)
	// Tolerance: a handful of roundings of O(1) values.
	if got := z.At(0, 0); !scalar.EqualWithinAbs(got, want, 1e-15) {
		t.Errorf("one step: %v, want %v", got, want)
	}
	if st[0].Iterations != 1 || st[0].Converged || st[0].Err != nil {
		t.Errorf("max_iter=1: status %+v, want 1 iteration, not converged", st[0])
	}
}

// TestTikhonovDenominator checks the remark after eq. 20 (ambiguity a8):
// the denominator (2/c)⟨φ(z_t), Ψ⟩ + λ is positive where ⟨φ(z_t), Ψ⟩ ≥ 0,
// but negative γ_n can cancel it.
//
// x = (0, 1), c = 1, γ = (1, −1), z_0 = ½: ⟨φ(z_0), Ψ⟩ = e^{−1/4} − e^{−1/4}
// = 0, so Mika's denominator vanishes, while eq. 20's is λ and the step is
// z_1 = [(2/c)(0 − e^{−1/4}) + λx0]/λ = x0 − 2e^{−1/4}/λ.
//
// x = (0, 1), c = 2, γ = (0, −1), z_0 = 1, λ = 1: ⟨φ(z_0), Ψ⟩ = −1 and the
// denominator is (2/2)(−1) + 1 = 0 exactly: the row fails with
// ErrDenominator and keeps its start.
func TestTikhonovDenominator(t *testing.T) {
	b := methods.NewBasis(line(0, 1), kernel.Gaussian{C: 1})
	p := methods.NewProblem(b, mat.NewDense(1, 2, []float64{1, -1}), line(0.3))
	p.Start = line(0.5)
	var z mat.Dense
	st, err := defaultMika().PreImage(&z, p)
	checkNoErr(t, "Mika", err)
	if !errors.Is(st[0].Err, methods.ErrDenominator) {
		t.Fatalf("Mika at ⟨φ(z), Ψ⟩ = 0: status %+v, want ErrDenominator", st[0])
	}
	tk := defaultTikhonov()
	tk.MaxIter = 1
	st, err = tk.PreImage(&z, p)
	checkNoErr(t, "Tikhonov", err)
	want := 0.3 - 2*math.Exp(-0.25)/tk.Lambda
	// Tolerance: z_1 ≈ −5190; a few roundings relative, 1e-12.
	if got := z.At(0, 0); st[0].Err != nil || !scalar.EqualWithinRel(got, want, 1e-12) {
		t.Errorf("Tikhonov at ⟨φ(z), Ψ⟩ = 0: %v (status %+v), want x0 − 2e^{−1/4}/λ = %v", got, st[0], want)
	}

	b = methods.NewBasis(line(0, 1), kernel.Gaussian{C: 2})
	p = methods.NewProblem(b, mat.NewDense(1, 2, []float64{0, -1}), line(0.3))
	p.Start = line(1)
	tk = defaultTikhonov()
	tk.Lambda = 1
	st, err = tk.PreImage(&z, p)
	checkNoErr(t, "Tikhonov", err)
	if !errors.Is(st[0].Err, methods.ErrDenominator) || z.At(0, 0) != 1 {
		t.Errorf("(2/c)⟨φ(z), Ψ⟩ = −λ: %v with status %+v, want the start 1 and ErrDenominator", z.At(0, 0), st[0])
	}
}

// TestTikhonovNoKernelTerms checks the limit where eq. 20 has no kernel
// terms left. A Γ row of zeros: eq. 20 reads λx0/λ, so the row steps to x0
// and stays, converged after 2 iterations (Mika fails it: no weight at
// all). A start so far from the training points (‖z_0 − x_n‖²/c ≥ 199²)
// that the kernel terms are below e^{−39601} of the pull, beyond the
// floating-point range: the first step lands exactly on x0.
func TestTikhonovNoKernelTerms(t *testing.T) {
	b := methods.NewBasis(line(0, 1), kernel.Gaussian{C: 1})
	p := methods.NewProblem(b, mat.NewDense(2, 2, []float64{0, 0, 0.5, 0.5}), line(0.3, 0.7))
	p.Start = line(0.5, 200)
	var z mat.Dense
	st, err := defaultTikhonov().PreImage(&z, p)
	checkNoErr(t, "PreImage", err)
	if got := z.At(0, 0); got != 0.3 || !st[0].Converged || st[0].Iterations != 2 {
		t.Errorf("zero Γ row: %v with status %+v, want x0 = 0.3, converged after 2 iterations", got, st[0])
	}
	one := defaultTikhonov()
	one.MaxIter = 1
	_, err = one.PreImage(&z, p)
	checkNoErr(t, "PreImage", err)
	if got := z.At(1, 0); got != 0.7 {
		t.Errorf("one step from z_0 = 200: %v, want x0 = 0.7", got)
	}
	st, err = defaultMika().PreImage(&z, p)
	checkNoErr(t, "Mika", err)
	if !errors.Is(st[0].Err, methods.ErrDenominator) {
		t.Errorf("Mika with a zero Γ row: status %+v, want ErrDenominator", st[0])
	}
}

// TestTikhonovStart checks that Problem.Start overrides the start rule, as
// in Abrahamsen & Hansen's Fig. 5. With x = (0, 3), c = 1, γ = e_1, x0 = 1
// and λ = ½, one step of eq. 20 from z_0 = x_1 = 0 gives
// (2·1·0 + λ·1)/(2·1 + λ) = 0.2; from the default start, x0 itself, it
// would give λ/(2e⁻¹ + λ) = 0.4046….
func TestTikhonovStart(t *testing.T) {
	b := methods.NewBasis(line(0, 3), kernel.Gaussian{C: 1})
	p := methods.NewProblem(b, unitRows(2, 0), line(1))
	p.Start = line(0)
	tk := defaultTikhonov()
	tk.Lambda, tk.MaxIter = 0.5, 1
	var z mat.Dense
	_, err := tk.PreImage(&z, p)
	checkNoErr(t, "PreImage", err)
	want := 0.5 / (2 + 0.5) // = 0.2
	// Tolerance: a few roundings.
	if got := z.At(0, 0); !scalar.EqualWithinAbs(got, want, 1e-15) {
		t.Errorf("from Start = 0: %v, want λ/(2/c + λ) = %v", got, want)
	}
}

// TestTikhonovRefuses checks the errors: no X0 (the penalty's centre), even
// with a start given; a kernel other than the Gaussian; a negative λ.
func TestTikhonovRefuses(t *testing.T) {
	b := methods.NewBasis(line(0, 1), kernel.Gaussian{C: 1})
	p := methods.NewProblem(b, unitRows(2, 1), nil)
	p.Start = line(0.5)
	var z mat.Dense
	if _, err := defaultTikhonov().PreImage(&z, p); err == nil || !strings.Contains(err.Error(), "X0") {
		t.Errorf("no X0: error %v, want one naming X0", err)
	}
	p = methods.NewProblem(methods.NewBasis(line(0, 1), kernel.Linear{}), unitRows(2, 1), line(0.5))
	if _, err := defaultTikhonov().PreImage(&z, p); err == nil || !strings.Contains(err.Error(), "linear") {
		t.Errorf("linear kernel: error %v, want one naming the kernel", err)
	}
	if _, _, err := methods.New("tikhonov", map[string]any{"lambda": -1}); err == nil {
		t.Error("lambda: -1 accepted by the registry")
	}
}

// TestTikhonovStabler is a seeded property check of the paper's claim
// (Fig. 5): with a narrow kernel, Mika's pre-image depends on the start
// while Tikhonov's, pulled towards x0, varies less. From the 30 training
// points as starts, the spread (mean distance to the mean) of Tikhonov's
// solutions is below Mika's (measured: 1.8 for Mika, 6e-11 for Tikhonov
// with λ = 0.1; 0.53 with λ = 0.01).
func TestTikhonovStabler(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	x := randn(rng, 30, 6)
	g := medianGaussian(x)
	g.C /= 8 // narrow: many local extrema
	m, err := methods.FitKPCA(x, g)
	checkNoErr(t, "FitKPCA", err)
	x0 := randn(rng, 1, 6)
	gamma := m.Project(x0, 10).Gamma
	rep := func(v *mat.Dense) *mat.Dense {
		out := mat.NewDense(30, v.RawMatrix().Cols, nil)
		for i := 0; i < 30; i++ {
			out.SetRow(i, v.RawRowView(0))
		}
		return out
	}
	p := methods.NewProblem(m.Basis(), rep(gamma), rep(x0))
	p.Start = x
	spread := func(est methods.PreImager) float64 {
		var z mat.Dense
		_, err := est.PreImage(&z, p)
		checkNoErr(t, "PreImage", err)
		mu := make([]float64, 6)
		for i := 0; i < 30; i++ {
			floats.Add(mu, z.RawRowView(i))
		}
		floats.Scale(1.0/30, mu)
		var s float64
		for i := 0; i < 30; i++ {
			s += floats.Distance(z.RawRowView(i), mu, 2)
		}
		return s / 30
	}
	tk := defaultTikhonov()
	tk.Lambda = 0.1
	if sm, st := spread(defaultMika()), spread(tk); !(st < sm) {
		t.Errorf("spread over 30 starts: Tikhonov %.3g, Mika %.3g; want Tikhonov's smaller", st, sm)
	}
}
