package matrix

import (
	"fmt"
	"sort"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/runner"
)

func init() {
	k := runner.Define("matrix",
		"cross-paper matrix: every de-noising estimator on every de-noising benchmark, MSE on [0, 1] with bootstrap intervals, ranks and paired wins",
		parse, start)
	k.Takes = methods.Denoises
	k.Metrics = runner.MetricsOf(metricNames)
	runner.RegisterKind(k)
}

// defaultExclude are the estimators all_estimators leaves out: the
// imputers that only fill entries a mask marks missing (the benchmarks
// have no mask, so they would return their input), and external, which
// needs a command.
var defaultExclude = []string{"external", "impute-mean", "impute-nn", "ppca", "rkpca-impute"}

type options struct {
	benchmarks []benchmark
	level      float64
	resamples  int
	all        bool
	exclude    map[string]bool
	// methodTest caps the test images of a slow estimator, by label or
	// registry name (experiment.method_test).
	methodTest map[string]int
}

func parse(c *config.Config) (options, error) {
	r := c.Experiment.Reader("experiment")
	o := options{
		level:     r.Float("level", 0.95, func(v float64) bool { return v > 0 && v < 1 }, "a level in (0, 1)"),
		resamples: r.Int("resamples", 2000, 100),
		all:       r.Bool("all_estimators", false),
		exclude:   map[string]bool{},
	}
	var err error
	ex := defaultExclude
	if c.Experiment.Has("exclude") {
		r.Touch("exclude")
		l, ok := c.Experiment.Values["exclude"].([]any)
		if !ok {
			return o, c.Experiment.Errorf("exclude", "experiment.exclude: want a list of estimator names")
		}
		ex = nil
		for _, v := range l {
			s, ok := v.(string)
			if !ok {
				return o, c.Experiment.Errorf("exclude", "experiment.exclude: %v is not an estimator name", v)
			}
			ex = append(ex, s)
		}
	}
	for _, s := range ex {
		o.exclude[s] = true
	}
	r.Touch("benchmarks")
	if o.methodTest, err = parseMethodTest(c, r); err != nil {
		return o, err
	}
	if err := r.Err(); err != nil {
		return o, err
	}
	if o.benchmarks, err = parseBenchmarks(c); err != nil {
		return o, err
	}
	if len(c.Model.Widths) > 0 || len(c.Model.Components) > 0 || len(c.Model.Energy) > 0 || c.Model.Kernel != "" {
		return o, c.ModelErrorf("matrix: give each benchmark's kernel and subspace size in experiment.benchmarks, not in model")
	}
	if o.all {
		addAll(c, o.exclude)
	}
	if len(c.Methods) == 0 {
		return o, c.Errorf(0, "matrix: list estimators under methods, or set experiment.all_estimators: true")
	}
	for i, m := range c.Methods {
		s, ok := methods.Lookup(m.Name)
		if ok && !s.Can(methods.Denoises) {
			return o, c.Errorf(m.Line, "methods[%d]: %s neither de-noises nor finds pre-images", i, m.Name)
		}
	}
	return o, nil
}

// addAll appends to c.Methods every registered estimator that de-noises
// (pre-imagers by projecting first), with its default parameters, unless
// it is excluded or the config already lists it. Parsing the same config
// twice adds nothing the second time. Whether an estimator can take a
// benchmark's kernel is decided per benchmark when the cell runs, and a
// refusal is shown on the page.
func addAll(c *config.Config, exclude map[string]bool) {
	have := map[string]bool{}
	for _, m := range c.Methods {
		have[m.Name] = true
		if m.Label != "" {
			have[m.Label] = true
		}
	}
	specs := methods.All()
	sort.Slice(specs, func(i, j int) bool { return specs[i].Name < specs[j].Name })
	for _, s := range specs {
		if exclude[s.Name] || have[s.Name] || have[s.Title] || !s.Can(methods.Denoises) {
			continue
		}
		c.Methods = append(c.Methods, config.Method{Name: s.Name, Params: config.Section{Values: map[string]any{}}})
	}
}

func start(env *runner.Env, o options) (runner.Instance, error) {
	in := &instance{env: env, opt: o}
	for i := range o.benchmarks {
		p, err := prepare(env, &o.benchmarks[i])
		if err != nil {
			return nil, fmt.Errorf("matrix: benchmark %s: %w", o.benchmarks[i].name, err)
		}
		in.benches = append(in.benches, p)
	}
	return in, nil
}

type instance struct {
	env     *runner.Env
	opt     options
	benches []*prepared
}

// parseMethodTest reads experiment.method_test: {estimator: k}, the
// number of test images (the first k of each benchmark) a slow estimator
// de-noises.
func parseMethodTest(c *config.Config, r *config.Reader) (map[string]int, error) {
	out := map[string]int{}
	r.Touch("method_test")
	v, ok := c.Experiment.Values["method_test"]
	if !ok {
		return out, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, c.Experiment.Errorf("method_test", "experiment.method_test: want {estimator: test images}")
	}
	for name, x := range m {
		k, ok := x.(int)
		if !ok || k < 2 {
			return nil, c.Experiment.Errorf("method_test", "experiment.method_test.%s: want an integer ≥ 2 (an interval needs 2 images), got %v", name, x)
		}
		out[name] = k
	}
	return out, nil
}
