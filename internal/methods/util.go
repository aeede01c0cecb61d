package methods

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
)

// Helpers shared by the estimators. None is exported: estimators reach the
// model only through Problem, Basis and DenoiseInput.

// useDst sizes an output matrix following the convention of PreImager and
// Denoiser: dst must be empty (it is resized) or already r×c. Any other
// shape is a programmer error and panics, as gonum's mat does.
func useDst(dst *mat.Dense, r, c int) {
	if dst.IsEmpty() {
		dst.ReuseAs(r, c)
		return
	}
	if dr, dc := dst.Dims(); dr != r || dc != c {
		panic(fmt.Sprintf("methods: destination is %d×%d, want %d×%d", dr, dc, r, c))
	}
}

// startActive begins a batch iteration from the starts z: a row whose
// start is not finite fails (ErrNotFinite in st, the start copied to its
// row of dst), and the others are compacted as retire does, in z and in
// each of also; it returns the active rows.
func startActive(dst, z *mat.Dense, st []Status, also ...*mat.Dense) []int {
	m, _ := z.Dims()
	act := make([]int, m)
	failed := make([]bool, m)
	for i := range act {
		act[i] = i
		if !allFinite(z.RawRowView(i)) {
			st[i].Err = ErrNotFinite
			failed[i] = true
		}
	}
	return retire(dst, z, failed, act, also...)
}

// retire ends the rows of a batch iteration whose done flag is set: the
// active rows occupy the leading rows of z (slot i holds the problem row
// act[i]), and a finished one is copied to its row of dst. The others are
// compacted, in order, in z, in each of also (nil ones skipped) and in
// act, so the result does not depend on when other rows finish; the
// active rows left are returned.
func retire(dst, z *mat.Dense, done []bool, act []int, also ...*mat.Dense) []int {
	k := 0
	for i := range act {
		if done[i] {
			copy(dst.RawRowView(act[i]), z.RawRowView(i))
			continue
		}
		if i != k {
			copy(z.RawRowView(k), z.RawRowView(i))
			for _, m := range also {
				if m != nil {
					copy(m.RawRowView(k), m.RawRowView(i))
				}
			}
			act[k] = act[i]
		}
		k++
	}
	return act[:k]
}

// gaussianWidth returns c of a Gaussian kernel exp(−‖x−y‖²/c).
func gaussianWidth(k kernel.Kernel) (float64, bool) {
	switch g := k.(type) {
	case kernel.Gaussian:
		return g.C, true
	case *kernel.Gaussian:
		if g != nil {
			return g.C, true
		}
	}
	return 0, false
}

// gaussianProblem validates p for the estimator name, which needs a
// Gaussian kernel, and returns the kernel's width c.
func gaussianProblem(name string, p *Problem) (float64, error) {
	if err := p.Validate(); err != nil {
		return 0, err
	}
	c, ok := gaussianWidth(p.Basis.Kernel)
	if !ok {
		return 0, fmt.Errorf("%s: needs a Gaussian kernel, got %v", name, p.Basis.Kernel)
	}
	return c, nil
}

// modelInputs checks that in holds a model and inputs of its dimension
// for the de-noiser name, and returns the inputs' size.
func modelInputs(name string, in *DenoiseInput) (m, d int, err error) {
	if in == nil || in.Model == nil {
		return 0, 0, fmt.Errorf("%s: no model to denoise with", name)
	}
	if in.X0 == nil {
		return 0, 0, fmt.Errorf("%s: no inputs to denoise", name)
	}
	m, d = in.X0.Dims()
	if d != in.Model.Dim() {
		return 0, 0, fmt.Errorf("%s: inputs have %d columns, model was fitted on %d", name, d, in.Model.Dim())
	}
	return m, d, nil
}

// colMeans returns the mean of the rows of x.
func colMeans(x *mat.Dense) []float64 {
	r, c := x.Dims()
	mu := make([]float64, c)
	for i := 0; i < r; i++ {
		floats.Add(mu, x.RawRowView(i))
	}
	floats.Scale(1/float64(r), mu)
	return mu
}

// nearestTrain returns, for every row of p, the index of the training point
// closest to Ψ_m in feature space, ties going to the lower index.
func nearestTrain(p *Problem) []int {
	var f mat.Dense
	p.Terms.TrainDist2(&f, p.Basis.Diag)
	m, _ := f.Dims()
	idx := make([]int, m)
	for i := range idx {
		// floats.MinIdx returns the first minimum: ties go to the lower index.
		idx[i] = floats.MinIdx(f.RawRowView(i))
	}
	return idx
}

// acceptStep moves a fixed-point iterate zi to its update ni and records
// the row's status: it fails the row if ni is not finite, and marks it
// converged when ‖ni − zi‖² ≤ tol2·max(1, ‖zi‖²). It reports whether the
// row is finished. Mika's iteration and RKPCA's share this rule, so their
// convergence is comparable.
func acceptStep(s *Status, zi, ni []float64, it int, tol2 float64) bool {
	if !allFinite(ni) {
		s.Err = ErrNotFinite
		return true
	}
	s.Iterations = it
	step := floats.Distance(ni, zi, 2)
	scale := math.Max(1, floats.Dot(zi, zi))
	copy(zi, ni)
	if step*step <= tol2*scale {
		s.Converged = true
		return true
	}
	return false
}
