// Package setup is what a model-and-estimator cell starts from, shared by
// the experiment kinds and by `runexp denoise`: the kernel PCA fit on the
// training data (once per process and content), the one rule that turns a
// model point into a number of principal components, and the estimator
// built through its declared capability.
//
// It lives outside experiments/internal so that the CLI, which de-noises a
// user's CSV files, resolves the subspace size and builds the estimator
// exactly as the denoise kind does, rather than re-implementing them with
// its own rules.
//
// # The component rule
//
// A model point gives either components q or energy f, never both (the
// config rejects both; so does the CLI):
//
//   - energy f in (0, 1]: the smallest q whose eigenvalues hold the
//     fraction f of their sum (methods.KPCA.Components);
//   - components q ≥ 1: q itself;
//   - neither: an error (there is no default subspace size);
//   - q above the numerical rank of the centred kernel matrix: an error,
//     since the extra directions would be numerical noise.
package setup

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/runner"
)

// Model fits kernel PCA on x with kernel k once per process and shares it
// with every caller, of every config, with the same data and kernel: the
// fit depends on neither the PC count nor an estimator parameter. name is
// for logs and the key; x is named by its content (datasets.Hash). env may
// be nil (the CLI): the fit is then not logged.
func Model(env *runner.Env, name string, x *mat.Dense, k kernel.Kernel) (*methods.KPCA, error) {
	if k == nil {
		return nil, fmt.Errorf("the config gives no kernel")
	}
	key := fmt.Sprintf("%s|%s|%s", name, datasets.Hash(x), k)
	return env.Model(key, func() (*methods.KPCA, error) {
		if env != nil {
			env.Log.Info("fitting kernel PCA", "data", name, "kernel", kernel.Label(k))
		}
		return methods.FitKPCA(x, k)
	})
}

// Components resolves the subspace size of the model point mp on the fit
// m by the package's component rule.
func Components(m *methods.KPCA, mp config.ModelPoint) (int, error) {
	q := mp.Components
	if mp.Energy > 0 {
		q = m.Components(mp.Energy)
	}
	if q < 1 {
		return 0, fmt.Errorf("give the number of components or the energy fraction to keep (there is no default)")
	}
	if q > m.Rank() {
		return 0, fmt.Errorf("%d components requested, the kernel matrix has numerical rank %d", q, m.Rank())
	}
	return q, nil
}

// Fit returns the shared kernel PCA fit on x for the cell's kernel and the
// cell's PC count.
func Fit(env *runner.Env, name string, x *mat.Dense, cell *runner.Cell) (*methods.KPCA, int, error) {
	m, err := Model(env, name, x, cell.Kernel)
	if err != nil {
		return nil, 0, err
	}
	q, err := Components(m, cell.Model)
	if err != nil {
		return nil, 0, err
	}
	return m, q, nil
}

// Denoiser returns the fit, the PC count and the cell's estimator as a
// Denoiser (a pre-imager projects first). It is an error when the cell has
// no estimator or the estimator cannot take the cell's kernel.
func Denoiser(env *runner.Env, name string, x *mat.Dense, cell *runner.Cell) (*methods.KPCA, int, methods.Denoiser, error) {
	if cell.Method != nil {
		if err := cell.Method.Spec.CheckKernel(cell.Kernel); err != nil {
			return nil, 0, nil, err
		}
	}
	return build(env, name, x, cell, (*runner.BoundMethod).NewDenoiser)
}

// PreImager returns the fit, the PC count and the cell's estimator as a
// PreImager. It is an error when the cell has no estimator or it is no
// pre-imager; a kernel it cannot take is the estimator's own error.
func PreImager(env *runner.Env, name string, x *mat.Dense, cell *runner.Cell) (*methods.KPCA, int, methods.PreImager, error) {
	return build(env, name, x, cell, (*runner.BoundMethod).NewPreImager)
}

// build returns the fit on x, the cell's PC count and the cell's
// estimator as newEst builds it.
func build[E any](env *runner.Env, name string, x *mat.Dense, cell *runner.Cell, newEst func(*runner.BoundMethod) (E, error)) (*methods.KPCA, int, E, error) {
	var none E
	if cell.Method == nil {
		return nil, 0, none, fmt.Errorf("the cell has no estimator")
	}
	m, q, err := Fit(env, name, x, cell)
	if err != nil {
		return nil, 0, none, err
	}
	est, err := newEst(cell.Method)
	if err != nil {
		return nil, 0, none, err
	}
	return m, q, est, nil
}

// Method binds raw parameters to the named estimator, as a config's
// methods entry is bound.
func Method(name string, raw map[string]any) (*runner.BoundMethod, error) {
	s, ok := methods.Lookup(name)
	if !ok {
		_, _, err := methods.New(name, raw) // words the unknown-estimator error
		return nil, err
	}
	p, err := s.Bind(raw)
	if err != nil {
		return nil, err
	}
	return &runner.BoundMethod{Spec: s, Label: s.Title, Params: p}, nil
}
