package methods

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Tikhonov is the input-space regularised fixed point of Abrahamsen & Hansen
// (2011, §5.1) for the Gaussian kernel k(x, y) = exp(−‖x−y‖²/c). It
// maximises
//
//	ρ3(z) = 2 Σ_n γ_n k(z, x_n) − λ‖z − x0‖²    (eq. 19),
//
// Mika's objective (eq. 12) with a penalty on the distance from the noisy
// input x0 (the Tikhonov term of eq. 15), by the fixed point
//
//	z_{t+1} = [(2/c) Σ_n γ_n k(z_t, x_n) x_n + λ x0] / [(2/c) Σ_n γ_n k(z_t, x_n) + λ]    (eq. 20).
//
// With λ = 0 this is Mika's iteration (eq. 13); as λ → ∞ the λ terms
// dominate numerator and denominator and z → x0.
//
// The iteration shares Mika's implementation (see Mika): all rows iterate
// together, with two matrix products per iteration, the same start rules,
// stopping rule and relative denominator test. Implementation choices, none
// of which changes the fixed point of eq. 20:
//
//   - Numerator and denominator are multiplied by c/2, so the pull enters as
//     (cλ/2)·x0 and cλ/2. With λ = 0 the arithmetic is then exactly Mika's.
//   - As in Mika, the factor exp(−min_n ‖z_t−x_n‖²/c) is divided out of the
//     kernel terms; the pull is multiplied by its inverse. When that
//     product overflows (an iterate so far from every training point that
//     the kernel terms are below the floating-point range of the pull) the
//     step returns x0, the limit of eq. 20; likewise when no γ_n is nonzero.
//   - Abrahamsen & Hansen note that the denominator (2/c)⟨φ(z_t), Ψ⟩ + λ is
//     positive near a maximum of ρ3, since ⟨φ(z), Ψ⟩ > 0 there (ambiguity a8
//     of the paper's transcription); elsewhere negative γ_n can make it
//     vanish. A row fails with ErrDenominator when
//     |Σ_n γ_n k_n + cλ/2| ≤ Eps·(Σ_n |γ_n k_n| + cλ/2), and keeps its last
//     iterate. λ > 0 only moves the denominator away from zero where
//     ⟨φ(z_t), Ψ⟩ ≥ 0.
//
// X0 is required: it is the point of the penalty, whatever the start.
// Problem.Start, when given, overrides the start rule (Abrahamsen & Hansen
// Fig. 5 start both iterations from random training points).
type Tikhonov struct {
	// Lambda is the penalty weight λ ≥ 0 of eq. 19.
	Lambda float64
	// MaxIter caps the number of fixed-point steps per row (≥ 1).
	MaxIter int
	// Tol is the relative step size at which a row has converged (≥ 0),
	// as in Mika.
	Tol float64
	// Start chooses z_0 when Problem.Start is nil, as in Mika.
	Start string
	// Eps is the relative size below which the denominator has vanished.
	Eps float64
}

var _ PreImager = (*Tikhonov)(nil)

func init() {
	Register(Spec{
		Name:     "tikhonov",
		Title:    "Tikhonov",
		Doc:      "fixed-point iteration with an input-space distance penalty towards the noisy input",
		Source:   "Abrahamsen & Hansen (2011), J. Signal Process. Syst. 65, eqs. 19–20",
		Does:     PreImages,
		Requires: NeedsX0,
		Kernels:  GaussianKernel,
		Params: []Param{
			FloatParam("lambda", 3e-4, 0, Inf, "penalty weight λ on ‖z − x0‖² (the paper's experiments use 3e-4)"),
			IntParam("max_iter", 1000, 1, Inf, "maximum fixed-point steps per pre-image"),
			FloatParam("tol", 1e-9, 0, Inf, "stop when ‖z_{t+1}−z_t‖² ≤ tol²·max(1, ‖z_t‖²)"),
			StringParam("start", StartNoisy, StartRules, "z_0 when the problem gives none: noisy input, training mean, or nearest training point in feature space"),
			FloatParam("eps", 1e-12, 0, 1, "fail a row when |Σγ_n k_n + cλ/2| ≤ eps·(Σ|γ_n k_n| + cλ/2)"),
		},
		New: func(p Params) (any, error) {
			return &Tikhonov{
				Lambda:  p.Float("lambda"),
				MaxIter: p.Int("max_iter"),
				Tol:     p.Float("tol"),
				Start:   p.String("start"),
				Eps:     p.Float("eps"),
			}, nil
		},
	})
}

// PreImage runs the regularised fixed-point iteration for every row of p.
func (tk *Tikhonov) PreImage(dst *mat.Dense, p *Problem) ([]Status, error) {
	c, err := gaussianProblem("tikhonov", p)
	if err != nil {
		return nil, err
	}
	if p.X0 == nil {
		return nil, errors.New("tikhonov: needs the noisy inputs (Problem.X0), the centre of the penalty")
	}
	if !(tk.Lambda >= 0) {
		return nil, fmt.Errorf("tikhonov: lambda %v, want a number ≥ 0", tk.Lambda)
	}
	// Mika's iteration with the pull towards X0 (eq. 20).
	mk := Mika{MaxIter: tk.MaxIter, Tol: tk.Tol, Start: tk.Start, Eps: tk.Eps}
	return mk.iterate("tikhonov", dst, p, c, &inputPull{x0: p.X0, mu: c * tk.Lambda / 2})
}
