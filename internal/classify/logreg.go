// Package classify holds the linear classifier of the classification
// experiments as LIBLINEAR trains it (Fan, Chang, Hsieh, Wang & Lin, JMLR
// 2008), one-vs-rest: L2-regularised logistic regression (solver -s 0)
// or the L2-regularised L2-loss linear SVM (-s 2, the primal of -s 1,
// LIBLINEAR's default SVM; svm.go), both by trust-region Newton.
package classify

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Loss is the loss a binary problem is fitted with.
type Loss int

const (
	// Logistic is L2-regularised logistic regression, LIBLINEAR -s 0.
	Logistic Loss = iota
	// L2SVM is the L2-regularised L2-loss (squared hinge) linear SVM,
	// LIBLINEAR -s 2 (the primal of -s 1's dual: the same optimum).
	L2SVM
)

// LogRegOptions are LIBLINEAR's -s, -c and -e.
type LogRegOptions struct {
	// Loss is the loss: Logistic (-s 0, the zero value) or L2SVM (-s 2).
	Loss Loss
	// C is the cost of the loss (LIBLINEAR -c, default 1).
	C float64
	// Eps is the stopping tolerance (LIBLINEAR -e, default 0.01).
	Eps float64
	// MaxIter bounds the Newton iterations (LIBLINEAR: 1000).
	MaxIter int
}

func (o LogRegOptions) withDefaults() LogRegOptions {
	if o.C == 0 {
		o.C = 1
	}
	if o.Eps == 0 {
		o.Eps = 0.01
	}
	if o.MaxIter == 0 {
		o.MaxIter = 1000
	}
	return o
}

// BinaryResult reports how one binary problem was solved.
type BinaryResult struct {
	// W is the weight vector (no bias term: LIBLINEAR's default without -B).
	W []float64
	// Iterations is the number of accepted Newton steps.
	Iterations int
	// GradNorm and GradNorm0 are ‖∇f(w)‖ at the end and at w = 0.
	GradNorm, GradNorm0 float64
	// Tol is the relative tolerance the solver stopped against:
	// ‖∇f‖ ≤ Tol·‖∇f(0)‖.
	Tol float64
	// Converged reports that the gradient test was met.
	Converged bool
}

// objective is what the trust-region Newton method needs of a loss: its
// value at w (fun, which also keeps what grad needs), its gradient at the
// w of the last fun call (grad), the product of its (generalised) Hessian
// there with a vector (hv), and the Hessian's diagonal (precond).
type objective interface {
	fun(w []float64) float64
	grad(w, g []float64)
	hv(s, hs []float64)
	precond(m []float64)
}

// lrObjective is f(w) = ½wᵀw + C Σ_i log(1 + exp(−y_i wᵀx_i)), LIBLINEAR's
// l2r_lr_fun, with the products over all rows batched through gonum.
type lrObjective struct {
	x    *mat.Dense // l×n
	y    []float64  // ±1
	c    float64
	z    []float64 // wᵀx_i at the last fun call
	d    []float64 // σ(y_i z_i)(1 − σ(y_i z_i)), set by grad
	tmpL []float64
}

func (f *lrObjective) fun(w []float64) float64 {
	l, _ := f.x.Dims()
	zv := mat.NewVecDense(l, f.z)
	zv.MulVec(f.x, mat.NewVecDense(len(w), w))
	v := 0.5 * floats.Dot(w, w)
	for i, zi := range f.z {
		yz := f.y[i] * zi
		// log(1 + e^{−yz}) computed stably on both sides.
		if yz >= 0 {
			v += f.c * math.Log1p(math.Exp(-yz))
		} else {
			v += f.c * (-yz + math.Log1p(math.Exp(yz)))
		}
	}
	return v
}

// grad assumes fun(w) was just called; g = w + C Xᵀ((σ(yz) − 1)·y).
func (f *lrObjective) grad(w, g []float64) {
	for i, zi := range f.z {
		s := 1 / (1 + math.Exp(-f.y[i]*zi))
		f.d[i] = s * (1 - s)
		f.tmpL[i] = f.c * (s - 1) * f.y[i]
	}
	gv := mat.NewVecDense(len(g), g)
	gv.MulVec(f.x.T(), mat.NewVecDense(len(f.tmpL), f.tmpL))
	floats.Add(g, w)
}

// hv writes H·s = s + C Xᵀ(D X s) into hs.
func (f *lrObjective) hv(s, hs []float64) {
	l, _ := f.x.Dims()
	xs := mat.NewVecDense(l, f.tmpL)
	xs.MulVec(f.x, mat.NewVecDense(len(s), s))
	for i := range f.tmpL {
		f.tmpL[i] *= f.c * f.d[i]
	}
	hv := mat.NewVecDense(len(hs), hs)
	hv.MulVec(f.x.T(), xs)
	floats.Add(hs, s)
}

// precond writes the diagonal of H, 1 + C Σ_i D_ii x_ij², LIBLINEAR's
// get_diag_preconditioner.
func (f *lrObjective) precond(m []float64) {
	l, n := f.x.Dims()
	for j := range m {
		m[j] = 1
	}
	for i := 0; i < l; i++ {
		row := f.x.RawRowView(i)
		cd := f.c * f.d[i]
		for j := 0; j < n; j++ {
			m[j] += cd * row[j] * row[j]
		}
	}
}

// TrainBinary fits L2-regularised logistic regression on the rows of x with
// labels y (each +1 or −1), minimising ½wᵀw + C Σ log(1 + e^{−y_i wᵀx_i})
// (or, with o.Loss L2SVM, ½wᵀw + C Σ max(0, 1 − y_i wᵀx_i)²: svm.go)
// from w = 0 by LIBLINEAR's trust-region Newton method (tron.cpp: Lin, Weng
// & Keerthi, JMLR 2008; the diagonally preconditioned CG of Hsia, Chiang &
// Lin, ACML 2018, with α_pcg = 0.01 and CG tolerance 0.1). It stops as
// LIBLINEAR does when ‖∇f(w)‖ ≤ ε'·‖∇f(0)‖ with
// ε' = ε·max(min(#pos, #neg), 1)/l (train_one, L2R_LR and L2R_L2LOSS_SVC
// alike).
func TrainBinary(x *mat.Dense, y []float64, o LogRegOptions) (*BinaryResult, error) {
	o = o.withDefaults()
	l, n := x.Dims()
	if len(y) != l {
		return nil, fmt.Errorf("classify: %d labels for %d rows", len(y), l)
	}
	if !(o.C > 0) || !(o.Eps > 0) {
		return nil, fmt.Errorf("classify: C = %g and ε = %g must be positive", o.C, o.Eps)
	}
	var pos int
	for _, v := range y {
		switch v {
		case 1:
			pos++
		case -1:
		default:
			return nil, fmt.Errorf("classify: label %g; binary labels are +1 or −1", v)
		}
	}
	neg := l - pos
	tol := o.Eps * math.Max(float64(min(pos, neg)), 1) / float64(l)

	var f objective
	switch o.Loss {
	case Logistic:
		f = &lrObjective{x: x, y: y, c: o.C, z: make([]float64, l), d: make([]float64, l), tmpL: make([]float64, l)}
	case L2SVM:
		f = &l2svmObjective{x: x, y: y, c: o.C, z: make([]float64, l), active: make([]bool, l), tmpL: make([]float64, l)}
	default:
		return nil, fmt.Errorf("classify: loss %d, want Logistic or L2SVM", o.Loss)
	}
	w := make([]float64, n)
	g := make([]float64, n)
	fw := f.fun(w)
	f.grad(w, g)
	res := &BinaryResult{W: w, Tol: tol}
	res.GradNorm0 = floats.Norm(g, 2)
	res.GradNorm = res.GradNorm0
	if err := tron(f, w, g, fw, tol, o.MaxIter, res); err != nil {
		return res, err
	}
	return res, nil
}

// tron is LIBLINEAR's TRON::tron starting from w (w = 0 here, so f and g
// at w are those at 0).
func tron(f objective, w, g []float64, fw, tol float64, maxIter int, res *BinaryResult) error {
	const (
		eta0, eta1, eta2       = 1e-4, 0.25, 0.75
		sigma1, sigma2, sigma3 = 0.25, 0.5, 4.0
		alphaPCG               = 0.01
	)
	n := len(w)
	gnorm0 := res.GradNorm0
	gnorm := gnorm0
	if gnorm <= tol*gnorm0 || gnorm0 == 0 {
		res.Converged = true
		return nil
	}
	m := make([]float64, n)
	setM := func() {
		f.precond(m)
		for i := range m {
			m[i] = (1 - alphaPCG) + alphaPCG*m[i]
		}
	}
	setM()
	delta := math.Sqrt(uTMv(g, m, g))
	s := make([]float64, n)
	r := make([]float64, n)
	wNew := make([]float64, n)
	gNew := make([]float64, n)
	deltaAdjusted := false
	iter := 1
	for iter <= maxIter {
		reach := trpcg(f, delta, g, m, s, r)
		copy(wNew, w)
		floats.Add(wNew, s)
		gs := floats.Dot(g, s)
		prered := -0.5 * (gs - floats.Dot(s, r))
		fnew := f.fun(wNew)
		actred := fw - fnew
		sMnorm := math.Sqrt(uTMv(s, m, s))
		if iter == 1 && !deltaAdjusted {
			delta = math.Min(delta, sMnorm)
			deltaAdjusted = true
		}
		var alpha float64
		if fnew-fw-gs <= 0 {
			alpha = sigma3
		} else {
			alpha = math.Max(sigma1, -0.5*(gs/(fnew-fw-gs)))
		}
		switch {
		case actred < eta0*prered:
			delta = math.Min(alpha*sMnorm, sigma2*delta)
		case actred < eta1*prered:
			delta = math.Max(sigma1*delta, math.Min(alpha*sMnorm, sigma2*delta))
		case actred < eta2*prered:
			delta = math.Max(sigma1*delta, math.Min(alpha*sMnorm, sigma3*delta))
		default:
			if reach {
				delta = sigma3 * delta
			} else {
				delta = math.Max(delta, math.Min(alpha*sMnorm, sigma3*delta))
			}
		}
		if actred > eta0*prered {
			iter++
			res.Iterations++
			copy(w, wNew)
			fw = fnew
			f.grad(w, gNew) // f.z is at wNew = w after fun(wNew)
			copy(g, gNew)
			setM()
			gnorm = floats.Norm(g, 2)
			res.GradNorm = gnorm
			if gnorm <= tol*gnorm0 {
				res.Converged = true
				return nil
			}
		} else {
			// Rejected step: restore z (and D) at w for the next CG.
			f.fun(w)
			f.grad(w, gNew)
		}
		if math.IsNaN(fw) || math.IsInf(fw, 0) {
			return errors.New("classify: the objective is not finite")
		}
		if prered <= 0 {
			// LIBLINEAR: "predicted reduction ≤ 0", stop.
			return nil
		}
		if math.Abs(actred) <= 1e-12*math.Abs(fw) && math.Abs(prered) <= 1e-12*math.Abs(fw) {
			// LIBLINEAR: "actred and prered too small", stop.
			return nil
		}
	}
	return nil
}

func uTMv(u, m, v []float64) float64 {
	var s float64
	for i := range u {
		s += u[i] * m[i] * v[i]
	}
	return s
}

// trpcg is TRON::trpcg: preconditioned CG on the Newton system inside the
// trust region ‖s‖_M ≤ delta. It leaves in r the residual −g − Hs and
// reports whether the step reached the boundary.
func trpcg(f objective, delta float64, g, m, s, r []float64) bool {
	const epsCG = 0.1
	n := len(g)
	d := make([]float64, n)
	hd := make([]float64, n)
	z := make([]float64, n)
	for i := range s {
		s[i] = 0
		r[i] = -g[i]
		z[i] = r[i] / m[i]
		d[i] = z[i]
	}
	zTr := floats.Dot(z, r)
	cgtol := epsCG * math.Sqrt(zTr)
	maxCG := max(n, 5)
	for it := 0; it < maxCG; it++ {
		if math.Sqrt(zTr) <= cgtol {
			break
		}
		f.hv(d, hd)
		alpha := zTr / floats.Dot(d, hd)
		floats.AddScaled(s, alpha, d)
		if sMnorm := math.Sqrt(uTMv(s, m, s)); sMnorm > delta {
			// Step back and go to the boundary along d.
			floats.AddScaled(s, -alpha, d)
			sTMd := uTMv(s, m, d)
			sTMs := uTMv(s, m, s)
			dTMd := uTMv(d, m, d)
			dsq := delta * delta
			rad := math.Sqrt(sTMd*sTMd + dTMd*(dsq-sTMs))
			if sTMd >= 0 {
				alpha = (dsq - sTMs) / (sTMd + rad)
			} else {
				alpha = (rad - sTMd) / dTMd
			}
			floats.AddScaled(s, alpha, d)
			floats.AddScaled(r, -alpha, hd)
			return true
		}
		floats.AddScaled(r, -alpha, hd)
		for i := range z {
			z[i] = r[i] / m[i]
		}
		zTrNew := floats.Dot(z, r)
		beta := zTrNew / zTr
		floats.Scale(beta, d)
		floats.Add(d, z)
		zTr = zTrNew
	}
	return false
}

// Model is a one-vs-rest linear classifier: class Classes[k] scores
// W_kᵀx, and a point goes to the highest score (LIBLINEAR's prediction for
// more than two classes).
type Model struct {
	Classes []int
	// W is n×C: column k is class k's weight vector.
	W *mat.Dense
	// Results holds each binary problem's solver report.
	Results []*BinaryResult
}

// TrainOneVsRest fits one binary problem per class (that class +1, the
// rest −1) with o's loss, as LIBLINEAR does for -s 0 and -s 2 with more
// than two classes.
// Classes are sorted increasingly.
func TrainOneVsRest(x *mat.Dense, labels []int, o LogRegOptions) (*Model, error) {
	l, n := x.Dims()
	if len(labels) != l {
		return nil, fmt.Errorf("classify: %d labels for %d rows", len(labels), l)
	}
	seen := map[int]bool{}
	var classes []int
	for _, c := range labels {
		if !seen[c] {
			seen[c] = true
			classes = append(classes, c)
		}
	}
	if len(classes) < 2 {
		return nil, fmt.Errorf("classify: %d class(es) in the training labels, need at least 2", len(classes))
	}
	slices.Sort(classes)
	m := &Model{Classes: classes, W: mat.NewDense(n, len(classes), nil)}
	y := make([]float64, l)
	for k, c := range classes {
		for i, li := range labels {
			y[i] = -1
			if li == c {
				y[i] = 1
			}
		}
		res, err := TrainBinary(x, y, o)
		if err != nil {
			return nil, fmt.Errorf("classify: class %d vs rest: %w", c, err)
		}
		m.W.SetCol(k, res.W)
		m.Results = append(m.Results, res)
	}
	return m, nil
}

// Predict returns the predicted class of each row of x, scoring the batch
// with one matrix product. Ties go to the first class.
func (m *Model) Predict(x mat.Matrix) []int {
	r, _ := x.Dims()
	var s mat.Dense
	s.Mul(x, m.W)
	out := make([]int, r)
	for i := 0; i < r; i++ {
		out[i] = m.Classes[floats.MaxIdx(s.RawRowView(i))]
	}
	return out
}
