package classify

import (
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// l2svmObjective is f(w) = ½wᵀw + C Σ_i max(0, 1 − y_i wᵀx_i)², the
// L2-regularised L2-loss SVM of LIBLINEAR's l2r_l2_svc_fun (-s 2), whose
// dual -s 1 solves: the same optimum. With I the rows whose margin
// y_i wᵀx_i is under 1 (active),
//
//	∇f(w) = w + 2C Σ_{i∈I} (wᵀx_i − y_i) x_i   (y_i² = 1)
//	H s   = s + 2C Σ_{i∈I} x_i x_iᵀ s          (the generalised Hessian),
//
// the products over all rows batched through gonum.
type l2svmObjective struct {
	x      *mat.Dense // l×n
	y      []float64  // ±1
	c      float64
	z      []float64 // wᵀx_i at the last fun call
	active []bool    // y_i z_i < 1, set by fun
	tmpL   []float64
}

func (f *l2svmObjective) fun(w []float64) float64 {
	l, _ := f.x.Dims()
	zv := mat.NewVecDense(l, f.z)
	zv.MulVec(f.x, mat.NewVecDense(len(w), w))
	v := 0.5 * floats.Dot(w, w)
	for i, zi := range f.z {
		d := 1 - f.y[i]*zi
		f.active[i] = d > 0
		if d > 0 {
			v += f.c * d * d
		}
	}
	return v
}

// grad assumes fun(w) was just called.
func (f *l2svmObjective) grad(w, g []float64) {
	for i, zi := range f.z {
		f.tmpL[i] = 0
		if f.active[i] {
			f.tmpL[i] = 2 * f.c * (zi - f.y[i])
		}
	}
	gv := mat.NewVecDense(len(g), g)
	gv.MulVec(f.x.T(), mat.NewVecDense(len(f.tmpL), f.tmpL))
	floats.Add(g, w)
}

// hv writes H·s = s + 2C X_Iᵀ(X_I s) into hs.
func (f *l2svmObjective) hv(s, hs []float64) {
	l, _ := f.x.Dims()
	xs := mat.NewVecDense(l, f.tmpL)
	xs.MulVec(f.x, mat.NewVecDense(len(s), s))
	for i := range f.tmpL {
		if f.active[i] {
			f.tmpL[i] *= 2 * f.c
		} else {
			f.tmpL[i] = 0
		}
	}
	hv := mat.NewVecDense(len(hs), hs)
	hv.MulVec(f.x.T(), xs)
	floats.Add(hs, s)
}

// precond writes the diagonal of H, 1 + 2C Σ_{i∈I} x_ij² (LIBLINEAR's
// get_diag_preconditioner for l2r_l2_svc_fun).
func (f *l2svmObjective) precond(m []float64) {
	l, n := f.x.Dims()
	for j := range m {
		m[j] = 1
	}
	for i := 0; i < l; i++ {
		if !f.active[i] {
			continue
		}
		row := f.x.RawRowView(i)
		for j := 0; j < n; j++ {
			m[j] += 2 * f.c * row[j] * row[j]
		}
	}
}
