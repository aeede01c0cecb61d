package experiments_test

// This file follows docs/extending.md: TestExtendingDoc checks the page's
// checklists against the code (every file it lists exists, every
// identifier it names is declared, and the toy additions below use it),
// and the other tests follow each checklist with a toy addition through
// the real registration paths. When the page and the code drift apart,
// one of them fails.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/experiments/internal/kindtest"
	"github.com/runexp/runexp/experiments/setup"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/methods/conformance"
	"github.com/runexp/runexp/internal/methods/methodtest"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// The toy Go estimator (docs/extending.md, "Adding a Go estimator"): the
// training input nearest to Ψ_m in feature space,
// argmin_n ‖Ψ_m − φ(x_n)‖² = argmin_n K_nn − 2(ΓK)_mn (‖Ψ_m‖² is the same
// for every n), pulled towards the training mean by shrink. For
// Ψ = φ(x_j) the nearest input is x_j itself, so with shrink = 0 it is an
// exact pre-image, which the conformance kit checks.
type toyNearest struct{ shrink float64 }

var _ methods.PreImager = toyNearest{}

// PreImage writes the nearest training input of each row into dst.
func (e toyNearest) PreImage(dst *mat.Dense, p *methods.Problem) ([]methods.Status, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	x := p.Basis.X
	n, d := x.Dims()
	m := p.M()
	if dst.IsEmpty() {
		dst.ReuseAs(m, d)
	}
	mean := make([]float64, d)
	for i := 0; i < n; i++ {
		for j := range mean {
			mean[j] += x.At(i, j) / float64(n)
		}
	}
	st := make([]methods.Status, m)
	for r := 0; r < m; r++ {
		best, arg := math.Inf(1), -1
		for i := 0; i < n; i++ {
			if d2 := p.Basis.Diag[i] - 2*p.Terms.GK.At(r, i); d2 < best {
				best, arg = d2, i
			}
		}
		if arg < 0 {
			st[r].Err = errors.New("toy-nearest: no finite feature-space distance")
			for j := 0; j < d; j++ {
				dst.Set(r, j, math.NaN())
			}
			continue
		}
		for j := 0; j < d; j++ {
			dst.Set(r, j, (1-e.shrink)*x.At(arg, j)+e.shrink*mean[j])
		}
	}
	return st, nil
}

// The toy kind (docs/extending.md, "Adding an experiment kind"): each
// cell de-noises the training inputs themselves with its method and
// records the mean squared error of the reconstruction per entry, and
// that error relative to the data's mean squared entry.
type toyKindOptions struct{ rows int }

// The toy kind's metrics: the names its records hold, its table reads and
// its Kind.Metrics lists.
const (
	toyMSE    report.Metric = "mse"
	toyRelMSE report.Metric = "rel_mse"
	toyFailed report.Metric = "failed_rows"
)

type toyInstance struct {
	env    *runner.Env
	x      *mat.Dense
	energy float64
	rows   int
}

func toyParse(c *config.Config) (toyKindOptions, error) {
	r := c.Experiment.Reader("experiment")
	o := toyKindOptions{rows: r.Int("rows", 0, 0)}
	return o, r.Err()
}

func toyStart(env *runner.Env, o toyKindOptions) (runner.Instance, error) {
	d, err := env.LoadData()
	if err != nil {
		return nil, err
	}
	x := d.Train.X
	if n, _ := x.Dims(); o.rows > 0 && o.rows < n {
		x = mat.DenseCopyOf(x.Slice(0, o.rows, 0, x.RawMatrix().Cols))
	}
	energy, err := runner.Memo(env, "toy-reconstruct/energy/"+datasets.Hash(x), func() (float64, error) {
		r, c := x.Dims()
		return mat.Norm(x, 2) * mat.Norm(x, 2) / float64(r*c), nil
	})
	if err != nil {
		return nil, err
	}
	return &toyInstance{env: env, x: x, energy: energy, rows: o.rows}, nil
}

func (t *toyInstance) Run(cell *runner.Cell, rec *report.Record) error {
	model, q, err := setup.Fit(t.env, "toy", t.x, cell)
	if err != nil {
		return err
	}
	den, err := cell.Method.NewDenoiser()
	if err != nil {
		return err
	}
	var z mat.Dense
	st, err := den.Denoise(&z, &methods.DenoiseInput{Model: model, Q: q, X0: t.x, Rand: cell.Rand()})
	if err != nil {
		return err
	}
	r, c := t.x.Dims()
	var sum float64
	failed := 0
	for i := 0; i < r; i++ {
		if st[i].Err != nil {
			failed++
			continue
		}
		for j := 0; j < c; j++ {
			e := z.At(i, j) - t.x.At(i, j)
			sum += e * e
		}
	}
	if failed > 0 {
		rec.Status = report.StatusPartial
	}
	mse := sum / float64((r-failed)*c)
	rec.Set(toyMSE, mse)
	rec.Set(toyRelMSE, mse/t.energy)
	rec.Set(toyFailed, float64(failed))
	return nil
}

func (t *toyInstance) Report(out *runner.Output, recs []report.Record) error {
	tab := &report.Table{Title: "toy reconstruction", Header: []string{"cell", string(toyMSE)}}
	for _, r := range recs {
		tab.Rows = append(tab.Rows, []string{r.Key, strconv.FormatFloat(r.Get(toyMSE), 'g', 6, 64)})
	}
	out.Tables = append(out.Tables, tab)
	return os.WriteFile(out.Path("toy.txt"), []byte(fmt.Sprintf("%d cells\n", len(recs))), 0o644)
}

// The toy dataset (docs/extending.md, "Adding a dataset"): the first rows
// of toy/points.csv in the data root, two numbers a line.
type toyDataOptions struct{ rows int }

const toyDataFile = "toy/points.csv"

func toyDataParse(s config.Section) (toyDataOptions, error) {
	r := s.Reader("dataset")
	o := toyDataOptions{rows: r.Int("rows", 4, 1)}
	return o, r.Err()
}

func toyDataLoad(_ *runner.Env, root *datasets.Root, o toyDataOptions) (*runner.Data, error) {
	b, err := root.ReadFile(toyDataFile)
	if err != nil {
		return nil, err
	}
	lines := strings.Fields(string(b))
	if len(lines) < o.rows {
		return nil, fmt.Errorf("%s: %d rows, dataset.rows asks for %d", toyDataFile, len(lines), o.rows)
	}
	x := mat.NewDense(o.rows, 2, nil)
	for i := 0; i < o.rows; i++ {
		f := strings.Split(lines[i], ",")
		if len(f) != 2 {
			return nil, fmt.Errorf("%s:%d: want two numbers", toyDataFile, i+1)
		}
		for j, s := range f {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %v", toyDataFile, i+1, err)
			}
			x.Set(i, j, v)
		}
	}
	return &runner.Data{Train: &datasets.Set{Name: "toy", X: x}}, nil
}

// The registrations, as the checklists write them: in init.
func init() {
	methods.Register(methods.Spec{
		Name:    "toy-nearest",
		Title:   "Toy nearest",
		Doc:     "the training input nearest in feature space (docs/extending.md's toy estimator)",
		Source:  "experiments/extending_test.go",
		Does:    methods.PreImages,
		Kernels: methods.AnyKernel,
		Params:  []methods.Param{methods.FloatParam("shrink", 0, 0, 1, "pull towards the training mean")},
		New: func(p methods.Params) (any, error) {
			return toyNearest{shrink: p.Float("shrink")}, nil
		},
	})

	runner.RegisterKind(toyKind())

	runner.RegisterDataset(runner.DefineDataset(runner.Dataset[toyDataOptions]{
		Name:      "toy-points",
		Doc:       "docs/extending.md's toy dataset: the first rows of toy/points.csv",
		NeedsRoot: true,
		Parse:     toyDataParse,
		Shape:     func(o toyDataOptions) runner.Shape { return runner.Shape{Points: o.rows, Dim: 2} },
		Load:      toyDataLoad,
	}))
}

// toyKind is the toy kind as its init builds it: defined with its typed
// options, with what it takes, needs and records declared.
func toyKind() runner.Kind {
	k := runner.Define("toy-reconstruct", "docs/extending.md's toy kind: the training inputs de-noised, their error", toyParse, toyStart)
	k.Takes = methods.PreImages
	k.Needs = runner.Needs{Model: true, Methods: "a pre-image estimator", Why: "toy-reconstruct pre-images each training input's projection"}
	k.Metrics = runner.MetricsOf(func(*config.Config, toyKindOptions) []report.Metric {
		return []report.Metric{toyMSE, toyRelMSE, toyFailed}
	})
	k.Shape = func(_ *config.Config, o any, s runner.Shape) error {
		if rows := o.(toyKindOptions).rows; rows > s.Points {
			return fmt.Errorf("experiment.rows: %d, the data has %d points", rows, s.Points)
		}
		return nil
	}
	return k
}

// toyConfig is a config of the toy kind on dataset, with methods.
func toyConfig(dataset, model, methodsYAML, claims string) string {
	return "title: toy\npaper: none\nkind: toy-reconstruct\nseed: 1\n" +
		"dataset: " + dataset + "\nmodel: " + model + "\nmethods:\n" + methodsYAML + claims
}

// TestExtendingKind follows "Adding an experiment kind": the toy kind,
// registered in init, runs end to end on synthetic data with one and two
// workers alike; with every component the nearest training input of
// φ(x_j) is x_j, so the error is exactly 0; a claim on a metric the kind
// does not declare is refused at its line with the closest name.
func TestExtendingKind(t *testing.T) {
	src := toyConfig("{name: two-rings, n: 30}", "{kernel: gaussian, c: [0.5, 2], energy: 1}",
		"  - name: toy-nearest\n    label: exact\n  - name: toy-nearest\n    label: shrunk\n    params: {shrink: 0.5}\n",
		"claims:\n  - id: exact\n    statement: the nearest training input of phi(x_j) is x_j\n"+
			"    check: {type: value, metric: mse, where: {method: exact}, op: \"<=\", value: 0}\n")
	recs, sum := kindtest.SameWhateverWorkers(t, "toy.yaml", src)
	if len(recs) != 4 {
		t.Fatalf("%d records, want 2 widths × 2 methods", len(recs))
	}
	kindtest.Metrics(t, src, recs)
	for _, r := range recs {
		mse, shrunk := r.Get(toyMSE), r.Params["method"] == "shrunk"
		if r.Status != report.StatusOK || r.Get(toyFailed) != 0 {
			t.Errorf("%s: status %s, %v failed rows", r.Key, r.Status, r.Get(toyFailed))
		}
		if !shrunk && mse != 0 || shrunk && !(mse > 0) {
			t.Errorf("%s: mse %v, want 0 unshrunk and positive shrunk", r.Key, mse)
		}
	}
	if len(sum.Claims) != 1 || sum.Claims[0].Status != "PASS" {
		t.Errorf("claims %+v, want the one claim passed", sum.Claims)
	}
	if _, err := os.Stat(filepath.Join(sum.Dir, "toy.txt")); err != nil {
		t.Errorf("the kind's report file: %v", err)
	}
	// The kind's Shape refuses, before any data is loaded, more rows than
	// the dataset's options give.
	c, err := config.Parse("rows.yaml", []byte(src+"experiment: {rows: 31}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runner.Validate(c); err == nil || !strings.Contains(err.Error(), "experiment.rows: 31, the data has 30 points") {
		t.Errorf("31 rows of 30: %v, want refused by the kind's Shape", err)
	}
	bad := strings.Replace(src, "metric: mse", "metric: mes", 1)
	c, err = config.Parse("bad.yaml", []byte(bad))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runner.Validate(c); err == nil || !strings.Contains(err.Error(), "bad.yaml:") || !strings.Contains(err.Error(), "did you mean mse") {
		t.Errorf("a claim on an undeclared metric: %v, want refused at its line naming mse", err)
	}
}

// fixtureRoot writes files (root-relative path → content) and their
// SHA256SUMS into a new data root.
func fixtureRoot(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	var sums bytes.Buffer
	for rel, s := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&sums, "%x  ./%s\n", sha256.Sum256([]byte(s)), rel)
	}
	if err := os.WriteFile(filepath.Join(root, datasets.SumsFile), sums.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// runToy runs the config src with the data root dataDir into a fresh
// output folder.
func runToy(t *testing.T, src, dataDir string, allowExternal bool) ([]report.Record, *runner.Summary, error) {
	t.Helper()
	t.Setenv("RUNEXP_DATA", "")
	c, err := config.Parse("toy.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runner.Validate(c); err != nil {
		return nil, nil, err
	}
	sum, err := runner.Run(context.Background(), c, runner.Options{DataDir: dataDir, OutRoot: t.TempDir(), NoCache: true, Workers: 1, AllowExternal: allowExternal})
	if err != nil {
		return nil, nil, err
	}
	recs, err := report.ReadJSONL(filepath.Join(sum.Dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return recs, sum, nil
}

// TestExtendingDataset follows "Adding a dataset": the toy dataset reads
// a fixture data root through its checksums. Under the linear kernel with
// both components the projection of x_j is φ(x_j), so the toy estimator
// reconstructs the 5 points exactly, and shrunk halfway to their mean
// (0.6, 1.4) it is off by half their deviations: by hand, squared
// deviations 9.2 + 11.2 = 20.4 over 10 entries, mse = 0.25·2.04 = 0.51,
// and the mean squared entry is (0+1+4+10+17)/10 = 3.2, rel_mse =
// 0.51/3.2 = 0.159375. A changed file, a missing root and too few rows
// are errors naming what is wrong.
func TestExtendingDataset(t *testing.T) {
	const points = "0,0\n1,0\n0,2\n3,1\n-1,4\n2,2\n"
	root := fixtureRoot(t, map[string]string{toyDataFile: points})
	src := toyConfig("{name: toy-points, rows: 5}", "{kernel: linear, components: 2}",
		"  - name: toy-nearest\n  - name: toy-nearest\n    label: shrunk\n    params: {shrink: 0.5}\n", "")
	recs, sum, err := runToy(t, src, root, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || sum.Failed != 0 {
		t.Fatalf("records %+v, failed %d; want two cells", recs, sum.Failed)
	}
	if e := recs[0].Get(toyMSE); e != 0 {
		t.Errorf("mse %v, want 0", e)
	}
	if e, r := recs[1].Get(toyMSE), recs[1].Get(toyRelMSE); math.Abs(e-0.51) > 1e-12 || math.Abs(r-0.159375) > 1e-12 {
		t.Errorf("shrunk: mse %v, rel_mse %v; want 0.51 and 0.159375", e, r)
	}
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(toyDataFile)), []byte(points+"9,9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, sum, err := runToy(t, src, root, false); err == nil && sum.Failed == 0 {
		t.Error("a file changed after its checksum: the run succeeded")
	}
	c, _ := config.Parse("toy.yaml", []byte(src))
	if _, err := runner.NewEnv(c, "", nil).LoadData(); err == nil || !strings.Contains(err.Error(), "no data root") {
		t.Errorf("without a data root: %v", err)
	}
	tooMany := strings.Replace(src, "rows: 5", "rows: 50", 1)
	c, _ = config.Parse("toy.yaml", []byte(tooMany))
	good := fixtureRoot(t, map[string]string{toyDataFile: points})
	if _, err := runner.NewEnv(c, good, nil).LoadData(); err == nil || !strings.Contains(err.Error(), toyDataFile) {
		t.Errorf("50 rows of 6: %v, want an error naming %s", err, toyDataFile)
	}
}

// TestExtendingGoEstimator follows "Adding a Go estimator": the toy
// estimator passes the conformance kit under go test and as runexp
// check-estimator runs it, with the kit's defaults (it is exact).
func TestExtendingGoEstimator(t *testing.T) {
	spec, ok := methods.Lookup("toy-nearest")
	if !ok {
		t.Fatal("toy-nearest is not registered")
	}
	cfg := kitConfig(spec.Name)
	if cfg.ExactTol != 0 || cfg.BatchCoupled {
		t.Fatalf("the toy estimator needs no adaptation, Known has %+v", cfg)
	}
	methodtest.TestRegistered(t, spec, cfg)
	rep, err := conformance.Run(conformance.Request{Name: spec.Name})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Failed() != 0 || len(rep.Checks) == 0 {
		t.Errorf("check-estimator: %d of %d checks failed: %+v", rep.Failed(), len(rep.Checks), rep.Checks)
	}
}

// kitConfig is the conformance kit's adaptation of the estimator name,
// as go test and runexp check-estimator read it.
func kitConfig(name string) conformance.Config { return conformance.Known[name] }

// toyPython is the toy external estimator: the toy Go estimator's nearest
// training input, in NumPy, through the helper.
const toyPython = `import numpy as np
import runexp_estimator as rx


def estimate(p):
    if p.Gamma is None:
        raise rx.Unsupported("no feature-space points")
    d2 = np.diag(p.K)[None, :] - 2 * p.Gamma @ p.K
    return p.X[np.argmin(d2, axis=1)]


rx.main(estimate)
`

// TestExtendingExternal follows "Adding an external estimator": the toy
// script passes the conformance kit as check-estimator --command runs it,
// and enters the toy kind's config as external, refused without leave to
// run commands and exact with it.
func TestExtendingExternal(t *testing.T) {
	py := methodtest.Python(t)
	helper, err := filepath.Abs(filepath.Join("..", "python"))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PYTHONPATH", helper)
	script := filepath.Join(t.TempDir(), "toy_nearest.py")
	if err := os.WriteFile(script, []byte(toyPython), 0o644); err != nil {
		t.Fatal(err)
	}
	command := py + " " + script
	rep, err := conformance.Run(conformance.Request{Command: command})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Failed() != 0 || len(rep.Checks) == 0 {
		t.Errorf("check-estimator --command: %d of %d checks failed: %+v", rep.Failed(), len(rep.Checks), rep.Checks)
	}
	src := toyConfig("{name: two-rings, n: 20}", "{kernel: gaussian, c: 1, energy: 1}",
		"  - name: external\n    label: toy python\n    params: {command: "+strconv.Quote(command)+"}\n", "")
	var notAllowed *runner.ExternalNotAllowedError
	if _, _, err := runToy(t, src, "", false); !errors.As(err, &notAllowed) {
		t.Errorf("without AllowExternal: %v, want refused", err)
	}
	recs, sum, err := runToy(t, src, "", true)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].Get(toyMSE) != 0 || sum.Failed != 0 {
		t.Errorf("records %+v, failed %d; want one exact cell", recs, sum.Failed)
	}
}

// step is one item of a checklist of docs/extending.md.
type step struct {
	line int
	path string // the file the step touches
	text string // the step's text, the path included
}

var (
	stepRE  = regexp.MustCompile("^(\\d+)\\. `([^`]+)` — ")
	spanRE  = regexp.MustCompile("`([^`]+)`")
	identRE = regexp.MustCompile(`\b([a-z][a-z0-9]*)\.([A-Z]\w*)(?:\.([A-Z]\w*))?`)
	pathRE  = regexp.MustCompile(`^(\.\./shared|internal|experiments|cmd|configs|docs|python|baseline)/[^ ]+$`)
	placeRE = regexp.MustCompile(`[A-Z][A-Z_]+[A-Z]`)
)

// checklists reads the numbered steps of each "## " section of the page.
func checklists(t *testing.T, page string) map[string][]step {
	t.Helper()
	out := map[string][]step{}
	section := ""
	var cur *step
	for i, line := range strings.Split(page, "\n") {
		switch {
		case strings.HasPrefix(line, "## "):
			section, cur = strings.TrimPrefix(line, "## "), nil
		case stepRE.MatchString(line):
			m := stepRE.FindStringSubmatch(line)
			out[section] = append(out[section], step{line: i + 1, path: m[2], text: line})
			cur = &out[section][len(out[section])-1]
			if n, _ := strconv.Atoi(m[1]); n != len(out[section]) {
				t.Errorf("extending.md:%d: step %d of %q, want %d", i+1, n, section, len(out[section]))
			}
		case cur != nil && strings.HasPrefix(line, "   "):
			cur.text += " " + strings.TrimSpace(line)
		default:
			cur = nil
		}
	}
	return out
}

// docPackages are the packages the page names, by the name its clients
// write, with their folders; rx is the Python helper.
var docPackages = map[string]string{
	"runner":      "internal/runner",
	"methods":     "internal/methods",
	"conformance": "internal/methods/conformance",
	"methodtest":  "internal/methods/methodtest",
	"datasets":    "internal/datasets",
	"config":      "internal/config",
	"report":      "internal/report",
	"kindtest":    "experiments/internal/kindtest",
	"setup":       "experiments/setup",
	"rx":          "python/runexp_estimator.py",
	"claims":      "internal/claims",
}

// notUsedByToys are identifiers the page names that the toy additions do
// not use, each with the reason; an entry must still be on the page.
var notUsedByToys = map[string]string{
	"runner.Kind.Repeats":             "optional: the toy kind draws no corruption",
	"runner.Kind.Items":               "optional: the toy kind has no per-item arrays",
	"runner.BoundMethod.NewPreImager": "the alternative to NewDenoiser, which the toy kind uses",
	"methods.Denoises":                "the alternative to PreImages, which the toys use",
	"methods.Imputes":                 "the alternative to PreImages, which the toys use",
	"methods.NeedsX0":                 "the toy estimator needs no observed inputs",
	"methods.NeedsRand":               "the toy estimator draws nothing",
	"methods.GaussianKernel":          "the toy estimator takes any kernel",
	"methods.DistanceKernel":          "the toy estimator takes any kernel",
	"methods.Spec.Requires":           "the toy estimator requires nothing",
	"methods.IntParam":                "the alternative to FloatParam, which the toy uses",
	"methods.StringParam":             "the alternative to FloatParam, which the toy uses",
	"methods.BoolParam":               "the alternative to FloatParam, which the toy uses",
	"runner.Data.Test":                "the toy dataset has no test set",
	"runner.NoOptions":                "the toy dataset takes options",
	"datasets.Root.List":              "the toy dataset is one file",
	"datasets.OpenRoot":               "the runner opens the root the toy dataset reads (runner.Options.DataDir)",
	"datasets.Set.Labels":             "the toy points are unlabelled",
	"conformance.CheckRegistered":     "the toy runs it through methodtest.TestRegistered",
	"kindtest.Run":                    "the toy kind runs through kindtest.SameWhateverWorkers, which runs it twice",
	"methods.Param.As":                "the toy estimator has no role; TestParameterPrecedence's probe declares every one",
	"methods.NeighborsRole":           "TestParameterPrecedence's probe declares it",
	"methods.EnergyRole":              "TestParameterPrecedence's probe declares it",
	"methods.ComponentsRole":          "TestParameterPrecedence's probe declares it",
	"methods.Spec.RoleParam":          "the toy kind sets no role; huang.Params and the robust kind do, and TestParameterPrecedence holds them",
	"methods.Spec.WithRole":           "the toy kind sets no role; huang.Params and the robust kind do, and TestParameterPrecedence holds them",
	"config.Config.Methods":           "the toy kind reads no method's parameters; huang.ExplicitRoles does",
	"config.Method.Params":            "the toy kind reads no method's parameters; huang.ExplicitRoles does",
	"runner.Env.Rand":                 "the toy dataset is a file; synthetic-images and two-rings draw from it (data_synthetic.go, data.go)",
	"runner.Cell.Rand":                "named as what a dataset must not use",
	"datasets.Set.Width":              "the toy points have none; the denoise kind's refusal reads it (TestRenormalizeNeedsImages)",
	"datasets.Set.Height":             "the toy points have none; the denoise kind's refusal reads it (TestRenormalizeNeedsImages)",
	"runner.Kind.Shape":               "the toy kind uses it; listed for the image-only section",
	"claims.Degenerate":               "TestDegenerate and TestDegenerateFlagged hold it",
	"runner.CodeFingerprint":          "TestFileNames resolves every registering file as the fingerprint does",
}

// declared reads the top-level names of the Go package in dir: for each,
// the fields and methods it has ("" for a name that is no type).
func declared(t *testing.T, dir string) map[string]map[string]bool {
	t.Helper()
	names := map[string]map[string]bool{}
	add := func(typ, member string) {
		if names[typ] == nil {
			names[typ] = map[string]bool{}
		}
		if member != "" {
			names[typ][member] = true
		}
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in %s: %v", dir, err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range af.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					add(d.Name.Name, "")
					continue
				}
				typ := d.Recv.List[0].Type
				for {
					if s, ok := typ.(*ast.StarExpr); ok {
						typ = s.X
					} else if ix, ok := typ.(*ast.IndexExpr); ok {
						typ = ix.X
					} else {
						break
					}
				}
				if id, ok := typ.(*ast.Ident); ok {
					add(id.Name, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						add(sp.Name.Name, "")
						if st, ok := sp.Type.(*ast.StructType); ok {
							for _, fl := range st.Fields.List {
								for _, n := range fl.Names {
									add(sp.Name.Name, n.Name)
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range sp.Names {
							add(n.Name, "")
						}
					}
				}
			}
		}
	}
	return names
}

// toyUses reads this file's own code: the qualified names it uses
// ("runner.Define") and every field or method name it selects or sets in
// a composite literal.
func toyUses(t *testing.T) (qualified, members map[string]bool) {
	t.Helper()
	af, err := parser.ParseFile(token.NewFileSet(), "extending_test.go", nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	qualified, members = map[string]bool{}, map[string]bool{}
	ast.Inspect(af, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			members[n.Sel.Name] = true
			if id, ok := n.X.(*ast.Ident); ok {
				qualified[id.Name+"."+n.Sel.Name] = true
			}
		case *ast.KeyValueExpr:
			if id, ok := n.Key.(*ast.Ident); ok {
				members[id.Name] = true
			}
		}
		return true
	})
	return qualified, members
}

// exists reports whether the repository path p (from the root, with
// upper-case placeholders as wildcards) names at least one file.
func exists(t *testing.T, p string) bool {
	t.Helper()
	glob := placeRE.ReplaceAllString(filepath.Join("..", filepath.FromSlash(strings.TrimSuffix(p, "/"))), "*")
	m, err := filepath.Glob(glob)
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return len(m) > 0
}

// TestExtendingDoc checks docs/extending.md against the code: its four
// checklists and its four rules' lists, every file a step lists, every identifier a step names
// (declared in its package, and used by the toy additions of this file
// unless notUsedByToys says why not), and the README's link to it.
func TestExtendingDoc(t *testing.T) {
	b, err := os.ReadFile("../docs/extending.md")
	if err != nil {
		t.Fatal(err)
	}
	lists := checklists(t, string(b))
	qualified, members := toyUses(t)
	_, sharedErr := os.Stat(filepath.Join("..", "..", "shared"))
	decls := map[string]map[string]map[string]bool{}
	named := map[string]bool{}
	for _, section := range []string{"Adding an experiment kind", "Adding a dataset", "Adding a Go estimator", "Adding an external estimator",
		"Parameter roles and precedence", "Adding a synthetic dataset", "Image-only assumptions", "File names"} {
		steps := lists[section]
		if len(steps) == 0 {
			t.Errorf("extending.md: no checklist under %q", section)
		}
		for _, s := range steps {
			var paths []string
			for _, m := range spanRE.FindAllStringSubmatch(s.text, -1) {
				if pathRE.MatchString(m[1]) {
					paths = append(paths, m[1])
				}
			}
			if !pathRE.MatchString(s.path) {
				t.Errorf("extending.md:%d: step's file %q is not a path of the repository", s.line, s.path)
			}
			for _, p := range paths {
				if strings.HasPrefix(p, "../shared/") && sharedErr != nil {
					continue // a clean clone has no shared folder beside it
				}
				if !exists(t, p) {
					t.Errorf("extending.md:%d: %s: no such file", s.line, p)
				}
			}
			for _, span := range spanRE.FindAllStringSubmatch(s.text, -1) {
				for _, m := range identRE.FindAllStringSubmatch(span[1], -1) {
					checkIdent(t, s.line, m, decls, qualified, members)
					named[m[0]] = true
				}
			}
		}
	}
	for id := range notUsedByToys {
		if !named[id] {
			t.Errorf("notUsedByToys lists %s, which extending.md no longer names", id)
		}
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "(docs/extending.md)") {
		t.Error("README.md does not link docs/extending.md")
	}
}

// checkIdent checks one identifier m (pkg, Name and an optional member)
// of the page, written at line.
func checkIdent(t *testing.T, line int, m []string, decls map[string]map[string]map[string]bool, qualified, members map[string]bool) {
	t.Helper()
	id, pkg, name, member := m[0], m[1], m[2], m[3]
	dir, ok := docPackages[pkg]
	if !ok {
		t.Errorf("extending.md:%d: %s: package %s is none the page may name (docPackages)", line, id, pkg)
		return
	}
	if pkg == "rx" {
		py, err := os.ReadFile(filepath.Join("..", dir))
		if err != nil {
			t.Fatal(err)
		}
		if !regexp.MustCompile(`(?m)^(class|def) ` + name + `\b`).Match(py) {
			t.Errorf("extending.md:%d: %s: %s defines no %s", line, id, dir, name)
		}
		if !strings.Contains(toyPython, id) {
			t.Errorf("extending.md:%d: %s: the toy external estimator does not use it", line, id)
		}
		return
	}
	if decls[pkg] == nil {
		decls[pkg] = declared(t, filepath.Join("..", dir))
	}
	d, ok := decls[pkg][name]
	switch {
	case !ok:
		t.Errorf("extending.md:%d: %s: package %s (%s) declares no %s", line, id, pkg, dir, name)
		return
	case member != "" && !d[member]:
		t.Errorf("extending.md:%d: %s: %s.%s has no field or method %s", line, id, pkg, name, member)
		return
	}
	if _, ok := notUsedByToys[id]; ok {
		return
	}
	used := qualified[pkg+"."+name]
	if member != "" {
		used = members[member]
	}
	if !used {
		t.Errorf("extending.md:%d: %s: the toy additions of extending_test.go do not use it (or say why in notUsedByToys)", line, id)
	}
}

// TestFileNames holds docs/extending.md, "File names", for every
// registered kind and estimator of the module: a kind's folder and
// package are its name without hyphens; an estimator's file is its name
// without hyphens (or with _ for them), or that name's first word. The
// register files are those runtime.Caller names, which the code
// fingerprint keys on (runner.CodeFingerprint).
func TestFileNames(t *testing.T) {
	squash := func(s string) string { return strings.NewReplacer("-", "", "_", "").Replace(s) }
	for _, k := range runner.Kinds() {
		if strings.HasSuffix(k.File, "_test.go") {
			continue
		}
		dir := filepath.Base(filepath.Dir(k.File))
		if dir != strings.ReplaceAll(k.Name, "-", "") || filepath.Base(k.File) != dir+".go" {
			t.Errorf("kind %s is registered in %s, want experiments/%s/%s.go", k.Name, k.File, strings.ReplaceAll(k.Name, "-", ""), strings.ReplaceAll(k.Name, "-", ""))
		}
	}
	for _, s := range methods.All() {
		if strings.HasSuffix(s.File, "_test.go") {
			continue
		}
		base := squash(strings.TrimSuffix(filepath.Base(s.File), ".go"))
		first, _, _ := strings.Cut(s.Name, "-")
		if base != squash(s.Name) && base != first {
			t.Errorf("estimator %s is registered in %s, want %s.go (or with _ for its hyphens)", s.Name, s.File, squash(s.Name))
		}
	}
}
