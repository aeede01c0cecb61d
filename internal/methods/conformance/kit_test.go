package conformance_test

import (
	"errors"
	"math"
	"strings"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/methods/conformance"
)

// A kit that cannot fail checks nothing: each estimator below breaks one
// rule of the package documentation, and the kit must fail the check
// named for that rule (and pass the faithful estimator).

// faithful is the identity: a Denoiser the kit must pass, every input its
// own reconstruction, row by row, nothing touched.
type faithful struct{}

func (faithful) Denoise(dst *mat.Dense, in *methods.DenoiseInput) ([]methods.Status, error) {
	if in.Model != nil {
		if _, d := in.X0.Dims(); d != in.Model.Dim() {
			return nil, errors.New("faithful: inputs of the wrong width")
		}
	}
	m, d := in.X0.Dims()
	sized(dst, m, d)
	dst.Copy(in.X0)
	return make([]methods.Status, m), nil
}

// sized makes dst m×d: an empty destination is sized, a pre-sized one
// of that shape reused (the kit passes both).
func sized(dst *mat.Dense, m, d int) {
	if dst.IsEmpty() {
		dst.ReuseAs(m, d)
	}
}

// emptyOnly sizes its destination with ReuseAs alone, which panics on a
// destination the caller sized already.
type emptyOnly struct{ faithful }

func (emptyOnly) Denoise(dst *mat.Dense, in *methods.DenoiseInput) ([]methods.Status, error) {
	m, d := in.X0.Dims()
	dst.ReuseAs(m, d)
	dst.Copy(in.X0)
	return make([]methods.Status, m), nil
}

// nanRows solves nothing: every row NaN, every status failed.
type nanRows struct{ faithful }

func (nanRows) Denoise(dst *mat.Dense, in *methods.DenoiseInput) ([]methods.Status, error) {
	m, d := in.X0.Dims()
	sized(dst, m, d)
	st := make([]methods.Status, m)
	for i := range st {
		for j := range d {
			dst.Set(i, j, math.NaN())
		}
		st[i].Err = errors.New("pre-image is not finite")
	}
	return st, nil
}

// silentNaN returns NaN in a row its status calls solved.
type silentNaN struct{ faithful }

func (e silentNaN) Denoise(dst *mat.Dense, in *methods.DenoiseInput) ([]methods.Status, error) {
	st, err := e.faithful.Denoise(dst, in)
	dst.Set(0, 0, math.NaN())
	return st, err
}

// mutator scales its inputs in place.
type mutator struct{ faithful }

func (e mutator) Denoise(dst *mat.Dense, in *methods.DenoiseInput) ([]methods.Status, error) {
	st, err := e.faithful.Denoise(dst, in)
	in.X0.Scale(1.0000001, in.X0)
	return st, err
}

// drifting answers differently on each call: a hidden counter.
var calls atomic.Int64

type drifting struct{ faithful }

func (e drifting) Denoise(dst *mat.Dense, in *methods.DenoiseInput) ([]methods.Status, error) {
	st, err := e.faithful.Denoise(dst, in)
	dst.Set(0, 0, dst.At(0, 0)+1e-9*float64(calls.Add(1)))
	return st, err
}

// coupled answers each row with the batch's mean: a row alone gets
// another answer.
type coupled struct{ faithful }

func (coupled) Denoise(dst *mat.Dense, in *methods.DenoiseInput) ([]methods.Status, error) {
	m, d := in.X0.Dims()
	sized(dst, m, d)
	mean := make([]float64, d)
	for i := range m {
		floats.Add(mean, in.X0.RawRowView(i))
	}
	floats.Scale(1/float64(m), mean)
	for i := range m {
		dst.SetRow(i, mean)
	}
	return make([]methods.Status, m), nil
}

// panicking crashes on every call.
type panicking struct{ faithful }

func (panicking) Denoise(*mat.Dense, *methods.DenoiseInput) ([]methods.Status, error) {
	var s []methods.Status
	return s, errors.New(s[3].Err.Error())
}

// failing returns an error that is no declining (not ErrUnsupported).
type failing struct{ faithful }

func (failing) Denoise(*mat.Dense, *methods.DenoiseInput) ([]methods.Status, error) {
	return nil, errors.New("disk on fire")
}

// lenient accepts inputs of any width.
type lenient struct{ faithful }

func (lenient) Denoise(dst *mat.Dense, in *methods.DenoiseInput) ([]methods.Status, error) {
	m, _ := in.X0.Dims()
	sized(dst, m, 4)
	return make([]methods.Status, m), nil
}

// shortStatus returns one Status fewer than rows.
type shortStatus struct{ faithful }

func (e shortStatus) Denoise(dst *mat.Dense, in *methods.DenoiseInput) ([]methods.Status, error) {
	st, err := e.faithful.Denoise(dst, in)
	return st[:len(st)-1], err
}

// echoX0 is a PreImager answering every Ψ with its noisy input X0 (or
// zeros without one): close to an exact pre-image, but not it.
type echoX0 struct{}

func (echoX0) PreImage(dst *mat.Dense, p *methods.Problem) ([]methods.Status, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	m := p.M()
	_, d := p.Basis.X.Dims()
	sized(dst, m, d)
	dst.Zero()
	if p.X0 != nil {
		dst.Copy(p.X0)
	}
	return make([]methods.Status, m), nil
}

// run runs the kit on est and returns its verdicts by check name. The
// identity's return of its input is excused (Config.ReturnsInput), so
// that the mutants of it fail only the rule each breaks.
func run(est any) map[string]conformance.Result {
	return runCfg(est, conformance.Config{ReturnsInput: "the kit's identity"})
}

func runCfg(est any, cfg conformance.Config) map[string]conformance.Result {
	out := map[string]conformance.Result{}
	for _, r := range conformance.Check("est", func(t conformance.T) {
		conformance.CheckEstimator(t, "est", func(conformance.T) any { return est }, cfg)
	}) {
		out[r.Name] = r
	}
	return out
}

// TestKitReturnsInput: an estimator that returns its input unchanged
// fails changes-its-input, and that check alone, unless its Config says
// why it may (the base line); every registered de-noiser that is not the
// base line or an imputer passes it (TestConformance in internal/methods).
func TestKitReturnsInput(t *testing.T) {
	res := runCfg(faithful{}, conformance.Config{})
	for name, r := range res {
		want := name == "Denoiser/changes-its-input" || name == "Denoiser" || name == "est"
		if r.Failed != want {
			t.Errorf("%s: failed %v, want %v (%q)", name, r.Failed, want, r.Errors)
		}
	}
	if r := res["Denoiser/changes-its-input"]; len(r.Errors) == 0 || !strings.HasPrefix(r.Errors[0], "returns its input: ") {
		t.Errorf("changes-its-input said %q, want \"returns its input: …\"", r.Errors)
	}
}

// TestKitPassesFaithful checks that the identity passes every check: the
// kit's problems are solvable, and its checks do not fail by themselves.
func TestKitPassesFaithful(t *testing.T) {
	res := run(faithful{})
	if len(res) < 10 {
		t.Fatalf("%d checks ran, want the whole kit", len(res))
	}
	for name, r := range res {
		if r.Failed {
			t.Errorf("%s failed the identity: %q", name, r.Errors)
		}
	}
}

// TestKitFailsMutants checks that each broken estimator fails the check
// named for the rule it breaks.
func TestKitFailsMutants(t *testing.T) {
	for _, tc := range []struct {
		name  string
		est   any
		check string // a check that must fail
		say   string // in its errors
	}{
		{"every row NaN", nanRows{}, "Denoiser/gaussian/finite-output", "every row failed"},
		{"NaN called solved", silentNaN{}, "Denoiser/gaussian/finite-output", "not finite, and its status gives no error"},
		{"input modified", mutator{}, "Denoiser/gaussian/inputs-unchanged", "modified its input"},
		{"answers drift", drifting{}, "Denoiser/gaussian/deterministic", ""},
		{"rows coupled", coupled{}, "Denoiser/gaussian/rows-independent", ""},
		{"rows coupled, exact", coupled{}, "Denoiser/exact-denoise", ""},
		{"panics", panicking{}, "Denoiser/exact-denoise", "panicked"},
		{"fails", failing{}, "Denoiser/gaussian", "disk on fire"},
		{"any width", lenient{}, "Denoiser/wrong-width-refused", "accepted inputs with"},
		{"pre-sized destination refused", emptyOnly{}, "Denoiser/gaussian/deterministic", "into a pre-sized destination"},
		{"short statuses", shortStatus{}, "Denoiser/gaussian/finite-output", "want one status per row"},
		{"not exact", echoX0{}, "PreImager/exact-pre-image", ""},
	} {
		res := run(tc.est)
		r, ok := res[tc.check]
		if !ok {
			names := make([]string, 0, len(res))
			for n := range res {
				names = append(names, n)
			}
			t.Errorf("%s: no check %s among %q", tc.name, tc.check, names)
			continue
		}
		if !r.Failed {
			t.Errorf("%s: %s passed", tc.name, tc.check)
			continue
		}
		if tc.say != "" && !strings.Contains(strings.Join(r.Errors, "\n"), tc.say) {
			t.Errorf("%s: %s failed with %q, want %q", tc.name, tc.check, r.Errors, tc.say)
		}
	}
}
