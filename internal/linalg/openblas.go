//go:build openblas

package linalg

// The netlib bindings declare no libraries; link Debian's OpenBLAS
// (libopenblas-dev) and LAPACKE (liblapacke-dev) here.

// #cgo LDFLAGS: -lopenblas -llapacke
import "C"

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/netlib/blas/netlib"
	"gonum.org/v1/netlib/lapack/lapacke"
)

const backend = "openblas"

func init() {
	blas64.Use(netlib.Implementation{})
	lapack64.Use(openblasLAPACK{})
}

// openblasLAPACK is gonum's LAPACK (its BLAS calls go through blas64, so
// to OpenBLAS) with Dsyev replaced by OpenBLAS's dsyevd.
type openblasLAPACK struct{ gonum.Implementation }

// Dsyev computes all eigenvalues and, for jobz == lapack.EVCompute, the
// eigenvectors of the symmetric n×n matrix a (row-major, triangle uplo),
// with gonum's contract: eigenvalues increasing in w, eigenvectors in the
// columns of a. It calls LAPACKE's dsyevd (divide and conquer), which
// allocates its own work space; a work-space query returns gonum's
// minimum so callers allocate little.
func (openblasLAPACK) Dsyev(jobz lapack.EVJob, uplo blas.Uplo, n int, a []float64, lda int, w, work []float64, lwork int) bool {
	if n == 0 {
		return true
	}
	if lwork == -1 {
		work[0] = float64(max(1, 3*n-1))
		return true
	}
	ul := byte('U')
	if uplo == blas.Lower {
		ul = 'L'
	}
	jz := byte('N')
	if jobz == lapack.EVCompute {
		jz = 'V'
	}
	var wq [1]float64
	var iq [1]int32
	if !lapacke.Dsyevd(jz, ul, n, a, lda, w, wq[:], -1, iq[:], -1) {
		return false
	}
	wk := make([]float64, int(wq[0]))
	iw := make([]int32, int(iq[0]))
	return lapacke.Dsyevd(jz, ul, n, a, lda, w, wk, len(wk), iw, len(iw))
}
