package methods

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
)

// Basis is what a pre-image estimator may know about the training set: the
// inputs, the kernel and its Gram matrix. Feature-space points are
// expansions over the images φ(x_n) of these inputs.
type Basis struct {
	// X holds the N×D training inputs, one per row.
	X *mat.Dense
	// Kernel is the kernel k.
	Kernel kernel.Kernel
	// K is the N×N Gram matrix of X under Kernel.
	K *mat.SymDense
	// Diag holds k(x_n, x_n).
	Diag []float64
}

// NewBasis computes the Gram matrix of x under k.
func NewBasis(x *mat.Dense, k kernel.Kernel) *Basis {
	g := kernel.SelfGram(k, x)
	n := g.SymmetricDim()
	d := make([]float64, n)
	for i := range d {
		d[i] = g.At(i, i)
	}
	return &Basis{X: x, Kernel: k, K: g, Diag: d}
}

// Problem is a batch of M feature-space points whose pre-images are sought:
// Ψ_m = Σ_n Gamma[m,n] φ(x_n). Estimators must not modify any field.
type Problem struct {
	Basis *Basis
	// Gamma is M×N.
	Gamma *mat.Dense
	// Terms holds ΓK and ‖Ψ_m‖²; NewProblem fills it.
	Terms *CostTerms
	// X0 is M×D: the observed (noisy) inputs whose projections Ψ_m are,
	// or nil when there are none (e.g. cluster centres). Regularised
	// estimators pull towards it; iterative ones may start from it.
	X0 *mat.Dense
	// Start is M×D or nil: starting points that override an iterative
	// estimator's own start rule (Abrahamsen & Hansen Fig. 3 and 5 start
	// Mika's iteration from chosen training points).
	Start *mat.Dense
	// Rand is the cell's random stream, for estimators that draw; nil when
	// the caller has none (such estimators then report an error).
	Rand *rand.Rand
}

// NewProblem builds a Problem and its cost terms.
func NewProblem(b *Basis, gamma, x0 *mat.Dense) *Problem {
	return &Problem{Basis: b, Gamma: gamma, Terms: NewCostTerms(b.K, gamma), X0: x0}
}

// M returns the number of feature-space points.
func (p *Problem) M() int { r, _ := p.Gamma.Dims(); return r }

// Validate checks that every matrix of p agrees with the basis. Estimators
// call it first and return its error, so a wrong dimension is a clear
// error rather than a panic deep in a matrix product.
func (p *Problem) Validate() error {
	if p.Basis == nil || p.Basis.X == nil || p.Basis.K == nil {
		return errors.New("methods: problem has no basis")
	}
	n, d := p.Basis.X.Dims()
	m, gn := p.Gamma.Dims()
	if gn != n {
		return fmt.Errorf("methods: Γ has %d columns, basis has %d training points", gn, n)
	}
	if p.Terms == nil {
		return errors.New("methods: problem built without NewProblem (no cost terms)")
	}
	for _, x := range []struct {
		name string
		m    *mat.Dense
	}{{"X0", p.X0}, {"Start", p.Start}} {
		if x.m == nil {
			continue
		}
		r, c := x.m.Dims()
		if r != m || c != d {
			return fmt.Errorf("methods: %s is %d×%d, want %d×%d", x.name, r, c, m, d)
		}
	}
	return nil
}

// Status reports how the estimate of one row went. A row with a non-nil Err
// holds no valid pre-image; the runner records the reason in the cell.
type Status struct {
	// Iterations is the number of iterations used, 0 for direct methods.
	Iterations int
	// Converged is false when an iterative method hit its cap.
	Converged bool
	// Err is the numerical failure, if any (vanishing denominator, NaN).
	Err error
	// Diag holds estimator-specific diagnostics of the row (e.g. the λ a
	// path-seeking method stopped at), or nil. Experiments may summarise
	// them in the cell's metrics.
	Diag map[string]float64
}

// PreImager finds input-space points z_m with φ(z_m) close to Ψ_m.
//
// PreImage writes the M×D pre-images into dst (which must be empty or
// M×D) and returns one Status per row. The error is for a problem the
// estimator cannot take at all: wrong dimensions, an unsupported kernel.
type PreImager interface {
	PreImage(dst *mat.Dense, p *Problem) ([]Status, error)
}

// DenoiseInput is a batch of observed inputs to denoise with a fitted model.
type DenoiseInput struct {
	Model *KPCA
	// Q is the number of principal components.
	Q int
	// X0 is M×D: the noisy inputs.
	X0 *mat.Dense
	// Rand is the cell's random stream, or nil.
	Rand *rand.Rand
	// Mask is M×D with 1 where an entry of X0 is observed and 0 where it
	// is missing, or nil when every entry is observed. Estimators that
	// handle missing data (RKPCA, the imputers) read it; the others ignore
	// it and treat every entry as observed, so experiments pass a mask only
	// to estimators that document using it.
	Mask *mat.Dense
}

// Denoiser maps noisy inputs directly to denoised ones (linear PCA, robust
// KPCA, joint de-noising). Denoise writes M×D outputs into dst.
type Denoiser interface {
	Denoise(dst *mat.Dense, in *DenoiseInput) ([]Status, error)
}

// ProjectThenPreImage turns a PreImager into a Denoiser: project onto the
// first Q kernel principal components, then find the pre-image.
type ProjectThenPreImage struct {
	PreImager
}

// Denoise projects in.X0 (eq. 3, 10) and solves the pre-image problem.
func (d ProjectThenPreImage) Denoise(dst *mat.Dense, in *DenoiseInput) ([]Status, error) {
	if err := checkDenoiseInput(in); err != nil {
		return nil, err
	}
	proj := in.Model.Project(in.X0, in.Q)
	p := NewProblem(in.Model.Basis(), proj.Gamma, in.X0)
	p.Rand = in.Rand
	return d.PreImage(dst, p)
}

func checkDenoiseInput(in *DenoiseInput) error {
	if in.Model == nil {
		return errors.New("methods: no model to denoise with")
	}
	if _, c := in.X0.Dims(); c != in.Model.Dim() {
		return fmt.Errorf("methods: inputs have %d columns, model was fitted on %d", c, in.Model.Dim())
	}
	if in.Q < 1 || in.Q > in.Model.Rank() {
		return fmt.Errorf("methods: %d components requested, model has %d", in.Q, in.Model.Rank())
	}
	return nil
}

// AsDenoiser returns est as a Denoiser, projecting first if it is a
// PreImager. ok is false when est is neither.
func AsDenoiser(est any) (Denoiser, bool) {
	switch e := est.(type) {
	case Denoiser:
		return e, true
	case PreImager:
		return ProjectThenPreImage{e}, true
	}
	return nil, false
}

// Failed returns a Status slice of length m, every row failed with err.
func Failed(m int, err error) []Status {
	s := make([]Status, m)
	for i := range s {
		s[i].Err = err
	}
	return s
}

// CheckFinite marks as failed every row of z holding a NaN or infinity, so
// no estimator can hand a non-finite pre-image on as a result.
func CheckFinite(z *mat.Dense, st []Status) {
	r, _ := z.Dims()
	for i := 0; i < r; i++ {
		if st[i].Err != nil {
			continue
		}
		for _, v := range z.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				st[i].Err = ErrNotFinite
				break
			}
		}
	}
}

// Numerical failures that estimators report per row.
var (
	ErrNotFinite   = errors.New("pre-image is not finite")
	ErrDenominator = errors.New("fixed-point denominator vanished")
)

// ErrUnsupported is what an estimator's error wraps when it declines a
// problem it was not built for (a kernel without the closed form it
// needs, a capability it lacks): a refusal, not a failure. The
// conformance kit counts such an error, or a kernel the Spec's Kernels
// excludes, as the estimator declining; any other error is a failure.
// An external command declines by exiting with status 3
// (ExitUnsupported), which the Python helper does when the estimator
// raises rx.Unsupported.
var ErrUnsupported = errors.New("unsupported by the estimator")

// Unsupportedf returns an error with the message format gives that wraps
// ErrUnsupported: an estimator declining a problem it was not built for.
func Unsupportedf(format string, args ...any) error {
	return &unsupportedError{fmt.Sprintf(format, args...)}
}

type unsupportedError struct{ msg string }

func (e *unsupportedError) Error() string { return e.msg }
func (e *unsupportedError) Unwrap() error { return ErrUnsupported }
