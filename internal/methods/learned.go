package methods

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
)

// Learned is the learned pre-image of Bakır, Weston & Schölkopf, "Learning
// to find pre-images" (NIPS 16, 2004): instead of solving a pre-image
// problem per input, it learns once, by kernel ridge regression, the map
// from the kernel PCA coordinates of the training inputs back to the inputs
// themselves, and applies it to the coordinates of each noisy input.
//
// With β_n ∈ ℝ^q the coordinates of training input x_n on the first q
// components (β_ni = φ̃(x_n)ᵀv_i, eq. 2 of Abrahamsen & Hansen; for the
// training set β = K̃α_q), and k' the kernel of the inverse map on ℝ^q,
//
//	A = (K' + αI)⁻¹ (X − 1x̄ᵀ),   K'_nm = k'(β_n, β_m),
//	z = x̄ + Σ_n k'(β, β_n) A_n,
//
// where β is the coordinate vector of the noisy input and x̄ the mean of
// the training inputs when Centre is set (x̄ = 0 otherwise). This is the
// pre-image map Bakır et al. learn by kernel ridge regression on kernel PCA
// coordinates (NIPS 16, pp. 449–456; their equation numbers are not cited
// here, the paper's text not being in ../shared/papers).
//
// # scikit-learn
//
// KernelPCA(n_components=q, kernel="rbf", gamma=g, alpha=a,
// fit_inverse_transform=True).inverse_transform(transform(x)) is Learned
// with Alpha = a, InverseKernel "same" (or "gaussian" with C = 1/g),
// Centre false, on a model fitted with the Gaussian kernel c = 1/g and
// Q = q. The correspondence is exact, as read in scikit-learn 1.2.1's
// sklearn/decomposition/_kernel_pca.py and tested (to 1e-12) by
// TestLearnedSklearnAgrees in external_python_test.go:
//
//   - _fit_inverse_transform regresses X on X_transformed =
//     eigenvectors_·√eigenvalues_, the coordinates K̃α of the training
//     points (eigenvalues_ are those of the centred Gram matrix, not
//     divided by N, like KPCA.Values): dual_coef_ = solve(K, X) with
//     K = _get_kernel(X_transformed) plus alpha on the diagonal. X is not
//     centred, so with a linear kernel the reconstruction misses the mean
//     (scikit-learn's documentation says so).
//   - _get_kernel evaluates the same kernel with the same gamma, degree and
//     coef0 as the forward map, on the coordinates. When gamma is None,
//     scikit-learn 1.2 passes None to pairwise_kernels, which takes
//     1/n_features of its arguments: 1/D forward but 1/q for the inverse
//     map. Give gamma explicitly for the correspondence to hold.
//   - inverse_transform(Y) = _get_kernel(Y, X_transformed_fit_)·dual_coef_.
//   - transform(x) = centred k(x, X)·eigenvectors_/√eigenvalues_, which is
//     KPCA.Project's β; eigenvector signs differ between libraries, but a
//     Gaussian or linear kernel on the coordinates does not see them.
//
// Centre (the default here) regresses X − x̄ instead of X, which makes the
// linear kernel's learned map exactly linear PCA reconstruction
// x̄ + V_qV_qᵀ(x − x̄) as α → 0 (scikit-learn's omission of the mean is
// the reason its documentation advises PCA for the linear kernel).
//
// The fit costs O(N²q + N³/3) per batch (the Gram matrix of the coordinates
// and its Cholesky factorisation); the map then costs O(MNq + MND).
type Learned struct {
	// Alpha is the ridge α ≥ 0. With α = 0 the map interpolates the
	// training inputs; it then needs K' positive definite.
	Alpha float64
	// InverseKernel is the kernel k' on the coordinates: "same" (the
	// model's own kernel, Gaussian, linear or polynomial, with its own
	// parameters, as scikit-learn does), "gaussian" (exp(−‖β−β'‖²/C)) or
	// "linear" (βᵀβ').
	InverseKernel string
	// C is the width of the "gaussian" inverse kernel; 0 takes the model's
	// Gaussian width.
	C float64
	// Centre regresses X − x̄ and adds x̄ back.
	Centre bool
}

var _ Denoiser = (*Learned)(nil)

// learnedKernels lists the values of Learned.InverseKernel.
var learnedKernels = []string{"same", "gaussian", "linear"}

func init() {
	Register(Spec{
		Name:  "learned",
		Title: "Learned pre-image",
		Doc:   "kernel ridge regression from kernel PCA coordinates back to inputs (scikit-learn's KernelPCA.inverse_transform with centre: false)",
		Source: "Bakır, Weston & Schölkopf (2004), Learning to find pre-images, NIPS 16: " +
			"kernel ridge regression from kPCA coordinates; scikit-learn KernelPCA(fit_inverse_transform=True, alpha, gamma = 1/c)",
		Does:     Denoises,
		Requires: NeedsX0,
		// The forward kernel only enters through the model; the "same"
		// inverse kernel refuses one it cannot evaluate on coordinates
		// (the HOG kernel) with an error at Denoise time.
		Kernels: AnyKernel,
		Params: []Param{
			FloatParam("alpha", 1e-3, 0, Inf, "ridge α of the regression (scikit-learn's alpha); 0 interpolates the training inputs"),
			StringParam("inverse_kernel", "same", learnedKernels, "kernel on the coordinates: same (the model's kernel, as scikit-learn), gaussian or linear"),
			FloatParam("inverse_c", 0, 0, Inf, "width c of the gaussian inverse kernel exp(−‖β−β'‖²/c) (scikit-learn's 1/gamma); 0 takes the model's Gaussian c").ZeroMeans("the model's Gaussian c"),
			BoolParam("centre", true, "regress X − mean(X) and add the mean back; false is scikit-learn's (and Bakır et al.'s) map, which has no offset"),
		},
		New: func(p Params) (any, error) {
			return &Learned{
				Alpha:         p.Float("alpha"),
				InverseKernel: p.String("inverse_kernel"),
				C:             p.Float("inverse_c"),
				Centre:        p.Bool("centre"),
			}, nil
		},
	})
}

// inverseKernel returns k' for a model fitted with forward.
func (l *Learned) inverseKernel(forward kernel.Kernel) (kernel.Kernel, error) {
	switch l.InverseKernel {
	case "same":
		switch k := forward.(type) {
		case kernel.Gaussian, kernel.Linear, kernel.Polynomial:
			return k, nil
		case *kernel.Gaussian:
			if k != nil {
				return *k, nil
			}
		}
		return nil, fmt.Errorf("learned: inverse_kernel same needs a Gaussian, linear or polynomial model kernel, not %v; choose inverse_kernel gaussian or linear", forward)
	case "gaussian":
		c := l.C
		if c == 0 {
			w, ok := gaussianWidth(forward)
			if !ok {
				return nil, fmt.Errorf("learned: inverse_c = 0 takes the model's Gaussian width, but the model kernel is %v; set inverse_c", forward)
			}
			c = w
		}
		if !(c > 0) {
			return nil, fmt.Errorf("learned: inverse_c = %v, want a positive width", c)
		}
		return kernel.Gaussian{C: c}, nil
	case "linear":
		return kernel.Linear{}, nil
	}
	return nil, fmt.Errorf("learned: unknown inverse_kernel %q (want one of same, gaussian, linear)", l.InverseKernel)
}

// Denoise fits the inverse map on the model's training inputs and their
// coordinates on in.Q components, and maps the coordinates of every row of
// in.X0 through it.
func (l *Learned) Denoise(dst *mat.Dense, in *DenoiseInput) ([]Status, error) {
	if in == nil || in.X0 == nil {
		return nil, errors.New("learned: no inputs to denoise")
	}
	if err := checkDenoiseInput(in); err != nil {
		return nil, fmt.Errorf("learned: %w", err)
	}
	if !(l.Alpha >= 0) {
		return nil, fmt.Errorf("learned: alpha = %v, want α ≥ 0", l.Alpha)
	}
	kinv, err := l.inverseKernel(in.Model.Kernel)
	if err != nil {
		return nil, err
	}
	model := in.Model
	n, d := model.X.Dims()
	m, _ := in.X0.Dims()

	// Coordinates of the training inputs: β = K̃α_q, by the same centring
	// as the noisy inputs' so both sides of the map agree to rounding.
	train := model.BetaGram(mat.DenseCopyOf(model.K), in.Q)
	var kx mat.Dense
	kernel.Gram(&kx, model.Kernel, in.X0, model.X)
	test := model.BetaGram(&kx, in.Q)

	kp := kernel.SelfGram(kinv, train)
	for i := 0; i < n; i++ {
		kp.SetSym(i, i, kp.At(i, i)+l.Alpha)
	}
	var chol mat.Cholesky
	if !chol.Factorize(kp) {
		return nil, fmt.Errorf("learned: K' + αI on the coordinates is not positive definite (alpha = %g, %v on %d components); increase alpha", l.Alpha, kinv, in.Q)
	}
	target := mat.DenseCopyOf(model.X)
	var mean []float64
	if l.Centre {
		mean = colMeans(model.X)
		for i := 0; i < n; i++ {
			floats.Sub(target.RawRowView(i), mean)
		}
	}
	var coef mat.Dense
	if err := chol.SolveTo(&coef, target); err != nil {
		// A condition number near 1/ε: the coefficients are noise.
		return nil, fmt.Errorf("learned: solving the ridge system (alpha = %g): %v; increase alpha", l.Alpha, err)
	}
	var kt mat.Dense
	kernel.Gram(&kt, kinv, test, train)
	useDst(dst, m, d)
	dst.Mul(&kt, &coef)
	if mean != nil {
		for i := 0; i < m; i++ {
			floats.Add(dst.RawRowView(i), mean)
		}
	}
	st := make([]Status, m)
	CheckFinite(dst, st)
	return st, nil
}
