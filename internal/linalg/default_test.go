//go:build !openblas

package linalg_test

import (
	"testing"

	"gonum.org/v1/gonum/blas/blas64"
	blasgonum "gonum.org/v1/gonum/blas/gonum"

	"github.com/runexp/runexp/internal/linalg"
)

// TestBackendDefault: without the openblas tag the backend is gonum's pure
// Go, and nothing has replaced it.
func TestBackendDefault(t *testing.T) {
	if linalg.Backend() != "gonum" {
		t.Errorf("Backend() = %q, want gonum", linalg.Backend())
	}
	if _, ok := blas64.Implementation().(blasgonum.Implementation); !ok {
		t.Errorf("blas64 uses %T, want gonum's pure-Go BLAS", blas64.Implementation())
	}
}
