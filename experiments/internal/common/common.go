// Package common holds what every experiment kind needs from records and
// the runner: numeric parameters, grid values, the shared model fit.
package common

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// Num returns a numeric parameter value (records read back from JSON hold
// integral numbers as int), or NaN.
func Num(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case int:
		return float64(x)
	}
	return math.NaN()
}

// Param returns the numeric parameter name of a record, or NaN.
func Param(r *report.Record, name string) float64 { return Num(r.Params[name]) }

// Values returns the distinct values of a numeric parameter over records,
// sorted increasingly.
func Values(recs []report.Record, name string) []float64 {
	seen := map[float64]bool{}
	var out []float64
	for i := range recs {
		v := Param(&recs[i], name)
		if !math.IsNaN(v) && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	sort.Float64s(out)
	return out
}

// Labels returns the distinct values of a string parameter in the order
// they first appear (grid order: the config's method order).
func Labels(recs []report.Record, name string) []string {
	seen := map[string]bool{}
	var out []string
	for i := range recs {
		v := fmt.Sprint(recs[i].Params[name])
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// StatusText renders a record's status for a table cell.
func StatusText(r *report.Record) string {
	if r.Status == report.StatusFailed {
		return "failed: " + r.Error
	}
	return r.Status
}

// Model fits kernel PCA on x for the cell's kernel once per process and
// shares it with every cell, of every config, with the same data and
// kernel: the fit does not depend on the PC count or on any estimator
// parameter. name is for logs; x is identified by a hash of its contents.
func Model(env *runner.Env, name string, x *mat.Dense, cell *runner.Cell) (*methods.KPCA, error) {
	if cell.Kernel == nil {
		return nil, fmt.Errorf("the config gives no kernel")
	}
	key := fmt.Sprintf("%s|%s|%s", name, datasets.Hash(x), cell.Kernel)
	return env.Model(key, func() (*methods.KPCA, error) {
		env.Log.Info("fitting kernel PCA", "data", name, "kernel", cell.Kernel.String())
		return methods.FitKPCA(x, cell.Kernel)
	})
}

// Components resolves the cell's subspace size: the PC count, or the
// smallest count holding the energy fraction. It fails when the count
// exceeds the numerical rank of the kernel matrix.
func Components(m *methods.KPCA, cell *runner.Cell) (int, error) {
	q := cell.Model.Components
	if cell.Model.Energy > 0 {
		q = m.Components(cell.Model.Energy)
	}
	if q < 1 {
		return 0, fmt.Errorf("the config gives neither components nor energy")
	}
	if q > m.Rank() {
		return 0, fmt.Errorf("%d components requested, the kernel matrix has numerical rank %d", q, m.Rank())
	}
	return q, nil
}

// Corrupted is a corrupted copy of a data set, row-aligned with the clean
// images it came from.
type Corrupted struct {
	// Noisy holds the corrupted inputs, Clean their clean originals.
	Noisy, Clean *mat.Dense
	// Source gives, for each row, the row of the original set.
	Source []int
	// Labels are the original labels of each row (nil if the set has none).
	Labels []int
}

// Corrupt applies the config's corruption to every row of set, copies
// times, each image and copy with its own stream derived from the root seed
// (datasets.CorruptEach): an image's corruption never depends on the order
// or number of the others.
func Corrupt(env *runner.Env, set *datasets.Set) (*Corrupted, error) {
	cr := env.Config.Corruption
	var f datasets.Corruption
	switch cr.Type {
	case "none":
		f = func([]float64, *rand.Rand) {}
	case "gaussian":
		std := cr.Std
		f = func(img []float64, rnd *rand.Rand) {
			for i := range img {
				img[i] += std * rnd.NormFloat64()
			}
		}
	case "occlusion":
		if set.Width == 0 || set.Height == 0 {
			return nil, fmt.Errorf("occlusion needs images, and dataset %s has no image size", set.Name)
		}
		if cr.MaxSide > set.Width || cr.MaxSide > set.Height {
			return nil, env.Config.Corruption.Options.Errorf("max_side", "corruption.max_side %d does not fit the %d×%d images", cr.MaxSide, set.Width, set.Height)
		}
		f = datasets.Occlude(set.Width, set.Height, cr.MinSide, cr.MaxSide)
	default:
		return nil, fmt.Errorf("unknown corruption %q", cr.Type)
	}
	if cr.Stretch {
		inner := f
		f = func(img []float64, rnd *rand.Rand) {
			inner(img, rnd)
			datasets.Stretch01(img)
		}
	}
	noisy, src := datasets.CorruptEach(set.X, cr.Copies, runner.DeriveSeed(env.Config.Seed, "corruption"), f)
	_, d := set.X.Dims()
	clean := mat.NewDense(len(src), d, nil)
	c := &Corrupted{Noisy: noisy, Clean: clean, Source: src}
	for i, j := range src {
		clean.SetRow(i, set.X.RawRowView(j))
		if set.Labels != nil {
			c.Labels = append(c.Labels, set.Labels[j])
		}
	}
	return c, nil
}

// CheckModel reports a config whose model lacks a kernel or a subspace size
// (components or energy), and, when needMethods is set, one that lists no
// estimator; kind and hint word the errors.
func CheckModel(c *config.Config, kind string, needMethods bool, hint string) error {
	if c.Model.Kernel == "" || (len(c.Model.Components) == 0 && len(c.Model.Energy) == 0) {
		return c.ModelErrorf("model: %s needs a kernel and components (or energy)", kind)
	}
	if needMethods && len(c.Methods) == 0 {
		return c.Errorf(0, "methods: %s needs %s", kind, hint)
	}
	return nil
}

// Setup returns what a cell of a model-and-estimator experiment starts
// from: the shared kernel PCA fit on x, the cell's PC count and a fresh
// estimator.
func Setup(env *runner.Env, name string, x *mat.Dense, cell *runner.Cell) (*methods.KPCA, int, any, error) {
	m, err := Model(env, name, x, cell)
	if err != nil {
		return nil, 0, nil, err
	}
	q, err := Components(m, cell)
	if err != nil {
		return nil, 0, nil, err
	}
	if cell.Method == nil {
		return m, q, nil, nil
	}
	est, err := cell.Method.New()
	if err != nil {
		return nil, 0, nil, err
	}
	return m, q, est, nil
}
