package conformance_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/methods/conformance"
)

// toySpec is a complete registration of the identity de-noiser, which
// CheckRegistered must pass; each case of TestCheckRegisteredRefuses
// breaks one of its fields.
func toySpec() *methods.Spec {
	return &methods.Spec{
		Name:   "toy",
		Title:  "Toy",
		Doc:    "the identity",
		Source: "none",
		Params: []methods.Param{methods.IntParam("k", 2, 1, 10, "a count")},
		Does:   methods.Denoises,
		New:    func(methods.Params) (any, error) { return faithful{}, nil },
	}
}

// checkRegistered runs CheckRegistered on spec and returns its results
// by name.
func checkRegistered(spec *methods.Spec, cfg conformance.Config) map[string]conformance.Result {
	out := map[string]conformance.Result{}
	for _, r := range conformance.Check(spec.Name, func(t conformance.T) { conformance.CheckRegistered(t, spec, cfg) }) {
		out[r.Name] = r
	}
	return out
}

func TestCheckRegisteredPassesToy(t *testing.T) {
	allPass(t, "toy", checkRegistered(toySpec(), conformance.Config{ReturnsInput: "the toy is the identity"}))
}

// allPass checks that the whole kit ran and every check passed.
func allPass(t *testing.T, what string, res map[string]conformance.Result) {
	t.Helper()
	if len(res) < 10 {
		t.Errorf("%s: %d checks ran, want the whole kit", what, len(res))
	}
	for name, r := range res {
		if r.Failed {
			t.Errorf("%s: %s failed: %q", what, name, r.Errors)
		}
	}
}

// TestCheckRegisteredRefuses checks that each fault of a registration
// fails the root check (the Spec's own) with a message naming it, and
// that a fatal one stops the kit before any estimator check runs.
func TestCheckRegisteredRefuses(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(*methods.Spec)
		cfg   conformance.Config
		say   string
		fatal bool // the kit's checks must not run
	}{
		{
			name: "no title",
			edit: func(s *methods.Spec) { s.Title = "" },
			say:  `spec "toy": Name, Title, Doc and Source must all be set (title "", source "none", doc "the identity")`,
		},
		{
			name: "no source",
			edit: func(s *methods.Spec) { s.Source = "" },
			say:  `Name, Title, Doc and Source must all be set (title "Toy", source ""`,
		},
		{
			name:  "no constructor",
			edit:  func(s *methods.Spec) { s.New = nil },
			say:   `spec "toy" has no constructor`,
			fatal: true,
		},
		{
			name: "undocumented parameter",
			edit: func(s *methods.Spec) { s.Params[0].Doc = "" },
			say:  `spec "toy": parameter "k" needs a name and a doc`,
		},
		{
			name: "parameter declared twice",
			edit: func(s *methods.Spec) { s.Params = append(s.Params, s.Params[0]) },
			say:  `spec "toy": parameter "k" declared twice`,
		},
		{
			name: "default out of its own range",
			edit: func(s *methods.Spec) { s.Params[0] = methods.IntParam("k", 0, 1, 10, "a count") },
			say:  `spec "toy": a default is not accepted by its own declaration`,
		},
		{
			name:  "parameters refused",
			cfg:   conformance.Config{Params: map[string]any{"k": 11}},
			say:   `spec "toy": binding parameters map[k:11]`,
			fatal: true,
		},
		{
			name: "constructor fails",
			edit: func(s *methods.Spec) {
				s.New = func(methods.Params) (any, error) { return nil, errors.New("no command given") }
			},
			say:   "toy: constructing with defaults: no command given",
			fatal: true,
		},
		{
			name:  "neither a pre-imager nor a de-noiser",
			edit:  func(s *methods.Spec) { s.New = func(methods.Params) (any, error) { return math.Pi, nil } },
			say:   "toy: float64 is neither a methods.PreImager nor a methods.Denoiser",
			fatal: true,
		},
	} {
		spec := toySpec()
		if tc.edit != nil {
			tc.edit(spec)
		}
		res := checkRegistered(spec, tc.cfg)
		root := res["toy"]
		if !root.Failed {
			t.Errorf("%s: the spec's check passed", tc.name)
			continue
		}
		if !strings.Contains(strings.Join(root.Errors, "\n"), tc.say) {
			t.Errorf("%s: errors %q, want %q", tc.name, root.Errors, tc.say)
		}
		if ran := len(res) > 1; ran == tc.fatal {
			t.Errorf("%s: %d checks ran; want the kit run %v", tc.name, len(res), !tc.fatal)
		}
	}
}

// TestCheckRegisteredDeclaredKernels checks that CheckRegistered hands
// the Spec's Kernels and Requires to the kit: an estimator declaring the
// Gaussian kernel alone may refuse the linear one with any error, and one
// declaring NeedsX0 may refuse a problem without X0.
func TestCheckRegisteredDeclaredKernels(t *testing.T) {
	spec := toySpec()
	spec.Does = methods.PreImages
	spec.Kernels = methods.GaussianKernel
	spec.Requires = methods.NeedsX0
	spec.New = func(methods.Params) (any, error) { return gaussianOnly(true), nil }
	res := checkRegistered(spec, conformance.Config{})
	allPass(t, "Gaussian only, X0 needed", res)
	if r, ok := res["PreImager/linear/declined"]; !ok || len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "toy declines linear: no linear kernel here") {
		t.Errorf("PreImager/linear/declined: %+v, want a note of the linear kernel declined", r)
	}
	if r := res["PreImager/without-X0"]; len(r.Notes) != 1 || r.Notes[0] != "toy needs X0: no X0 here" {
		t.Errorf("PreImager/without-X0 notes %q, want the need for X0 noted", r.Notes)
	}
}
