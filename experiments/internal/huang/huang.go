// Package huang holds what the Huang, Tian & De la Torre (2011) experiment
// kinds share: the kernel built from the data (raw-pixel or HOG Gaussian
// with σ the mean pairwise distance, eq. 12–13) and the neighbour count
// "within the mean pairwise Euclidean distance".
package huang

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/experiments/internal/common"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// MeanDistance is the config value that asks for the data-driven rule.
const MeanDistance = "mean-distance"

// KernelOpts are the experiment options that define the kernel:
//
//	kernel: raw | hog            Gaussian on pixels (eq. 12) or on HOG descriptors (eq. 13)
//	sigma: mean-distance | σ     exp(−‖h(x)−h(y)‖²/σ²); mean-distance = mean pairwise distance of the training points in h-space
//	neighbors: mean-distance | k sets the neighbors parameter of every estimator that has one
//	                             and whose config entry (or --with) leaves it unset
//	hog_cell, hog_block, hog_bins  HOG geometry (pixels per cell, cells per block, orientation bins)
//
// The model section of such a config stays empty: σ depends on the data
// (and on the group, when models are fitted per group), so it cannot be a
// grid value.
type KernelOpts struct {
	Kind      string
	Sigma     float64 // 0: mean pairwise distance
	Neighbors int     // 0: count within the mean pairwise distance
	HOGCell   int
	HOGBlock  int
	HOGBins   int
	// Explicit holds the config positions of the methods that give
	// their neighbour count themselves (methods[i].params or --with):
	// the one precedence rule of every kind (docs/extending.md,
	// "Parameter roles") lets such a value stand, and the kind's count
	// applies only to the others.
	Explicit map[int]bool
}

// ExplicitRoles returns the config positions of the methods whose
// parameter playing role r is given in their own params (a config's
// methods[i].params or a --with SPEC), not left to the kind.
func ExplicitRoles(c *config.Config, r methods.Role) map[int]bool {
	out := map[int]bool{}
	for i, m := range c.Methods {
		spec, ok := methods.Lookup(m.Name)
		if !ok {
			continue
		}
		par, ok := spec.RoleParam(r)
		if !ok {
			continue
		}
		if _, set := m.Params.Values[par.Name]; set {
			out[i] = true
		}
	}
	return out
}

// Parse reads the kernel options from the experiment reader r of s.
func Parse(s config.Section, r *config.Reader) KernelOpts {
	o := KernelOpts{Kind: r.String("kernel", "raw", "raw", "hog")}
	if v, ok := s.Values["sigma"].(string); ok {
		r.Touch("sigma")
		if v != MeanDistance {
			r.Fail("sigma", "want %s or a width > 0, got %q", MeanDistance, v)
		}
	} else {
		o.Sigma = r.Float("sigma", 0, func(v float64) bool { return v > 0 }, "a width > 0 (or mean-distance)")
	}
	if v, ok := s.Values["neighbors"].(string); ok {
		r.Touch("neighbors")
		if v != MeanDistance {
			r.Fail("neighbors", "want %s or an integer ≥ 2, got %q", MeanDistance, v)
		}
	} else {
		o.Neighbors = r.Int("neighbors", 0, 2)
	}
	o.HOGCell = r.Int("hog_cell", 4, 1)
	o.HOGBlock = r.Int("hog_block", 2, 1)
	o.HOGBins = r.Int("hog_bins", 9, 2)
	return o
}

// Fitted is a kernel built on one training set.
type Fitted struct {
	Kernel kernel.Kernel
	// Sigma is the width σ; MeanDist the mean pairwise distance in the
	// kernel's input space (pixels or HOG descriptors).
	Sigma, MeanDist float64
	// Neighbors is the neighbour count given to the estimators.
	Neighbors int
}

// Build returns the kernel for training inputs x (rows are w×h images).
//
// The neighbour rule reads the paper's "number of data points within the
// mean pairwise Euclidean distances of the training set" (ambiguity a5) as
// the mean over training points of how many other training points lie
// within that distance, rounded, in the kernel's own input space (pixels,
// or HOG descriptors for the HOG kernel, where the feature-space order is
// the same), at least 2 and at most N−1.
func Build(o KernelOpts, x *mat.Dense, w, h int) (*Fitted, error) {
	feat := x
	var hog kernel.HOG
	if o.Kind == "hog" {
		hog = kernel.HOG{Width: w, Height: h, Cell: o.HOGCell, Block: o.HOGBlock, Bins: o.HOGBins}
		if err := hog.Validate(); err != nil {
			return nil, err
		}
		feat = hog.Map(x)
	}
	mean, dist, err := kernel.MeanDistance(feat)
	if err != nil {
		return nil, err
	}
	f := &Fitted{Sigma: o.Sigma, MeanDist: mean, Neighbors: o.Neighbors}
	if f.Sigma == 0 {
		f.Sigma = mean
	}
	if !(f.Sigma > 0) {
		return nil, fmt.Errorf("the training points coincide: mean pairwise distance %g", mean)
	}
	// The width enters through kernel.NewGaussian, as a config's would;
	// the HOG kernel is the same Gaussian on the descriptors (eq. 13).
	g, err := kernel.NewGaussian("sigma", f.Sigma)
	if err != nil {
		return nil, err
	}
	f.Kernel = g
	if o.Kind == "hog" {
		f.Kernel = kernel.MappedGaussian{Map: hog, C: g.C}
	}
	n, _ := x.Dims()
	if f.Neighbors == 0 {
		f.Neighbors = withinMean(dist, mean)
	}
	f.Neighbors = max(2, min(f.Neighbors, n-1))
	return f, nil
}

// withinMean returns the mean over rows of how many other points lie
// within distance mean, rounded: dist holds the pairwise distances.
func withinMean(dist *mat.Dense, mean float64) int {
	n, _ := dist.Dims()
	var cnt int
	for i := 0; i < n; i++ {
		for j, v := range dist.RawRowView(i) {
			if j != i && v <= mean {
				cnt++
			}
		}
	}
	return int(math.Round(float64(cnt) / float64(n)))
}

// Model fits (or reuses) kernel PCA on x with the fitted kernel.
func Model(env *runner.Env, name string, x *mat.Dense, f *Fitted, cell *runner.Cell) (*methods.KPCA, error) {
	c := *cell
	c.Kernel = f.Kernel
	return common.Model(env, name, x, &c)
}

// Params returns the cell's estimator parameters with the parameter
// playing methods.NeighborsRole, if the estimator has one and the config
// leaves it to the kind (o.Explicit), set to k. ok reports whether the
// kind set it. The cell's own map is not modified.
func Params(cell *runner.Cell, o KernelOpts, k int) (p methods.Params, ok bool, err error) {
	if cell.Method == nil {
		return nil, false, fmt.Errorf("the cell has no estimator")
	}
	if o.Explicit[cell.Method.Index] {
		return cell.Method.Params, false, nil
	}
	return cell.Method.Spec.WithRole(cell.Method.Params, methods.NeighborsRole, k)
}

// Neighbors returns the neighbour count the cell's estimator runs with
// when the kind's count is k: its own explicit value where the config
// gives one (o.Explicit), else k.
func Neighbors(cell *runner.Cell, o KernelOpts, k int) int {
	if cell.Method == nil || !o.Explicit[cell.Method.Index] {
		return k
	}
	par, ok := cell.Method.Spec.RoleParam(methods.NeighborsRole)
	if !ok {
		return k
	}
	return cell.Method.Params.Int(par.Name)
}

// KeyParams returns the cell's parameters with the neighbour count shown
// as it runs when the experiment sets it (MarkNeighbors' value: the
// rule's name, or the experiment's count), for the cell's key
// (runner.Kind.KeyParams): the bound default never runs. nil when the
// config gives the count itself or the estimator has none.
func KeyParams(cell *runner.Cell, o KernelOpts) map[string]any {
	rec := report.Record{Params: cell.Params}
	MarkNeighbors(&rec, cell, o)
	if len(rec.Params) == len(cell.Params) && fmt.Sprint(rec.Params) == fmt.Sprint(cell.Params) {
		return nil
	}
	return rec.Params
}

// MarkNeighbors rewrites the record's neighbour count, when the experiment
// set it from the data, to the rule's name: the bound default the cell was
// built with never ran, and the counts actually used are in the record's
// neighbors_* metrics. The parameter is found by its role
// (methods.NeighborsRole) in the spec of the cell's estimator. A count the
// config gives itself (o.Explicit) ran as written and is left. The cell's
// own map is not modified.
func MarkNeighbors(rec *report.Record, cell *runner.Cell, o KernelOpts) {
	if cell.Method == nil || o.Explicit[cell.Method.Index] {
		return
	}
	par, ok := cell.Method.Spec.RoleParam(methods.NeighborsRole)
	if !ok {
		return
	}
	if _, has := rec.Params[par.Name]; !has {
		return
	}
	p := make(map[string]any, len(rec.Params))
	for k, v := range rec.Params {
		p[k] = v
	}
	if o.Neighbors == 0 {
		p[par.Name] = MeanDistance
	} else {
		p[par.Name] = o.Neighbors
	}
	rec.Params = p
}

// CheckConfig checks what Huang et al.'s kinds share: no model section (the
// kernel comes from the data: experiment.kernel, experiment.sigma, and
// every component is kept) and at least one estimator.
func CheckConfig(c *config.Config, kind string) error {
	if c.Model.Kernel != "" || len(c.Model.Components) > 0 || len(c.Model.Energy) > 0 {
		return c.ModelErrorf("model: %s builds its kernel from the data (experiment.kernel, experiment.sigma) and keeps every component; remove the model section", kind)
	}
	if len(c.Methods) == 0 {
		return c.Errorf(0, "methods: %s needs at least one estimator", kind)
	}
	return nil
}
