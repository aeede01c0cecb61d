package conformance

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"sort"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/methods"
)

// DefaultExactTol is the tolerance of the exact pre-image checks:
// ‖z − x_j‖ ≤ DefaultExactTol·max(1, ‖x_j‖). The kit's problems are well
// conditioned (Gaussian width the median squared distance, so every Gram
// entry lies in about [e⁻⁴, 1]), and the exact methods recover x_j to about
// 1e-12; 1e-6 leaves room for an iterative method's stopping rule while
// staying four orders below the 1e-2 noise added to X0, so an estimator
// that returns X0 unchanged fails.
const DefaultExactTol = 1e-6

// rowTol bounds the difference between a row solved in a batch and alone,
// relative to max(1, ‖z‖): only the blocking of matrix products differs, and
// an iterative method may stop one step earlier or later within its own
// tolerance.
const rowTol = 1e-6

// Sizes of the kit's problems.
const (
	numTrain = 12
	dim      = 4
	numTest  = 5
	noise    = 1e-2 // size of the perturbation of X0 in the exact checks
	genericQ = 3    // components of the generic problems, below every rank
)

// exactRows are the training points whose images are the exact problems'
// Ψ: first, middle, last.
var exactRows = []int{0, 5, numTrain - 1}

// Config adapts the kit to one estimator. The zero value runs every check
// with the kit's tolerances; a non-zero field needs a reason at the call
// site.
type Config struct {
	// ExactTol, if positive, replaces DefaultExactTol in the exact
	// pre-image checks. Only for an estimator that is inexact by design: a
	// regulariser pulling towards X0, a weighted mean of neighbours.
	ExactTol float64
	// BatchCoupled skips the row-independence check, for an estimator whose
	// rows legitimately share state (draws from one random stream in row
	// order, a joint solution).
	BatchCoupled bool
	// Params, if not nil, are the raw parameters CheckRegistered builds the
	// estimator with instead of its defaults: for an estimator whose
	// defaults cannot run (the external estimator needs a command).
	Params map[string]any
}

func (c Config) exactTol() float64 {
	if c.ExactTol > 0 {
		return c.ExactTol
	}
	return DefaultExactTol
}

// CheckRegistered checks a registered Spec (metadata, parameter
// declarations, construction with defaults or cfg.Params) and runs
// CheckEstimator on the estimator it builds.
func CheckRegistered(t T, spec *methods.Spec, cfg Config) {
	t.Helper()
	if spec.Name == "" || spec.Title == "" || spec.Source == "" || spec.Doc == "" {
		t.Errorf("spec %q: Name, Title, Doc and Source must all be set (title %q, source %q, doc %q)",
			spec.Name, spec.Title, spec.Source, spec.Doc)
	}
	if spec.New == nil {
		t.Fatalf("spec %q has no constructor", spec.Name)
	}
	defaults := map[string]any{}
	seen := map[string]bool{}
	for _, p := range spec.Params {
		if p.Name == "" || p.Doc == "" {
			t.Errorf("spec %q: parameter %q needs a name and a doc", spec.Name, p.Name)
		}
		if seen[p.Name] {
			t.Errorf("spec %q: parameter %q declared twice", spec.Name, p.Name)
		}
		seen[p.Name] = true
		if p.Default != nil {
			defaults[p.Name] = p.Default
		}
	}
	// Binding the defaults explicitly checks their types, ranges and enums.
	if _, err := spec.Bind(defaults); err != nil {
		t.Errorf("spec %q: a default is not accepted by its own declaration: %v", spec.Name, err)
	}
	if _, err := spec.Bind(map[string]any{"no_such_parameter": 1}); err == nil {
		t.Errorf("spec %q: an unknown parameter was accepted", spec.Name)
	}
	what := "defaults"
	if cfg.Params != nil {
		what = fmt.Sprintf("parameters %v", cfg.Params)
	}
	params, err := spec.Bind(cfg.Params)
	if err != nil {
		t.Fatalf("spec %q: binding %s: %v", spec.Name, what, err)
	}
	CheckEstimator(t, spec.Name, func(t T) any {
		est, err := spec.New(params)
		if err != nil {
			t.Fatalf("%s: constructing with %s: %v", spec.Name, what, err)
		}
		return est
	}, cfg)
}

// CheckEstimator runs the conformance checks on the estimator newEst
// builds. newEst is called more than once: a check may need a fresh value.
// The estimator must implement methods.PreImager or methods.Denoiser (or
// both, in which case both are checked).
func CheckEstimator(t T, name string, newEst func(t T) any, cfg Config) {
	t.Helper()
	est := newEst(t)
	_, isPre := est.(methods.PreImager)
	_, isDen := est.(methods.Denoiser)
	if !isPre && !isDen {
		t.Fatalf("%s: %T is neither a methods.PreImager nor a methods.Denoiser", name, est)
	}
	f := newFixture()
	if isPre {
		newPre := func(t T) methods.PreImager { return newEst(t).(methods.PreImager) }
		run(t, "PreImager", func(t T) { testPreImager(t, name, newPre, f, cfg) })
	}
	if isDen {
		newDen := func(t T) methods.Denoiser { return newEst(t).(methods.Denoiser) }
		run(t, "Denoiser", func(t T) { testDenoiser(t, name, newDen, f, cfg) })
	}
}

// fixture holds the kit's data: a training set, test inputs near and away
// from it, and kernels.
type fixture struct {
	x     *mat.Dense // numTrain×dim training inputs
	test  *mat.Dense // numTest×dim test inputs
	gauss kernel.Gaussian
}

// kernels lists the kernels the generic checks run with; the Gaussian comes
// first and must be accepted.
func (f *fixture) kernels() []kernel.Kernel {
	return []kernel.Kernel{f.gauss, kernel.Linear{}}
}

func newFixture() *fixture {
	rng := rand.New(rand.NewPCG(1, 1))
	x := mat.NewDense(numTrain, dim, nil)
	fill(x, rng, 1)
	test := mat.NewDense(numTest, dim, nil)
	// Three inputs near training points, the rest drawn afresh.
	for i := 0; i < numTest; i++ {
		row := test.RawRowView(i)
		if i < len(exactRows) {
			copy(row, x.RawRowView(exactRows[i]))
			for j := range row {
				row[j] += 0.1 * rng.NormFloat64()
			}
			continue
		}
		for j := range row {
			row[j] = rng.NormFloat64()
		}
	}
	var d2 mat.Dense
	kernel.SqDist(&d2, x, x)
	var off []float64
	for i := 0; i < numTrain; i++ {
		for j := i + 1; j < numTrain; j++ {
			off = append(off, d2.At(i, j))
		}
	}
	sort.Float64s(off)
	// The width is the median squared distance, the usual heuristic.
	return &fixture{x: x, test: test, gauss: kernel.Gaussian{C: off[len(off)/2]}}
}

func fill(m *mat.Dense, rng *rand.Rand, scale float64) {
	r, c := m.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m.Set(i, j, scale*rng.NormFloat64())
		}
	}
}

// seeded returns the kit's random stream.
func seeded() *rand.Rand { return rand.New(rand.NewPCG(1, 1)) }

// errPanicked is what call returns for a call that panicked; the panic has
// already been reported.
var errPanicked = errors.New("conformance: the estimator panicked")

// call runs f and turns a panic into a test error and errPanicked.
func call(t T, what string, f func() ([]methods.Status, error)) (st []methods.Status, err error) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s panicked: %v\n%s", what, r, debug.Stack())
			st, err = nil, errPanicked
		}
	}()
	return f()
}

func testPreImager(t T, name string, newEst func(T) methods.PreImager, f *fixture, cfg Config) {
	run(t, "exact", func(t T) {
		// Ψ = φ(x_j): x_j is an exact pre-image, and near X0.
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
		p := methods.NewProblem(b, gamma, x0)
		p.Rand = seeded()
		var z mat.Dense
		st, err := call(t, name+".PreImage", func() ([]methods.Status, error) { return newEst(t).PreImage(&z, p) })
		if err == errPanicked {
			return
		}
		if err != nil {
			t.Fatalf("%s: Ψ = φ(x_j) with %v: %v", name, f.gauss, err)
		}
		checkExact(t, name, &z, st, f.x, exactRows, cfg.exactTol())
	})

	run(t, "exact-denoise", func(t T) {
		// Projecting a training input onto all components leaves its image
		// unchanged, so denoising the training set returns it.
		m, err := methods.FitKPCA(f.x, f.gauss)
		if err != nil {
			t.Fatalf("%v", err)
		}
		in := &methods.DenoiseInput{Model: m, Q: m.Rank(), X0: f.x, Rand: seeded()}
		var z mat.Dense
		st, err := call(t, name+" via ProjectThenPreImage", func() ([]methods.Status, error) {
			return methods.ProjectThenPreImage{PreImager: newEst(t)}.Denoise(&z, in)
		})
		if err == errPanicked {
			return
		}
		if err != nil {
			t.Fatalf("%s: denoising the training inputs with %v: %v", name, f.gauss, err)
		}
		checkExact(t, name, &z, st, f.x, seq(numTrain), cfg.exactTol())
	})

	for _, k := range f.kernels() {
		run(t, "generic/"+kernelName(k), func(t T) {
			m, err := methods.FitKPCA(f.x, k)
			if err != nil {
				t.Fatalf("%v", err)
			}
			proj := m.Project(f.test, min(genericQ, m.Rank()))
			newProblem := func() *methods.Problem {
				p := methods.NewProblem(m.Basis(), proj.Gamma, f.test)
				p.Rand = seeded()
				return p
			}
			solve := func(dst *mat.Dense, est methods.PreImager, p *methods.Problem) ([]methods.Status, error) {
				return call(t, name+".PreImage", func() ([]methods.Status, error) { return est.PreImage(dst, p) })
			}
			est := newEst(t)
			p := newProblem()
			before := snapshotProblem(p)
			var z mat.Dense
			st, err := solve(&z, est, p)
			if err == errPanicked {
				return
			}
			if err != nil {
				if _, gauss := k.(kernel.Gaussian); gauss {
					t.Fatalf("%s: every estimator must accept the Gaussian kernel: %v", name, err)
				}
				t.Logf("%s refuses %v: %v", name, k, err)
				return
			}
			checkOutput(t, name, &z, st, numTest)
			if diff := snapshotProblem(p).diff(before); diff != "" {
				t.Errorf("%s modified its input: %s", name, diff)
			}

			// Determinism: same estimator, new estimator, pre-sized dst.
			var z2 mat.Dense
			st2, err2 := solve(&z2, est, newProblem())
			checkSame(t, name+" run twice", &z, st, err, &z2, st2, err2)
			var z3 mat.Dense
			st3, err3 := solve(&z3, newEst(t), newProblem())
			checkSame(t, name+" with a new estimator", &z, st, err, &z3, st3, err3)
			z4 := mat.NewDense(numTest, dim, nil)
			z4.Apply(func(_, _ int, _ float64) float64 { return math.NaN() }, z4)
			st4, err4 := solve(z4, newEst(t), newProblem())
			checkSame(t, name+" into a pre-sized destination", &z, st, err, z4, st4, err4)

			if !cfg.BatchCoupled {
				for i := 0; i < numTest; i++ {
					pi := methods.NewProblem(m.Basis(), rowOf(proj.Gamma, i), rowOf(f.test, i))
					pi.Rand = seeded()
					var zi mat.Dense
					sti, erri := solve(&zi, newEst(t), pi)
					if erri == errPanicked {
						continue
					}
					checkRow(t, name, i, &z, st, &zi, sti, erri)
				}
			}
		})
	}

	run(t, "no-X0", func(t T) {
		// Cluster centres have no noisy input: handle it or say so.
		m, err := methods.FitKPCA(f.x, f.gauss)
		if err != nil {
			t.Fatalf("%v", err)
		}
		proj := m.Project(f.test, genericQ)
		p := methods.NewProblem(m.Basis(), proj.Gamma, nil)
		p.Rand = seeded()
		var z mat.Dense
		st, err := call(t, name+".PreImage without X0", func() ([]methods.Status, error) { return newEst(t).PreImage(&z, p) })
		if err == errPanicked {
			return
		}
		if err != nil {
			t.Logf("%s needs X0: %v", name, err)
			return
		}
		checkOutput(t, name, &z, st, numTest)
	})

	run(t, "wrong-dimension", func(t T) {
		m, err := methods.FitKPCA(f.x, f.gauss)
		if err != nil {
			t.Fatalf("%v", err)
		}
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
			p.Rand = seeded()
			tc.set(p)
			var z mat.Dense
			_, err := call(t, name+".PreImage with a wide "+tc.field, func() ([]methods.Status, error) { return newEst(t).PreImage(&z, p) })
			if err == nil {
				t.Errorf("%s accepted %s with %d columns for a %d-dimensional basis", name, tc.field, dim+1, dim)
			}
		}
	})
}

func testDenoiser(t T, name string, newEst func(T) methods.Denoiser, f *fixture, cfg Config) {
	run(t, "exact", func(t T) {
		// With all components the training inputs are their own
		// reconstructions: exactly so for the linear kernel (linear PCA),
		// and in feature space for the Gaussian.
		accepted := 0
		for _, k := range []kernel.Kernel{kernel.Linear{}, f.gauss} {
			m, err := methods.FitKPCA(f.x, k)
			if err != nil {
				t.Fatalf("%v", err)
			}
			in := &methods.DenoiseInput{Model: m, Q: m.Rank(), X0: f.x, Rand: seeded()}
			var z mat.Dense
			st, err := call(t, name+".Denoise", func() ([]methods.Status, error) { return newEst(t).Denoise(&z, in) })
			if err == errPanicked {
				continue
			}
			if err != nil {
				t.Logf("%s refuses %v: %v", name, k, err)
				continue
			}
			accepted++
			checkExact(t, name+" with "+k.String(), &z, st, f.x, seq(numTrain), cfg.exactTol())
		}
		if accepted == 0 {
			t.Errorf("%s accepted neither the linear nor the Gaussian kernel", name)
		}
	})

	for _, k := range f.kernels() {
		run(t, "generic/"+kernelName(k), func(t T) {
			m, err := methods.FitKPCA(f.x, k)
			if err != nil {
				t.Fatalf("%v", err)
			}
			q := min(genericQ, m.Rank())
			newInput := func(x0 *mat.Dense) *methods.DenoiseInput {
				return &methods.DenoiseInput{Model: m, Q: q, X0: x0, Rand: seeded()}
			}
			solve := func(dst *mat.Dense, est methods.Denoiser, in *methods.DenoiseInput) ([]methods.Status, error) {
				return call(t, name+".Denoise", func() ([]methods.Status, error) { return est.Denoise(dst, in) })
			}
			est := newEst(t)
			in := newInput(f.test)
			before := snapshotModel(m, in.X0)
			var z mat.Dense
			st, err := solve(&z, est, in)
			if err == errPanicked {
				return
			}
			if err != nil {
				if _, gauss := k.(kernel.Gaussian); gauss {
					t.Fatalf("%s: every estimator must accept the Gaussian kernel: %v", name, err)
				}
				t.Logf("%s refuses %v: %v", name, k, err)
				return
			}
			checkOutput(t, name, &z, st, numTest)
			if diff := snapshotModel(m, in.X0).diff(before); diff != "" {
				t.Errorf("%s modified its input: %s", name, diff)
			}

			var z2 mat.Dense
			st2, err2 := solve(&z2, est, newInput(f.test))
			checkSame(t, name+" run twice", &z, st, err, &z2, st2, err2)
			var z3 mat.Dense
			st3, err3 := solve(&z3, newEst(t), newInput(f.test))
			checkSame(t, name+" with a new estimator", &z, st, err, &z3, st3, err3)
			z4 := mat.NewDense(numTest, dim, nil)
			z4.Apply(func(_, _ int, _ float64) float64 { return math.NaN() }, z4)
			st4, err4 := solve(z4, newEst(t), newInput(f.test))
			checkSame(t, name+" into a pre-sized destination", &z, st, err, z4, st4, err4)

			if !cfg.BatchCoupled {
				for i := 0; i < numTest; i++ {
					var zi mat.Dense
					sti, erri := solve(&zi, newEst(t), newInput(rowOf(f.test, i)))
					if erri == errPanicked {
						continue
					}
					checkRow(t, name, i, &z, st, &zi, sti, erri)
				}
			}
		})
	}

	run(t, "wrong-dimension", func(t T) {
		m, err := methods.FitKPCA(f.x, f.gauss)
		if err != nil {
			t.Fatalf("%v", err)
		}
		in := &methods.DenoiseInput{Model: m, Q: genericQ, X0: mat.NewDense(numTest, dim+1, nil), Rand: seeded()}
		var z mat.Dense
		_, err = call(t, name+".Denoise with wide inputs", func() ([]methods.Status, error) { return newEst(t).Denoise(&z, in) })
		if err == nil {
			t.Errorf("%s accepted inputs with %d columns for a %d-dimensional model", name, dim+1, dim)
		}
	})
}

// checkOutput checks the shape of a result, one Status per row, and that
// every row not marked failed is finite.
func checkOutput(t T, name string, z *mat.Dense, st []methods.Status, m int) {
	t.Helper()
	if len(st) != m {
		t.Fatalf("%s: %d statuses for %d rows", name, len(st), m)
	}
	if r, c := z.Dims(); r != m || c != dim {
		t.Fatalf("%s: result is %d×%d, want %d×%d", name, r, c, m, dim)
	}
	for i := 0; i < m; i++ {
		if st[i].Err != nil {
			t.Logf("%s: row %d failed: %v", name, i, st[i].Err)
			continue
		}
		for _, v := range z.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Errorf("%s: row %d is not finite but has no error: %v", name, i, z.RawRowView(i))
				break
			}
		}
	}
}

// checkExact checks that row i of z is want's row rows[i].
func checkExact(t T, name string, z *mat.Dense, st []methods.Status, want *mat.Dense, rows []int, tol float64) {
	t.Helper()
	checkOutput(t, name, z, st, len(rows))
	for i, j := range rows {
		if st[i].Err != nil {
			t.Errorf("%s: exact pre-image of x_%d failed: %v", name, j, st[i].Err)
			continue
		}
		wj := want.RawRowView(j)
		got := z.RawRowView(i)
		if d := floats.Distance(got, wj, 2); !(d <= tol*math.Max(1, floats.Norm(wj, 2))) {
			t.Errorf("%s: pre-image of φ(x_%d) is %v, want %v (distance %.3g, tolerance %.3g relative)", name, j, got, wj, d, tol)
		}
	}
}

// checkSame checks that two runs gave identical bytes and statuses.
func checkSame(t T, what string, z *mat.Dense, st []methods.Status, err error, z2 *mat.Dense, st2 []methods.Status, err2 error) {
	t.Helper()
	if (err == nil) != (err2 == nil) {
		t.Errorf("%s: errors differ: %v, then %v", what, err, err2)
		return
	}
	if len(st) != len(st2) {
		t.Errorf("%s: %d statuses, then %d", what, len(st), len(st2))
		return
	}
	for i := range st {
		a, b := st[i], st2[i]
		if a.Iterations != b.Iterations || a.Converged != b.Converged || errString(a.Err) != errString(b.Err) {
			t.Errorf("%s: row %d status %+v, then %+v", what, i, a, b)
		}
	}
	r, c := z.Dims()
	if r2, c2 := z2.Dims(); r != r2 || c != c2 {
		t.Errorf("%s: result %d×%d, then %d×%d", what, r, c, r2, c2)
		return
	}
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if math.Float64bits(z.At(i, j)) != math.Float64bits(z2.At(i, j)) {
				t.Errorf("%s: element (%d,%d) is %v, then %v: not deterministic", what, i, j, z.At(i, j), z2.At(i, j))
				return
			}
		}
	}
}

// checkRow compares row i of a batch result with the same row solved alone.
func checkRow(t T, name string, i int, z *mat.Dense, st []methods.Status, zi *mat.Dense, sti []methods.Status, err error) {
	t.Helper()
	if err != nil {
		t.Errorf("%s: row %d alone: %v", name, i, err)
		return
	}
	if len(sti) != 1 {
		t.Errorf("%s: row %d alone gave %d statuses", name, i, len(sti))
		return
	}
	if (st[i].Err == nil) != (sti[0].Err == nil) {
		t.Errorf("%s: row %d status in the batch %v, alone %v", name, i, st[i].Err, sti[0].Err)
		return
	}
	if st[i].Err != nil {
		return
	}
	a, b := z.RawRowView(i), zi.RawRowView(0)
	if d := floats.Distance(a, b, 2); !(d <= rowTol*math.Max(1, floats.Norm(a, 2))) {
		t.Errorf("%s: row %d is %v in the batch but %v alone (distance %.3g)", name, i, a, b, d)
	}
}

// kernelName is a subtest name for k without its parameters.
func kernelName(k kernel.Kernel) string {
	switch k.(type) {
	case kernel.Gaussian:
		return "gaussian"
	case kernel.Linear:
		return "linear"
	}
	return fmt.Sprintf("%T", k)
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func rowOf(m *mat.Dense, i int) *mat.Dense {
	_, c := m.Dims()
	return mat.NewDense(1, c, slices.Clone(m.RawRowView(i)))
}

// snapshot holds bit-exact copies of everything an estimator can reach.
type snapshot map[string][]float64

func (s snapshot) add(name string, m mat.Matrix) {
	if m == nil {
		return
	}
	if d, ok := m.(*mat.Dense); ok && d == nil {
		return
	}
	r, c := m.Dims()
	v := make([]float64, 0, r*c)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			v = append(v, m.At(i, j))
		}
	}
	s[name] = v
}

func snapshotProblem(p *methods.Problem) snapshot {
	s := snapshot{}
	s.add("Basis.X", p.Basis.X)
	s.add("Basis.K", p.Basis.K)
	s["Basis.Diag"] = slices.Clone(p.Basis.Diag)
	s.add("Gamma", p.Gamma)
	s.add("Terms.GK", p.Terms.GK)
	s["Terms.Norm2"] = slices.Clone(p.Terms.Norm2)
	s.add("X0", p.X0)
	s.add("Start", p.Start)
	return s
}

func snapshotModel(m *methods.KPCA, x0 *mat.Dense) snapshot {
	s := snapshot{}
	s.add("Model.X", m.X)
	s.add("Model.K", m.K)
	s.add("Model.Alpha", m.Alpha)
	s["Model.Values"] = slices.Clone(m.Values)
	s["Model.Diag"] = slices.Clone(m.Diag())
	s.add("X0", x0)
	return s
}

// diff names the first field that differs bit-for-bit, or returns "".
func (s snapshot) diff(old snapshot) string {
	names := make([]string, 0, len(old))
	for k := range old {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		a, b := old[k], s[k]
		if len(a) != len(b) {
			return fmt.Sprintf("%s changed size from %d to %d", k, len(a), len(b))
		}
		for i := range a {
			if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
				return fmt.Sprintf("%s[%d] changed from %v to %v", k, i, a[i], b[i])
			}
		}
	}
	return ""
}
