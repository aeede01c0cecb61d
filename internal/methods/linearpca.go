package methods

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// LinearPCA denoises by linear PCA reconstruction, x̂ = μ + V_qV_qᵀ(x − μ),
// with PCA fitted on the model's training inputs (KPCA.LinearPCA, computed
// once per model). It is the baseline of the kernel PCA de-noising papers
// (Zheng & Lai's "Linear PCA (Preserve 95% energy)" row is energy 0.95),
// and what kernel PCA with the linear kernel reduces to.
//
// The number of components q is, in order of precedence: the smallest q
// holding the fraction Energy of the variance when Energy > 0; Components
// when positive; else DenoiseInput.Q. A q above the PCA rank (at most
// min(N−1, D), while DenoiseInput.Q counts kernel components, up to N−1)
// is capped at the rank.
type LinearPCA struct {
	// Components is q; 0 takes DenoiseInput.Q.
	Components int
	// Energy in (0, 1] chooses q by retained variance; 0 leaves it unused.
	Energy float64
}

var _ Denoiser = (*LinearPCA)(nil)

func init() {
	Register(Spec{
		Name:     "linear-pca",
		Title:    "Linear PCA",
		Doc:      "reconstruction from the leading linear principal components",
		Source:   "linear PCA baseline: Mika et al. (1999); Zheng & Lai Tables 1 and 3 (95% energy)",
		Does:     Denoises,
		Requires: NeedsX0,
		Params: []Param{
			IntParam("pca_components", 0, 0, Inf, "number of principal components; 0 uses the experiment's component count (capped at the PCA rank)").As(ComponentsRole).ZeroMeans("unset: the experiment's component count, or its energy"),
			FloatParam("pca_energy", 0, 0, 1, "if positive, the fraction of variance retained; overrides pca_components").As(EnergyRole).ZeroMeans("unset: the cell's energy where the experiment gives one"),
		},
		New: func(p Params) (any, error) {
			return &LinearPCA{Components: p.Int("pca_components"), Energy: p.Float("pca_energy")}, nil
		},
	})
}

// Denoise reconstructs every row of in.X0 from its leading linear principal
// components.
func (l *LinearPCA) Denoise(dst *mat.Dense, in *DenoiseInput) ([]Status, error) {
	m, c, err := modelInputs("linear-pca", in)
	if err != nil {
		return nil, err
	}
	if l.Energy < 0 || l.Energy > 1 {
		return nil, fmt.Errorf("linear-pca: energy %g outside [0, 1]", l.Energy)
	}
	if l.Components < 0 {
		return nil, fmt.Errorf("linear-pca: %d components", l.Components)
	}
	pca, q, err := linearPCA(in, l.Energy, l.Components)
	if err != nil {
		return nil, fmt.Errorf("linear-pca: %w", err)
	}
	useDst(dst, m, c)
	pca.Reconstruct(dst, in.X0, q)
	st := make([]Status, m)
	CheckFinite(dst, st)
	return st, nil
}
