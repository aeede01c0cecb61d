package methods_test

import (
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/methods"
)

// TestDeclaredCapabilities checks every registered estimator's declaration
// against what it is: New with default parameters returns a PreImager
// exactly when methods.PreImages is declared, a Denoiser otherwise; an estimator
// declared Gaussian-only refuses a linear kernel with an error (not a
// panic), and one declared to need X0 refuses a problem without it.
func TestDeclaredCapabilities(t *testing.T) {
	for _, s := range methods.All() {
		if err := s.CheckDeclared(); err != nil {
			t.Errorf("%s: %v", s.Name, err)
		}
		if s.Can(methods.PreImages) {
			if _, err := s.NewPreImager(mustBind(t, s)); err != nil {
				t.Errorf("%s: NewPreImager: %v", s.Name, err)
			}
		} else if _, err := s.NewPreImager(mustBind(t, s)); err == nil {
			t.Errorf("%s: NewPreImager built a direct de-noiser", s.Name)
		}
		if _, err := s.NewDenoiser(mustBind(t, s)); err != nil {
			t.Errorf("%s: NewDenoiser: %v", s.Name, err)
		}
		if s.Kernels != methods.AnyKernel && s.Can(methods.PreImages) {
			x := mat.NewDense(3, 2, []float64{0, 0, 1, 0, 0, 1})
			b := methods.NewBasis(x, kernel.Polynomial{Degree: 2, Offset: 1})
			p := methods.NewProblem(b, mat.NewDense(1, 3, []float64{1, 0, 0}), mat.NewDense(1, 2, nil))
			pi, _ := s.NewPreImager(mustBind(t, s))
			if _, err := pi.PreImage(&mat.Dense{}, p); err == nil {
				t.Errorf("%s: declared %s, took a polynomial kernel", s.Name, s.Kernels)
			}
			if s.CheckKernel(b.Kernel) == nil {
				t.Errorf("%s: CheckKernel accepted a polynomial kernel", s.Name)
			}
		}
	}
}

func mustBind(t *testing.T, s *methods.Spec) methods.Params {
	t.Helper()
	p, err := s.Bind(map[string]any{})
	if err != nil {
		t.Fatalf("%s: defaults: %v", s.Name, err)
	}
	return p
}

// TestWithRole sets a neighbour count by role, checked like a config
// value, and leaves estimators without the role alone.
func TestWithRole(t *testing.T) {
	kt, _ := methods.Lookup("kwok-tsang")
	p := mustBind(t, kt)
	q, ok, err := kt.WithRole(p, methods.NeighborsRole, 7)
	if err != nil || !ok || q.Int("neighbors") != 7 || p.Int("neighbors") != 10 {
		t.Fatalf("WithRole = %v, %v, %v; original %v", q, ok, err, p)
	}
	if _, _, err := kt.WithRole(p, methods.NeighborsRole, 0); err == nil {
		t.Error("neighbours 0 accepted below the minimum 1")
	}
	mk, _ := methods.Lookup("mika")
	if _, ok, _ := mk.WithRole(mustBind(t, mk), methods.NeighborsRole, 7); ok {
		t.Error("mika has no neighbour count")
	}
}
