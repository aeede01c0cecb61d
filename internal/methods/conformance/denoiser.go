package conformance

import (
	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/methods"
)

// testDenoiser runs the checks of a Denoiser, each a check of its own.
func testDenoiser(t T, f *fixture, newEst func(T) methods.Denoiser) {
	run(t, "exact-denoise", func(t T) { f.checkExactDenoise(t, newEst) })
	f.eachKernel(t, func(t T) any { return newEst(t) }, f.denoiseSolver)
	run(t, "wrong-width-refused", func(t T) {
		in := &methods.DenoiseInput{Model: f.fit(t, f.gauss), Q: genericQ, X0: mat.NewDense(numTest, dim+1, nil), Rand: seeded()}
		var z mat.Dense
		_, err := call(t, f.name+".Denoise with wide inputs", func() ([]methods.Status, error) { return newEst(t).Denoise(&z, in) })
		if err == nil {
			t.Errorf("%s accepted inputs with %d columns for a %d-dimensional model; want an error", f.name, dim+1, dim)
		}
	})
}

// checkExactDenoise: with all components the training inputs are their
// own reconstructions: exactly so for the linear kernel (linear PCA), and
// in feature space for the Gaussian. The estimator may decline one of the
// kernels (declinesKernel), not both.
func (f *fixture) checkExactDenoise(t T, newEst func(T) methods.Denoiser) {
	accepted := 0
	for _, k := range []kernel.Kernel{kernel.Linear{}, f.gauss} {
		m := f.fit(t, k)
		in := &methods.DenoiseInput{Model: m, Q: m.Rank(), X0: f.x, Rand: seeded()}
		var z mat.Dense
		st, err := call(t, f.name+".Denoise", func() ([]methods.Status, error) { return newEst(t).Denoise(&z, in) })
		if err == errPanicked {
			continue
		}
		if err != nil {
			if !f.declinesKernel(k, err) {
				t.Errorf("%s: denoising the training inputs with %v: want them back, got the error %s", f.name, k, f.errText(err))
				continue
			}
			t.Logf("%s declines %v: %s", f.name, k, f.errText(err))
			continue
		}
		accepted++
		f.checkExact(t, f.name+" with "+k.String()+": training input denoised with all components", &z, st, f.x, seq(numTrain))
	}
	if accepted == 0 {
		t.Errorf("%s took neither the linear nor the Gaussian kernel; want at least one", f.name)
	}
}

// denoiseSolver solves the generic de-noising problem of model m: the
// test inputs on genericQ components.
func (f *fixture) denoiseSolver(m *methods.KPCA) solver {
	q := min(genericQ, m.Rank())
	return func(t T, est any, dst *mat.Dense, row int) outcome {
		x0 := f.test
		if row != allRows {
			x0 = rowOf(x0, row)
		}
		in := &methods.DenoiseInput{Model: m, Q: q, X0: x0, Rand: seeded()}
		before := snapshotModel(m, in.X0)
		st, err := call(t, f.name+".Denoise", func() ([]methods.Status, error) { return est.(methods.Denoiser).Denoise(dst, in) })
		return outcome{z: dst, st: st, err: err, changed: snapshotModel(m, in.X0).diff(before)}
	}
}
