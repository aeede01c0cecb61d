package methods

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/vecmath"
)

// Mika is the fixed-point pre-image iteration of Mika et al. (1999) for the
// Gaussian kernel k(x, y) = exp(−‖x−y‖²/c), as written by Abrahamsen &
// Hansen (2011, eq. 13):
//
//	z_{t+1} = Σ_n γ_n k(z_t, x_n) x_n / Σ_n γ_n k(z_t, x_n).
//
// It seeks a stationary point of Σ_n γ_n k(z, x_n) (eq. 12), which for the
// Gaussian kernel minimises the feature-space distance R(z) of eq. 11. The
// iteration is local: it converges to the extremum nearest its start and
// may oscillate or divide by a vanishing denominator, which Abrahamsen &
// Hansen's Fig. 3 illustrates.
//
// All rows of a Problem iterate together: each iteration computes the
// squared distances between every still-active iterate and every training
// point with one matrix product, forms the weights W = Γ∘K(Z, X), and the
// next iterates W·X with a second product. Rows leave the batch as they
// converge or fail.
//
// Two implementation choices do not change the fixed point of eq. 13:
//
//   - The common factor exp(−min_n ‖z_t−x_n‖²/c), minimum over the n with
//     γ_n ≠ 0, cancels between numerator and denominator. It is divided out
//     so that an iterate far from the training data does not make every
//     weight underflow to zero, where eq. 13 as written computes 0/0.
//   - The denominator test is relative: a row fails with ErrDenominator when
//     |Σ_n γ_n k_n| ≤ Eps·Σ_n |γ_n k_n|, i.e. when positive and negative
//     weights cancel to within a fraction Eps of their magnitude. The row
//     then keeps its last iterate.
//
// A row converges when ‖z_{t+1} − z_t‖² ≤ Tol²·max(1, ‖z_t‖²), a step
// relative to the iterate's size (absolute below norm 1). A row that
// reaches MaxIter iterations is reported with Converged false and its last
// iterate; that is not an error.
type Mika struct {
	// MaxIter caps the number of fixed-point steps per row (≥ 1).
	MaxIter int
	// Tol is the relative step size at which a row has converged (≥ 0).
	Tol float64
	// Start chooses z_0 when Problem.Start is nil: "noisy" (Problem.X0),
	// "mean" (the mean of the training inputs) or "nearest" (the training
	// input whose image is nearest Ψ in feature space).
	Start string
	// Eps is the relative size below which the denominator has vanished.
	Eps float64
}

var _ PreImager = (*Mika)(nil)

// Start rules shared by the iterative estimators.
const (
	StartNoisy   = "noisy"
	StartMean    = "mean"
	StartNearest = "nearest"
)

// StartRules lists the accepted values of a "start" parameter.
var StartRules = []string{StartNoisy, StartMean, StartNearest}

func init() {
	Register(Spec{
		Name:    "mika",
		Title:   "Mika et al.",
		Doc:     "fixed-point iteration for the Gaussian kernel",
		Source:  "Mika et al. (1999), NIPS 11; Abrahamsen & Hansen (2011) eq. 13",
		Does:    PreImages,
		Kernels: GaussianKernel,
		Params: []Param{
			IntParam("max_iter", 1000, 1, Inf, "maximum fixed-point steps per pre-image"),
			FloatParam("tol", 1e-9, 0, Inf, "stop when ‖z_{t+1}−z_t‖² ≤ tol²·max(1, ‖z_t‖²)"),
			StringParam("start", StartNoisy, StartRules, "z_0 when the problem gives none: noisy input, training mean, or nearest training point in feature space"),
			FloatParam("eps", 1e-12, 0, 1, "fail a row when |Σγ_n k_n| ≤ eps·Σ|γ_n k_n|"),
		},
		New: func(p Params) (any, error) {
			return &Mika{MaxIter: p.Int("max_iter"), Tol: p.Float("tol"), Start: p.String("start"), Eps: p.Float("eps")}, nil
		},
	})
}

// PreImage runs the fixed-point iteration for every row of p.
func (mk *Mika) PreImage(dst *mat.Dense, p *Problem) ([]Status, error) {
	c, err := gaussianProblem("mika", p)
	if err != nil {
		return nil, err
	}
	return mk.iterate("mika", dst, p, c, nil)
}

// iterate runs the fixed-point iteration (fixedPoint, with pull: nil for
// Mika's, the penalty's for Tikhonov's) for every row of p, with mk's
// settings; name prefixes its errors.
func (mk *Mika) iterate(name string, dst *mat.Dense, p *Problem, c float64, pull *inputPull) ([]Status, error) {
	if mk.MaxIter < 1 {
		return nil, fmt.Errorf("%s: max_iter %d, want at least 1", name, mk.MaxIter)
	}
	z, err := startPoints(p, mk.Start)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	m := p.M()
	_, d := p.Basis.X.Dims()
	useDst(dst, m, d)
	st := make([]Status, m)
	fixedPoint(dst, st, z, p, c, mk.MaxIter, mk.Tol, mk.Eps, pull)
	CheckFinite(dst, st)
	return st, nil
}

// startPoints returns a new M×D matrix of starting points: Problem.Start if
// given, else the rule named by start.
func startPoints(p *Problem, start string) (*mat.Dense, error) {
	if p.Start != nil {
		return mat.DenseCopyOf(p.Start), nil
	}
	m := p.M()
	_, d := p.Basis.X.Dims()
	z := mat.NewDense(m, d, nil)
	switch start {
	case StartNoisy, "":
		if p.X0 == nil {
			// Another start rule does without: mika declines, it does
			// not declare NeedsX0.
			return nil, Unsupportedf(`start "noisy" needs the noisy inputs (Problem.X0)`)
		}
		z.Copy(p.X0)
	case StartMean:
		mu := colMeans(p.Basis.X)
		for i := 0; i < m; i++ {
			copy(z.RawRowView(i), mu)
		}
	case StartNearest:
		for i, j := range nearestTrain(p) {
			copy(z.RawRowView(i), p.Basis.X.RawRowView(j))
		}
	default:
		return nil, fmt.Errorf("unknown start rule %q (want one of %v)", start, StartRules)
	}
	return z, nil
}

// inputPull is the input-space term of Tikhonov's fixed point (Abrahamsen &
// Hansen eq. 20) written with the kernel terms' factor 2/c moved to the pull:
//
//	z_{t+1} = [Σ_n γ_n k(z_t, x_n) x_n + Mu·x0] / [Σ_n γ_n k(z_t, x_n) + Mu],
//
// Mu = cλ/2. Mika's iteration (eq. 13) is Mu = 0.
type inputPull struct {
	x0 *mat.Dense // M×D, the point the iterates are pulled towards
	mu float64    // cλ/2 ≥ 0
}

// fixedPoint iterates eq. 13 (pull nil) or eq. 20 from the rows of z
// (overwritten) and writes the final iterates into dst and the outcome into
// st.
func fixedPoint(dst *mat.Dense, st []Status, z *mat.Dense, p *Problem, c float64, maxIter int, tol, eps float64, pull *inputPull) {
	x := p.Basis.X
	_, d := x.Dims()
	m := p.M()
	var x0 *mat.Dense
	if pull != nil && pull.mu > 0 {
		x0 = mat.DenseCopyOf(pull.x0)
	}

	// The active rows occupy the leading rows of z and g (and x0); slot i
	// holds the problem row act[i]. Compaction keeps the slots in row order,
	// so the result does not depend on when other rows finish.
	g := mat.DenseCopyOf(p.Gamma)
	act := startActive(dst, z, st, g, x0)

	var w mat.Dense // squared distances, then weights
	next := mat.NewDense(m, d, nil)
	den := make([]float64, m)
	mu := make([]float64, m)
	done := make([]bool, m)
	tol2 := tol * tol
	for it := 1; it <= maxIter && len(act) > 0; it++ {
		a := len(act)
		za := z.Slice(0, a, 0, d).(*mat.Dense)
		w.Reset()
		kernel.SqDist(&w, za, x)
		for i := 0; i < a; i++ {
			sum, abs, dmin := mikaWeights(w.RawRowView(i), g.RawRowView(i), c)
			den[i], mu[i] = fixedPointDenominator(sum, abs, dmin, c, eps, pull)
		}
		na := next.Slice(0, a, 0, d).(*mat.Dense)
		na.Mul(&w, x) // Σ_n γ_n k(z_t, x_n) x_n for all active rows at once

		for i := 0; i < a; i++ {
			done[i] = false
			row := act[i]
			zi := z.RawRowView(i)
			if math.IsNaN(den[i]) {
				st[row].Err = ErrDenominator
				done[i] = true
				continue
			}
			ni := na.RawRowView(i)
			switch {
			case math.IsInf(mu[i], 1):
				// The pull outweighs every kernel term (λ·e^{dmin/c}
				// overflows, or no γ_n is nonzero): eq. 20 gives x0.
				copy(ni, x0.RawRowView(i))
			case mu[i] > 0:
				floats.AddScaled(ni, mu[i], x0.RawRowView(i))
				floats.Scale(1/den[i], ni)
			default:
				floats.Scale(1/den[i], ni)
			}
			done[i] = acceptStep(&st[row], zi, ni, it, tol2)
		}

		act = retire(dst, z, done, act, g, x0)
	}
	// Rows still active hit maxIter: Converged stays false.
	for i, row := range act {
		copy(dst.RawRowView(row), z.RawRowView(i))
	}
}

// mikaWeights overwrites the squared distances d2_n = ‖z−x_n‖² of one row with
// the scaled weights γ_n exp(−(d2_n − dmin)/c), dmin the minimum over the n
// with γ_n ≠ 0 (+Inf when there are none), and returns their sum, the
// denominator of eq. 13, the sum of their magnitudes and dmin.
func mikaWeights(d2, gamma []float64, c float64) (sum, abs, dmin float64) {
	dmin = math.Inf(1)
	for j, v := range d2 {
		if gamma[j] != 0 && v < dmin {
			dmin = v
		}
	}
	for j, v := range d2 {
		d2[j] = -(v - dmin) / c
	}
	vecmath.ExpTo(d2, d2)
	for j, e := range d2 {
		if gamma[j] == 0 {
			d2[j] = 0
			continue
		}
		wj := gamma[j] * e
		d2[j] = wj
		sum += wj
		abs += math.Abs(wj)
	}
	return sum, abs, dmin
}

// fixedPointDenominator returns the denominator of eq. 13, or of eq. 20 when
// pull is non-nil, for scaled weights with the given sum and sum of
// magnitudes, together with the pull's weight in the same scale,
// mu = (cλ/2)·e^{dmin/c} (0 for eq. 13, +Inf when it overflows or no γ_n is
// nonzero). The denominator is NaN when it has vanished relative to the
// magnitude of its terms (see Mika and Tikhonov).
func fixedPointDenominator(sum, abs, dmin, c, eps float64, pull *inputPull) (den, mu float64) {
	if pull != nil && pull.mu > 0 {
		mu = pull.mu * vecmath.Exp(dmin/c)
		if math.IsInf(mu, 1) {
			return mu, mu
		}
	}
	den = sum
	if mu > 0 {
		den += mu
	}
	if !(math.Abs(den) > eps*(abs+mu)) {
		// Also catches abs = 0 (Γ row of zeros) and NaN.
		return math.NaN(), mu
	}
	return den, mu
}

func allFinite(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
