package kernel

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	// The registered BLAS decides the products' bits: import the
	// backend wherever a Gram matrix is computed.
	_ "github.com/runexp/runexp/internal/linalg"
	"github.com/runexp/runexp/internal/vecmath"
)

// Kernel is a positive semi-definite kernel function k(x, y).
type Kernel interface {
	// Eval returns k(x, y). x and y must have the same length.
	Eval(x, y []float64) float64
	// String describes the kernel and its parameter, e.g. "gaussian(c=0.5)".
	String() string
}

// Label describes k as String does with its numbers to 4 significant
// digits, for what a person reads (log lines); String keeps every digit,
// since keys and records are built from it.
func Label(k Kernel) string {
	switch k := k.(type) {
	case Gaussian:
		return fmt.Sprintf("gaussian(c=%.4g)", k.C)
	case Polynomial:
		return fmt.Sprintf("polynomial(degree=%d,offset=%.4g)", k.Degree, k.Offset)
	}
	return k.String()
}

// DistanceInverter is implemented by kernels for which the input-space
// squared distance is a function of the feature-space squared distance
// ‖φ(x) − φ(y)‖², as Kwok & Tsang (2004, eq. 12) require.
type DistanceInverter interface {
	// InputDist2 returns ‖x − y‖² for a feature-space squared distance f.
	// ok is false when f lies outside the kernel's range (for the Gaussian
	// kernel f must be below 2).
	InputDist2(f float64) (d2 float64, ok bool)
}

// Gaussian is the isotropic Gaussian kernel k(x, y) = exp(−‖x−y‖²/C).
type Gaussian struct {
	C float64
}

// GaussianWidths names the parameterisations of the Gaussian's width that
// configs use: c (exp(−d²/c), Abrahamsen & Hansen), gamma (exp(−γd²)) and
// sigma (exp(−d²/σ²), Huang et al.).
var GaussianWidths = []string{"c", "gamma", "sigma"}

// NewGaussian returns the Gaussian kernel whose width w is given in the
// parameterisation param (one of GaussianWidths). It is the one way a
// width enters runexp, whether a config gives it or an experiment derives
// it from the data.
func NewGaussian(param string, w float64) (Gaussian, error) {
	if !(w > 0) || math.IsInf(w, 0) {
		return Gaussian{}, fmt.Errorf("kernel: Gaussian %s = %v, want a positive finite width", param, w)
	}
	switch param {
	case "c":
		return Gaussian{C: w}, nil
	case "gamma":
		return NewGaussianGamma(w), nil
	case "sigma":
		return NewGaussianSigma(w), nil
	}
	return Gaussian{}, fmt.Errorf("kernel: unknown Gaussian width %q (want c, gamma or sigma)", param)
}

// NewGaussianGamma returns exp(−γ‖x−y‖²) as a Gaussian with C = 1/γ.
func NewGaussianGamma(gamma float64) Gaussian { return Gaussian{C: 1 / gamma} }

// NewGaussianSigma returns exp(−‖x−y‖²/σ²) as a Gaussian with C = σ².
func NewGaussianSigma(sigma float64) Gaussian { return Gaussian{C: sigma * sigma} }

// Eval returns exp(−‖x−y‖²/C), with vecmath.Exp (the same bits on every
// machine).
func (g Gaussian) Eval(x, y []float64) float64 {
	return vecmath.Exp(-sqDist(x, y) / g.C)
}

func (g Gaussian) String() string { return fmt.Sprintf("gaussian(c=%g)", g.C) }

// InputDist2 inverts ‖φ(x)−φ(y)‖² = 2 − 2exp(−d²/C): d² = −C log(1 − f/2).
func (g Gaussian) InputDist2(f float64) (float64, bool) {
	if f < 0 {
		// Rounding can make a zero distance slightly negative.
		f = 0
	}
	if f >= 2 {
		return math.Inf(1), false
	}
	return -g.C * math.Log1p(-f/2), true
}

// Linear is the linear kernel k(x, y) = xᵀy. Kernel PCA with it is linear
// PCA, which gives every estimator a closed form to be tested against.
type Linear struct{}

// Eval returns xᵀy.
func (Linear) Eval(x, y []float64) float64 { return floats.Dot(x, y) }

func (Linear) String() string { return "linear" }

// InputDist2 returns f: the linear feature map is the identity.
func (Linear) InputDist2(f float64) (float64, bool) {
	if f < 0 {
		f = 0
	}
	return f, true
}

// Polynomial is k(x, y) = (xᵀy + Offset)^Degree.
type Polynomial struct {
	Degree int
	Offset float64
}

// Eval returns (xᵀy + Offset)^Degree.
func (p Polynomial) Eval(x, y []float64) float64 {
	return math.Pow(floats.Dot(x, y)+p.Offset, float64(p.Degree))
}

func (p Polynomial) String() string {
	return fmt.Sprintf("polynomial(degree=%d,offset=%g)", p.Degree, p.Offset)
}

func sqDist(x, y []float64) float64 {
	if len(x) != len(y) {
		panic("kernel: length mismatch")
	}
	var s float64
	for i, v := range x {
		d := v - y[i]
		s += d * d
	}
	return s
}

// SqDist writes into dst (r×s) the squared Euclidean distances between the
// rows of a (r×d) and the rows of b (s×d), by one matrix product. Tiny
// negative values from cancellation are clamped to zero.
func SqDist(dst *mat.Dense, a, b mat.Matrix) {
	ra, na, nb := product(dst, a, b)
	raw := dst.RawMatrix()
	parallelRows(ra, ra*raw.Cols, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
			for j, p := range row {
				row[j] = sqDistFrom(na[i], nb[j], p)
			}
		}
	})
}

// product sizes dst, writes a·bᵀ into it and returns the rows of a and
// the squared row norms of a and b (one slice when a and b are the same
// matrix).
func product(dst *mat.Dense, a, b mat.Matrix) (ra int, na, nb []float64) {
	ra, ca := a.Dims()
	rb, cb := b.Dims()
	if ca != cb {
		panic(fmt.Sprintf("kernel: dimension mismatch %d != %d", ca, cb))
	}
	sizeDst(dst, ra, rb)
	dst.Mul(a, b.T())
	na = rowNorms2(a)
	nb = na
	// Only pointers are compared: an interface holding an uncomparable
	// value would panic under ==.
	ad, aok := a.(*mat.Dense)
	bd, bok := b.(*mat.Dense)
	if !aok || !bok || ad != bd {
		nb = rowNorms2(b)
	}
	return ra, na, nb
}

// sqDistFrom is ‖x−y‖² = ‖x‖² + ‖y‖² − 2xᵀy from the norms and the
// product, clamped at zero. Every Gram path goes through it, so the
// serial, parallel and symmetric passes round alike.
func sqDistFrom(nx, ny, p float64) float64 {
	v := nx + ny - 2*p
	if v < 0 {
		v = 0
	}
	return v
}

func rowNorms2(a mat.Matrix) []float64 {
	r, c := a.Dims()
	n := make([]float64, r)
	if rv, ok := a.(mat.RawMatrixer); ok {
		raw := rv.RawMatrix()
		parallelRows(r, r*c, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				row := raw.Data[i*raw.Stride : i*raw.Stride+c]
				n[i] = floats.Dot(row, row)
			}
		})
		return n
	}
	for i := 0; i < r; i++ {
		var s float64
		for j := 0; j < c; j++ {
			v := a.At(i, j)
			s += v * v
		}
		n[i] = s
	}
	return n
}

// Gram writes into dst (r×s) the kernel values k(a_i, b_j) between the rows
// of a and b. Gaussian and linear kernels use one matrix product, a Gramer
// (a kernel on a feature map) computes its own; other kernels fall back to
// pairwise evaluation.
func Gram(dst *mat.Dense, k Kernel, a, b mat.Matrix) {
	ra, ca := a.Dims()
	rb, cb := b.Dims()
	if ca != cb {
		panic(fmt.Sprintf("kernel: dimension mismatch %d != %d", ca, cb))
	}
	switch k := k.(type) {
	case Gaussian:
		// The distances and exponentials in one parallel pass: after
		// the product they are what keeps a fast BLAS from its peak.
		_, na, nb := product(dst, a, b)
		raw := dst.RawMatrix()
		parallelRows(ra, ra*rb, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				GaussianRow(raw.Data[i*raw.Stride:i*raw.Stride+rb], na[i], nb, k.C)
			}
		})
	case Linear:
		sizeDst(dst, ra, rb)
		dst.Mul(a, b.T())
	case Polynomial:
		sizeDst(dst, ra, rb)
		dst.Mul(a, b.T())
		deg := float64(k.Degree)
		dst.Apply(func(_, _ int, v float64) float64 { return math.Pow(v+k.Offset, deg) }, dst)
	case Gramer:
		k.GramTo(dst, a, b)
	default:
		sizeDst(dst, ra, rb)
		ai := make([]float64, ca)
		bj := make([]float64, cb)
		for i := 0; i < ra; i++ {
			mat.Row(ai, i, a)
			for j := 0; j < rb; j++ {
				mat.Row(bj, j, b)
				dst.Set(i, j, k.Eval(ai, bj))
			}
		}
	}
}

// SelfGram returns the symmetric Gram matrix K_ij = k(x_i, x_j) of the rows
// of x.
func SelfGram(k Kernel, x mat.Matrix) *mat.SymDense {
	if g, ok := k.(Gaussian); ok {
		return selfGramGaussian(g, x)
	}
	n, _ := x.Dims()
	var g mat.Dense
	Gram(&g, k, x, x)
	s := mat.NewSymDense(n, nil)
	gr, sr := g.RawMatrix(), s.RawSymmetric()
	parallelRows(n, n*n/2, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			for j := i; j < n; j++ {
				// Average to remove the asymmetry left by rounding.
				sr.Data[i*sr.Stride+j] = 0.5 * (gr.Data[i*gr.Stride+j] + gr.Data[j*gr.Stride+i])
			}
		}
	})
	return s
}

// selfGramGaussian is SelfGram for the Gaussian kernel: the product
// XXᵀ on the upper triangle only (Dsyrk, half of Dgemm's flops), then
// distances and exponentials on that triangle, which is all a SymDense
// stores.
//
// Under the pure-Go backend Dsyrk is the packed product on the triangle
// (package linalg), whose entry (i, j) has the bits Dgemm gives it and
// the same bits as (j, i) (a fused multiply-add does not depend on the
// order of its factors), so the triangle equals the average SelfGram
// takes for other kernels bit for bit. Under another BLAS (OpenBLAS)
// Dsyrk rounds its own way, and the result is symmetric by construction
// instead of by averaging.
func selfGramGaussian(k Gaussian, x mat.Matrix) *mat.SymDense {
	n, _ := x.Dims()
	xd, ok := x.(*mat.Dense)
	if !ok {
		xd = mat.DenseCopyOf(x)
	}
	s := mat.NewSymDense(n, nil)
	sr := s.RawSymmetric()
	blas64.Syrk(blas.NoTrans, 1, xd.RawMatrix(), 0, sr)
	nx := rowNorms2(xd)
	parallelRows(n, n*n/2, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			GaussianRow(sr.Data[i*sr.Stride+i:i*sr.Stride+n], nx[i], nx[i:], k.C)
		}
	})
	return s
}

// GaussianRow turns a row of products p_j = xᵀy_j into the Gaussian
// kernel's values exp(−‖x − y_j‖²/c), in place, from the squared norms
// nx = ‖x‖² and ny[j] = ‖y_j‖² (sqDistFrom, then vecmath.ExpTo: the same
// bits on every machine). Every Gaussian Gram path goes through it.
func GaussianRow(row []float64, nx float64, ny []float64, c float64) {
	ny = ny[:len(row)]
	for j, p := range row {
		row[j] = -sqDistFrom(nx, ny[j], p) / c
	}
	vecmath.ExpTo(row, row)
}

// Diag returns k(x_i, x_i) for every row of x.
func Diag(k Kernel, x mat.Matrix) []float64 {
	r, _ := x.Dims()
	d := make([]float64, r)
	switch k.(type) {
	case Gaussian, MappedGaussian:
		for i := range d {
			d[i] = 1
		}
		return d
	}
	for i := 0; i < r; i++ {
		row := mat.Row(nil, i, x)
		d[i] = k.Eval(row, row)
	}
	return d
}

// sizeDst accepts an empty destination (resized) or one already r×c, so
// callers can reuse a buffer across calls; any other shape panics.
func sizeDst(dst *mat.Dense, r, c int) {
	if dst.IsEmpty() {
		dst.ReuseAs(r, c)
		return
	}
	if dr, dc := dst.Dims(); dr != r || dc != c {
		panic(fmt.Sprintf("kernel: destination is %d×%d, want %d×%d", dr, dc, r, c))
	}
}
