package methods

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Eq23Map returns the r×q matrix C that maps full KPCA projections β (on
// every component of the model) to the first q features of Zheng et al.'s
// Algorithm 1 (eq. 23–24), y = βC, the paper-values ambiguity a1 read as
// the algorithm is printed, with the sign of its own objective (eq. 17).
//
// Algorithm 1 takes the eigenvectors v_i of K̂(λL − I) with the top d
// eigenvalues, ω_i = v_iᵀ(λL − I)v_i, α_i = v_i/√ω_i and y = Qᵀκ(X, x) with
// Q = [α_1 … α_d]. Taken with that sign the top eigenvalues are the
// minimum of eq. 17, and when λ·λ_max(L) < 1 the matrix λL − I is negative
// definite, so every ω_i is negative and √ω_i undefined: the sign that can
// be computed is the objective's, K̂(I − λL) and ω_i = v_iᵀ(I − λL)v_i.
//
// Then, on the range of K̂ = VΛVᵀ, K̂(I − λL)v = μv holds exactly for
// v = c·VΛ^{½}b with Mb = μb (M = Λ − λ(VΛ^{½})ᵀL(VΛ^{½}), what
// FitLPKPCA solves), so v is the training projections of LPKPCA's
// direction (eq. 21 defines α = Φ̂ᵀu). With it, ω = c²·bᵀMb = c²μ and
// α = VΛ^{½}b/√μ whatever c: Algorithm 1 uses the training projections
// themselves as expansion coefficients, where the stated objective's
// direction has coefficients VΛ^{-½}b. A point's feature is therefore
// αᵀκ̃ = bᵀΛ^{½}Vᵀκ̃/√μ = (ΛB)ᵀβ/√μ, since β = Λ^{-½}Vᵀκ̃: C = ΛB·diag(μ)^{-½}.
// At λ = 0 this is KPCA's features scaled by √λ_i, not KPCA's (eq. 11), so
// this reading changes the features' scale as well as their directions.
//
// It fails, naming the direction, when one of the q leading μ_i is not
// positive to rounding (N·1e-12 of the largest kernel eigenvalue, KPCA's
// rank tolerance): ω_i ≤ 0 and √ω_i is undefined.
func (p *LPKPCA) Eq23Map(q int) (*mat.Dense, error) {
	r := p.Model.Rank()
	if q < 1 || q > p.Dims() {
		return nil, fmt.Errorf("methods: %d LPKPCA features requested, %d fitted", q, p.Dims())
	}
	// μ at rounding level of the kernel's largest eigenvalue is zero, as
	// KPCA's rank tolerance counts it: α = v/√ω would be rounding noise.
	tol := float64(p.Model.N()) * 1e-12 * p.Model.Values[0]
	for i := 0; i < q; i++ {
		if !(p.Values[i] > tol) {
			return nil, fmt.Errorf("methods: Algorithm 1 (eq. 23) direction %d has ω = μ = %.4g, not above zero to rounding, at λ = %g: √ω is undefined", i+1, p.Values[i], p.Lambda)
		}
	}
	c := mat.NewDense(r, q, nil)
	for i := 0; i < r; i++ {
		row := c.RawRowView(i)
		for j := range row {
			row[j] = p.Model.Values[i] * p.B.At(i, j) / math.Sqrt(p.Values[j])
		}
	}
	return c, nil
}

// RotateEq23 maps full KPCA projections β (M×r) to the first q features of
// Algorithm 1 (Eq23Map): y = βC.
func (p *LPKPCA) RotateEq23(beta *mat.Dense, q int) (*mat.Dense, error) {
	rows, r := beta.Dims()
	if r != p.Model.Rank() {
		return nil, fmt.Errorf("methods: projections on %d components, the model has %d", r, p.Model.Rank())
	}
	c, err := p.Eq23Map(q)
	if err != nil {
		return nil, err
	}
	y := mat.NewDense(rows, q, nil)
	y.Mul(beta, c)
	return y, nil
}
