package methods

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
)

// handFit is the linear kernel PCA of four centred points on the axes.
// Its eigenvalues are 8 and 2 by hand: the nonzero eigenvalues of
// K̃ = XXᵀ are those of XᵀX = diag(2, 8).
func handFit(t *testing.T) (*mat.Dense, *KPCA) {
	t.Helper()
	x := mat.NewDense(4, 2, []float64{-1, 0, 1, 0, 0, 2, 0, -2})
	m, err := FitKPCA(x, kernel.Linear{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Rank() != 2 || math.Abs(m.Values[0]-8) > 1e-13 || math.Abs(m.Values[1]-2) > 1e-13 {
		t.Fatalf("eigenvalues %v, want [8 2] (1e-13, hand-derived)", m.Values)
	}
	return x, m
}

// mustPanic runs f and returns its panic's message, failing the test
// when f returns.
func mustPanic(t *testing.T, what string, f func()) (msg string) {
	t.Helper()
	defer func() {
		r := recover()
		if r == nil {
			t.Errorf("%s: no panic", what)
		}
		msg = fmt.Sprint(r)
	}()
	f()
	return ""
}

// TestKPCARefusals checks what kernel PCA refuses: fewer than two points
// and points that coincide in feature space are errors (the truncated
// fit's too), while a Gram matrix of another size, a component count
// outside [1, rank], kernel rows of another width and an energy outside
// (0, 1] are programmer errors that panic with the package's prefix.
func TestKPCARefusals(t *testing.T) {
	one := mat.NewDense(1, 2, []float64{1, 2})
	if _, err := FitKPCA(one, kernel.Linear{}); err == nil || err.Error() != "methods: kernel PCA needs at least 2 training points, have 1" {
		t.Errorf("one point: %v", err)
	}
	same := mat.NewDense(3, 2, []float64{1, 2, 1, 2, 1, 2})
	const zero = "methods: the centred Gram matrix is zero (all training points coincide in feature space)"
	if _, err := FitKPCA(same, kernel.NewGaussianGamma(1)); err == nil || err.Error() != zero {
		t.Errorf("coincident points: %v", err)
	}
	if _, _, err := fitKPCAGramEnergy(same, kernel.Linear{}, kernel.SelfGram(kernel.Linear{}, same), 0.9); err == nil || err.Error() != zero {
		t.Errorf("coincident points, truncated fit: %v", err)
	}

	x, m := handFit(t)
	kx := mat.NewDense(1, 4, nil)
	for _, tc := range []struct {
		what, want string
		f          func()
	}{
		{"a Gram matrix of 3 points for 4", "methods: 4 training points but a 3×3 Gram matrix",
			func() { _, _ = FitKPCAGram(x, kernel.Linear{}, mat.NewSymDense(3, nil)) }},
		{"the truncated fit's too", "methods: 4 training points but a 3×3 Gram matrix",
			func() { _, _, _ = fitKPCAGramEnergy(x, kernel.Linear{}, mat.NewSymDense(3, nil), 1) }},
		{"no components", "methods: 0 components requested, model has 2", func() { m.ProjectGram(kx, 0) }},
		{"beyond the rank", "methods: 3 components requested, model has 2", func() { m.ProjectGram(kx, 3) }},
		{"β beyond the rank", "methods: 3 components requested, model has 2", func() { m.BetaGram(kx, 3) }},
		{"narrow kernel rows", "methods: kernel rows have 3 columns, model has 4 training points", func() { m.ProjectGram(mat.NewDense(1, 3, nil), 1) }},
		{"β of narrow kernel rows", "methods: kernel rows have 3 columns, model has 4 training points", func() { m.BetaGram(mat.NewDense(1, 3, nil), 1) }},
		{"no energy", "methods: energy fraction 0 outside (0, 1]", func() { m.Components(0) }},
		{"more than all of it", "methods: energy fraction 1.5 outside (0, 1]", func() { m.Components(1.5) }},
		{"NaN energy", "methods: energy fraction NaN outside (0, 1]", func() { m.Components(math.NaN()) }},
	} {
		if got := mustPanic(t, tc.what, tc.f); got != tc.want && got != "<nil>" {
			t.Errorf("%s: panic %q, want %q", tc.what, got, tc.want)
		}
	}
}

// TestKPCAFitsByHand checks the model of TestKPCARefusals: energy 0.8 is
// held by the first component (8 of 10) and 0.81 needs both; the
// truncated fit keeps the same; under the linear kernel β_i is the
// coordinate of the centred input along the i-th principal axis (y, then
// x; the points' mean is 0), up to the axis's sign; BetaGram gives
// ProjectGram's β bit for bit.
func TestKPCAFitsByHand(t *testing.T) {
	x, m := handFit(t)
	for _, tc := range []struct {
		energy float64
		q      int
	}{{0.5, 1}, {0.8, 1}, {0.81, 2}, {1, 2}} {
		if q := m.Components(tc.energy); q != tc.q {
			t.Errorf("Components(%v) = %d, want %d", tc.energy, q, tc.q)
		}
		top, q, err := fitKPCAGramEnergy(x, kernel.Linear{}, kernel.SelfGram(kernel.Linear{}, x), tc.energy)
		if err != nil || q != tc.q || top.Rank() != tc.q || math.Abs(top.Values[0]-8) > 1e-13 {
			t.Errorf("truncated fit at %v: q %d, values %v (%v); want %d components from 8", tc.energy, q, top.Values, err, tc.q)
		}
	}
	// Input (3, 1): along the principal axes y (eigenvalue 8) and x
	// (eigenvalue 2) its coordinates are ±1 and ±3.
	z := mat.NewDense(1, 2, []float64{3, 1})
	var kx mat.Dense
	kernel.Gram(&kx, kernel.Linear{}, z, x)
	p := m.ProjectGram(&kx, 2)
	beta := m.BetaGram(&kx, 2)
	for i, want := range []float64{1, 3} {
		if got := math.Abs(p.Beta.At(0, i)); math.Abs(got-want) > 1e-13 {
			t.Errorf("|β_%d| = %v, want %v (1e-13)", i+1, got, want)
		}
		if beta.At(0, i) != p.Beta.At(0, i) {
			t.Errorf("BetaGram's β_%d = %v, ProjectGram's %v", i+1, beta.At(0, i), p.Beta.At(0, i))
		}
	}
}

// TestProjectThenPreImageRefusals checks the de-noising input a
// projecting de-noiser refuses before it projects: no model, and a
// component count outside [1, rank]; and Failed, the statuses of a batch
// that failed as a whole.
func TestProjectThenPreImageRefusals(t *testing.T) {
	x, m := handFit(t)
	for _, tc := range []struct {
		in   *DenoiseInput
		want string
	}{
		{&DenoiseInput{X0: x, Q: 1}, "methods: no model to denoise with"},
		{&DenoiseInput{Model: m, X0: x, Q: 0}, "methods: 0 components requested, model has 2"},
		{&DenoiseInput{Model: m, X0: x, Q: 3}, "methods: 3 components requested, model has 2"},
		{&DenoiseInput{Model: m, X0: mat.NewDense(1, 3, nil), Q: 1}, "methods: inputs have 3 columns, model was fitted on 2"},
	} {
		var z mat.Dense
		if _, err := (ProjectThenPreImage{unreached{}}).Denoise(&z, tc.in); err == nil || err.Error() != tc.want {
			t.Errorf("%v, want %q", err, tc.want)
		}
	}
	boom := errors.New("boom")
	st := Failed(3, boom)
	if len(st) != 3 {
		t.Fatalf("Failed(3) gave %d statuses", len(st))
	}
	for i, s := range st {
		if s.Err != boom || s.Converged || s.Iterations != 0 {
			t.Errorf("status %d: %+v, want failed with boom", i, s)
		}
	}
}

// unreached is a PreImager a refused input must never reach.
type unreached struct{}

func (unreached) PreImage(*mat.Dense, *Problem) ([]Status, error) {
	return nil, errors.New("the pre-imager was reached")
}
