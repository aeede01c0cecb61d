//go:build !openblas

package linalg

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/lapack/lapack64"
)

func init() { lapack64.Use(LAPACK{}) }

// LAPACK is gonum's pure-Go LAPACK with the QL/QR iteration of the
// symmetric eigensolver (Dsteqr, and Dsyev, which calls it) applying its
// rotations a block of rows at a time (dsteqr.go): gonum's results bit
// for bit, several times faster. mat.EigenSym uses it through lapack64.
type LAPACK struct{ gonum.Implementation }

// Dsteqr is gonum's Dsteqr (same arguments, same results), its rotations
// applied a block of rows at a time.
func (LAPACK) Dsteqr(compz lapack.EVComp, n int, d, e, z []float64, ldz int, work []float64) (ok bool) {
	return dsteqr(compz, n, d, e, z, ldz, work)
}

// Dsyev is gonum's Dsyev (lapack/gonum/dsyev.go, v0.17.0) calling this
// package's Dsteqr.
func (impl LAPACK) Dsyev(jobz lapack.EVJob, uplo blas.Uplo, n int, a []float64, lda int, w, work []float64, lwork int) (ok bool) {
	g := impl.Implementation
	if jobz != lapack.EVNone && jobz != lapack.EVCompute || uplo != blas.Upper && uplo != blas.Lower || n < 0 || lda < max(1, n) ||
		lwork < max(1, 3*n-1) && lwork != -1 || len(work) < max(1, lwork) || n == 0 {
		// gonum's checks and messages, and its quick return.
		return g.Dsyev(jobz, uplo, n, a, lda, w, work, lwork)
	}
	var opts string
	if uplo == blas.Upper {
		opts = "U"
	} else {
		opts = "L"
	}
	nb := g.Ilaenv(1, "DSYTRD", opts, n, -1, -1, -1)
	lworkopt := max(1, (nb+2)*n)
	if lwork == -1 {
		work[0] = float64(lworkopt)
		return
	}
	if len(a) < (n-1)*lda+n || len(w) < n {
		return g.Dsyev(jobz, uplo, n, a, lda, w, work, lwork)
	}
	if n == 1 {
		w[0] = a[0]
		work[0] = 2
		if jobz == lapack.EVCompute {
			a[0] = 1
		}
		return true
	}
	sigma, scaled := dsyevScale(g, uplo, n, a, lda, work)
	var inde int
	indtau := inde + n
	indwork := indtau + n
	llwork := lwork - indwork
	g.Dsytrd(uplo, n, a, lda, w, work[inde:], work[indtau:], work[indwork:], llwork)

	// For eigenvalues only, call Dsterf. For eigenvectors, first call Dorgtr
	// to generate the orthogonal matrix, then call Dsteqr.
	if jobz == lapack.EVNone {
		ok = g.Dsterf(n, w, work[inde:])
	} else {
		g.Dorgtr(uplo, n, a, lda, work[indtau:], work[indwork:], llwork)
		ok = dsteqr(lapack.EVComp(jobz), n, w, work[inde:], a, lda, work[indtau:])
	}
	if !ok {
		return false
	}

	// If the matrix was scaled, rescale eigenvalues appropriately.
	if scaled {
		bi := blas64.Implementation()
		bi.Dscal(n, 1/sigma, w, 1)
	}
	work[0] = float64(lworkopt)
	return true
}

// dsyevScale scales a's triangle into the range where Dsyev's steps
// neither overflow nor underflow, if it is outside, and returns the factor.
func dsyevScale(g gonum.Implementation, uplo blas.Uplo, n int, a []float64, lda int, work []float64) (sigma float64, scaled bool) {
	safmin := dlamchS
	eps := 2 * dlamchE // dlamchP
	smlnum := safmin / eps
	bignum := 1 / smlnum
	rmin := math.Sqrt(smlnum)
	rmax := math.Sqrt(bignum)

	anrm := g.Dlansy(lapack.MaxAbs, uplo, n, a, lda, work)
	if anrm > 0 && anrm < rmin {
		scaled = true
		sigma = rmin / anrm
	} else if anrm > rmax {
		scaled = true
		sigma = rmax / anrm
	}
	if scaled {
		kind := lapack.LowerTri
		if uplo == blas.Upper {
			kind = lapack.UpperTri
		}
		g.Dlascl(kind, 0, 0, 1, sigma, n, n, a, lda)
	}
	return sigma, scaled
}
