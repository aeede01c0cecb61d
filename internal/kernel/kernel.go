package kernel

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Kernel is a positive semi-definite kernel function k(x, y).
type Kernel interface {
	// Eval returns k(x, y). x and y must have the same length.
	Eval(x, y []float64) float64
	// String describes the kernel and its parameter, e.g. "gaussian(c=0.5)".
	String() string
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

// Eval returns exp(−‖x−y‖²/C).
func (g Gaussian) Eval(x, y []float64) float64 {
	return math.Exp(-sqDist(x, y) / g.C)
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
	ra, ca := a.Dims()
	rb, cb := b.Dims()
	if ca != cb {
		panic(fmt.Sprintf("kernel: dimension mismatch %d != %d", ca, cb))
	}
	sizeDst(dst, ra, rb)
	dst.Mul(a, b.T())
	na := rowNorms2(a)
	nb := rowNorms2(b)
	for i := 0; i < ra; i++ {
		row := dst.RawRowView(i)
		for j := range row {
			v := na[i] + nb[j] - 2*row[j]
			if v < 0 {
				v = 0
			}
			row[j] = v
		}
	}
}

func rowNorms2(a mat.Matrix) []float64 {
	r, c := a.Dims()
	n := make([]float64, r)
	if rv, ok := a.(mat.RawMatrixer); ok {
		raw := rv.RawMatrix()
		for i := 0; i < r; i++ {
			row := raw.Data[i*raw.Stride : i*raw.Stride+c]
			n[i] = floats.Dot(row, row)
		}
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
		SqDist(dst, a, b)
		raw := dst.RawMatrix()
		for i := 0; i < ra; i++ {
			row := raw.Data[i*raw.Stride : i*raw.Stride+rb]
			for j, v := range row {
				row[j] = math.Exp(-v / k.C)
			}
		}
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
	n, _ := x.Dims()
	var g mat.Dense
	Gram(&g, k, x, x)
	s := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			// Average to remove the asymmetry left by rounding.
			s.SetSym(i, j, 0.5*(g.At(i, j)+g.At(j, i)))
		}
	}
	return s
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
