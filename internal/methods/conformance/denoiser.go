package conformance

import (
	"fmt"
	"math"

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
	// Last, so that the calls of the checks above are numbered as before
	// (the kit's tests count an estimator's calls).
	run(t, "changes-its-input", func(t T) { f.checkChangesInput(t, newEst) })
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

// checkChangesInput: de-noising the kit's test inputs (noisy copies of
// training points and fresh draws) on genericQ of the Gaussian model's
// components must move some row: an estimator (or a default) whose every
// row comes back as its input, to 1e-12 relative, de-noises nothing, and a
// table would score it as the corrupted input itself. RKPCA with the
// Geman–McClure E0 started at the noisy input is one: at z = x the scale
// falls to sigma_min and pins z. Config.ReturnsInput excuses an
// estimator that means it (the base line).
func (f *fixture) checkChangesInput(t T, newEst func(T) methods.Denoiser) {
	m := f.fit(t, f.gauss)
	in := &methods.DenoiseInput{Model: m, Q: min(genericQ, m.Rank()), X0: f.test, Rand: seeded()}
	var z mat.Dense
	st, err := call(t, f.name+".Denoise", func() ([]methods.Status, error) { return newEst(t).Denoise(&z, in) })
	if err == errPanicked {
		return
	}
	if err != nil {
		t.Errorf("%s: de-noising the kit's test inputs with the Gaussian kernel: %s", f.name, f.errText(err))
		return
	}
	r, c := f.test.Dims()
	if zr, zc := z.Dims(); zr != r || zc != c {
		return // the generic checks judge the shape
	}
	var moved float64
	for i := 0; i < r; i++ {
		if i < len(st) && st[i].Err != nil {
			return // a failed row is judged by the generic checks
		}
		for j := 0; j < c; j++ {
			moved = max(moved, math.Abs(z.At(i, j)-f.test.At(i, j))/max(1, math.Abs(f.test.At(i, j))))
		}
	}
	if moved > 1e-12 {
		return
	}
	msg := fmt.Sprintf("returns its input: every one of the %d de-noised rows equals its noisy input (largest relative change %.3g) on %d of the Gaussian model's components", r, moved, in.Q)
	if f.cfg.ReturnsInput != "" {
		t.Logf("%s (%s)", msg, f.cfg.ReturnsInput)
		return
	}
	t.Errorf("%s", msg)
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
