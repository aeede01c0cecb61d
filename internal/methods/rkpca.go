package methods

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/vecmath"
)

// RKPCA is Robust Kernel PCA reconstruction (Nguyen & De la Torre, NIPS
// 2008, eq. 3–6, §3.2, §3.3): the clean version of an input x is
//
//	z* = argmin_z E0(x, z) + C·Eproj(z),  Eproj(z) = ‖φ(z) − Pφ(z)‖²   (eq. 4)
//
// which asks φ(z) to lie near the principal subspace and z to lie near x,
// instead of first projecting the (corrupted) φ(x) as Mika et al. do. The
// kernel is Gaussian, k(x, y) = exp(−γ‖x−y‖²) (γ = 1/c of the model's
// kernel). Two closeness terms E0 are implemented:
//
//   - "l2" (§3.2): E0 = −exp(−γ₂‖W(x−z)‖²), W = diag(mask): the missing
//     entries of x (mask 0) do not enter E0 at all; with no mask W = I
//     (the paper's de-noising setting, Table 2);
//   - "geman-mcclure" (§3.3): E0 = −exp(−γ₂ Σ_j w_j ρ(x_j−z_j, σ)),
//     ρ(y, σ) = y²/(y²+σ²), σ re-estimated at every iteration as
//     1.4826·median_j |z_j − x_j| over the observed entries (the paper's
//     robust scale after Black & Anandan [5]).
//
// # Derivation of the fixed point (the paper's eq. 6, for the centred model)
//
// The paper writes Eproj with an uncentred kernel matrix (eq. 1). Our KPCA
// model is centred (the one Mika and Kwok–Tsang use), so we redo the
// derivation with centring; it ends in the paper's update with the
// paper's matrix Q replaced by the projection coefficients of z. Let
// r_n = k(z, d_n), k̃ = Hr + b the centred kernel vector (H = I − 11ᵀ/N,
// b_n = mean(K) − mean_i K_in) and M = Σ_i α_iα_iᵀ over the q kept
// components (λ_i‖α_i‖² = 1). Then
//
//	Eproj(z) = ‖φ̃(z)‖² − k̃ᵀMk̃,  ‖φ̃(z)‖² = 1 − (2/N)1ᵀr + mean(K),
//	∂Eproj/∂r = −2g,  g = 1/N + HMk̃ = Γ(z),
//
// where Γ(z) are exactly the expansion coefficients of Pφ(z) = Σ_n Γ_n φ(d_n)
// that KPCA.Project returns (mean term included). With ∇_z r_n =
// −2γ r_n (z − d_n),
//
//	∇Eproj = 4γ Σ_n w_n (z − d_n),  w_n = Γ_n(z) r_n.
//
// (Uncentred, Γ = Mr and Σ_n w_n = rᵀMr = 1ᵀQ1: the paper's ∇E2.) For the
// l2 term ∇E0 = 2γ₂ e W²(z − x), e = exp(−γ₂‖W(x−z)‖²); for Geman–McClure,
// since ∂ρ(y,σ)/∂y = 2yσ²/(y²+σ²)², ∇E0 = 2γ₂ e Ω W²(z − x) with
// Ω_jj = σ²/((z_j−x_j)²+σ²)² (the paper's W5², its W4 = e·W5²·W²) and
// e = exp(−γ₂ Σ_j W_jj ρ_j). Setting ∇E0 + C∇Eproj = 0 and dividing by 4Cγ:
//
//	[A + (Σ_n w_n) I] z = A x + Σ_n w_n d_n,  A = (γ₂ e / 2Cγ) Ω W²,   (eq. 6)
//
// a diagonal system; evaluating A, w at the current iterate gives the
// fixed-point update, coordinate by coordinate
//
//	z_j ← (a_j x_j + Σ_n w_n d_nj) / (a_j + Σ_n w_n).
//
// A missing entry has a_j = 0, so x_j is never read: z_j is the weighted
// combination of the training data, as the paper notes. As C → 0 the pull
// a_j dominates and z → x (at observed entries); as C → ∞ the update is
// z = Σ_n Γ_n(z) k(z, d_n) d_n / Σ_n Γ_n(z) k(z, d_n), i.e. z becomes a
// fixed point of Mika et al.'s pre-image iteration for its own projection
// Pφ(z): the projection-based pre-image of z.
//
// All rows iterate together: each iteration is one Gram product with the
// training set, one projection (KPCA.ProjectGram) and one product W·D for
// the still-active rows. A row converges when ‖z_{t+1} − z_t‖² ≤
// Tol²·max(1, ‖z_t‖²) and fails with ErrDenominator when
// |a_j + Σ w_n| ≤ Eps·(a_j + Σ|w_n|) (the paper's "W3 not invertible",
// which it says to handle by restarting; we report the row instead).
type RKPCA struct {
	// Gamma2 is γ₂ of E0 (> 0).
	Gamma2 float64
	// C weighs Eproj against E0 (> 0).
	C float64
	// E0 is "l2" (§3.2) or "geman-mcclure" (§3.3).
	E0 string
	// Start is the initial z: "noisy" (x, missing entries set to the
	// training mean), "filled" (x as given, missing entries included: the
	// caller's current estimates, as in Algorithm 1) or "mean" (the
	// training mean).
	Start string
	// MaxIter caps the fixed-point steps per row.
	MaxIter int
	// Tol is the relative step at which a row has converged.
	Tol float64
	// SigmaMin floors the Geman–McClure scale, so an iterate equal to x on
	// more than half its entries does not give σ = 0 and 0/0 weights.
	SigmaMin float64
	// Eps is the relative size below which a denominator has vanished.
	Eps float64
}

var _ Denoiser = (*RKPCA)(nil)

// E0 forms of RKPCA.
const (
	E0L2           = "l2"
	E0GemanMcClure = "geman-mcclure"
)

// RKPCA start rules beyond StartNoisy and StartMean.
const StartFilled = "filled"

func init() {
	Register(Spec{
		Name:     "rkpca",
		Title:    "RKPCA",
		Doc:      "robust KPCA reconstruction: argmin_z E0(x,z) + C‖φ(z)−Pφ(z)‖², fixed point of eq. 6",
		Source:   "Nguyen & De la Torre (2008), NIPS 21, eq. 3–6, §3.2 (l2, mask) and §3.3 (Geman–McClure)",
		Does:     Denoises | Imputes,
		Requires: NeedsX0,
		Kernels:  GaussianKernel,
		Params: []Param{
			FloatParam("gamma2", 1, 0, Inf, "γ₂ of E0 = −exp(−γ₂·distance(x, z)), > 0; the default 1 suits data on a unit scale only (on USPS, with C = 1, z stayed within 2e-3 of the noisy input): set it to the scale of the squared distances, as the configs do"),
			FloatParam("C", 1, 0, Inf, "weight of Eproj(z) against E0, > 0"),
			StringParam("e0", E0L2, []string{E0L2, E0GemanMcClure}, "E0: l2 (§3.2, masked) or geman-mcclure (§3.3)"),
			StringParam("start", StartNoisy, []string{StartNoisy, StartFilled, StartMean}, "initial z: noisy input (missing entries = training mean), input as given, or training mean; with e0: geman-mcclure start at the mean (nguyen-fig5.yaml does): from the noisy input the Geman–McClure scale of z = x is 0, floored to sigma_min, which can pin z to x (on USPS every row came back unchanged after one step; check-estimator reports an estimator that returns its input)"),
			IntParam("max_iter", 1000, 1, Inf, "maximum fixed-point steps per input"),
			FloatParam("tol", 1e-9, 0, Inf, "stop when ‖z_{t+1}−z_t‖² ≤ tol²·max(1, ‖z_t‖²)"),
			FloatParam("sigma_min", 1e-12, 0, Inf, "floor of the Geman–McClure scale σ"),
			FloatParam("eps", 1e-12, 0, 1, "fail a row when |a_j + Σw_n| ≤ eps·(a_j + Σ|w_n|)"),
		},
		New: func(p Params) (any, error) {
			return &RKPCA{Gamma2: p.Float("gamma2"), C: p.Float("C"), E0: p.String("e0"), Start: p.String("start"),
				MaxIter: p.Int("max_iter"), Tol: p.Float("tol"), SigmaMin: p.Float("sigma_min"), Eps: p.Float("eps")}, nil
		},
	})
}

// Denoise runs the fixed point of eq. 6 for every row of in.X0, with the
// missing entries given by in.Mask.
func (r *RKPCA) Denoise(dst *mat.Dense, in *DenoiseInput) ([]Status, error) {
	return r.denoiseWith(dst, in, new(fixedWork))
}

// denoiseWith is Denoise with the step buffers in fw, which a caller
// running many fits one after another (RKPCAImpute's partitions) keeps.
func (r *RKPCA) denoiseWith(dst *mat.Dense, in *DenoiseInput, fw *fixedWork) ([]Status, error) {
	c, err := r.checkDenoise(in)
	if err != nil {
		return nil, err
	}
	m, d := in.X0.Dims()
	gamma := 1 / c
	x := in.Model.X
	mu := colMeans(x)
	z, err := r.startIterates(in, mu)
	if err != nil {
		return nil, err
	}
	useDst(dst, m, d)
	st := make([]Status, m)
	act := startActive(dst, z, st)

	gw, pw := fw.start(in.Model.Kernel, x)
	next := mat.NewDense(m, d, nil)
	res := make([]float64, d)
	a := make([]float64, d)
	done := make([]bool, m)
	tol2 := r.Tol * r.Tol
	// The active rows of z and next, as z.Slice(0, na, 0, d) would view
	// them, in headers kept across steps.
	var za, nxt mat.Dense
	for it := 1; it <= r.MaxIter && len(act) > 0; it++ {
		na := len(act)
		za.SetRawMatrix(blas64.General{Rows: na, Cols: d, Stride: d, Data: z.RawMatrix().Data[:na*d]})
		kz := gw.gram(&za)
		// w_n = Γ_n(z)·k(z, d_n), overwriting Γ.
		w := pw.gamma(in.Model, kz, in.Q)
		w.MulElem(w, kz)
		nxt.SetRawMatrix(blas64.General{Rows: na, Cols: d, Stride: d, Data: next.RawMatrix().Data[:na*d]})
		gw.combine(&nxt, w)
		for i := 0; i < na; i++ {
			row := act[i]
			done[i] = false
			wi := w.RawRowView(i)
			s := floats.Sum(wi)
			abs := 0.0
			for _, v := range wi {
				abs += math.Abs(v)
			}
			zi := z.RawRowView(i)
			xi := in.X0.RawRowView(row)
			var obs []float64
			if in.Mask != nil {
				obs = in.Mask.RawRowView(row)
			}
			sigma := r.pullWeights(a, res, zi, xi, obs, gamma)
			if r.E0 == E0GemanMcClure {
				st[row].Diag = map[string]float64{"sigma": sigma}
			}
			ni := nxt.RawRowView(i)
			if !r.update(ni, a, xi, s, abs) {
				st[row].Err = ErrDenominator
				done[i] = true
				continue
			}
			done[i] = acceptStep(&st[row], zi, ni, it, tol2)
		}
		act = retire(dst, z, done, act)
	}
	for i, row := range act {
		copy(dst.RawRowView(row), z.RawRowView(i))
	}
	CheckFinite(dst, st)
	return st, nil
}

// checkDenoise checks Denoise's input and settings and returns the
// Gaussian kernel's width c.
func (r *RKPCA) checkDenoise(in *DenoiseInput) (float64, error) {
	if in == nil || in.X0 == nil {
		return 0, errors.New("rkpca: no inputs to denoise")
	}
	if err := checkDenoiseInput(in); err != nil {
		return 0, fmt.Errorf("rkpca: %w", err)
	}
	c, ok := gaussianWidth(in.Model.Kernel)
	if !ok {
		return 0, fmt.Errorf("rkpca: needs a Gaussian kernel, got %v", in.Model.Kernel)
	}
	if !(r.Gamma2 > 0) || !(r.C > 0) || math.IsInf(r.C, 0) {
		return 0, fmt.Errorf("rkpca: gamma2 %g and C %g must be positive and finite", r.Gamma2, r.C)
	}
	if r.MaxIter < 1 {
		return 0, fmt.Errorf("rkpca: max_iter %d, want at least 1", r.MaxIter)
	}
	if r.E0 != E0L2 && r.E0 != E0GemanMcClure {
		return 0, fmt.Errorf("rkpca: unknown e0 %q", r.E0)
	}
	m, d := in.X0.Dims()
	if err := checkMask(in.Mask, m, d); err != nil {
		return 0, fmt.Errorf("rkpca: %w", err)
	}
	return c, nil
}

// startIterates returns the starting iterates by r.Start, one row per
// input; the fixed point keeps the active rows in its leading slots (as
// in fixedPoint).
func (r *RKPCA) startIterates(in *DenoiseInput, mu []float64) (*mat.Dense, error) {
	m, d := in.X0.Dims()
	z := mat.NewDense(m, d, nil)
	for i := 0; i < m; i++ {
		zi := z.RawRowView(i)
		switch r.Start {
		case StartMean:
			copy(zi, mu)
		case StartNoisy, StartFilled, "":
			copy(zi, in.X0.RawRowView(i))
			if r.Start != StartFilled && in.Mask != nil {
				for j, o := range in.Mask.RawRowView(i) {
					if o == 0 {
						zi[j] = mu[j]
					}
				}
			}
		default:
			return nil, fmt.Errorf("rkpca: unknown start rule %q", r.Start)
		}
	}
	return z, nil
}

// update turns ni, which holds (W·D)_j, into the next iterate
// (a_j x_j + (W·D)_j) / (a_j + Σ_n w_n) of one row, given its pull
// weights a, its input xi, s = Σ_n w_n and abs = Σ_n |w_n|. It reports
// false, leaving ni part done, when a denominator is zero to within
// r.Eps of its terms.
func (r *RKPCA) update(ni, a, xi []float64, s, abs float64) bool {
	for j := range ni {
		den := a[j] + s
		if !(math.Abs(den) > r.Eps*(a[j]+abs)) {
			return false
		}
		if a[j] != 0 {
			ni[j] = (a[j]*xi[j] + ni[j]) / den
		} else {
			ni[j] /= den
		}
	}
	return true
}

// gramWork computes the kernel rows k(z_m, d_n) of a batch of iterates
// against a fixed training set for the fixed points of RKPCA and
// fixedObservedFit, which form them at every step: kernel.Gram's result
// bit for bit (the same product, the same row norms by floats.Dot, the
// same distance and exponential per entry), with the training set's
// squared row norms computed once and the output and the batch's norms
// in buffers kept across steps, where kernel.Gram allocates all three per
// call. Kernels other than a kernel.Gaussian value go to kernel.Gram.
type gramWork struct {
	k      kernel.Kernel
	g      kernel.Gaussian
	gauss  bool
	x      *mat.Dense
	xt     operand   // xᵀ, packed at the first step
	xo     operand   // x, packed at the first step (combine)
	nx, nz []float64 // squared row norms of x and of the batch
	out    []float64
	kz     mat.Dense
	dst    mat.Dense // out's header
}

func newGramWork(k kernel.Kernel, x *mat.Dense) *gramWork {
	w := new(gramWork)
	w.reset(k, x)
	return w
}

// reset points w at the kernel k and training set x, keeping its
// buffers.
func (w *gramWork) reset(k kernel.Kernel, x *mat.Dense) {
	w.k, w.x = k, x
	w.xt.reset()
	w.xo.reset()
	w.g, w.gauss = k.(kernel.Gaussian)
	if w.gauss {
		w.nx = sqNorms(w.nx, x)
	}
}

// combine sets dst = a·x (dst already sized, its elements overwritten):
// the fixed points' weighted sums of the training points, with x packed
// once for all the steps (the bits of dst.Mul(a, x)).
func (w *gramWork) combine(dst, a *mat.Dense) {
	if w.xo.m == nil {
		w.xo.set(w.x, true)
	}
	w.xo.mulTo(dst, a)
}

// fixedWork holds the buffers of a fixed point's steps (RKPCA's and the
// C → 0 fit's): the kernel rows and the projection. Algorithm 1 keeps one
// for all its partitions; nothing a fit returns holds them.
type fixedWork struct {
	gw gramWork
	pw projWork
}

// start readies fw for a fit to the training set x under k: the kernel
// rows against x and a projection with no model yet.
func (fw *fixedWork) start(k kernel.Kernel, x *mat.Dense) (*gramWork, *projWork) {
	fw.gw.reset(k, x)
	fw.pw.m, fw.pw.q = nil, 0
	fw.pw.aq.reset()
	fw.pw.aqT.reset()
	return &fw.gw, &fw.pw
}

// gram returns k(z_m, d_n) (M×N) in a buffer that the next call
// overwrites.
func (w *gramWork) gram(z *mat.Dense) *mat.Dense {
	if !w.gauss {
		w.kz.Reset()
		kernel.Gram(&w.kz, w.k, z, w.x)
		return &w.kz
	}
	r, _ := z.Dims()
	n := len(w.nx)
	if cap(w.out) < r*n {
		w.out = make([]float64, r*n)
	}
	w.dst.SetRawMatrix(blas64.General{Rows: r, Cols: n, Stride: n, Data: w.out[:r*n]})
	dst := &w.dst
	// z·xᵀ, overwriting dst, with xᵀ packed once for all the steps.
	if w.xt.m == nil {
		w.xt.set(w.x.T(), true)
	}
	w.xt.mulTo(dst, z)
	w.nz = sqNorms(w.nz, z)
	c := w.g.C
	for i, nz := range w.nz {
		kernel.GaussianRow(dst.RawRowView(i), nz, w.nx, c)
	}
	return dst
}

// sqNorms returns the squared row norms of a, each floats.Dot(row, row)
// as kernel.Gram computes them, in dst's storage if it is large enough.
func sqNorms(dst []float64, a *mat.Dense) []float64 {
	r, _ := a.Dims()
	if cap(dst) < r {
		dst = make([]float64, r)
	}
	dst = dst[:r]
	for i := range dst {
		row := a.RawRowView(i)
		dst[i] = floats.Dot(row, row)
	}
	return dst
}

// projWork holds the buffers of one batch projection (KPCA.projectGramTo)
// for the fixed points of RKPCA and fixedObservedFit, which project their
// active rows at every step: allocated once at the first step's batch
// size and sliced to the shrinking batch after, instead of three M×N
// matrices allocated per step.
type projWork struct {
	gam, beta, kc    []float64
	gamM, betaM, kcM mat.Dense // their headers
	// Alpha's first q columns and their transpose for model m, formed
	// (and packed) at the first step instead of at every step.
	m       *KPCA
	q       int
	aq, aqT operand
}

// gamma returns the projection coefficients Γ (M×N) of the kernel rows
// kx = k(z_m, d_n) (M×N) on the first q components of m, in buffers that
// the next call overwrites.
func (w *projWork) gamma(m *KPCA, kx *mat.Dense, q int) *mat.Dense {
	if q < 1 || q > m.Rank() {
		panic(fmt.Sprintf("methods: %d components requested, model has %d", q, m.Rank()))
	}
	r, n := kx.Dims()
	if n != m.N() {
		panic(fmt.Sprintf("methods: kernel rows have %d columns, model has %d training points", n, m.N()))
	}
	if cap(w.gam) < r*n {
		w.gam, w.kc, w.beta = make([]float64, r*n), make([]float64, r*n), make([]float64, r*q)
	}
	if cap(w.beta) < r*q {
		w.beta = make([]float64, r*q)
	}
	// Mul overwrites its receiver (β = 0 in Gemm), so stale values from
	// the previous step do not enter.
	if w.m != m || w.q != q {
		w.m, w.q = m, q
		a := m.Alpha(q)
		w.aq.set(a, true)
		w.aqT.set(a.T(), true)
	}
	w.gamM.SetRawMatrix(blas64.General{Rows: r, Cols: n, Stride: n, Data: w.gam[:r*n]})
	w.betaM.SetRawMatrix(blas64.General{Rows: r, Cols: q, Stride: q, Data: w.beta[:r*q]})
	w.kcM.SetRawMatrix(blas64.General{Rows: r, Cols: n, Stride: n, Data: w.kc[:r*n]})
	m.projectAlphaTo(&w.gamM, &w.betaM, &w.kcM, kx, w.aq, w.aqT)
	return &w.gamM
}

// pullWeights writes into a the diagonal of A = (γ₂e/2Cγ)·Ω·W² of eq. 6 for
// one row at iterate z and input x (obs the mask row, nil for all
// observed), using res as scratch, and returns σ (0 for l2).
func (r *RKPCA) pullWeights(a, res, z, x, obs []float64, gamma float64) float64 {
	var sigma float64
	if r.E0 == E0GemanMcClure {
		sigma = math.Max(gemanMcClureScale(res, z, x, obs), r.SigmaMin)
	}
	s2 := sigma * sigma
	var sum float64 // Σ_j W_jj ρ_j
	for j := range z {
		if obs != nil && obs[j] == 0 {
			a[j] = 0
			continue
		}
		e := z[j] - x[j]
		e2 := e * e
		if r.E0 == E0GemanMcClure {
			t := e2 + s2
			sum += e2 / t
			a[j] = s2 / (t * t) // Ω_jj
		} else {
			sum += e2
			a[j] = 1
		}
	}
	k0 := r.Gamma2 * vecmath.Exp(-r.Gamma2*sum) / (2 * r.C * gamma)
	floats.Scale(k0, a)
	return sigma
}

// gemanMcClureScale returns the robust scale 1.4826·median_j |z_j − x_j|
// over the observed entries (obs nil: all), Nguyen & De la Torre §3.3 after
// Black & Anandan (1996): 1.4826 makes the median absolute deviation a
// consistent estimate of a Gaussian's standard deviation. The median of an
// even count is the mean of the two middle values. res is scratch of
// len(z).
func gemanMcClureScale(res, z, x, obs []float64) float64 {
	res = res[:0]
	for j := range z {
		if obs != nil && obs[j] == 0 {
			continue
		}
		res = append(res, math.Abs(z[j]-x[j]))
	}
	if len(res) == 0 {
		return 0
	}
	n := len(res)
	for _, v := range res {
		if math.IsNaN(v) {
			// slices.Sort's order for NaN, which selection does not keep.
			slices.Sort(res)
			med := res[n/2]
			if n%2 == 0 {
				med = 0.5 * (res[n/2-1] + res[n/2])
			}
			return 1.4826 * med
		}
	}
	// The same order statistics as after sorting, by selection (O(D)
	// instead of O(D log D) per row and iteration).
	med := selectKth(res, n/2)
	if n%2 == 0 {
		// After selection res[:n/2] holds the n/2 smallest values.
		med = 0.5 * (slices.Max(res[:n/2]) + med)
	}
	return 1.4826 * med
}

// selectKth reorders a so that a[k] is the value sorting would put there,
// with no larger value before it and no smaller after (Hoare's selection,
// median-of-three pivots), and returns a[k]. a must hold no NaN.
func selectKth(a []float64, k int) float64 {
	lo, hi := 0, len(a)-1
	for hi > lo {
		mid := lo + (hi-lo)/2
		if a[mid] < a[lo] {
			a[mid], a[lo] = a[lo], a[mid]
		}
		if a[hi] < a[lo] {
			a[hi], a[lo] = a[lo], a[hi]
		}
		if a[hi] < a[mid] {
			a[hi], a[mid] = a[mid], a[hi]
		}
		p := a[mid]
		i, j := lo, hi
		for i <= j {
			for a[i] < p {
				i++
			}
			for a[j] > p {
				j--
			}
			if i <= j {
				a[i], a[j] = a[j], a[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return a[k]
		}
	}
	return a[k]
}

// checkMask checks that a mask (nil allowed) is m×d and holds only 0 and 1.
func checkMask(mask *mat.Dense, m, d int) error {
	if mask == nil {
		return nil
	}
	if r, c := mask.Dims(); r != m || c != d {
		return fmt.Errorf("mask is %d×%d, inputs are %d×%d", r, c, m, d)
	}
	for i := 0; i < m; i++ {
		for _, v := range mask.RawRowView(i) {
			if v != 0 && v != 1 {
				return fmt.Errorf("mask entry %g in row %d, want 0 (missing) or 1 (observed)", v, i)
			}
		}
	}
	return nil
}
