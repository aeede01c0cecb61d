package conformance

import (
	"errors"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/methods"
)

// testPreImager runs the checks of a PreImager, each a check of its own.
func testPreImager(t T, f *fixture, newEst func(T) methods.PreImager) {
	run(t, "exact-pre-image", func(t T) { f.checkExactPreImage(t, newEst) })
	run(t, "exact-denoise", func(t T) { f.checkExactProjectDenoise(t, newEst) })
	f.eachKernel(t, func(t T) any { return newEst(t) }, f.preImageSolver)
	run(t, "without-X0", func(t T) { f.checkWithoutX0(t, newEst) })
	run(t, "wrong-width-refused", func(t T) { f.checkWideProblem(t, newEst) })
}

// checkExactPreImage: for Ψ = φ(x_j), x_j is an exact pre-image, and X0
// lies near it.
func (f *fixture) checkExactPreImage(t T, newEst func(T) methods.PreImager) {
	b := methods.NewBasis(f.x, f.gauss)
	gamma := mat.NewDense(len(exactRows), numTrain, nil)
	x0 := mat.NewDense(len(exactRows), dim, nil)
	rng := rand.New(rand.NewPCG(2, 2))
	for i, j := range exactRows {
		gamma.Set(i, j, 1)
		row := x0.RawRowView(i)
		copy(row, f.x.RawRowView(j))
		for c := range row {
			row[c] += noise * rng.NormFloat64()
		}
	}
	z, st, err := f.preImage(t, newEst, methods.NewProblem(b, gamma, x0), "")
	if err == errPanicked {
		return
	}
	if err != nil {
		t.Fatalf("%s: Ψ = φ(x_j) with %v: want x_j, got the error %s", f.name, f.gauss, f.errText(err))
	}
	f.checkExact(t, f.name+": pre-image of φ(x_j)", z, st, f.x, exactRows)
}

// checkExactProjectDenoise: projecting a training input onto all
// components leaves its image unchanged, so denoising the training set
// through ProjectThenPreImage returns it.
func (f *fixture) checkExactProjectDenoise(t T, newEst func(T) methods.PreImager) {
	m := f.fit(t, f.gauss)
	in := &methods.DenoiseInput{Model: m, Q: m.Rank(), X0: f.x, Rand: seeded()}
	var z mat.Dense
	st, err := call(t, f.name+" via ProjectThenPreImage", func() ([]methods.Status, error) {
		return methods.ProjectThenPreImage{PreImager: newEst(t)}.Denoise(&z, in)
	})
	if err == errPanicked {
		return
	}
	if err != nil {
		t.Fatalf("%s: denoising the training inputs with %v: want them back, got the error %s", f.name, f.gauss, f.errText(err))
	}
	f.checkExact(t, f.name+": training input denoised with all components", &z, st, f.x, seq(numTrain))
}

// preImageSolver solves the generic pre-image problem of model m: the
// test inputs' projections on genericQ components, X0 the test inputs.
func (f *fixture) preImageSolver(m *methods.KPCA) solver {
	proj := m.Project(f.test, min(genericQ, m.Rank()))
	return func(t T, est any, dst *mat.Dense, row int) outcome {
		gamma, x0 := proj.Gamma, f.test
		if row != allRows {
			gamma, x0 = rowOf(gamma, row), rowOf(x0, row)
		}
		p := methods.NewProblem(m.Basis(), gamma, x0)
		p.Rand = seeded()
		before := snapshotProblem(p)
		st, err := call(t, f.name+".PreImage", func() ([]methods.Status, error) { return est.(methods.PreImager).PreImage(dst, p) })
		return outcome{z: dst, st: st, err: err, changed: snapshotProblem(p).diff(before)}
	}
}

// checkWithoutX0: cluster centres have no noisy input; the estimator
// handles it, or declines with methods.ErrUnsupported or its declared
// NeedsX0.
func (f *fixture) checkWithoutX0(t T, newEst func(T) methods.PreImager) {
	m := f.fit(t, f.gauss)
	proj := m.Project(f.test, genericQ)
	z, st, err := f.preImage(t, newEst, methods.NewProblem(m.Basis(), proj.Gamma, nil), " without X0")
	if err == errPanicked {
		return
	}
	if err != nil {
		if f.cfg.Requires&methods.NeedsX0 == 0 && !errors.Is(err, methods.ErrUnsupported) {
			t.Fatalf("%s failed without X0 and does not declare NeedsX0; an estimator declines with an error wrapping methods.ErrUnsupported (an external command: exit status 3, rx.Unsupported): %s", f.name, f.errText(err))
		}
		t.Logf("%s needs X0: %s", f.name, f.errText(err))
		return
	}
	f.checkOutput(t, f.name+" without X0", z, st, numTest)
}

// checkWideProblem: X0 or Start with the wrong number of columns is a
// returned error, not a panic.
func (f *fixture) checkWideProblem(t T, newEst func(T) methods.PreImager) {
	m := f.fit(t, f.gauss)
	proj := m.Project(f.test, genericQ)
	wide := mat.NewDense(numTest, dim+1, nil)
	for _, tc := range []struct {
		field string
		set   func(*methods.Problem)
	}{
		{"X0", func(p *methods.Problem) { p.X0 = wide }},
		{"Start", func(p *methods.Problem) { p.Start = wide }},
	} {
		p := methods.NewProblem(m.Basis(), proj.Gamma, f.test)
		tc.set(p)
		if _, _, err := f.preImage(t, newEst, p, " with a wide "+tc.field); err == nil {
			t.Errorf("%s accepted %s with %d columns for a %d-dimensional basis; want an error", f.name, tc.field, dim+1, dim)
		}
	}
}

// preImage solves p, seeded, with a new estimator; what ends the call's
// name in a panic's report.
func (f *fixture) preImage(t T, newEst func(T) methods.PreImager, p *methods.Problem, what string) (*mat.Dense, []methods.Status, error) {
	p.Rand = seeded()
	var z mat.Dense
	st, err := call(t, f.name+".PreImage"+what, func() ([]methods.Status, error) { return newEst(t).PreImage(&z, p) })
	return &z, st, err
}
