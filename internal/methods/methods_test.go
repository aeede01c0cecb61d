package methods_test

import (
	"slices"
	"testing"

	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/methods/methodtest"
)

// kitConfig adapts the conformance kit to estimators that cannot meet its
// defaults. Every entry needs a reason: an estimator inexact by design
// states how far from exact it is and why.
var kitConfig = map[string]methodtest.Config{}

// TestConformance runs the conformance kit on every registered estimator
// with its default parameters.
func TestConformance(t *testing.T) {
	all := methods.All()
	for _, want := range []string{"kwok-tsang", "linear-pca", "mika"} {
		if !slices.Contains(methods.Names(), want) {
			t.Errorf("estimator %q is not registered", want)
		}
	}
	for _, spec := range all {
		t.Run(spec.Name, func(t *testing.T) {
			methodtest.TestRegistered(t, spec, kitConfig[spec.Name])
		})
	}
}
