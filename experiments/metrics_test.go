package experiments_test

import (
	"testing"

	"github.com/runexp/runexp/internal/runner"
)

// Every kind declares the metric names its records can hold
// (Kind.Metrics): validate checks the claims and reference values of a
// config only against a declaration, so a kind without one would let a
// misspelt metric through to a NOT-EVALUATED verdict. Each kind's tests
// check its declaration against its records (kindtest.Metrics).
func TestEveryKindDeclaresItsMetrics(t *testing.T) {
	n := 0
	for _, k := range runner.Kinds() {
		n++
		if k.Metrics == nil {
			t.Errorf("kind %s (%s) declares no metric names (runner.Kind.Metrics)", k.Name, k.File)
		}
	}
	if n < 10 {
		t.Errorf("%d kinds registered, want the 10 of package experiments at least", n)
	}
}
