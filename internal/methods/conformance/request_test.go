package conformance_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/methods/conformance"
)

func init() {
	methods.Register(methods.Spec{
		Name: "conformance-test-nan", Title: "NaN", Doc: "fails every row (the kit's tests)", Source: "request_test.go",
		Does: methods.Denoises, New: func(methods.Params) (any, error) { return nanRows{}, nil },
	})
}

// TestRunRegistered checks a Request on a registered estimator as
// runexp check-estimator makes it: the identity passes every check, the
// Spec's own checks reported first as "spec", each parent check through
// its subtests; an estimator solving nothing fails its finite-output
// checks, counted by Failed.
func TestRunRegistered(t *testing.T) {
	rep, err := conformance.Run(conformance.Request{Name: "identity"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Label != "identity" || rep.Spec.Name != "identity" || rep.Failed() != 0 || len(rep.Checks) < 5 || rep.Checks[0].Name != "spec" {
		t.Fatalf("identity: label %q, %d failed of %d, first %q", rep.Label, rep.Failed(), len(rep.Checks), rep.Checks[0].Name)
	}
	var names []string
	for _, c := range rep.Checks {
		names = append(names, c.Name)
	}
	for _, want := range []string{"Denoiser/exact-denoise", "Denoiser/gaussian/finite-output", "Denoiser/linear/rows-independent", "Denoiser/wrong-width-refused"} {
		if !slices.Contains(names, want) {
			t.Errorf("no check %s among %q", want, names)
		}
	}
	if slices.Contains(names, "Denoiser") || slices.Contains(names, "Denoiser/gaussian") {
		t.Errorf("parent checks reported on their own: %q", names)
	}

	bad, err := conformance.Run(conformance.Request{Name: "conformance-test-nan"})
	if err != nil {
		t.Fatal(err)
	}
	failed := map[string]bool{}
	for _, c := range bad.Checks {
		if !c.Pass {
			failed[c.Name] = true
		}
	}
	if bad.Failed() != len(failed) || !failed["Denoiser/gaussian/finite-output"] || !failed["Denoiser/linear/finite-output"] || !failed["Denoiser/exact-denoise"] {
		t.Errorf("NaN estimator: %d failed, %v", bad.Failed(), failed)
	}
	if failed["spec"] {
		t.Error("the NaN estimator's Spec failed; it is well declared")
	}
}

// TestRunRequestOptions checks what a Request's fields change: the exact
// tolerance reported and the parameters shown; and its refusals before
// any check: an unknown estimator, parameters that do not bind.
func TestRunRequestOptions(t *testing.T) {
	rep, err := conformance.Run(conformance.Request{Name: "identity", ExactTol: 1e-3})
	if err != nil || rep.ExactTol != 1e-3 {
		t.Errorf("ExactTol 1e-3: reported %v, %v", rep.ExactTol, err)
	}
	rep, err = conformance.Run(conformance.Request{Name: "kwok-tsang", Params: map[string]any{"neighbors": 5}})
	if err != nil || rep.Params["neighbors"] != 5 {
		t.Errorf("kwok-tsang with neighbors 5: params %v, %v", rep.Params, err)
	}
	if _, err := conformance.Run(conformance.Request{Name: "mikka"}); err == nil || !strings.HasPrefix(err.Error(), `unknown estimator "mikka" (registered: `) {
		t.Errorf("unknown estimator: %v", err)
	}
	if _, err := conformance.Run(conformance.Request{Name: "mika", Params: map[string]any{"max_iter": 0}}); err == nil || !strings.HasPrefix(err.Error(), "mika: ") || !strings.Contains(err.Error(), "max_iter") {
		t.Errorf("a parameter out of range: %v", err)
	}
}
