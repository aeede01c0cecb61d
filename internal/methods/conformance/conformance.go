package conformance

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"sort"
	"strings"
	"sync"

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
	// Kernels and Requires are what the estimator declares it takes and
	// needs (Spec.Kernels, Spec.Requires; CheckRegistered copies them
	// from the Spec). An error under a kernel Kernels excludes, or
	// without X0 when Requires holds NeedsX0, is the estimator declining
	// the problem; so is an error that wraps methods.ErrUnsupported. Any
	// other error is a failure.
	Kernels  methods.KernelSupport
	Requires methods.Requirement
	// ReturnsInput, when not empty, is why the estimator may return its
	// input unchanged (the base line does, by definition): the
	// returns-its-input check then only logs it.
	ReturnsInput string
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
	cfg.Kernels, cfg.Requires = spec.Kernels, spec.Requires
	if cfg.ReturnsInput == "" && spec.Does&methods.Imputes != 0 {
		cfg.ReturnsInput = "an imputer fills the entries a mask marks missing, and the kit's inputs have none"
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
	f := newFixture(name, cfg)
	if isPre {
		newPre := func(t T) methods.PreImager { return newEst(t).(methods.PreImager) }
		run(t, "PreImager", func(t T) { testPreImager(t, f, newPre) })
	}
	if isDen {
		newDen := func(t T) methods.Denoiser { return newEst(t).(methods.Denoiser) }
		run(t, "Denoiser", func(t T) { testDenoiser(t, f, newDen) })
	}
}

// fixture holds the kit's data (a training set, test inputs near and
// away from it, kernels) and what one CheckEstimator run knows of its
// estimator: its name, its Config and the standard error already quoted.
type fixture struct {
	x     *mat.Dense // numTrain×dim training inputs
	test  *mat.Dense // numTest×dim test inputs
	gauss kernel.Gaussian

	name string
	cfg  Config

	mu     sync.Mutex
	quoted map[string]bool // standard error tails a message has quoted
}

// kernels lists the kernels the generic checks run with; the Gaussian comes
// first and must be accepted.
func (f *fixture) kernels() []kernel.Kernel {
	return []kernel.Kernel{f.gauss, kernel.Linear{}}
}

func newFixture(name string, cfg Config) *fixture {
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
	return &fixture{x: x, test: test, gauss: kernel.Gaussian{C: medianSqDist(x)}, name: name, cfg: cfg, quoted: map[string]bool{}}
}

// medianSqDist is the median squared distance between distinct rows of
// x, the usual heuristic for a Gaussian kernel's width.
func medianSqDist(x *mat.Dense) float64 {
	var d2 mat.Dense
	kernel.SqDist(&d2, x, x)
	n, _ := x.Dims()
	var off []float64
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			off = append(off, d2.At(i, j))
		}
	}
	sort.Float64s(off)
	return off[len(off)/2]
}

// errText is an estimator's error as a check's message shows it: an
// external command's standard error is quoted the first time only, so
// that a command that crashes on every problem shows its traceback once.
func (f *fixture) errText(err error) string {
	var ce *methods.CommandError
	if !errors.As(err, &ce) || ce.Stderr == "" {
		return err.Error()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.quoted[ce.Stderr] {
		f.quoted[ce.Stderr] = true
		return err.Error()
	}
	brief := "external: " + ce.Command + " " + ce.Reason + "; standard error as quoted above"
	return strings.Replace(err.Error(), ce.Error(), brief, 1)
}

// declinesKernel reports whether err, returned for a problem under k, is
// the estimator declining k rather than failing: k is a kernel its Spec
// excludes, or err wraps methods.ErrUnsupported.
func (f *fixture) declinesKernel(k kernel.Kernel, err error) bool {
	return !f.cfg.Kernels.Accepts(k) || errors.Is(err, methods.ErrUnsupported)
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
