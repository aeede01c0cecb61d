// Package methods provides the kernel PCA model and the pre-image and
// de-noising estimators that runexp compares, behind two small interfaces
// and a registry keyed by the names used in experiment configs.
//
// # The model
//
// Kernel PCA (Schölkopf et al. 1998) is linear PCA of the images φ(x_n) of
// N training inputs in the feature space of a kernel k(x, y) = φ(x)ᵀφ(y).
// The equation numbers below are those of Abrahamsen & Hansen, "Regularized
// pre-image estimation for kernel PCA de-noising" (J. Signal Process. Syst.
// 65, 2011).
//
// FitKPCA forms the Gram matrix K_ij = k(x_i, x_j), centres it,
//
//	K̃ = K − 1K/N − K1/N + 1K1/N²,
//
// and solves K̃α_i = λ_iα_i (eq. 1), scaling α_i so that the feature-space
// eigenvector v_i = Σ_n α_in φ̃(x_n) has unit norm. All components with a
// positive eigenvalue are kept; the number used, q, is chosen at projection
// time (KPCA.Project, or an energy fraction by KPCA.Components), so one fit
// serves a whole grid of estimators and component counts.
//
// Projecting an input x onto the first q components gives the coordinates
// β_i = Σ_n α_in k̃(x, x_n) (eq. 2) and the projection
//
//	P_qφ(x) = Σ_i β_i v_i + φ̄ = Σ_n γ_n φ(x_n),
//	γ_n = γ̃_n + (1 − Σ_j γ̃_j)/N,  γ̃_n = Σ_i β_i α_in    (eq. 3, 10).
//
// The mean term makes Σ_n γ_n = 1. Projection.Gamma holds γ for a batch of
// inputs, one row each. The pre-image problem is to find an input z whose
// image is close to Ψ = Σ_n γ_n φ(x_n); the distance criterion (eq. 4)
// minimises
//
//	R(z) = ‖φ(z) − Ψ‖² = k(z, z) − 2 Σ_n γ_n k(z, x_n) + Ω    (eq. 11),
//
// with Ω = ‖Ψ‖² = γᵀKγ independent of z. CostTerms holds ΓK and Ω for a
// batch; CostTerms.TrainDist2 gives ‖Ψ − φ(x_n)‖² for every training point
// and FeatureDist2 evaluates R(z).
//
// # Estimators
//
// A PreImager maps a Problem, a batch of M expansions Γ (M×N) over a Basis
// (training inputs, kernel, Gram matrix) with the observed inputs X0 when
// there are any, to M pre-images: Mika et al.'s fixed point (Mika, eq. 13),
// Kwok & Tsang's distance constraint (KwokTsang), Dambreville et al.'s
// feature-distance-weighted mean (Dambreville), Abrahamsen & Hansen's
// input-space regularised fixed point (Tikhonov, eqs. 19–20) and their
// ℓ1-regularised pre-image along Friedman's generalized path seeking
// (LassoGPS, eqs. 21–24). A Denoiser maps noisy inputs directly to
// denoised ones given a fitted model (LinearPCA).
// ProjectThenPreImage, and AsDenoiser, turn a PreImager into a Denoiser by
// projecting first, which is how every de-noising experiment runs a
// pre-image method.
//
// Both interfaces write into a destination that is empty or M×D, return one
// Status per row, and follow the package's error rules: a problem the
// estimator cannot take at all (wrong dimension, unsupported kernel, missing
// X0) is a returned error; a numerical failure of one row (a vanishing
// denominator, a non-finite result) is that row's Status.Err and never
// stops the batch; a shape mismatch between a destination and the problem
// is a programmer error and panics. Estimators must not modify their
// inputs and must be deterministic given Problem.Rand's seed.
//
// Work over a batch is done as matrix products over all rows at once (all
// iterates against all training points), not as loops of kernel
// evaluations. The exception is LassoGPS, whose thousands of steps each
// move one coordinate: it updates each row's kernel values in place and
// evaluates only the gradient components a step's decision needs.
//
// # The registry
//
// Every estimator registers a Spec in an init function: its config name
// ("mika"), its table title ("Mika et al."), the paper and equations it
// implements, and its parameters with types, defaults and ranges. New binds
// a config's raw parameters, checking them before anything runs, and
// builds the estimator:
//
//	est, params, err := methods.New("kwok-tsang", map[string]any{"neighbors": 5})
//
// # Adding an estimator
//
// One file, named after the method (tikhonov.go), holds the type, a
// compile-time check and its registration:
//
//	// Tikhonov is … (Abrahamsen & Hansen 2011, eq. 20).
//	type Tikhonov struct{ Lambda float64 }
//
//	var _ PreImager = (*Tikhonov)(nil)
//
//	func init() {
//		Register(Spec{
//			Name: "tikhonov", Title: "Tikhonov",
//			Doc:     "fixed point with an input-space distance penalty",
//			Source:  "Abrahamsen & Hansen (2011) eq. 20",
//			Does:    PreImages,      // Register panics without it
//			Kernels: GaussianKernel, // the kernels it can take
//			Params:  []Param{FloatParam("lambda", 3e-4, 0, Inf, "input-space penalty weight")},
//			New: func(p Params) (any, error) { return &Tikhonov{Lambda: p.Float("lambda")}, nil },
//		})
//	}
//
//	func (t *Tikhonov) PreImage(dst *mat.Dense, p *Problem) ([]Status, error) {
//		if err := p.Validate(); err != nil {
//			return nil, err
//		}
//		…
//	}
//
// Example_addingAnEstimator (example_adding_test.go) is this recipe
// compiled and run, so it cannot go stale: a complete Spec, registered and
// built by name. The doc comment names the paper, the equations and every interpretation
// the paper leaves open. Nothing else needs to change: every experiment
// finds the estimator by name, and the runner's cell cache keys on a
// fingerprint of the registering file's code and of what it reaches
// (internal/codefp), so editing the estimator recomputes its cells, and
// only those, without a Version bump (Version stays as a manual lever).
//
// # Conformance
//
// Package conformance is a conformance kit in the manner of gonum's
// lapack/testlapack (package methodtest runs it under go test; runexp
// check-estimator runs it without). The package's own tests run it on every registered
// estimator with default parameters, so a new estimator is checked as soon
// as it registers: an exact pre-image is recovered when one exists
// (Ψ = φ(x_j) with a Gaussian kernel for a PreImager; training inputs with
// all components for a Denoiser), outputs are finite, results are
// byte-identical under a fixed seed and independent of the other rows of
// the batch, inputs are not modified, a wrong dimension is an error rather
// than a panic, and there is one Status per row. Method-specific behaviour
// is tested beside each method against hand-derived values and closed
// forms (with the linear kernel, kernel PCA is linear PCA).
package methods
