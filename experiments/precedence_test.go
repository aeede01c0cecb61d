package experiments_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/experiments/internal/kindtest"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/runner"
)

// roleProbe is an estimator with a parameter for every methods.Role. It
// answers each row with its start point, its observed input or zeros (its
// answers do not matter here), and it remembers the parameters it was
// built with: what ran, to compare with what the records say.
type roleProbe struct{}

var probeBuilt struct {
	sync.Mutex
	params []methods.Params
}

func (roleProbe) PreImage(dst *mat.Dense, p *methods.Problem) ([]methods.Status, error) {
	from := p.Start
	if from == nil {
		from = p.X0
	}
	if from == nil {
		m, _ := p.Gamma.Dims()
		_, d := p.Basis.X.Dims()
		from = mat.NewDense(m, d, nil)
	}
	m, d := from.Dims()
	if dst.IsEmpty() {
		dst.ReuseAs(m, d)
	}
	dst.Copy(from)
	return make([]methods.Status, m), nil
}

func (roleProbe) Denoise(dst *mat.Dense, in *methods.DenoiseInput) ([]methods.Status, error) {
	m, d := in.X0.Dims()
	if dst.IsEmpty() {
		dst.ReuseAs(m, d)
	}
	dst.Copy(in.X0)
	return make([]methods.Status, m), nil
}

// The probe's defaults are values no kind assigns (a neighbour count of 1
// is below Huang et al.'s minimum of 2; energy and components 0 mean "the
// experiment's"), so the negative control can tell a kind's value from a
// default.
func init() {
	methods.Register(methods.Spec{
		Name: "role-probe", Title: "Role probe", Doc: "returns its inputs and remembers its parameters (the precedence test)", Source: "experiments/precedence_test.go",
		Does: methods.PreImages | methods.Denoises | methods.Imputes,
		Params: []methods.Param{
			methods.IntParam("neighbors", 1, 1, methods.Inf, "a neighbour count").As(methods.NeighborsRole),
			methods.FloatParam("pca_energy", 0, 0, 1, "a linear energy; 0 for the experiment's").As(methods.EnergyRole),
			methods.IntParam("pca_components", 0, 0, methods.Inf, "a linear component count; 0 for the experiment's").As(methods.ComponentsRole),
		},
		New: func(p methods.Params) (any, error) {
			probeBuilt.Lock()
			probeBuilt.params = append(probeBuilt.params, p)
			probeBuilt.Unlock()
			return roleProbe{}, nil
		},
	})
}

// precedenceConfigs holds a small config of every kind that takes
// estimators from its config, with METHODS where the method list goes.
// A kind missing here fails TestParameterPrecedence: a new kind must show
// that it keeps the precedence rule.
var precedenceConfigs = map[string]string{
	"denoise": `dataset: {name: synthetic-images, classes: 3, groups: 2, per_cell: 5, test_per_cell: 2, width: 4, height: 4}
corruption: {type: gaussian, variance: 0.05}
model: {kernel: gaussian, c: [1], components: [3]}
METHODS
experiment: {figure: images, examples: 2, profile_row: 1, profile_col: 2, renormalize: true}
`,
	"kkcluster": `dataset: {name: synthetic-images, classes: 3, groups: 1, per_cell: 6, width: 8, height: 8, noise: 0.01}
METHODS
experiment: {kernels: [raw], sigma: mean-distance, neighbors: mean-distance, clusters: 3, restarts: 2}
`,
	"lgdenoise": `dataset: {name: synthetic-images, classes: 4, groups: 3, per_cell: 3, width: 8, height: 8, labels: group}
corruption: {type: gaussian, std: 0.06}
METHODS
experiment: {train_fraction: 0.5, models: per-group, neighbors: mean-distance}
`,
	"local-minima": `dataset: {name: two-rings, n: 80, radii: [1, 2], noise: 0.1, arc_start: [45, 225], arc_end: [315, 495]}
model: {kernel: gaussian, c: [0.05], components: 5}
METHODS
experiment: {point: [0, 0], distinct_tol: 1.0e-3}
`,
	"missing": `dataset: {name: synthetic-images, classes: 4, groups: 1, per_cell: 6, noise: 0.01}
METHODS
experiment: {p_del: [0.2], repetitions: 2, points: 10}
`,
	"robust": `dataset: {name: synthetic-images, classes: 4, groups: 3, per_cell: 3, width: 8, height: 8, scale: [0, 255]}
corruption: {type: none}
model: {kernel: gaussian, gamma: 1.0e-5, energy: [0.9]}
METHODS
experiment: {split: [18, 9, 9], occlusion_paper_sides: [30], occlusion_paper_fractions: [0.25], examples: 2, figure_name: faces}
`,
	"stability": `dataset: {name: synthetic-images, classes: 3, groups: 1, per_cell: 6, test_per_cell: 2, noise: 0.01}
corruption: {type: gaussian, std: 0.05}
model: {kernel: gaussian, c: [0.5], components: 3}
METHODS
experiment: {starts: 3}
`,
	"matrix": `dataset: {name: synthetic-images, classes: 3, groups: 2, per_cell: 5, test_per_cell: 1, width: 4, height: 4, noise: 0.05}
METHODS
experiment:
  resamples: 100
  benchmarks:
    - {name: noise, corruption: {type: gaussian, std: 0.2}, range: [0, 1], c: 2, components: 8}
`,
}

// explicitRoles are the explicit values the test gives the probe, one for
// every methods.Role, each unlike any value a kind assigns.
var explicitRoles = map[string]any{"neighbors": 3, "pca_energy": 0.5, "pca_components": 2}

// runProbe runs kind's config with the probe (params as YAML, "" for
// none), and returns the parameters the probe was
// built with and the probe's records' parameters.
func runProbe(t *testing.T, kind, params string) (built []methods.Params, recorded []map[string]any) {
	t.Helper()
	m := "methods:\n  - {name: role-probe, label: Probe}\n"
	if params != "" {
		m = strings.Replace(m, "label: Probe}", "label: Probe, params: "+params+"}", 1)
	}
	src := fmt.Sprintf("title: precedence %s\npaper: test\nkind: %s\nseed: 3\n", kind, kind) +
		strings.Replace(precedenceConfigs[kind], "METHODS\n", m, 1)
	probeBuilt.Lock()
	probeBuilt.params = nil
	probeBuilt.Unlock()
	recs, _ := kindtest.Run(t, src)
	probeBuilt.Lock()
	built = probeBuilt.params
	probeBuilt.Unlock()
	for _, r := range recs {
		if r.Params["method"] == "Probe" {
			recorded = append(recorded, r.Params)
		}
	}
	if len(built) == 0 || len(recorded) == 0 {
		t.Fatalf("%s: the probe was built %d times and has %d records", kind, len(built), len(recorded))
	}
	return built, recorded
}

// TestParameterPrecedence holds the one precedence rule of every kind
// (docs/extending.md, "Parameter roles"): a value the config gives a
// parameter itself (methods[i].params or --with) is the value that runs
// and the value the records say, whatever role the parameter plays and
// whatever the kind would have assigned. It runs every registered kind
// that takes estimators with a probe that has a parameter for every role,
// each given explicitly.
//
// Negative control: without the explicit values, Huang et al.'s kinds
// build the probe with their own neighbour count (the mean-distance rule,
// at least 2, where the probe's default is 1) and the robust kind with
// the cell's energy (0.9, default 0): the comparison below sees a kind's
// assignment when there is one.
func TestParameterPrecedence(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every kind")
	}
	explicit := "{neighbors: 3, pca_energy: 0.5, pca_components: 2}"
	for _, k := range runner.Kinds() {
		if k.Takes == 0 || strings.HasSuffix(k.File, "_test.go") {
			continue
		}
		if _, ok := precedenceConfigs[k.Name]; !ok {
			t.Errorf("kind %s takes estimators but has no config in precedenceConfigs", k.Name)
			continue
		}
		t.Run(k.Name, func(t *testing.T) {
			built, recorded := runProbe(t, k.Name, explicit)
			for _, p := range built {
				for name, want := range explicitRoles {
					if fmt.Sprint(p[name]) != fmt.Sprint(want) {
						t.Errorf("the probe ran with %s = %v, the config gave %v", name, p[name], want)
					}
				}
			}
			for _, p := range recorded {
				for name, want := range explicitRoles {
					if fmt.Sprint(p[name]) != fmt.Sprint(want) {
						t.Errorf("a record says %s = %v, the config gave (and the probe ran with) %v", name, p[name], want)
					}
				}
			}
		})
	}

	// The negative control: the kinds' own values where none is given.
	for kind, check := range map[string]func(p methods.Params) bool{
		"lgdenoise": func(p methods.Params) bool { return p.Int("neighbors") >= 2 },
		"kkcluster": func(p methods.Params) bool { return p.Int("neighbors") >= 2 },
		"robust":    func(p methods.Params) bool { return p.Float("pca_energy") == 0.9 },
	} {
		built, recorded := runProbe(t, kind, "")
		if !slices.ContainsFunc(built, check) {
			t.Errorf("%s without explicit values: the probe ran with %v; the kind's own assignment was not seen", kind, built)
		}
		if kind != "robust" && recorded[0]["neighbors"] != "mean-distance" {
			t.Errorf("%s without explicit values: the record says neighbors = %v, want mean-distance (the rule that ran)", kind, recorded[0]["neighbors"])
		}
	}
}
