package methods

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/par"
	"github.com/runexp/runexp/internal/vecmath"
)

// LassoGPS is the sparse pre-image of Abrahamsen & Hansen (2011, §5.2) for
// the Gaussian kernel k(x, y) = exp(−‖x−y‖²/c): the minimiser of
//
//	ρ4(z) = R(z) + λ‖z‖₁ = −2 Σ_n γ_n k(z, x_n) + λ Σ_j |z_j| (+ const)    (eqs. 21–22),
//
// traced by Friedman's generalized path seeking (GPS; J. H. Friedman, "Fast
// sparse regression and classification", Stanford technical report 2008,
// Int. J. Forecasting 28 (2012) 722–738; Abrahamsen & Hansen's ref. [5])
// from λ = ∞ (z = 0) downwards. Each GPS step, for every row,
//
//	g_j = −∂R/∂z_j = (4/c) Σ_n γ_n k(z, x_n)(x_jn − z_j)    (eq. 23),
//	p_j = ∂‖z‖₁/∂|z_j| = 1                                    (eq. 24),
//	λ_j = g_j / p_j,
//	S   = {j : λ_j z_j < 0},
//	j*  = argmax_{j∈S} |λ_j| if S is not empty, else argmax_j |λ_j|,
//	z_{j*} ← z_{j*} + Δ·sign(λ_{j*}).
//
// λ_j z_j < 0 is read with λ_j = 0 within its rounding error (gpsRow.inSet):
// a pixel equal to z_j in every training image has no gradient, and the
// sign of its evaluation's rounding noise must not put it in S.
// (Eq. 23's factor checked: R = −2 Σ_n γ_n k(z, x_n) + const and
// ∂k(z, x_n)/∂z_j = −(2/c)(z_j − x_jn) k(z, x_n).) Each step moves one
// coordinate by the fixed step Δ = StepFactor·max|X|, max|X| the largest
// absolute training input ("a fixed step length of 1e−2 max(|X|)"). The
// path's λ at z is max_j |λ_j|; z is the Lasso solution at that λ to within
// the step. Ties go to the lower index. Coordinates are held as integer
// multiples of Δ, so a coordinate never moved, or moved back, is exactly 0.
//
// Stopping ("the algorithm is stopped when the cost function stabilizes";
// ambiguity a5 leaves the rule and the final λ open). Let R_t = ‖φ(z_t) − Ψ‖²
// (eq. 11) after t steps and R*_t = min_{s≤t} R_s. Before step t+1 a row
// stops, converged, when
//
//   - its path λ is 0 to rounding: max_j |λ_j| ≤ N·ε·Σ_n|γ_n k_n|·(max|X| + max_j|z_j|),
//     ε = 2⁻⁵², so z is a stationary point of R (this ends every row whose
//     Γ row is zero, at z = 0);
//   - Lambda > 0 and its path λ ≤ Lambda: z is the Lasso solution at
//     λ = Lambda, to within the step;
//   - t ≥ Window and R*_{t−Window} − R*_t ≤ Tol·(R_0 − R*_t): over the last
//     Window steps the best cost improved by at most the fraction Tol of its
//     improvement since z = 0.
//
// With a fixed step the path does not reach λ = 0: near a minimum of R the
// S rule sends the last coordinate moved back as soon as it overshoots,
// and GPS steps to and fro between two lattice points while the other
// coordinates wait (their |λ_j| is below that of the oscillating one). The
// best cost then stops improving and the third rule ends the row Window
// steps later, with every coordinate within about Δ of the minimiser. The
// rule is relative to the improvement so far, not to R itself, so a start
// where every k(0, x_n) is tiny (a narrow kernel) does not stop at once;
// the sums are kept with a separate exponent for the same reason.
//
// A row that reaches MaxSteps steps stops with Converged false. The result
// is z at the stop. Status.Diag holds "lambda" (the path λ there), "steps"
// and "nonzero" (the number of coordinates with |z_j| > Δ/2, i.e. z_j ≠ 0).
// Problem.X0 and Problem.Start are not used: the path starts at z = 0.
//
// Cost. A path of USPS digits (D = 256, values in [−1, 1], Δ = 0.01) takes
// 10 000–25 000 steps, and a step's gradient, evaluated in full, is an N×D
// product per row. Rows are independent paths, run in parallel, and two
// devices make a step cheaper without changing the path:
//
//   - Weights are updated, not recomputed: moving z_j by δ = ±Δ multiplies
//     k(z, x_n) by e^{−(2δz_j + δ²)/c}·e^{2δx_jn/c}, the second factor
//     tabulated, which costs O(N) per step and no distances. A factor
//     e^{−min_n ‖z−x_n‖²/c} is kept apart as a logarithm, so that weights far
//     from the data do not underflow. Every 1024 steps, or when the weights
//     drift by 2⁶⁴, they are recomputed from exact distances.
//   - Gradient components are evaluated lazily, with certified error bounds
//     on the stale ones (see gpsRow); about one in fifteen is evaluated per
//     step on USPS digits.
//
// A row's arithmetic does not depend on the other rows or on the worker
// that runs it, so a row solved alone gives the same bits as in a batch;
// GPS needs this, since a rounding difference could break a near-tie
// differently and send the path elsewhere.
type LassoGPS struct {
	// StepFactor sets the step Δ = StepFactor·max|X| (> 0).
	StepFactor float64
	// Tol is the relative improvement of the best cost over Window steps
	// below which the path has stabilised (≥ 0).
	Tol float64
	// Window is the number of steps over which the improvement is measured (≥ 1).
	Window int
	// MaxSteps caps the number of GPS steps per row (≥ 0).
	MaxSteps int
	// Lambda, if positive, stops each row when its path λ falls to Lambda.
	Lambda float64

	eager bool // evaluate every gradient component at every step (tests)
}

var _ PreImager = (*LassoGPS)(nil)

func init() {
	Register(Spec{
		Name:    "lasso-gps",
		Title:   "Lasso (GPS)",
		Doc:     "ℓ1-regularised pre-image along Friedman's generalized path seeking, from z = 0",
		Source:  "Abrahamsen & Hansen (2011), J. Signal Process. Syst. 65, eqs. 21–24; Friedman (2012), Int. J. Forecasting 28",
		Does:    PreImages,
		Kernels: GaussianKernel,
		Params: []Param{
			FloatParam("step_factor", 1e-2, 0, Inf, "fixed GPS step as a fraction of max|X| (the paper's 1e-2)"),
			FloatParam("tol", 1e-6, 0, Inf, "stop when the best cost improved over the last window steps by at most tol times its improvement since z = 0"),
			IntParam("window", 50, 1, Inf, "steps over which the cost's improvement is measured"),
			IntParam("max_steps", 100000, 0, Inf, "maximum GPS steps per pre-image"),
			FloatParam("lambda", 0, 0, Inf, "if > 0, stop when the path λ falls to this value (the Lasso solution at λ) or, before it, when the cost settles (tol over window steps), whichever comes first; 0 follows the path until the cost settles").ZeroMeans("no target λ: the path is followed until the cost settles"),
		},
		New: func(p Params) (any, error) {
			l := &LassoGPS{
				StepFactor: p.Float("step_factor"),
				Tol:        p.Float("tol"),
				Window:     p.Int("window"),
				MaxSteps:   p.Int("max_steps"),
				Lambda:     p.Float("lambda"),
			}
			if !(l.StepFactor > 0) {
				return nil, &ParamError{"step_factor", fmt.Sprintf("%v, want a positive step", l.StepFactor)}
			}
			return l, nil
		},
	})
}

// lassoRefresh is the number of steps after which a row's weights are
// recomputed from exact distances and its gradient evaluated in full.
const lassoRefresh = 1024

// PreImage traces the GPS path of every row of p and returns its end.
func (l *LassoGPS) PreImage(dst *mat.Dense, p *Problem) ([]Status, error) {
	c, err := gaussianProblem("lasso-gps", p)
	if err != nil {
		return nil, err
	}
	switch {
	case !(l.StepFactor > 0) || math.IsInf(l.StepFactor, 1):
		return nil, fmt.Errorf("lasso-gps: step_factor %v, want a finite positive number", l.StepFactor)
	case !(l.Tol >= 0):
		return nil, fmt.Errorf("lasso-gps: tol %v, want a number ≥ 0", l.Tol)
	case l.Window < 1:
		return nil, fmt.Errorf("lasso-gps: window %d, want at least 1", l.Window)
	case l.MaxSteps < 0:
		return nil, fmt.Errorf("lasso-gps: max_steps %d, want at least 0", l.MaxSteps)
	case !(l.Lambda >= 0):
		return nil, fmt.Errorf("lasso-gps: lambda %v, want a number ≥ 0", l.Lambda)
	}
	g, err := newGPS(l, p.Basis.X, c)
	if err != nil {
		return nil, err
	}
	m := p.M()
	useDst(dst, m, g.d)
	st := make([]Status, m)

	// Rows are independent paths: the calling goroutine and helpers on
	// the pool's idle cores (par.Run) take them in turn, each with its
	// own buffers, and a row's result does not depend on which goroutine
	// ran it or on the other rows.
	rows := func(next func() (int, bool)) {
		r := g.newRow()
		for i, ok := next(); ok; i, ok = next() {
			r.run(dst.RawRowView(i), p.Gamma.RawRowView(i), &st[i])
		}
	}
	if m*g.n*g.d < 1<<16 {
		i := 0
		rows(func() (int, bool) { i++; return i - 1, i <= m })
	} else {
		par.Run(m, rows)
	}
	CheckFinite(dst, st)
	return st, nil
}

// gps holds what every path of a batch shares: the training inputs
// column by column, the weight factors of a step, and the ranges that bound
// how far a stale gradient component can have moved.
type gps struct {
	n, d     int
	c, delta float64
	xmax     float64 // max|X|
	tol      float64
	window   int
	maxSteps int
	logLam   float64 // log of the target λ, or −Inf
	eager    bool    // evaluate every component at every step (tests only)

	xt    []float64 // D×N: column j of X is xt[j*n:(j+1)*n]
	ePlus []float64 // D×N: e^{2Δx_jn/c}
	eMin  []float64 // D×N: e^{−2Δx_jn/c}
	mid   []float64 // per column: (max_n x_jn + min_n x_jn)/2
	half  []float64 // per column: (max_n x_jn − min_n x_jn)/2
	round []float64 // per column: 8Nε(max_n |x_jn| + |mid_j|), see gpsRow.bounds
	xabs  []float64 // per column: max_n |x_jn|
	every []int     // 0, 1, …, D−1
}

func newGPS(l *LassoGPS, x *mat.Dense, c float64) (*gps, error) {
	n, d := x.Dims()
	g := &gps{
		n: n, d: d, c: c,
		tol: l.Tol, window: l.Window, maxSteps: l.MaxSteps,
		logLam: math.Inf(-1),
		eager:  l.eager,
		xt:     make([]float64, d*n),
		ePlus:  make([]float64, d*n),
		eMin:   make([]float64, d*n),
		mid:    make([]float64, d),
		half:   make([]float64, d),
		round:  make([]float64, d),
		xabs:   make([]float64, d),
		every:  make([]int, d),
	}
	for j := range g.every {
		g.every[j] = j
	}
	if l.Lambda > 0 {
		g.logLam = math.Log(l.Lambda)
	}
	for i := 0; i < n; i++ {
		for j, v := range x.RawRowView(i) {
			g.xt[j*n+i] = v
			g.xmax = math.Max(g.xmax, math.Abs(v))
		}
	}
	if !(g.xmax > 0) || math.IsInf(g.xmax, 1) {
		return nil, fmt.Errorf("lasso-gps: the step is a fraction of max|X| = %v, which must be finite and positive", g.xmax)
	}
	g.delta = l.StepFactor * g.xmax
	for j := 0; j < d; j++ {
		col := g.xt[j*n : (j+1)*n]
		lo, hi := floats.Min(col), floats.Max(col)
		g.mid[j], g.half[j] = lo/2+hi/2, hi/2-lo/2
		g.xabs[j] = math.Max(-lo, hi)
		g.round[j] = 8 * float64(n) * 0x1p-52 * (g.xabs[j] + math.Abs(g.mid[j]))
		for k, v := range col {
			g.ePlus[j*n+k] = vecmath.Exp(2 * g.delta * v / c)
			g.eMin[j*n+k] = vecmath.Exp(-2 * g.delta * v / c)
		}
	}
	return g, nil
}

// gpsRow is one worker's state for the path of one row at a time.
//
// The scaled weights are w_n = γ_n k(z, x_n) e^{−logS}, and the gradient
// component j of eq. 23 is (4/c) e^{logS} λ_j with λ_j = v_j − z_j W,
// v_j = Σ_n w_n x_jn, W = Σ_n w_n. A step multiplies every w_n by its own
// factor, so every v_j moves; instead of recomputing all D of them (an N×D
// product per step), v_j is recomputed (an N-term sum) only when a
// decision of the step depends on it. Between its evaluations at steps s
// and t,
//
//	v_j(t) − v_j(s) = mid_j (W(t) − W(s)) + Σ_n (w_n(t) − w_n(s))(x_jn − mid_j),
//
// and the last term is at most half_j Σ_{s<r≤t} ‖w(r) − w(r−1)‖₁ in
// magnitude, since |x_jn − mid_j| ≤ half_j. With a margin for rounding,
// this puts every stale λ_j in an interval; the argmax, the S set and the
// stopping tests are decided exactly, evaluating a component whenever its
// interval leaves a decision open. The decisions, and so the path, are
// those of evaluating every component at every step; on USPS digits about
// one component in fifteen is evaluated per step.
type gpsRow struct {
	*gps
	w, d2 []float64
	cnt   []int32 // z_j = cnt_j·Δ
	// hist[k] is the number of components with |cnt_j| = k, and maxCnt
	// the largest such k: a step changes one |cnt_j| by 1.
	hist   []int
	maxCnt int

	// Per component j, as of its last evaluation: the terms of the
	// estimate and bound that do not change between evaluations (see
	// eval). One slice per term, so that the bound sweep streams them.
	q, coef, rz, p []float64
	// zr[j]·Σ_n|w_n| bounds the rounding error of an evaluated λ_j
	// (see inS); it changes only when z_j moves.
	zr []float64
	sg []float64 // sign(z_j): −1, 0 or 1

	sum, absW, absW0 float64 // W, Σ_n |w_n|, and Σ_n |w_n| at the last refresh
	acc              float64 // A = Σ_r ‖w(r) − w(r−1)‖₁ over the steps since the last refresh
	logS             float64
	since            int // steps since the last refresh

	// Per component at the current step: λ_j or its estimate, the
	// estimate's error bound (0 when exact), the upper bound of |λ_j|, and
	// membership of S; the candidates for the largest |λ_j|.
	est, bnd, up []float64
	inS          []int // the members of S
	open         []int // components z_j ≠ 0 whose interval of λ_j·z_j contains 0
	cand         []int
	lo           float64 // the largest lower bound of |λ_j|
	batch        []int   // top's components evaluated together
	stale        []int   // the open components not evaluated at this step

	sw           sweepArgs // bounds' view of the terms above
	cbits, sbits []uint64  // bounds' bitmaps: the candidates, and the components that may be in S

	g0   scaled   // Σ_n γ_n k(z_0, x_n)
	best []scaled // ring: max_{s≤t} Σ_n γ_n k(z_s, x_n) for the last window+1 steps
}

func (g *gps) newRow() *gpsRow {
	r := &gpsRow{
		gps:   g,
		w:     make([]float64, g.n),
		d2:    make([]float64, g.n),
		cnt:   make([]int32, g.d),
		q:     make([]float64, g.d),
		coef:  make([]float64, g.d),
		rz:    make([]float64, g.d),
		p:     make([]float64, g.d),
		zr:    make([]float64, g.d),
		sg:    make([]float64, g.d),
		est:   make([]float64, g.d),
		bnd:   make([]float64, g.d),
		up:    make([]float64, g.d),
		inS:   make([]int, 0, g.d),
		open:  make([]int, 0, g.d),
		cand:  make([]int, g.d),
		batch: make([]int, 0, 4),
		stale: make([]int, 0, g.d),
		best:  make([]scaled, g.window+1),
		cbits: make([]uint64, (g.d+63)/64),
		sbits: make([]uint64, (g.d+63)/64),
	}
	r.sw = sweepArgs{q: r.q, coef: r.coef, p: r.p, rz: r.rz, half: g.half, sg: r.sg, est: r.est, bnd: r.bnd, up: r.up}
	return r
}

// scaled is the number m·e^e, for sums of kernel values that may lie
// beyond the floating-point range.
type scaled struct{ m, e float64 }

// on returns a's value on the scale e^top.
func (a scaled) on(top float64) float64 {
	switch {
	case a.m == 0:
		return 0
	case a.e == top && expZeroIsOne && !math.IsInf(top, 0):
		// a.e − top = +0 and a.m·e^{+0} = a.m exactly: the usual case,
		// the scale changing only when the weights are recomputed.
		return a.m
	}
	return a.m * vecmath.Exp(a.e-top)
}

// expZeroIsOne records that vecmath.Exp(+0) is exactly 1, which
// scaled.on's shortcut needs (TestExpAccuracy checks e^0 = 1 as well).
var expZeroIsOne = vecmath.Exp(0) == 1

// refresh recomputes the weights from exact squared distances, taking out
// the factor e^{−dmin/c}, dmin the smallest distance to a training point
// with γ_n ≠ 0, and evaluates every gradient component at step t.
func (r *gpsRow) refresh(z, gam []float64, t int) {
	n := r.n
	d2 := r.d2
	for k := range d2 {
		d2[k] = 0
	}
	for j, zj := range z {
		for k, xv := range r.xt[j*n : (j+1)*n] {
			e := zj - xv
			d2[k] += e * e
		}
	}
	dmin := math.Inf(1)
	for k, v := range d2 {
		if gam[k] != 0 && v < dmin {
			dmin = v
		}
	}
	if math.IsInf(dmin, 1) {
		dmin = 0 // no γ_n ≠ 0: every weight is 0
	}
	var sum, abs float64
	for k, v := range d2 {
		if gam[k] == 0 {
			r.w[k] = 0
			continue
		}
		r.w[k] = gam[k] * vecmath.Exp(-(v-dmin)/r.c)
		sum += r.w[k]
		abs += math.Abs(r.w[k])
	}
	r.logS = -dmin / r.c
	r.sum, r.absW, r.absW0 = sum, abs, abs
	r.acc, r.since = 0, 0
	r.evalAll(r.every, t, z)
}

// eval evaluates component j at step t. Besides λ_j it stores the terms of
// gpsRow.bounds that do not change until the next evaluation or move of
// z_j:
//
//	estimate  v_j + mid_j(W − W_s) − z_j W  as  q + coef·W,
//	bound     half_j(A − A_s) + round_j(S + S_s) + 8ε|z_j|S  as  half_j·A + rz·S + p,
//
// with W_s, S_s = Σ_n |w_n| and A_s the values at step s = t, q = v − mid_j W_s,
// coef = mid_j − z_j, rz = round_j + 8ε|z_j| and p = round_j S_s − half_j A_s.
func (r *gpsRow) eval(j, t int, zj float64) {
	r.set(j, zj, dot1(r.w, r.col(j)))
}

// col returns column j of X.
func (r *gpsRow) col(j int) []float64 { return r.xt[j*r.n : (j+1)*r.n] }

// evalAll evaluates the components js at step t, four at a time (dot4:
// the same bits as eval's dot, one at a time).
func (r *gpsRow) evalAll(js []int, t int, z []float64) {
	for len(js) >= 4 {
		j0, j1, j2, j3 := js[0], js[1], js[2], js[3]
		v0, v1, v2, v3 := dot4(r.w, r.col(j0), r.col(j1), r.col(j2), r.col(j3))
		r.set(j0, z[j0], v0)
		r.set(j1, z[j1], v1)
		r.set(j2, z[j2], v2)
		r.set(j3, z[j3], v3)
		js = js[4:]
	}
	switch len(js) {
	case 1:
		r.eval(js[0], t, z[js[0]])
	case 2, 3:
		// The missing columns repeat the first; their sums are dropped.
		j0, j1, j2 := js[0], js[1], js[0]
		if len(js) == 3 {
			j2 = js[2]
		}
		v0, v1, v2, _ := dot4(r.w, r.col(j0), r.col(j1), r.col(j2), r.col(j0))
		r.set(j0, z[j0], v0)
		r.set(j1, z[j1], v1)
		if len(js) == 3 {
			r.set(j2, z[j2], v2)
		}
	}
}

// set stores λ_j = v − z_j W, exact at this step, and the terms of its
// later estimates, given v = Σ_n w_n x_jn.
func (r *gpsRow) set(j int, zj, v float64) {
	const eps = 0x1p-52
	r.q[j] = v - r.mid[j]*r.sum
	r.coef[j] = r.mid[j] - zj
	r.rz[j] = r.round[j] + 8*eps*math.Abs(zj)
	r.p[j] = r.round[j]*r.absW - r.half[j]*r.acc
	r.est[j], r.bnd[j] = v-zj*r.sum, 0
	r.up[j] = math.Abs(r.est[j])
}

// bounds sets, for every component j at step t, λ_j (exact if every
// component was evaluated at t, all, else an estimate), the error bound
// and the upper bound of |λ_j|, and makes the components whose upper bound
// reaches the largest lower bound the candidates for the largest |λ_j|.
// It also sorts the components with z_j ≠ 0 for the S set: into r.inS
// those whose interval of λ_j z_j lies below 0, into r.open those whose
// interval contains 0 (decided in run). It returns max_j |z_j|.
func (r *gpsRow) bounds(z []float64, all bool) (zmax float64) {
	const eps = 0x1p-52
	// The drift term of eval's comment with a margin for the rounding
	// of the running sum A (which also covers that of the products
	// half_j·A and half_j·A_s); round_j·(Σ|w| now + Σ|w| then) is the
	// margin for the rounding of the N-term sums behind v_j and W, at
	// least 16 times their worst case γ_N·Σ|terms| (Higham, Accuracy and
	// Stability of Numerical Algorithms, 2nd ed., §3.1), so its spare
	// covers the few roundings of q, coef and the estimate with its
	// products; 8ε|z_j|Σ|w| is the margin for z_j·W.
	a := &r.sw
	a.w, a.a, a.s = r.sum, r.acc*(1+1e-9+4*eps), r.absW
	// Two vector passes (lasso_sweep.go): the first sets, unless all
	// (eval set them at this step), est = q + coef·W and
	// bnd = (half·A + p) + rz·S component by component, and finds the
	// largest lower bound lo; the second sets the upper bounds and marks
	// the candidates, those whose upper bound reaches lo, and the
	// components whose interval of λ_j·sign(z_j) may lie below 0.
	lo := sweepLo(a, all)
	clear(r.cbits)
	clear(r.sbits)
	sweepBits(a, lo, r.cbits, r.sbits)
	cand := appendBits(r.cand[:0], r.cbits)
	// The S set (see inS): with s = sign(z_j), j is in S when
	// λ_j·s < −ρ_j. The interval of λ_j·s is [x − b, x + b]: below
	// −ρ_j, j is in S; reaching it, j is open. Both need x < b, the
	// marked components, which are few (and never those with z_j = 0,
	// where x = ±0 and b·s² = 0); products with s = ±1 are exact, and a
	// rounded x + b < −ρ_j implies the exact one.
	inS, open := r.inS[:0], appendBits(r.open[:0], r.sbits)
	k := 0
	for _, j := range open {
		x, rho, bnd := r.est[j]*r.sg[j], r.zr[j]*a.s, r.bnd[j]
		if x+bnd < -rho {
			inS = append(inS, j)
		} else if x-bnd <= -rho {
			open[k] = j
			k++
		}
	}
	open = open[:k]
	r.cand, r.inS, r.open, r.lo = cand, inS, open, lo
	// max_j |z_j| = max_j |cnt_j|·Δ, the product being monotone in |cnt_j|.
	return float64(r.maxCnt) * r.delta
}

// top returns, among the candidates, the component with the largest
// |λ_j|, ties to the lower index, and its exact λ_j, or −1 if there is
// none. A candidate is evaluated only while its upper bound can beat the
// best exact value so far; the order only changes how many are evaluated,
// not the result.
func (r *gpsRow) top(z []float64, t int) (int, float64) {
	// The candidate with the largest upper bound (ties to the lower
	// index) first: its exact value is usually close to the largest, and
	// then a single pass, in index order, evaluates only the candidates
	// whose upper bound can still beat the best exact value so far.
	first, fu := -1, r.lo
	for _, j := range r.cand {
		if u := r.up[j]; u > fu || u == fu && first < 0 {
			first, fu = j, u
		}
	}
	if first < 0 {
		return -1, 0
	}
	// Candidates are evaluated four at a time (evalAll), each batch
	// filled in index order with those that can still win against the
	// best exact value before the batch; evaluating a few that the
	// batch's earlier members would have ruled out costs less than the
	// latency of one evaluation at a time, and changes no decision: the
	// result is the largest exact |λ_j| among the candidates, ties to the
	// lower index, whichever of them were evaluated.
	if r.bnd[first] > 0 {
		// With first, up to three that may beat its lower bound.
		b := append(r.batch[:0], first)
		lb := math.Max(r.lo, r.up[first]-2*r.bnd[first])
		for _, j := range r.cand {
			if len(b) == 4 {
				break
			}
			if j != first && r.bnd[j] > 0 && r.up[j] >= lb {
				b = append(b, j)
			}
		}
		r.evalAll(b, t, z)
	}
	best, bv := first, r.up[first]
	cand := r.cand
	for i := 0; i < len(cand); {
		b := r.batch[:0]
		for ; i < len(cand) && len(b) < 4; i++ {
			j := cand[i]
			if u := r.up[j]; j == first || u < bv || u == bv && j > best { // every candidate has u ≥ r.lo
				continue
			}
			if r.bnd[j] > 0 {
				b = append(b, j)
			} else if a := r.up[j]; a > bv || a == bv && j < best {
				best, bv = j, a
			}
		}
		if len(b) == 0 {
			continue
		}
		r.evalAll(b, t, z)
		for _, j := range b {
			if a := r.up[j]; a > bv || a == bv && j < best {
				best, bv = j, a
			}
		}
	}
	return best, r.est[best]
}

// run traces the path of one row from z = 0, writing z into the row and the
// outcome into st.
func (r *gpsRow) run(z, gam []float64, st *Status) {
	for j := range z {
		z[j] = 0
		r.cnt[j] = 0
		r.sg[j] = 0
		r.zr[j] = r.zround(j, 0)
	}
	r.hist = append(r.hist[:0], len(z))
	r.maxCnt = 0
	if !allFinite(gam) {
		st.Err = ErrNotFinite
		return
	}
	r.refresh(z, gam, 0)
	r.g0 = scaled{r.sum, r.logS}
	for t := 0; ; t++ {
		if r.since >= lassoRefresh || !(r.absW < 0x1p64*r.absW0) || !(r.absW > 0x1p-64*r.absW0) {
			r.refresh(z, gam, t)
		}
		all := r.since == 0 // refresh (also before step 0) evaluated every component at t
		if r.eager && !all {
			r.evalAll(r.every, t, z)
			all = true
		}
		zmax := r.bounds(z, all)
		j, lj := r.top(z, t)
		if r.finished(t, j, lj, zmax, st) {
			return
		}

		// The S set, {j : λ_j z_j < 0}: bounds put in r.inS the j whose
		// interval lies below 0 (an evaluation in top keeps λ_j in its
		// interval) and in r.open those whose interval contains 0, which
		// are evaluated here unless top already did.
		// An evaluation changes only its own component's terms, so
		// the open ones are evaluated together (evalAll: the bits of
		// one at a time), then tested.
		stale := r.stale[:0]
		for _, j := range r.open {
			if r.bnd[j] > 0 {
				stale = append(stale, j)
			}
		}
		r.evalAll(stale, t, z)
		r.stale = stale
		for _, j := range r.open {
			if r.inSet(j) {
				r.inS = append(r.inS, j)
			}
		}
		if len(r.inS) > 0 {
			// argmax over S: the members' intervals exclude 0.
			r.lo = math.Inf(-1)
			for _, j := range r.inS {
				if r.up[j]-2*r.bnd[j] > r.lo {
					r.lo = r.up[j] - 2*r.bnd[j]
				}
			}
			r.cand = r.cand[:0]
			for _, j := range r.inS {
				if r.up[j] >= r.lo {
					r.cand = append(r.cand, j)
				}
			}
			j, lj = r.top(z, t)
		}
		r.move(j, lj, z)
	}
}

// finished applies the stopping rules before step t+1, given the
// component j with the largest |λ_j| and its λ_j, and if the path stops
// fills in st.
func (r *gpsRow) finished(t, j int, lj, zmax float64, st *Status) bool {
	m := 0.0
	if j >= 0 {
		m = math.Abs(lj)
	}

	// The cost's history: best[t] = max_{s≤t} Σ_n γ_n k(z_s, x_n), the
	// largest of which is the smallest R(z_s).
	ring := r.best
	cur := scaled{r.sum, r.logS}
	if t > 0 {
		prev := ring[(t-1)%len(ring)]
		top := math.Max(cur.e, prev.e)
		if prev.on(top) > cur.on(top) {
			cur = prev
		}
	}
	ring[t%len(ring)] = cur

	// The log of the path λ, needed at every step only for a target λ:
	// with none (r.logLam = −∞) the second rule can hold only where the
	// logarithm's argument is 0 or NaN, or the scale logS is not finite,
	// and otherwise it is needed only for the record of a stop.
	x := 4 / r.c * m
	logLam := math.NaN()
	if r.logLam != math.Inf(-1) || !(x > 0) || math.IsInf(r.logS, 0) || math.IsNaN(r.logS) {
		logLam = math.Log(x) + r.logS
	}
	stop, converged := false, true
	switch {
	case m <= float64(r.n)*0x1p-52*r.absW*(r.xmax+zmax):
		stop = true
	case logLam <= r.logLam: // false for a NaN logLam
		stop = true
	case t >= r.window:
		// R*_{t−W} − R*_t ≤ Tol·(R_0 − R*_t), with R = 1 − 2Σγk + Ω.
		then := ring[(t-r.window)%len(ring)]
		top := math.Max(cur.e, math.Max(then.e, r.g0.e))
		now := cur.on(top)
		stop = now-then.on(top) <= r.tol*(now-r.g0.on(top))
	}
	if !stop && t >= r.maxSteps {
		stop, converged = true, false
	}
	if !stop {
		return false
	}
	nz := 0
	for _, k := range r.cnt {
		if k != 0 {
			nz++
		}
	}
	if math.IsNaN(logLam) {
		logLam = math.Log(x) + r.logS
	}
	st.Iterations, st.Converged = t, converged
	st.Diag = map[string]float64{"lambda": math.Exp(logLam), "steps": float64(t), "nonzero": float64(nz)}
	return true
}

// inSet reports whether component j, evaluated at this step, is in
// S = {j : λ_j z_j < 0}, with λ_j taken as 0 within its rounding error
// ρ_j = zr_j·Σ_n|w_n| (zround): a coordinate with no gradient, such as a
// pixel equal to z_j in every training image, has λ_j = Σ_n w_n(x_jn − z_j)
// = 0 exactly, but its evaluation v_j − z_j W, two sums of N terms in
// different orders, leaves rounding noise whose sign would otherwise put j
// in S and step the path to and fro on it.
func (r *gpsRow) inSet(j int) bool {
	return r.est[j]*r.sg[j] < -r.zr[j]*r.absW
}

// zround returns zr_j for z_j = zj: 2(N+1)ε(max_n|x_jn| + |z_j|). The
// evaluated λ_j = fl(fl(Σ_n w_n x_jn) − fl(z_j·W)), W the running sum of
// the weights, differs from Σ_n w_n(x_jn − z_j) by at most
// γ_N Σ_n|w_n|(max_n|x_jn| + |z_j|) + ε|z_j||W| + ε|λ_j| (Higham, Accuracy
// and Stability of Numerical Algorithms, 2nd ed., §3.1, for the sums, in
// any order), about (N+1)ε·Σ_n|w_n|(max_n|x_jn| + |z_j|); the factor 2
// covers the rounding of the running Σ_n|w_n| and of this bound itself.
func (r *gpsRow) zround(j int, zj float64) float64 {
	return 2 * float64(r.n+1) * 0x1p-52 * (r.xabs[j] + math.Abs(zj))
}

// move takes the step z_j ← z_j + Δ·sign(λ_j) and updates the weights:
// k(z', x_n) = k(z, x_n)·e^{−(2δz_j + δ²)/c}·e^{2δx_jn/c}, δ = ±Δ, the last
// factor tabulated.
func (r *gpsRow) move(j int, lj float64, z []float64) {
	n := r.n
	delta, e := r.delta, r.ePlus[j*n:(j+1)*n]
	if lj < 0 {
		delta, e = -delta, r.eMin[j*n:(j+1)*n]
	}
	f := vecmath.Exp(-(2*delta*z[j] + delta*delta) / r.c)
	old := abs32(r.cnt[j])
	if delta > 0 {
		r.cnt[j]++
	} else {
		r.cnt[j]--
	}
	k := abs32(r.cnt[j])
	if k == len(r.hist) {
		r.hist = append(r.hist, 0)
	}
	r.hist[old]--
	r.hist[k]++
	if k > r.maxCnt {
		r.maxCnt = k
	} else if r.hist[r.maxCnt] == 0 {
		r.maxCnt--
	}
	z[j] = float64(r.cnt[j]) * r.delta
	r.coef[j] = r.mid[j] - z[j]
	r.rz[j] = r.round[j] + 8*0x1p-52*math.Abs(z[j])
	r.zr[j] = r.zround(j, z[j])
	switch {
	case r.cnt[j] > 0:
		r.sg[j] = 1
	case r.cnt[j] < 0:
		r.sg[j] = -1
	default:
		r.sg[j] = 0
	}
	// w_k ← (w_k·e_k)·f, and Σ w, Σ |w| and Σ |Δw| in order (lasso_sweep.go).
	sum, abs, change := weights(r.w, e, f)
	r.sum, r.absW = sum, abs
	r.acc += change
	r.since++
}

func abs32(k int32) int {
	if k < 0 {
		return -int(k)
	}
	return int(k)
}
