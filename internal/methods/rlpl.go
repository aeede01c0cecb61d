package methods

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// RLPL is the regularised locality-preserving pre-image of Zheng & Lai
// (2006), "Regularized locality preserving learning of pre-image problem in
// kernel principal component analysis", ICPR, eq. 6–10.
//
// For Ψ = P_kφ(x) = Σ_n γ_n φ(x_n) (their eq. 4–5) take the s training
// images nearest to Ψ in feature space, φ(x̂_1) … φ(x̂_s), and the ridge
// weights that reconstruct Ψ from them (eq. 7):
//
//	W = argmin ‖Σ_i w_i φ(x̂_i) − Ψ‖² + λ‖W‖²  =  (K̂ + λI)⁻¹ k̂      (eq. 8–9)
//
// with K̂ = Φ̂ᵀΦ̂ the s×s Gram matrix of the neighbours and k̂ = Φ̂ᵀΦγ their
// inner products with Ψ, both kernel values only. The pre-image keeps the
// same weights in input space: x̃ = (x̂_1 … x̂_s) W (eq. 10). There is no
// iteration and, for λ > 0, a unique solution.
//
// With s = N and λ → 0 the weights tend to K⁻¹Kγ = γ, so x̃ → Σ_n γ_n x_n:
// the closed form the tests check.
type RLPL struct {
	// Lambda is the ridge parameter λ ≥ 0.
	Lambda float64
	// Neighbors is s; more than N uses all N.
	Neighbors int
}

var _ PreImager = (*RLPL)(nil)

func init() {
	Register(Spec{
		Name:   "rlpl",
		Title:  "R-LPL",
		Doc:    "ridge-weighted reconstruction from the s nearest feature-space neighbours (non-iterative, any kernel)",
		Source: "Zheng & Lai (2006), ICPR, eq. 6–10",
		Does:   PreImages,
		Params: []Param{
			FloatParam("lambda", 1e-5, 0, Inf, "ridge parameter λ of eq. 7 (Zheng & Lai's Table 1 uses 1e-5)"),
			IntParam("neighbors", 5, 1, Inf, "s, the number of feature-space nearest neighbours (more than N uses all)").As(NeighborsRole),
		},
		New: func(p Params) (any, error) {
			return &RLPL{Lambda: p.Float("lambda"), Neighbors: p.Int("neighbors")}, nil
		},
	})
}

// ErrSingular is reported for a row whose neighbour system K̂ + λI cannot
// be solved (λ = 0 with duplicated neighbours).
var ErrSingular = errors.New("neighbour Gram system is singular")

// PreImage implements PreImager. The neighbour search uses the feature
// distances of the whole batch, computed by one product in NewCostTerms;
// each row then solves one s×s system.
func (r *RLPL) PreImage(dst *mat.Dense, p *Problem) ([]Status, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if r.Neighbors < 1 || r.Lambda < 0 {
		return nil, fmt.Errorf("rlpl: neighbors %d and lambda %g, want ≥ 1 and ≥ 0", r.Neighbors, r.Lambda)
	}
	x := p.Basis.X
	m := p.M()
	f, st, s := neighbourStart(dst, p, r.Neighbors)
	idx := make([]int, 0, s)
	a := mat.NewSymDense(s, nil)
	b := mat.NewVecDense(s, nil)
	var w mat.VecDense
	var chol mat.Cholesky
	for i := 0; i < m; i++ {
		out := dst.RawRowView(i)
		idx = nearestK(idx[:0], f.RawRowView(i), s)
		if len(idx) < s {
			st[i].Err = ErrNotFinite
			fillRow(out, math.NaN())
			continue
		}
		gk := p.Terms.GK.RawRowView(i)
		for u, ju := range idx {
			for v := u; v < s; v++ {
				kuv := p.Basis.K.At(ju, idx[v])
				if u == v {
					kuv += r.Lambda
				}
				a.SetSym(u, v, kuv)
			}
			// k̂_u = ⟨φ(x̂_u), Ψ⟩ = (ΓK)_{i,ju}
			b.SetVec(u, gk[ju])
		}
		if ok := chol.Factorize(a); !ok {
			// K̂ + λI is positive definite for λ > 0; at λ = 0 fall back
			// to a least-squares solve, which eq. 6 is.
			if err := w.SolveVec(a, b); err != nil {
				st[i].Err = ErrSingular
				fillRow(out, math.NaN())
				continue
			}
		} else if err := chol.SolveVecTo(&w, b); err != nil {
			st[i].Err = ErrSingular
			fillRow(out, math.NaN())
			continue
		}
		fillRow(out, 0)
		for u, ju := range idx {
			wu := w.AtVec(u)
			for c, xv := range x.RawRowView(ju) {
				out[c] += wu * xv
			}
		}
	}
	CheckFinite(dst, st)
	return st, nil
}

func fillRow(row []float64, v float64) {
	for i := range row {
		row[i] = v
	}
}
