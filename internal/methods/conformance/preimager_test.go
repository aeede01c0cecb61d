package conformance_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/methods/conformance"
)

// nearest is a PreImager answering each Ψ_m with the training input
// nearest to it in feature space, ‖Ψ_m − φ(x_n)‖² from the cost terms: the
// exact pre-image whenever Ψ_m is some φ(x_j), so it passes the kit. Its
// fields break it one rule at a time.
type nearest struct {
	refuse      func(p *methods.Problem) error // an error for the problems it declines
	ignoreWidth bool                           // skip Validate: any X0 accepted
	touchGamma  bool                           // scale Γ in place
}

func (e nearest) PreImage(dst *mat.Dense, p *methods.Problem) ([]methods.Status, error) {
	if !e.ignoreWidth {
		if err := p.Validate(); err != nil {
			return nil, err
		}
	}
	if e.refuse != nil {
		if err := e.refuse(p); err != nil {
			return nil, err
		}
	}
	var d2 mat.Dense
	p.Terms.TrainDist2(&d2, p.Basis.Diag)
	m := p.M()
	_, d := p.Basis.X.Dims()
	sized(dst, m, d)
	for i := range m {
		row := d2.RawRowView(i)
		best := 0
		for n, v := range row {
			if v < row[best] {
				best = n
			}
		}
		dst.SetRow(i, p.Basis.X.RawRowView(best))
	}
	if e.touchGamma {
		p.Gamma.Scale(2, p.Gamma)
	}
	return make([]methods.Status, m), nil
}

// gaussianOnly declines every kernel but the Gaussian and, with needX0,
// a problem without X0, each with a plain error.
func gaussianOnly(needX0 bool) nearest {
	return nearest{refuse: func(p *methods.Problem) error {
		if _, ok := p.Basis.Kernel.(kernel.Gaussian); !ok {
			return fmt.Errorf("no %v kernel here", p.Basis.Kernel)
		}
		if needX0 && p.X0 == nil {
			return errors.New("no X0 here")
		}
		return nil
	}}
}

// runWith runs the kit on est with cfg and returns its verdicts by name.
func runWith(est any, cfg conformance.Config) map[string]conformance.Result {
	out := map[string]conformance.Result{}
	for _, r := range conformance.Check("est", func(t conformance.T) {
		conformance.CheckEstimator(t, "est", func(conformance.T) any { return est }, cfg)
	}) {
		out[r.Name] = r
	}
	return out
}

// TestKitPreImager checks the PreImager's checks: nearest passes them,
// each variant fails the check named for the rule it breaks with a
// message saying what was expected (other checks may fail with it: an
// estimator refusing the Gaussian kernel fails everywhere), and an
// estimator that declines what its Config says it may decline passes
// every check with a note.
func TestKitPreImager(t *testing.T) {
	noX0 := func(p *methods.Problem) error {
		if p.X0 == nil {
			return errors.New("X0 missing")
		}
		return nil
	}
	unsupportedNoX0 := func(p *methods.Problem) error {
		if p.X0 == nil {
			return methods.Unsupportedf("no inputs to start from")
		}
		return nil
	}
	for _, tc := range []struct {
		name  string
		est   any
		cfg   conformance.Config
		check string // the check that must fail, "" for none
		say   string // in its errors
		note  map[string]string
	}{
		{name: "nearest training input", est: nearest{}},
		{
			name:  "X0 needed, undeclared",
			est:   nearest{refuse: noX0},
			check: "PreImager/without-X0",
			say:   "est failed without X0 and does not declare NeedsX0; an estimator declines with an error wrapping methods.ErrUnsupported (an external command: exit status 3, rx.Unsupported): X0 missing",
		},
		{
			name: "X0 needed, declared",
			est:  nearest{refuse: noX0},
			cfg:  conformance.Config{Requires: methods.NeedsX0},
			note: map[string]string{"PreImager/without-X0": "est needs X0: X0 missing"},
		},
		{
			name: "X0 needed, declined as unsupported",
			est:  nearest{refuse: unsupportedNoX0},
			note: map[string]string{"PreImager/without-X0": "est needs X0: no inputs to start from"},
		},
		{
			name:  "any width",
			est:   nearest{ignoreWidth: true},
			check: "PreImager/wrong-width-refused",
			say:   "est accepted X0 with 5 columns for a 4-dimensional basis; want an error",
		},
		{
			name:  "Γ scaled in place",
			est:   nearest{touchGamma: true},
			check: "PreImager/gaussian/inputs-unchanged",
			say:   "est modified its input: Gamma[",
		},
		{
			name:  "linear refused though declared",
			est:   gaussianOnly(false),
			check: "PreImager/linear",
			say:   "est failed under the linear kernel, which it declares it takes (any kernel); an estimator declines a kernel with an error wrapping methods.ErrUnsupported",
		},
		{
			name: "linear refused as declared",
			est:  gaussianOnly(false),
			cfg:  conformance.Config{Kernels: methods.GaussianKernel},
			note: map[string]string{"PreImager/linear/declined": "est declines linear: no linear kernel here"},
		},
		{
			name:  "the Gaussian refused",
			est:   nearest{refuse: func(*methods.Problem) error { return errors.New("not today") }},
			cfg:   conformance.Config{Kernels: methods.DistanceKernel},
			check: "PreImager/gaussian",
			say:   "est returned an error under the Gaussian kernel, which every estimator must take: not today",
		},
		{
			name:  "X0 returned, exact tolerance",
			est:   echoX0{},
			check: "PreImager/exact-pre-image",
			say:   "tolerance 1e-06 relative",
		},
		// X0 lies 1e-2 per coordinate from x_j (the kit's noise): within a
		// tolerance of 0.1 relative to max(1, ‖x_j‖) for 4 coordinates.
		{name: "X0 returned, inexact by design", est: echoX0{}, cfg: conformance.Config{ExactTol: 0.1}},
	} {
		res := runWith(tc.est, tc.cfg)
		if tc.check == "" {
			allPass(t, tc.name, res)
		}
		for name, want := range tc.note {
			if r := res[name]; !strings.Contains(strings.Join(r.Notes, "\n"), want) {
				t.Errorf("%s: %s notes %q, want %q", tc.name, name, r.Notes, want)
			}
		}
		if tc.check == "" {
			continue
		}
		r, ok := res[tc.check]
		if !ok {
			t.Errorf("%s: no check %s", tc.name, tc.check)
			continue
		}
		if !r.Failed || !strings.Contains(strings.Join(r.Errors, "\n"), tc.say) {
			t.Errorf("%s: %s failed=%v with %q, want %q", tc.name, tc.check, r.Failed, r.Errors, tc.say)
		}
	}
}
