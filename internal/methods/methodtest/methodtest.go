// Package methodtest runs the estimator conformance kit (package
// conformance) under go test, in the manner of gonum's lapack/testlapack:
// one set of checks, run against each implementation, each check a
// subtest.
package methodtest

import (
	"os"
	"os/exec"
	"testing"

	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/methods/conformance"
)

// tb adapts a *testing.T to conformance.T: a check is a subtest.
type tb struct{ *testing.T }

func (t tb) Run(name string, f func(conformance.T)) bool {
	return t.T.Run(name, func(tt *testing.T) { f(tb{tt}) })
}

// TestRegistered checks a registered Spec and runs the conformance checks
// on the estimator it builds with default parameters (or cfg.Params).
func TestRegistered(t *testing.T, spec *methods.Spec, cfg conformance.Config) {
	t.Helper()
	conformance.CheckRegistered(tb{t}, spec, cfg)
}

// TestEstimator runs the conformance checks on the estimator newEst
// builds (conformance.CheckEstimator).
func TestEstimator(t *testing.T, name string, newEst func(t *testing.T) any, cfg conformance.Config) {
	t.Helper()
	conformance.CheckEstimator(tb{t}, name, func(t conformance.T) any { return newEst(t.(tb).T) }, cfg)
}

// Python returns a python3 that imports NumPy, for tests that run an
// external estimator through the real protocol: RUNEXP_PYTHON when set
// (as .ci/run sets it; then one that cannot import NumPy fails the test),
// else python3 on PATH or /usr/bin/python3. Without one the test is
// skipped, saying how to get one.
func Python(t *testing.T) string {
	t.Helper()
	cands := []string{"python3", "/usr/bin/python3"}
	env := os.Getenv("RUNEXP_PYTHON")
	if env != "" {
		cands = []string{env}
	}
	for _, c := range cands {
		if p, err := exec.LookPath(c); err == nil && exec.Command(p, "-c", "import numpy").Run() == nil {
			return p
		}
	}
	if env != "" {
		t.Fatalf("RUNEXP_PYTHON=%s does not import numpy", env)
	}
	t.Skip("no python3 with NumPy (apt-get install python3-numpy, or set RUNEXP_PYTHON)")
	return ""
}
