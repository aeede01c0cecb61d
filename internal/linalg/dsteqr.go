// Copyright ©2016 The Gonum Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.
//
// dsteqr is gonum's Dsteqr (lapack/gonum/dsteqr.go, v0.17.0) with one
// change: the plane rotations of each QL/QR sweep, which gonum applies to
// all n rows of Z at once (Dlasr, 83% of an eigendecomposition with
// vectors at n = 1000), are recorded and applied after the iteration, a
// block of rows at a time (rotations.go). Z never feeds back into the
// iteration, which works on d and e alone, and each element of Z takes
// the same operations in the same order either way, so the result is
// gonum's bit for bit (TestDsteqrIsGonum).

package linalg

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"
)

const (
	dlamchE = 0x1p-53
	dlamchS = 0x1p-1022
)

// Dsteqr is gonum's Dsteqr, bit for bit, its rotations applied a block of
// rows at a time (dsteqr below): for callers of the eigensolver's last
// stage on a reduction of their own (kernel PCA's full solver).
func Dsteqr(compz lapack.EVComp, n int, d, e, z []float64, ldz int, work []float64) bool {
	return dsteqr(compz, n, d, e, z, ldz, work)
}

// dsteqr computes the eigenvalues and optionally the eigenvectors of a symmetric
// tridiagonal matrix using the implicit QL or QR method. The eigenvectors of a
// full or band symmetric matrix can also be found if Dsytrd, Dsptrd, or Dsbtrd
// have been used to reduce this matrix to tridiagonal form.
//
// d, on entry, contains the diagonal elements of the tridiagonal matrix. On exit,
// d contains the eigenvalues in ascending order. d must have length n and
// Dsteqr will panic otherwise.
//
// e, on entry, contains the off-diagonal elements of the tridiagonal matrix on
// entry, and is overwritten during the call to Dsteqr. e must have length n-1 and
// Dsteqr will panic otherwise.
//
// z, on entry, contains the n×n orthogonal matrix used in the reduction to
// tridiagonal form if compz == lapack.EVOrig. On exit, if
// compz == lapack.EVOrig, z contains the orthonormal eigenvectors of the
// original symmetric matrix, and if compz == lapack.EVTridiag, z contains the
// orthonormal eigenvectors of the symmetric tridiagonal matrix. z is not used
// if compz == lapack.EVCompNone.
//
// work must have length at least max(1, 2*n-2) if the eigenvectors are computed,
// and Dsteqr will panic otherwise.
//
// dsteqr follows gonum's control flow as named steps (steqr's methods):
// each block the matrix splits into is scaled, iterated by QL or QR and
// unscaled in gonum's order, so d, e and the rotations take the same
// operations.
func dsteqr(compz lapack.EVComp, n int, d, e, z []float64, ldz int, work []float64) (ok bool) {
	checkDsteqr(compz, n, d, e, z, ldz, work)
	if n == 0 {
		return true
	}
	var icompz int
	if compz == lapack.EVOrig {
		icompz = 1
	} else if compz == lapack.EVTridiag {
		icompz = 2
	}
	if n == 1 {
		if icompz == 2 {
			z[0] = 1
		}
		return true
	}
	s := newSteqr(n, icompz, d, e, work)

	// Compute the eigenvalues and eigenvectors of the tridiagonal matrix.
	if icompz == 2 {
		s.impl.Dlaset(blas.All, n, n, 0, 1, z, ldz)
	}
	// Determine where the matrix splits and choose QL or QR iteration for
	// each block, according to whether top or bottom diagonal element is
	// smaller. (gonum checks the iteration count after each block that
	// iterated; a block that did not leaves it as it was.)
	for l1 := 0; ; {
		if l1 > n-1 {
			s.finish(z, ldz)
			return true
		}
		l1 = s.block(l1)
		if s.jtot >= s.nmaxit {
			break
		}
	}
	if icompz > 0 {
		s.rec.apply(n, z, ldz)
	}
	for i := 0; i < n-1; i++ {
		if e[i] != 0 {
			return false
		}
	}
	return true
}

// checkDsteqr panics as gonum's Dsteqr does on bad arguments.
func checkDsteqr(compz lapack.EVComp, n int, d, e, z []float64, ldz int, work []float64) {
	switch {
	case compz != lapack.EVCompNone && compz != lapack.EVTridiag && compz != lapack.EVOrig:
		panic("lapack: bad EVComp")
	case n < 0:
		panic("lapack: n < 0")
	case ldz < 1, compz != lapack.EVCompNone && ldz < n:
		panic("lapack: bad leading dimension of Z")
	}
	if n == 0 {
		return
	}
	switch {
	case len(d) < n:
		panic("lapack: insufficient length of d")
	case len(e) < n-1:
		panic("lapack: insufficient length of e")
	case compz != lapack.EVCompNone && len(z) < (n-1)*ldz+n:
		panic("lapack: insufficient length of z")
	case compz != lapack.EVCompNone && len(work) < max(1, 2*n-2):
		panic("lapack: insufficient length of work")
	}
}

// scaletype is how a block was scaled before its iteration.
type scaletype int

const (
	down scaletype = iota + 1
	up
)

// steqr is the state of one dsteqr call: the tridiagonal matrix (d, e),
// the rotations' scratch and record, and the iteration count.
type steqr struct {
	impl       gonum.Implementation
	n, icompz  int
	d, e, work []float64
	rec        rotations

	eps, eps2, safmin, ssfmax, ssfmin float64

	jtot, nmaxit int
	// iscale is the last block's scaling: gonum's Dsteqr declares it once
	// per call, not once per block, and so does this.
	iscale scaletype
}

func newSteqr(n, icompz int, d, e, work []float64) *steqr {
	const maxit = 30
	eps := dlamchE
	eps2 := eps * eps
	safmin := dlamchS
	safmax := 1 / safmin
	return &steqr{
		n: n, icompz: icompz, d: d, e: e, work: work,
		eps: eps, eps2: eps2, safmin: safmin,
		ssfmax: math.Sqrt(safmax) / 3,
		ssfmin: math.Sqrt(safmin) / eps2,
		nmaxit: n * maxit,
	}
}

// finish orders the eigenvalues and eigenvectors (after applying the
// recorded rotations to z).
func (s *steqr) finish(z []float64, ldz int) {
	n, d := s.n, s.d
	if s.icompz == 0 {
		s.impl.Dlasrt(lapack.SortIncreasing, n, d)
		return
	}
	s.rec.apply(n, z, ldz)
	for ii := 1; ii < n; ii++ {
		i := ii - 1
		k := i
		p := d[i]
		for j := ii; j < n; j++ {
			if d[j] < p {
				k = j
				p = d[j]
			}
		}
		if k != i {
			d[k] = d[i]
			d[i] = p
			swapCols(n, z, ldz, i, k)
		}
	}
}

// block finds the block starting at l1, iterates it to its eigenvalues
// (or to the iteration limit) and returns where the next block starts.
func (s *steqr) block(l1 int) int {
	d, e := s.d, s.e
	if l1 > 0 {
		e[l1-1] = 0
	}
	var m int
	if l1 <= s.n-1 {
		for m = l1; m < s.n-1; m++ {
			test := math.Abs(e[m])
			if test == 0 {
				break
			}
			if test <= (math.Sqrt(math.Abs(d[m]))*math.Sqrt(math.Abs(d[m+1])))*s.eps {
				e[m] = 0
				break
			}
		}
	}
	l := l1
	lsv := l
	lend := m
	lendsv := lend
	if lend == l {
		return m + 1
	}
	// Scale submatrix in rows and columns L to Lend
	anorm := s.impl.Dlanst(lapack.MaxAbs, lend-l+1, d[l:], e[l:])
	if anorm == 0 {
		return m + 1
	}
	s.scale(lsv, lendsv, anorm, false)

	// Choose between QL and QR.
	if math.Abs(d[lend]) < math.Abs(d[l]) {
		lend = lsv
		l = lendsv
	}
	if lend > l {
		s.ql(l, lend)
	} else {
		s.qr(l, lend)
	}
	s.scale(lsv, lendsv, anorm, true)
	return m + 1
}

// scale scales rows and columns l to lend of the tridiagonal matrix into
// the safe range when its largest element anorm is outside it, or, with
// undo, undoes the last block's scaling.
func (s *steqr) scale(l, lend int, anorm float64, undo bool) {
	from, to := anorm, 0.0
	switch {
	case !undo && anorm > s.ssfmax:
		s.iscale, to = down, s.ssfmax
	case !undo && anorm < s.ssfmin:
		s.iscale, to = up, s.ssfmin
	case undo && s.iscale == down:
		from, to = s.ssfmax, anorm
	case undo && s.iscale == up:
		from, to = s.ssfmin, anorm
	default:
		return
	}
	// Pretend that d and e are matrices with 1 column.
	s.impl.Dlascl(lapack.General, 0, 0, from, to, lend-l+1, 1, s.d[l:], 1)
	s.impl.Dlascl(lapack.General, 0, 0, from, to, lend-l, 1, s.e[l:], 1)
}

// ql runs QL iterations on the block l < lend until every eigenvalue is
// found or the iteration limit is reached.
func (s *steqr) ql(l, lend int) {
	d, e, work, n := s.d, s.e, s.work, s.n
	for {
		// Look for small subdiagonal element.
		var m int
		if l != lend {
			for m = l; m < lend; m++ {
				v := math.Abs(e[m])
				if v*v <= (s.eps2*math.Abs(d[m]))*math.Abs(d[m+1])+s.safmin {
					break
				}
			}
		} else {
			m = lend
		}
		if m < lend {
			e[m] = 0
		}
		switch {
		case m == l:
			// Eigenvalue found.
			l++
		case m == l+1:
			// If remaining matrix is 2×2, use Dlae2 to compute its eigensystem.
			if s.icompz > 0 {
				d[l], d[l+1], work[l], work[n-1+l] = s.impl.Dlaev2(d[l], e[l], d[l+1])
				s.rec.add(false, l, 2, work[l:], work[n-1+l:])
			} else {
				d[l], d[l+1] = s.impl.Dlae2(d[l], e[l], d[l+1])
			}
			e[l] = 0
			l += 2
		case s.jtot == s.nmaxit:
			return
		default:
			s.jtot++
			s.qlSweep(l, m)
		}
		if l > lend {
			return
		}
	}
}

// qlSweep is one implicitly shifted QL sweep over rows l to m.
func (s *steqr) qlSweep(l, m int) {
	d, e, work, n := s.d, s.e, s.work, s.n
	p := d[l]
	// Form shift
	g := (d[l+1] - p) / (2 * e[l])
	r := s.impl.Dlapy2(g, 1)
	g = d[m] - p + e[l]/(g+math.Copysign(r, g))
	sn := 1.0
	c := 1.0
	p = 0.0

	// Inner loop
	for i := m - 1; i >= l; i-- {
		f := sn * e[i]
		b := c * e[i]
		c, sn, r = s.impl.Dlartg(g, f)
		if i != m-1 {
			e[i+1] = r
		}
		g = d[i+1] - p
		r = (d[i]-g)*sn + 2*c*b
		p = sn * r
		d[i+1] = g + p
		g = c*r - b

		// If eigenvectors are desired, then save rotations.
		if s.icompz > 0 {
			work[i] = c
			work[n-1+i] = -sn
		}
	}
	// If eigenvectors are desired, then apply saved rotations.
	if s.icompz > 0 {
		mm := m - l + 1
		s.rec.add(false, l, mm, work[l:], work[n-1+l:])
	}
	d[l] -= p
	e[l] = g
}

// qr runs QR iterations on the block l > lend until every eigenvalue is
// found or the iteration limit is reached.
func (s *steqr) qr(l, lend int) {
	d, e, work, n := s.d, s.e, s.work, s.n
	for {
		// Look for small superdiagonal element.
		var m int
		if l != lend {
			for m = l; m > lend; m-- {
				v := math.Abs(e[m-1])
				if v*v <= (s.eps2*math.Abs(d[m])*math.Abs(d[m-1]) + s.safmin) {
					break
				}
			}
		} else {
			m = lend
		}
		if m > lend {
			e[m-1] = 0
		}
		switch {
		case m == l:
			// Eigenvalue found
			l--
		case m == l-1:
			// If remaining matrix is 2×2, use Dlae2 to compute its eigenvalues.
			if s.icompz > 0 {
				d[l-1], d[l], work[m], work[n-1+m] = s.impl.Dlaev2(d[l-1], e[l-1], d[l])
				s.rec.add(true, l-1, 2, work[m:], work[n-1+m:])
			} else {
				d[l-1], d[l] = s.impl.Dlae2(d[l-1], e[l-1], d[l])
			}
			e[l-1] = 0
			l -= 2
		case s.jtot == s.nmaxit:
			return
		default:
			s.jtot++
			s.qrSweep(l, m)
		}
		if l < lend {
			return
		}
	}
}

// qrSweep is one implicitly shifted QR sweep over rows m to l.
func (s *steqr) qrSweep(l, m int) {
	d, e, work, n := s.d, s.e, s.work, s.n
	p := d[l]
	// Form shift.
	g := (d[l-1] - p) / (2 * e[l-1])
	r := s.impl.Dlapy2(g, 1)
	g = d[m] - p + (e[l-1])/(g+math.Copysign(r, g))
	sn := 1.0
	c := 1.0
	p = 0.0

	// Inner loop.
	for i := m; i < l; i++ {
		f := sn * e[i]
		b := c * e[i]
		c, sn, r = s.impl.Dlartg(g, f)
		if i != m {
			e[i-1] = r
		}
		g = d[i] - p
		r = (d[i+1]-g)*sn + 2*c*b
		p = sn * r
		d[i] = g + p
		g = c*r - b

		// If eigenvectors are desired, then save rotations.
		if s.icompz > 0 {
			work[i] = c
			work[n-1+i] = sn
		}
	}

	// If eigenvectors are desired, then apply saved rotations.
	if s.icompz > 0 {
		mm := l - m + 1
		s.rec.add(true, m, mm, work[m:], work[n-1+m:])
	}
	d[l] -= p
	e[l-1] = g
}
