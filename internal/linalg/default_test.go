//go:build !openblas

package linalg_test

import (
	"testing"

	"gonum.org/v1/gonum/blas/blas64"

	"github.com/runexp/runexp/internal/linalg"
)

// TestBackendDefault: without the openblas tag the backend is gonum's pure
// Go with Dgemm, Dsyrk and Dsyr2k replaced by the packed product
// (dgemm.go).
func TestBackendDefault(t *testing.T) {
	if linalg.Backend() != "gonum" {
		t.Errorf("Backend() = %q, want gonum", linalg.Backend())
	}
	if _, ok := blas64.Implementation().(linalg.Implementation); !ok {
		t.Errorf("blas64 uses %T, want linalg.Implementation (gonum's pure-Go BLAS)", blas64.Implementation())
	}
}
