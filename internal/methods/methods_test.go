package methods_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/methods/conformance"
	"github.com/runexp/runexp/internal/methods/methodtest"
)

// kitConfig adapts the conformance kit to estimators that cannot meet its
// defaults: conformance.Known (with the reasons there), and the external
// estimator as TestConformance runs it.
var kitConfig = func() map[string]conformance.Config {
	m := maps.Clone(conformance.Known)
	// TestConformance runs external on python/examples/learned_preimage.py,
	// the learned map at the same α = 1e-3: the same shrinkage as learned
	// (a pre-image batch maps coordinates on every component, which the
	// kit's exact problems are), so the same tolerance.
	m["external"] = conformance.Config{ExactTol: 0.02}
	return m
}()

// TestKitConfigIsKnown: a tolerance set in a test file alone would make
// go test and runexp check-estimator disagree.
func TestKitConfigIsKnown(t *testing.T) {
	for name, cfg := range kitConfig {
		if name == "external" {
			continue
		}
		if k, ok := conformance.Known[name]; !ok || k.ExactTol != cfg.ExactTol || k.BatchCoupled != cfg.BatchCoupled {
			t.Errorf("%s: kit config %+v here, %+v in conformance.Known", name, cfg, k)
		}
	}
}

// TestConformance runs the conformance kit on every registered estimator
// with its default parameters.
func TestConformance(t *testing.T) {
	all := methods.All()
	for _, want := range []string{
		"dambreville", "external", "honeine-richard", "honeine-richard-direct", "identity", "impute-mean", "impute-nn", "kwok-tsang",
		"lasso-gps", "learned", "linear-pca", "local-gram", "local-gram-denoise", "mika", "ppca", "rkpca",
		"rkpca-impute", "rlpl", "robust-pca", "tikhonov",
	} {
		if !slices.Contains(methods.Names(), want) {
			t.Errorf("estimator %q is not registered", want)
		}
	}
	for _, spec := range all {
		t.Run(spec.Name, func(t *testing.T) {
			cfg := kitConfig[spec.Name]
			if spec.Name == "external" {
				// Its default command is empty: run the learned pre-image
				// example through the real protocol (skipped without NumPy).
				cfg.Params = map[string]any{"command": examplePython(t, "learned_preimage.py")}
			}
			methodtest.TestRegistered(t, spec, cfg)
		})
	}
}
