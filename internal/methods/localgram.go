package methods

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// LocalGram is the local Gram isomorphism pre-image of Huang, Tian & De la
// Torre (CVPR 2011, §3–4.1, eq. 2–8).
//
// The feature space is represented by Nyström coordinates (eq. 2–3):
// K = VΛVᵀ over the m = rank(K) positive eigenvalues, Y = Λ^{−1/2}VᵀK and
// y_t = Λ^{−1/2}Vᵀk(·, x_t), so that YᵀY = K. Every quantity the method
// needs is an inner product of such coordinates: ⟨y_a, y_b⟩ = K_ab, and
// for a feature-space point Ψ = Σ_n γ_n φ(x_n) (what a Problem holds),
// y_Ψ = Λ^{1/2}Vᵀγ, so ⟨y_a, y_Ψ⟩ = (Kγ)_a and ‖y_Ψ‖² = γᵀKγ. The
// method therefore works from kernel values alone, for any kernel, with or
// without a derivative (the HOG kernel of eq. 13).
//
// Local metrics (eq. 6). For a point t with neighbours N_t (its k nearest
// training images in feature space), Ŷ = Y^(t) − y_t1ᵀ (m×k) and
// X̂ = X^(t) − x_t1ᵀ (D×k),
//
//	P_t = (Ŷᵀ)^† X̂ᵀX̂ Ŷ^†.
//
// With Ŷ^† = (ŶᵀŶ)^†Ŷᵀ this is P_t = Ŷ M Ŷᵀ with the k×k matrix
// M = W X̂ᵀX̂ W, W = (ŶᵀŶ)^†; ŶᵀŶ and X̂ᵀX̂ are Gram matrices of differences,
// so P_t is never formed in m dimensions: every uᵀP_t v = (Ŷᵀu)ᵀM(Ŷᵀv).
// The pseudo-inverse drops eigenvalues of ŶᵀŶ below pinvRcond·λ_max (its
// entries are differences of kernel values, accurate to rounding only).
// P_i of a training point uses its k nearest other training images.
//
// Pre-image (eq. 7–8). P_t = Σ_i α_i P_i / Σ_i α_i over the neighbours
// i ∈ N_t of y_t, α_i = exp(−(y_t − y_i)ᵀP_i(y_t − y_i)/δ²), then
//
//	A_t = (Y^(t) − y_t1ᵀ)ᵀ P_t (Y^(t) − y_t1ᵀ),   x̃ = X^(t)A_t⁻¹1 / 1ᵀA_t⁻¹1.
//
// Interpretations (the paper leaves them open, its ambiguity a6):
//
//   - δ: the quadratic forms (y_t − y_i)ᵀP_i(y_t − y_i) are squared input
//     distances predicted by each local metric; δ² is Delta² times their
//     mean over N_t, so Delta = 1 weighs a neighbour at the mean predicted
//     distance by e⁻¹ whatever the data's scale.
//   - β: the paper adds βI to A_t "when A_t is rank deficient". A_t is
//     factorised by Cholesky; when that fails or its condition number
//     exceeds 1e12, β = Beta·tr(A_t)/k is added (Status.Diag "ridge" = 1).
//     When y_t is the image of a training point x_j, A_t has a zero row and
//     column j and x̃ → x_j as β → 0: the pre-image is exact up to O(β).
//   - Neighbors larger than N−1 uses N−1 (N for the query).
//
// A consequence of eq. 6 worth knowing: P_i = B_iᵀB_i with the linear map
// B_i = X̂_i Ŷ_i^†, which sends y_a − y_i to x_a − x_i for every neighbour a
// of i (when Ŷ_i has full column rank). For Ψ = Σ_n γ_n φ(x_n) with Σγ = 1
// whose support lies in N_t and in every N_i, i ∈ N_t, B_i(y_b − y_t) =
// x_b − Σ_n γ_n x_n, so A_t = G(x̄) with x̄ = Σ_n γ_n x_n; G(x̄) has the null
// vector γ, and the β → 0 limit of eq. 8 is x̄ itself. So with
// neighbourhoods larger than a kernel k-means cluster, the pre-image of
// its centre is the cluster's mean image, for any kernel.
type LocalGram struct {
	// Neighbors is the neighbourhood size k (≥ 2).
	Neighbors int
	// Delta scales the smoothness δ of eq. 7 relative to the neighbours'
	// mean quadratic form (> 0).
	Delta float64
	// Beta is the relative ridge added to a rank-deficient A_t (> 0).
	Beta float64
}

var _ PreImager = (*LocalGram)(nil)

// pinvRcond is the relative eigenvalue below which ŶᵀŶ is treated as
// singular in the pseudo-inverse of eq. 6.
const pinvRcond = 1e-10

// ridgeCond is the condition number of A_t above which it counts as rank
// deficient and gets the ridge β.
const ridgeCond = 1e12

func init() {
	Register(Spec{
		Name:   "local-gram",
		Title:  "Local Gram",
		Doc:    "closed-form pre-image by local Gram isomorphism: P_t interpolated from neighbours' metrics",
		Source: "Huang, Tian & De la Torre (2011), CVPR, eq. 2–8",
		Does:   PreImages,
		Params: localGramParams(),
		New: func(p Params) (any, error) {
			return &LocalGram{Neighbors: p.Int("neighbors"), Delta: p.Float("delta"), Beta: p.Float("beta")}, nil
		},
	})
}

func localGramParams() []Param {
	return []Param{
		IntParam("neighbors", 10, 2, Inf, "neighbourhood size k in feature space (capped at N−1)").As(NeighborsRole),
		FloatParam("delta", 1, 1e-6, Inf, "δ of eq. 7 relative to the root mean quadratic form over the neighbours"),
		FloatParam("beta", 1e-8, 1e-15, 1, "ridge β relative to tr(A_t)/k, added when A_t is rank deficient"),
	}
}

func (lg *LocalGram) check() error {
	if lg.Neighbors < 2 {
		return fmt.Errorf("local-gram: %d neighbours, want at least 2", lg.Neighbors)
	}
	if !(lg.Delta > 0) || !(lg.Beta > 0) {
		return fmt.Errorf("local-gram: delta %g and beta %g must be positive", lg.Delta, lg.Beta)
	}
	return nil
}

// PreImage computes the eq. 8 pre-image of every row of p.
func (lg *LocalGram) PreImage(dst *mat.Dense, p *Problem) ([]Status, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := lg.check(); err != nil {
		return nil, err
	}
	c := newLGContext(p.Basis.X, p.Basis.K, lg.Neighbors)
	m := p.M()
	_, d := p.Basis.X.Dims()
	useDst(dst, m, d)
	st := make([]Status, m)
	for i := 0; i < m; i++ {
		q := c.query(p.Terms.GK.RawRowView(i), p.Terms.Norm2[i])
		st[i] = c.preImage(dst.RawRowView(i), q, lg.Delta, lg.Beta, nil)
	}
	CheckFinite(dst, st)
	return st, nil
}

// LocalGramDetail is the anatomy of one eq. 8 pre-image, for Huang et
// al.'s Fig. 6: the pre-image with P_t and with each neighbour's own P_i.
type LocalGramDetail struct {
	// Neighbors are the training indices i ∈ N_t, nearest first.
	Neighbors []int
	// Alpha are their weights α_i of eq. 7 (not normalised).
	Alpha []float64
	// WithPi holds, per neighbour, the pre-image computed with P_i in place
	// of P_t (nil where A_t was singular even with the ridge).
	WithPi [][]float64
}

// Detail computes the pre-image of row r of p and the Fig. 6 anatomy.
func (lg *LocalGram) Detail(z []float64, p *Problem, r int) (*LocalGramDetail, Status, error) {
	if err := p.Validate(); err != nil {
		return nil, Status{}, err
	}
	if err := lg.check(); err != nil {
		return nil, Status{}, err
	}
	c := newLGContext(p.Basis.X, p.Basis.K, lg.Neighbors)
	q := c.query(p.Terms.GK.RawRowView(r), p.Terms.Norm2[r])
	det := &LocalGramDetail{}
	st := c.preImage(z, q, lg.Delta, lg.Beta, det)
	return det, st, nil
}

// lgContext holds what every query of one batch shares: the training
// inputs, the Gram matrices and the training points' local metrics.
type lgContext struct {
	x    *mat.Dense    // N×D training inputs
	k    *mat.SymDense // N×N kernel Gram matrix
	s    *mat.Dense    // N×N input inner products XXᵀ, computed on first use
	n, d int
	kq   int // neighbours of a query
	kt   int // neighbours of a training point (itself excluded)
	pi   map[int]*localMetric
}

// localMetric is P_i = Ŷ_i M Ŷ_iᵀ over the neighbours idx of centre c.
type localMetric struct {
	idx []int
	m   *mat.SymDense
}

func newLGContext(x *mat.Dense, k *mat.SymDense, nb int) *lgContext {
	n, d := x.Dims()
	return &lgContext{x: x, k: k, n: n, d: d, kq: min(nb, n), kt: min(nb, n-1), pi: map[int]*localMetric{}}
}

func (c *lgContext) inputGram() *mat.Dense {
	if c.s == nil {
		c.s = mat.NewDense(c.n, c.n, nil)
		c.s.Mul(c.x, c.x.T())
	}
	return c.s
}

// lgQuery is a query point t: ⟨y_a, y_t⟩ for every training a, ‖y_t‖², and
// for a de-noising query its input x_t with ⟨x_a, x_t⟩ and ‖x_t‖².
type lgQuery struct {
	ky  []float64
	kyy float64
	x   []float64
	kx  []float64
	kxx float64
	idx []int // N_t, nearest first
}

func (c *lgContext) query(ky []float64, kyy float64) *lgQuery {
	q := &lgQuery{ky: ky, kyy: kyy}
	f := make([]float64, c.n)
	for a := range f {
		f[a] = c.k.At(a, a) - 2*ky[a] + kyy
	}
	q.idx = nearestK(make([]int, 0, c.kq), f, c.kq)
	return q
}

// trainMetric returns P_i of training point i (eq. 6 at x_i, y_i), computed
// once per batch.
func (c *lgContext) trainMetric(i int) *localMetric {
	if lm, ok := c.pi[i]; ok {
		return lm
	}
	s := c.inputGram()
	f := make([]float64, c.n)
	for a := range f {
		f[a] = c.k.At(a, a) - 2*c.k.At(a, i) + c.k.At(i, i)
	}
	f[i] = math.NaN() // not its own neighbour
	idx := nearestK(make([]int, 0, c.kt), f, c.kt)
	kk := len(idx)
	h := mat.NewSymDense(kk, nil)
	g := mat.NewSymDense(kk, nil)
	for u, a := range idx {
		for v := u; v < kk; v++ {
			b := idx[v]
			h.SetSym(u, v, c.k.At(a, b)-c.k.At(a, i)-c.k.At(i, b)+c.k.At(i, i))
			g.SetSym(u, v, s.At(a, b)-s.At(a, i)-s.At(i, b)+s.At(i, i))
		}
	}
	lm := &localMetric{idx: idx, m: metricCore(h, g)}
	c.pi[i] = lm
	return lm
}

// metricCore returns M = W G W with W = H^† (eq. 6 in neighbour
// coordinates).
func metricCore(h, g *mat.SymDense) *mat.SymDense {
	k := h.SymmetricDim()
	var eig mat.EigenSym
	w := mat.NewDense(k, k, nil)
	if eig.Factorize(h, true) {
		vals := eig.Values(nil)
		var v mat.Dense
		eig.VectorsTo(&v)
		top := floats.Max(vals)
		for l, lv := range vals {
			if !(lv > pinvRcond*top) {
				continue
			}
			for a := 0; a < k; a++ {
				va := v.At(a, l) / lv
				row := w.RawRowView(a)
				for b := 0; b < k; b++ {
					row[b] += va * v.At(b, l)
				}
			}
		}
	}
	var wg, m mat.Dense
	wg.Mul(w, g)
	m.Mul(&wg, w)
	return symmetrize(&m)
}

func symmetrize(m *mat.Dense) *mat.SymDense {
	k, _ := m.Dims()
	s := mat.NewSymDense(k, nil)
	for a := 0; a < k; a++ {
		for b := a; b < k; b++ {
			s.SetSym(a, b, 0.5*(m.At(a, b)+m.At(b, a)))
		}
	}
	return s
}

// ipFunc is an inner product of Nyström coordinates between two indexed
// points: a training index ≥ 0, or one of the query's own points below.
type ipFunc func(a, b int) float64

const (
	ptQuery    = -1 // y_t
	ptDenoised = -2 // ỹ_t of eq. 10
)

// crossGram returns C with C_ab = ⟨y_a − y_p, y_b − y_c⟩ for a ∈ rows,
// b ∈ cols.
func crossGram(ip ipFunc, rows []int, p int, cols []int, cc int) *mat.Dense {
	out := mat.NewDense(len(rows), len(cols), nil)
	pc := ip(p, cc)
	pb := make([]float64, len(cols))
	for v, b := range cols {
		pb[v] = ip(p, b)
	}
	for u, a := range rows {
		ac := ip(a, cc)
		row := out.RawRowView(u)
		for v, b := range cols {
			row[v] = ip(a, b) - ac - pb[v] + pc
		}
	}
	return out
}

// sandwich returns CᵀMC.
func sandwich(cm *mat.Dense, m *mat.SymDense) *mat.SymDense {
	var mc, out mat.Dense
	mc.Mul(m, cm)
	out.Mul(cm.T(), &mc)
	return symmetrize(&out)
}

// solveOnes returns u = A⁻¹1 (with the ridge when A is rank deficient) and
// whether the ridge was used.
func solveOnes(a *mat.SymDense, beta float64) ([]float64, bool, error) {
	k := a.SymmetricDim()
	ones := mat.NewVecDense(k, nil)
	for i := 0; i < k; i++ {
		ones.SetVec(i, 1)
	}
	var chol mat.Cholesky
	var u mat.VecDense
	if chol.Factorize(a) && chol.Cond() <= ridgeCond {
		if err := chol.SolveVecTo(&u, ones); err == nil {
			return u.RawVector().Data, false, nil
		}
	}
	var tr float64
	for i := 0; i < k; i++ {
		tr += a.At(i, i)
	}
	b := beta * tr / float64(k)
	if !(b > 0) {
		return nil, true, errors.New("local Gram matrix is zero")
	}
	r := mat.NewSymDense(k, nil)
	r.CopySym(a)
	for i := 0; i < k; i++ {
		r.SetSym(i, i, r.At(i, i)+b)
	}
	if !chol.Factorize(r) {
		return nil, true, errors.New("local Gram matrix is not positive definite even with the ridge")
	}
	if err := chol.SolveVecTo(&u, ones); err != nil {
		return nil, true, err
	}
	return u.RawVector().Data, true, nil
}

// combine writes into z the weighted combination Σ_b u_b x_b / Σ_b u_b over
// idx, plus lam·x0 in the eq. 11 form (lam = 0 for eq. 8).
func (c *lgContext) combine(z []float64, idx []int, u []float64, lam float64, x0 []float64) error {
	s := floats.Sum(u)
	if !(math.Abs(s) > 1e-300) || math.IsNaN(s) {
		return ErrDenominator
	}
	for i := range z {
		z[i] = 0
	}
	for v, b := range idx {
		floats.AddScaled(z, u[v]/(s*(1+lam)), c.x.RawRowView(b))
	}
	if lam != 0 {
		floats.AddScaled(z, lam/(1+lam), x0)
	}
	return nil
}

// interpolated returns A_t of eq. 7–8 (or, with cc = ptDenoised, Ã_t of
// eq. 11) from the neighbours' metrics, the unnormalised α_i and each
// neighbour's own A.
func (c *lgContext) interpolated(ip ipFunc, q *lgQuery, cc int, delta float64, keepEach bool) (*mat.SymDense, []float64, []*mat.SymDense) {
	kq := len(q.idx)
	quad := make([]float64, kq)
	each := make([]*mat.SymDense, kq)
	for v, i := range q.idx {
		lm := c.trainMetric(i)
		// (y_t − y_i)ᵀP_i(y_t − y_i) = rᵀMr with r = Ŷ_iᵀ(y_t − y_i).
		rv := crossGram(ip, lm.idx, i, []int{ptQuery}, i)
		var mr mat.Dense
		mr.Mul(lm.m, rv)
		quad[v] = math.Max(mat.Dot(rv.ColView(0), mr.ColView(0)), 0)
		each[v] = sandwich(crossGram(ip, lm.idx, i, q.idx, cc), lm.m)
	}
	d2 := delta * delta * floats.Sum(quad) / float64(kq)
	alpha := make([]float64, kq)
	for v := range alpha {
		if d2 > 0 {
			alpha[v] = math.Exp(-quad[v] / d2)
		} else {
			alpha[v] = 1
		}
	}
	sa := floats.Sum(alpha)
	a := mat.NewSymDense(kq, nil)
	for v := range each {
		a.AddSym(a, scaledSym(each[v], alpha[v]/sa))
	}
	if !keepEach {
		each = nil
	}
	return a, alpha, each
}

func scaledSym(s *mat.SymDense, f float64) *mat.SymDense {
	k := s.SymmetricDim()
	out := mat.NewSymDense(k, nil)
	for a := 0; a < k; a++ {
		for b := a; b < k; b++ {
			out.SetSym(a, b, f*s.At(a, b))
		}
	}
	return out
}

// preImage computes eq. 8 for one query into z.
func (c *lgContext) preImage(z []float64, q *lgQuery, delta, beta float64, det *LocalGramDetail) Status {
	ip := c.ip(q, nil, 0)
	a, alpha, each := c.interpolated(ip, q, ptQuery, delta, det != nil)
	st := Status{Converged: true, Diag: map[string]float64{"neighbors": float64(len(q.idx))}}
	u, ridged, err := solveOnes(a, beta)
	if ridged {
		st.Diag["ridge"] = 1
	} else {
		st.Diag["ridge"] = 0
	}
	if err == nil {
		err = c.combine(z, q.idx, u, 0, nil)
	}
	if err != nil {
		st.Err = err
		fillNaN(z)
	}
	if det != nil {
		det.Neighbors = append([]int(nil), q.idx...)
		det.Alpha = alpha
		for _, ai := range each {
			zi := make([]float64, c.d)
			ui, _, err := solveOnes(ai, beta)
			if err == nil {
				err = c.combine(zi, q.idx, ui, 0, nil)
			}
			if err != nil {
				zi = nil
			}
			det.WithPi = append(det.WithPi, zi)
		}
	}
	return st
}

func fillNaN(z []float64) {
	for i := range z {
		z[i] = math.NaN()
	}
}

// ip returns the inner products of Nyström coordinates for a query: K
// between training points, q.ky with y_t, and with ỹ_t = Σ_b cy_b y_b +
// ct·y_t when cy is given (g caches ⟨y_a, ỹ_t⟩).
func (c *lgContext) ip(q *lgQuery, g []float64, gt float64) ipFunc {
	return func(a, b int) float64 {
		if a > b {
			a, b = b, a
		}
		// Now a ≤ b: ptDenoised < ptQuery < 0 ≤ training.
		switch {
		case a >= 0:
			return c.k.At(a, b)
		case a == ptQuery && b >= 0:
			return q.ky[b]
		case a == ptQuery && b == ptQuery:
			return q.kyy
		case a == ptDenoised && b >= 0:
			return g[b]
		case a == ptDenoised && b == ptQuery:
			return gt
		}
		panic("methods: ⟨ỹ_t, ỹ_t⟩ is never needed")
	}
}
