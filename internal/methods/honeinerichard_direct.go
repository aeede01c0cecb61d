package methods

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
)

// HoneineRichardDirect is Honeine & Richard's direct pre-image method
// applied to de-noising in its literal, uncentred form: the noisy input's
// coordinates are its inner products with the training images,
// ψ(x) = k(X, x), with no centring, and the de-noised input is
//
//	z = Xᵀ K⁻¹ k(X, x)
//
// when every component is kept. It is the uncentred-coordinates reading of
// Huang, Tian & De la Torre's Table 1 column "Honeine&Richard [10]" (issue
// 17), beside honeine-richard, which maps the centred KPCA projection's
// expansion Γ (mean term included) through the same map.
//
// # The two readings
//
// Both apply the map z = Xᵀ K⁻¹ ψ of HoneineRichard to a feature-space
// point; they differ in the point. The centred reading projects φ(x) onto
// the mean plus the leading centred components, an affine subspace whose
// expansions sum to one (Σ_n Γ_n = 1), so z = XᵀΓ is an affine
// combination of the training inputs. The uncentred reading projects φ(x)
// onto the leading eigenvectors of the uncentred K = VΛVᵀ: with q of them,
// P_qφ(x) = Σ_n γ_n φ(x_n), γ = V_qΛ_q⁻¹V_qᵀ k(X, x), whose coordinates are
// Kγ = V_qV_qᵀk(X, x), so
//
//	z = Xᵀ V_q Λ_q⁻¹ V_qᵀ k(X, x),
//
// a linear (not affine) combination whose weights need not sum to one: far
// from the training images k(X, x) → 0 and z shrinks towards the origin,
// where the centred z stays on the data's affine hull. With every component
// (q = rank K) this is z = Xᵀ K⁺ k(X, x); for the linear kernel it is the
// orthogonal projection of x onto the span of the training inputs, so x
// itself when they span the input space.
//
// Components: the centred model's Q components and its mean span a
// (Q+1)-dimensional subspace of feature space, so this reading keeps the
// min(Q+1, rank K) leading eigenvectors of K; with Q the model's full rank
// that is every one (the uncentred K has at most one more positive
// eigenvalue than the centred K̃). Eigenvalues below N·1e-12·λ_max are
// numerically zero and dropped (the pseudo-inverse).
//
// Nu is the ridge of HoneineRichard: Λ⁻¹ becomes (Λ + νI)⁻¹ with ν =
// Nu·tr(K)/N; 0 (the default) is the literal formula.
type HoneineRichardDirect struct {
	// Nu is the ridge relative to the mean eigenvalue of K (≥ 0).
	Nu float64
}

var _ Denoiser = (*HoneineRichardDirect)(nil)

func init() {
	Register(Spec{
		Name:     "honeine-richard-direct",
		Title:    "Honeine–Richard (uncentred)",
		Doc:      "direct method on uncentred coordinates: z = Xᵀ V Λ⁻¹ Vᵀ k(X, x) on the min(q+1, rank K) leading eigenvectors V of the uncentred K (the model's q components and its mean), every positive one at the model's full rank: z = Xᵀ K⁺ k(X, x)",
		Source:   "Honeine & Richard (2009), IEEE MLSP; (2011), IEEE Signal Process. Mag. 28(2); Huang et al. (2011) Table 1 reading",
		Does:     Denoises,
		Requires: NeedsX0,
		Kernels:  AnyKernel,
		Params: []Param{
			FloatParam("nu", 0, 0, Inf, "ridge ν on K relative to tr(K)/N (0: the literal K⁺)").ZeroMeans("no ridge: the literal K⁺"),
		},
		New: func(p Params) (any, error) { return &HoneineRichardDirect{Nu: p.Float("nu")}, nil },
	})
}

// Denoise computes z_m = Xᵀ V_q (Λ_q + νI)⁻¹ V_qᵀ k(X, x_m) for every row
// of in.X0, as one batch.
func (hr *HoneineRichardDirect) Denoise(dst *mat.Dense, in *DenoiseInput) ([]Status, error) {
	if err := checkDenoiseInput(in); err != nil {
		return nil, err
	}
	if !(hr.Nu >= 0) {
		return nil, errors.New("honeine-richard-direct: nu must be ≥ 0")
	}
	m := in.Model
	n, d := m.X.Dims()
	rows, _ := in.X0.Dims()
	useDst(dst, rows, d)
	var eig mat.EigenSym
	if !eig.Factorize(m.K, true) {
		return Failed(rows, errors.New("eigendecomposition of the Gram matrix did not converge")), nil
	}
	vals := eig.Values(nil) // ascending
	var v mat.Dense
	eig.VectorsTo(&v)
	tol := float64(n) * 1e-12 * math.Max(vals[n-1], 0)
	var keep []int // positive eigenvalues, largest first
	for l := n - 1; l >= 0; l-- {
		if vals[l] > tol {
			keep = append(keep, l)
		}
	}
	if len(keep) == 0 {
		return nil, fmt.Errorf("honeine-richard-direct: the Gram matrix has no positive eigenvalue")
	}
	q := min(in.Q+1, len(keep))
	if in.Q == m.Rank() {
		q = len(keep)
	}
	nu := hr.Nu * floats.Sum(vals) / float64(n)
	// W = V_q (Λ_q + νI)⁻¹ V_qᵀ X: N×D, so z_m = k(x_m, X) W.
	vs := mat.NewDense(n, q, nil)
	vq := mat.NewDense(n, q, nil)
	for c, l := range keep[:q] {
		f := 1 / (vals[l] + nu)
		for r := 0; r < n; r++ {
			vq.Set(r, c, v.At(r, l))
			vs.Set(r, c, v.At(r, l)*f)
		}
	}
	var vx, w, kx mat.Dense
	vx.Mul(vq.T(), m.X)
	w.Mul(vs, &vx)
	kernel.Gram(&kx, m.Kernel, in.X0, m.X)
	dst.Mul(&kx, &w)
	st := make([]Status, rows) // direct: no iterations, as HoneineRichard
	CheckFinite(dst, st)
	return st, nil
}
