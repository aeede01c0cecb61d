package methods

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
)

// LocalGramDenoise is the joint de-noising in the input and feature space
// of Huang, Tian & De la Torre (CVPR 2011, §4.2, eq. 9–11), built on the
// local Gram isomorphism of LocalGram (see its doc for the Nyström
// coordinates and the neighbour-coordinate form of the metrics).
//
// For a noisy input x_t with Nyström image y_t (eq. 3) and neighbours N_t
// (its k nearest training images in feature space), with
// G_t = (X^(t) − x_t1ᵀ)ᵀ(X^(t) − x_t1ᵀ):
//
//	ỹ_t = (Y^(t)G_t⁻¹1 + λ y_t 1ᵀG_t⁻¹1) / ((1+λ) 1ᵀG_t⁻¹1)            (eq. 10)
//	Ã_t = (Y^(t) − ỹ_t1ᵀ)ᵀ P_t (Y^(t) − ỹ_t1ᵀ)
//	x̃_t = (X^(t)Ã_t⁻¹1 + λ x_t 1ᵀÃ_t⁻¹1) / ((1+λ) 1ᵀÃ_t⁻¹1)            (eq. 11)
//
// Interpretations:
//
//   - Ã_t is centred at the de-noised ỹ_t. The formula under eq. 9 writes
//     y_t, but Fig. 2(d) says the second step matches G_t(x̃_t) with
//     "A_t(ỹ_t)", and centring at the noisy y_t would make step 1 unused.
//   - P_t: §4.2 says "obtain P_t using Eqn. (6)", i.e. the metric of the
//     noisy point itself (Metric "own", the default); Metric
//     "interpolated" uses eq. 7 over the neighbours' metrics instead, as
//     the pre-image of §4.1 does.
//   - With the own metric and Ŷ_t of full column rank, A_t(y_t) = G_t and
//     Ã_t = TᵀG_tT, T = I − w1ᵀ/((1+λ)s), w = G_t⁻¹1, s = 1ᵀw; since
//     Tᵀ1 ∝ 1 and Tw ∝ w, Ã_t⁻¹1 ∝ w and eq. 11 reduces to
//     x̃_t = (X^(t)w/s + λx_t)/(1+λ): LLE's reconstruction of x_t from its
//     neighbours blended with x_t. The kernel then enters only through
//     the choice of neighbours, and the centring of Ã_t (ỹ_t or y_t) does
//     not matter; it does with the interpolated metric.
//   - The model's component count in.Q does not enter: the Nyström
//     representation of eq. 2 keeps every positive eigenvalue of the
//     uncentred K (m = rank K), and Huang et al. keep all components.
//   - G_t and Ã_t get the ridge of LocalGram when rank deficient (a noisy
//     input equal to a training input makes G_t singular; the limit β → 0
//     then returns that training input).
type LocalGramDenoise struct {
	// Local holds the neighbourhood size, δ and β (its PreImage is not
	// promoted: this estimator is a Denoiser only).
	Local LocalGram
	// Lambda is the trade-off λ of eq. 9–11 (≥ 0; the paper uses [0, 1]).
	Lambda float64
	// Metric is "own" (eq. 6 at the noisy point) or "interpolated" (eq. 7).
	Metric string
}

var _ Denoiser = (*LocalGramDenoise)(nil)

// Local metric choices of LocalGramDenoise.
const (
	MetricOwn          = "own"
	MetricInterpolated = "interpolated"
)

func init() {
	Register(Spec{
		Name:     "local-gram-denoise",
		Title:    "Local Gram (joint)",
		Doc:      "joint input/feature-space de-noising by local Gram isomorphism with trade-off λ",
		Source:   "Huang, Tian & De la Torre (2011), CVPR, eq. 2–3, 6–7, 9–11",
		Does:     Denoises,
		Requires: NeedsX0,
		Params: append(localGramParams(),
			FloatParam("lambda", 0.1, 0, Inf, "trade-off λ between de-noising and keeping the test input (eq. 9–11)"),
			StringParam("metric", MetricOwn, []string{MetricOwn, MetricInterpolated}, "P_t: own (eq. 6 at the noisy point, §4.2) or interpolated (eq. 7)"),
		),
		New: func(p Params) (any, error) {
			return &LocalGramDenoise{
				Local:  LocalGram{Neighbors: p.Int("neighbors"), Delta: p.Float("delta"), Beta: p.Float("beta")},
				Lambda: p.Float("lambda"),
				Metric: p.String("metric"),
			}, nil
		},
	})
}

// Denoise de-noises every row of in.X0 by eq. 10–11.
func (ld *LocalGramDenoise) Denoise(dst *mat.Dense, in *DenoiseInput) ([]Status, error) {
	if err := checkDenoiseInput(in); err != nil {
		return nil, err
	}
	if err := ld.Local.check(); err != nil {
		return nil, err
	}
	if !(ld.Lambda >= 0) {
		return nil, fmt.Errorf("local-gram-denoise: λ = %g, want ≥ 0", ld.Lambda)
	}
	if ld.Metric != MetricOwn && ld.Metric != MetricInterpolated {
		return nil, fmt.Errorf("local-gram-denoise: metric %q, want %s or %s", ld.Metric, MetricOwn, MetricInterpolated)
	}
	model := in.Model
	c := newLGContext(model.X, model.K, ld.Local.Neighbors)
	m, d := in.X0.Dims()
	useDst(dst, m, d)

	// Nyström coordinates of the noisy inputs (eq. 3): with K = VΛVᵀ,
	// ⟨y_a, y_t⟩ = (VVᵀk_t)_a and ‖y_t‖² = ‖Λ^{−1/2}Vᵀk_t‖².
	var eig mat.EigenSym
	if !eig.Factorize(model.K, true) {
		return nil, errors.New("local-gram-denoise: eigendecomposition of the Gram matrix did not converge")
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	tol := float64(c.n) * 1e-12 * math.Max(floats.Max(vals), 0)
	var keep []int
	for l, v := range vals {
		if v > tol {
			keep = append(keep, l)
		}
	}
	if len(keep) == 0 {
		return nil, errors.New("local-gram-denoise: the Gram matrix is zero")
	}
	v := mat.NewDense(c.n, len(keep), nil)
	for j, l := range keep {
		for r := 0; r < c.n; r++ {
			v.Set(r, j, vecs.At(r, l))
		}
	}
	var kx, b, ky, xs mat.Dense
	kernel.Gram(&kx, model.Kernel, in.X0, model.X)
	b.Mul(&kx, v)
	ky.Mul(&b, v.T())
	xs.Mul(in.X0, model.X.T())
	s := c.inputGram()

	st := make([]Status, m)
	for t := 0; t < m; t++ {
		var kyy float64
		for j, l := range keep {
			bj := b.At(t, j)
			kyy += bj * bj / vals[l]
		}
		q := c.query(ky.RawRowView(t), kyy)
		q.x = in.X0.RawRowView(t)
		q.kx = xs.RawRowView(t)
		q.kxx = floats.Dot(q.x, q.x)
		st[t] = ld.one(dst.RawRowView(t), c, s, q)
	}
	CheckFinite(dst, st)
	return st, nil
}

func (ld *LocalGramDenoise) one(z []float64, c *lgContext, s *mat.Dense, q *lgQuery) Status {
	st := Status{Converged: true, Diag: map[string]float64{"neighbors": float64(len(q.idx)), "ridge": 0}}
	fail := func(err error) Status {
		st.Err = err
		fillNaN(z)
		return st
	}
	k := len(q.idx)
	lam := ld.Lambda
	// G_t, the input-space Gram matrix of the neighbours centred at x_t.
	g := mat.NewSymDense(k, nil)
	for u, a := range q.idx {
		for w := u; w < k; w++ {
			bb := q.idx[w]
			g.SetSym(u, w, s.At(a, bb)-q.kx[a]-q.kx[bb]+q.kxx)
		}
	}
	// Eq. 10: ỹ_t = Σ_b cy_b y_b + ct y_t.
	w, ridged, err := solveOnes(g, ld.Local.Beta)
	if ridged {
		st.Diag["ridge"] = 1
	}
	if err != nil {
		return fail(err)
	}
	sw := floats.Sum(w)
	if !(math.Abs(sw) > 1e-300) {
		return fail(ErrDenominator)
	}
	ct := lam / (1 + lam)
	gy := make([]float64, c.n) // ⟨y_a, ỹ_t⟩
	for a := range gy {
		gy[a] = ct * q.ky[a]
	}
	gt := ct * q.kyy // ⟨y_t, ỹ_t⟩
	for u, bb := range q.idx {
		cb := w[u] / ((1 + lam) * sw)
		for a := range gy {
			gy[a] += cb * c.k.At(a, bb)
		}
		gt += cb * q.ky[bb]
	}
	ip := c.ip(q, gy, gt)
	// Eq. 11 with Ã_t centred at ỹ_t.
	var at *mat.SymDense
	switch ld.Metric {
	case MetricOwn:
		h := symmetrize(crossGram(ip, q.idx, ptQuery, q.idx, ptQuery))
		mt := metricCore(h, g)
		at = sandwich(crossGram(ip, q.idx, ptQuery, q.idx, ptDenoised), mt)
	case MetricInterpolated:
		at, _, _ = c.interpolated(ip, q, ptDenoised, ld.Local.Delta, false)
	}
	u, ridged, err := solveOnes(at, ld.Local.Beta)
	if ridged {
		st.Diag["ridge"] = 1
	}
	if err == nil {
		err = c.combine(z, q.idx, u, lam, q.x)
	}
	if err != nil {
		return fail(err)
	}
	return st
}
