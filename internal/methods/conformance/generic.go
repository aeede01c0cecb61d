package conformance

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/methods"
)

// allRows asks a solver for the whole batch.
const allRows = -1

// solver solves the kit's generic problem under one kernel with est (an
// estimator newEst built) into dst: every test input when row is
// allRows, else test input row alone.
type solver func(t T, est any, dst *mat.Dense, row int) outcome

// eachKernel runs the generic checks under each of the kit's kernels,
// each a check named for its kernel, with the solver solve builds for the
// model fitted under it.
func (f *fixture) eachKernel(t T, newEst func(T) any, solve func(*methods.KPCA) solver) {
	for _, k := range f.kernels() {
		run(t, kernelName(k), func(t T) { f.checkGeneric(t, k, newEst, solve(f.fit(t, k))) })
	}
}

// fit is the kernel PCA of the kit's training inputs under k.
func (f *fixture) fit(t T, k kernel.Kernel) *methods.KPCA {
	m, err := methods.FitKPCA(f.x, k)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return m
}

// checkGeneric runs the checks of the generic problem under k, each a
// check of its own below t: finite-output, inputs-unchanged,
// deterministic and rows-independent. An error of the first call
// fails the check, unless the estimator declines k (declinesKernel);
// the Gaussian kernel every estimator must take.
func (f *fixture) checkGeneric(t T, k kernel.Kernel, newEst func(T) any, solve solver) {
	est := newEst(t)
	first := solve(t, est, &mat.Dense{}, allRows)
	if first.err == errPanicked {
		return
	}
	if first.err != nil {
		if _, gauss := k.(kernel.Gaussian); gauss {
			t.Fatalf("%s returned an error under the Gaussian kernel, which every estimator must take: %s", f.name, f.errText(first.err))
		}
		if !f.declinesKernel(k, first.err) {
			t.Fatalf("%s failed under the %s kernel, which it declares it takes (%s); an estimator declines a kernel with an error wrapping methods.ErrUnsupported (an external command: exit status 3, rx.Unsupported): %s",
				f.name, kernelName(k), f.cfg.Kernels, f.errText(first.err))
		}
		run(t, "declined", func(t T) { t.Logf("%s declines %v: %s", f.name, k, f.errText(first.err)) })
		return
	}
	run(t, "finite-output", func(t T) {
		f.checkFiniteOutput(t, first.z, first.st)
	})
	run(t, "inputs-unchanged", func(t T) {
		if first.changed != "" {
			t.Errorf("%s modified its input: %s; want every input unchanged", f.name, first.changed)
		}
	})
	run(t, "deterministic", func(t T) {
		f.checkSame(t, "the same estimator run twice", first, solve(t, est, &mat.Dense{}, allRows))
		f.checkSame(t, "a new estimator", first, solve(t, newEst(t), &mat.Dense{}, allRows))
		pre := mat.NewDense(numTest, dim, nil)
		pre.Apply(func(_, _ int, _ float64) float64 { return math.NaN() }, pre)
		f.checkSame(t, "into a pre-sized destination", first, solve(t, newEst(t), pre, allRows))
	})
	if f.cfg.BatchCoupled {
		return
	}
	run(t, "rows-independent", func(t T) {
		for i := 0; i < numTest; i++ {
			alone := solve(t, newEst(t), &mat.Dense{}, i)
			if alone.err == errPanicked {
				continue
			}
			f.checkRow(t, i, first, alone)
		}
	})
}
