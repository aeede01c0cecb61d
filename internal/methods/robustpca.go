package methods

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// RobustPCA reconstructs inputs from a linear PCA basis with robust
// coefficients, as in de la Torre & Black, "A Framework for Robust Subspace
// Learning" (IJCV 2003), the "Robust PCA [6]" baseline of Nguyen & De la
// Torre's Fig. 5. The coefficients c of an input x minimise the
// Geman–McClure error
//
//	Σ_j w_j ρ(x_j − μ_j − (Vc)_j, σ),  ρ(e, σ) = e²/(e²+σ²)
//
// (de la Torre & Black eq. 8, with the basis fixed), by iteratively
// re-weighted least squares: with ψ(e)/e = 2σ²/(e²+σ²)², each step solves
// (VᵀΩV)c = VᵀΩ(x − μ), Ω_jj = w_j σ²/(e_j²+σ²)², w_j the observation mask.
// The scale σ is annealed, as de la Torre & Black do to avoid poor local
// minima of the non-convex ρ: from SigmaStart·σ̂ it is multiplied by Anneal
// each step down to σ̂ = 1.4826·median_j |e_j| of the least-squares fit
// (their robust scale estimate), after which steps continue at σ̂ until the
// coefficients converge. The output is the full reconstruction μ + Vc,
// outliers included: the corrupted pixels are replaced by the subspace's
// estimate.
//
// The basis is linear PCA of the model's training inputs, which are clean in
// Nguyen & De la Torre's experiments; de la Torre & Black's robust learning
// of the basis itself (needed when the training data are corrupted) is not
// implemented. The number of components is chosen as in LinearPCA:
// Energy > 0, else Components > 0, else DenoiseInput.Q, capped at the PCA
// rank.
type RobustPCA struct {
	Components int
	Energy     float64
	// SigmaStart is the initial σ as a multiple of σ̂ (≥ 1).
	SigmaStart float64
	// Anneal is the factor (0, 1] applied to σ each step while above σ̂.
	Anneal float64
	// MaxIter caps the re-weighted steps per row; Tol is the relative
	// change of the reconstruction at which a row has converged.
	MaxIter int
	Tol     float64
}

var _ Denoiser = (*RobustPCA)(nil)

func init() {
	Register(Spec{
		Name:     "robust-pca",
		Title:    "Robust PCA",
		Doc:      "linear PCA reconstruction with Geman–McClure robust coefficients and annealed σ (IRLS)",
		Source:   "de la Torre & Black (2003), IJCV 54, eq. 8 (basis fixed); Nguyen & De la Torre (2008) Fig. 5 baseline [6]",
		Does:     Denoises | Imputes,
		Requires: NeedsX0,
		Params: []Param{
			IntParam("pca_components", 0, 0, Inf, "number of principal components; 0 uses the experiment's component count (capped at the PCA rank)").As(ComponentsRole).ZeroMeans("unset: the experiment's component count, or its energy"),
			FloatParam("pca_energy", 0, 0, 1, "if positive, the fraction of variance retained; overrides pca_components").As(EnergyRole).ZeroMeans("unset: the cell's energy where the experiment gives one"),
			FloatParam("sigma_start", 8, 1, Inf, "initial σ as a multiple of 1.4826·median|e| of the least-squares fit"),
			FloatParam("anneal", 0.85, 0, 1, "factor applied to σ per step until it reaches 1.4826·median|e|"),
			IntParam("max_iter", 200, 1, Inf, "maximum re-weighted least-squares steps per input"),
			FloatParam("tol", 1e-8, 0, Inf, "stop when the reconstruction changes by ≤ tol·max(1, ‖x̂‖)"),
		},
		New: func(p Params) (any, error) {
			return &RobustPCA{Components: p.Int("pca_components"), Energy: p.Float("pca_energy"),
				SigmaStart: p.Float("sigma_start"), Anneal: p.Float("anneal"), MaxIter: p.Int("max_iter"), Tol: p.Float("tol")}, nil
		},
	})
}

// Denoise reconstructs every row of in.X0 with robust coefficients.
func (rp *RobustPCA) Denoise(dst *mat.Dense, in *DenoiseInput) ([]Status, error) {
	m, d, err := modelInputs("robust-pca", in)
	if err != nil {
		return nil, err
	}
	if err := checkMask(in.Mask, m, d); err != nil {
		return nil, fmt.Errorf("robust-pca: %w", err)
	}
	if !(rp.Anneal > 0 && rp.Anneal <= 1) || rp.SigmaStart < 1 || rp.MaxIter < 1 {
		return nil, fmt.Errorf("robust-pca: anneal %g, sigma_start %g, max_iter %d out of range", rp.Anneal, rp.SigmaStart, rp.MaxIter)
	}
	pca, q, err := linearPCA(in, rp.Energy, rp.Components)
	if err != nil {
		return nil, fmt.Errorf("robust-pca: %w", err)
	}
	v := pca.Vectors.Slice(0, d, 0, q).(*mat.Dense)
	useDst(dst, m, d)
	st := make([]Status, m)

	xc := make([]float64, d)
	e := make([]float64, d)
	om := make([]float64, d)
	rec := make([]float64, d)
	scratch := make([]float64, d)
	vw := mat.NewDense(d, q, nil)
	var a mat.Dense
	var b, c mat.VecDense
	for i := 0; i < m; i++ {
		x := in.X0.RawRowView(i)
		var obs []float64
		if in.Mask != nil {
			obs = in.Mask.RawRowView(i)
		}
		for j := range xc {
			xc[j] = x[j] - pca.Mean[j]
			if obs != nil && obs[j] == 0 {
				xc[j] = 0 // never read: its weight is 0
			}
		}
		// Least-squares start (observed entries only) gives σ̂.
		for j := range om {
			om[j] = 1
			if obs != nil && obs[j] == 0 {
				om[j] = 0
			}
		}
		if !weightedFit(&c, &a, &b, vw, v, om, xc) {
			st[i].Err = ErrDenominator
			copy(dst.RawRowView(i), pca.Mean)
			continue
		}
		reconstruct(rec, v, &c)
		for j := range e {
			e[j] = xc[j] - rec[j]
		}
		sigHat := robustScale(scratch, e, obs)
		sigma := rp.SigmaStart * sigHat
		// A fit exact to rounding (σ̂ at the level of ε·‖x̃‖) has no
		// outliers to discount.
		if sigHat > 1e-10*math.Max(1, floats.Norm(xc, math.Inf(1))) {
			for it := 1; it <= rp.MaxIter; it++ {
				s2 := sigma * sigma
				for j := range om {
					if obs != nil && obs[j] == 0 {
						om[j] = 0
						continue
					}
					// σ²·Ω_jj = (σ²/(e²+σ²))² ∈ (0, 1]: the common
					// factor σ² does not change c and keeps the
					// system well scaled.
					t := s2 / (e[j]*e[j] + s2)
					om[j] = t * t
				}
				if !weightedFit(&c, &a, &b, vw, v, om, xc) {
					st[i].Err = ErrDenominator
					break
				}
				copy(scratch, rec)
				reconstruct(rec, v, &c)
				for j := range e {
					e[j] = xc[j] - rec[j]
				}
				st[i].Iterations = it
				change := floats.Distance(scratch, rec, 2)
				if sigma <= sigHat && change <= rp.Tol*math.Max(1, floats.Norm(rec, 2)) {
					st[i].Converged = true
					break
				}
				sigma = math.Max(sigHat, sigma*rp.Anneal)
			}
		} else {
			// An exact least-squares fit has no outliers to discount.
			st[i].Converged = true
		}
		out := dst.RawRowView(i)
		floats.AddTo(out, rec, pca.Mean)
		st[i].Diag = map[string]float64{"sigma": sigHat}
	}
	CheckFinite(dst, st)
	return st, nil
}

// robustScale returns 1.4826·median|e_j| over the observed entries.
func robustScale(scratch, e, obs []float64) float64 {
	zero := make([]float64, len(e))
	return gemanMcClureScale(scratch, e, zero, obs)
}

// weightedFit solves (VᵀΩV)c = VᵀΩx̃ for the coefficients c, using vw as
// scratch for ΩV. It reports false when the system is singular.
func weightedFit(c *mat.VecDense, a *mat.Dense, b *mat.VecDense, vw, v *mat.Dense, om, xc []float64) bool {
	d, q := v.Dims()
	for j := 0; j < d; j++ {
		src := v.RawRowView(j)
		dstRow := vw.RawRowView(j)
		for k := range dstRow {
			dstRow[k] = om[j] * src[k]
		}
	}
	a.Reset()
	a.Mul(vw.T(), v)
	b.Reset()
	b.MulVec(vw.T(), mat.NewVecDense(d, xc))
	c.Reset()
	var ch mat.Cholesky
	sym := mat.NewSymDense(q, nil)
	for r := 0; r < q; r++ {
		for s := r; s < q; s++ {
			sym.SetSym(r, s, 0.5*(a.At(r, s)+a.At(s, r)))
		}
	}
	if !ch.Factorize(sym) {
		return false
	}
	if err := ch.SolveVecTo(c, b); err != nil {
		return false
	}
	return true
}

// reconstruct writes Vc into dst.
func reconstruct(dst []float64, v *mat.Dense, c *mat.VecDense) {
	d, _ := v.Dims()
	out := mat.NewVecDense(d, dst)
	out.MulVec(v, c)
}
