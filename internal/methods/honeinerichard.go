package methods

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// HoneineRichard is the direct pre-image method of Honeine & Richard:
// "Solving the pre-image problem in kernel machines: a direct method",
// IEEE MLSP 2009, and "Preimage problem in kernel-based machine learning",
// IEEE Signal Processing Magazine 28(2), 2011 (section on learning the
// pre-image map by a coordinate system isometric to the input space).
//
// They learn one global linear map between the feature-space coordinates
// ψ(x) = [k(x_1, x), …, k(x_N, x)] (inner products with the training
// images) and the input space, fitted on the training pairs so that input
// inner products are reproduced: x_iᵀx_j = ψ(x_i)ᵀ P ψ(x_j), i.e.
// XXᵀ = K P K, P = K⁻¹XXᵀK⁻¹ (X holds the inputs as rows). The pre-image
// z of Ψ then reproduces Ψ's coordinates in the input space,
// Xz = XXᵀ K⁻¹ ψ(Ψ), whose minimum-norm solution is z = Xᵀ K⁻¹ ψ(Ψ). For
// Ψ = Σ_n γ_n φ(x_n), ψ(Ψ) = Kγ, so z = Xᵀγ: the same combination of the
// inputs as of the images — a global linear transformation, which is why
// Huang et al. (2011, §5.1) expect it to fail on a non-linear kernel.
//
// Regularisation: Honeine & Richard regularise the fit of P. We replace
// K⁻¹ by (K + νI)⁻¹ with ν = Nu·tr(K)/N, computed through K = VΛVᵀ as
// z = Xᵀ V diag(λ/(λ+ν)) Vᵀ γ (over the positive λ), so Nu = 0 (the
// default) is exactly the unregularised z = Xᵀγ for a full-rank K. This
// ridge is our reading, not their exact penalty.
type HoneineRichard struct {
	// Nu is the ridge relative to the mean eigenvalue of K (≥ 0).
	Nu float64
}

var _ PreImager = (*HoneineRichard)(nil)

func init() {
	Register(Spec{
		Name:   "honeine-richard",
		Title:  "Honeine–Richard",
		Doc:    "direct pre-image by a global linear map learned from the training pairs (kernel values only)",
		Source: "Honeine & Richard (2009), IEEE MLSP; (2011), IEEE Signal Process. Mag. 28(2)",
		Does:   PreImages,
		Params: []Param{
			FloatParam("nu", 0, 0, Inf, "ridge ν on K relative to tr(K)/N (0: the unregularised map)").ZeroMeans("no ridge: the unregularised map"),
		},
		New: func(p Params) (any, error) { return &HoneineRichard{Nu: p.Float("nu")}, nil },
	})
}

// PreImage computes z_m = Xᵀ (K + νI)⁻¹ K γ_m for every row of p, as one
// batch.
func (hr *HoneineRichard) PreImage(dst *mat.Dense, p *Problem) ([]Status, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if !(hr.Nu >= 0) {
		return nil, errors.New("honeine-richard: nu must be ≥ 0")
	}
	x := p.Basis.X
	n, d := x.Dims()
	m := p.M()
	useDst(dst, m, d)
	var eig mat.EigenSym
	if !eig.Factorize(p.Basis.K, true) {
		return Failed(m, errors.New("eigendecomposition of the Gram matrix did not converge")), nil
	}
	vals := eig.Values(nil)
	var v mat.Dense
	eig.VectorsTo(&v)
	nu := hr.Nu * floats.Sum(vals) / float64(n)
	tol := float64(n) * 1e-12 * math.Max(floats.Max(vals), 0)
	// F = V diag(λ/(λ+ν)) Vᵀ over the positive λ.
	vs := mat.NewDense(n, n, nil)
	for l, lv := range vals {
		if !(lv > tol) {
			continue
		}
		f := lv / (lv + nu)
		for r := 0; r < n; r++ {
			vs.Set(r, l, v.At(r, l)*f)
		}
	}
	var f, gf mat.Dense
	f.Mul(vs, v.T())
	gf.Mul(p.Gamma, &f) // rows: (Fγ_m)ᵀ, F symmetric
	dst.Mul(&gf, x)
	st := make([]Status, m)
	CheckFinite(dst, st)
	return st, nil
}
