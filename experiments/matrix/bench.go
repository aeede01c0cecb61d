package matrix

import (
	"fmt"
	"math"
	"regexp"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/experiments/setup"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/runner"
)

// benchmark is one entry of experiment.benchmarks.
type benchmark struct {
	name    string
	dataset string
	dsOpts  config.Section
	dsOpt   any // dsOpts as the dataset's Parse returned them
	cor     datasets.Corruption
	printed string  // the corruption as the config states it
	lo, hi  float64 // pixel range, mapped onto [0, 1] for the score
	// Gaussian width: param (c, gamma, sigma) and value; meanDist asks
	// for σ = mean pairwise distance of the training images.
	param    string
	width    float64
	meanDist bool
	mp       config.ModelPoint // Components or Energy
	train    int               // training images kept (0: all)
	test     int               // test images kept (0: all)
}

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

func parseBenchmarks(c *config.Config) ([]benchmark, error) {
	l, ok := c.Experiment.Values["benchmarks"].([]any)
	if !ok || len(l) == 0 {
		return nil, c.Experiment.Errorf("benchmarks", "experiment.benchmarks: want a list of benchmarks (name, corruption, range, kernel width, components or energy)")
	}
	seen := map[string]bool{}
	var out []benchmark
	for i, v := range l {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, c.Experiment.Errorf("benchmarks", "experiment.benchmarks[%d]: want a mapping", i)
		}
		b, err := parseBenchmark(c, m)
		if err != nil {
			return nil, c.Experiment.Errorf("benchmarks", "experiment.benchmarks[%d]: %v", i, err)
		}
		if seen[b.name] {
			return nil, c.Experiment.Errorf("benchmarks", "experiment.benchmarks[%d]: name %q used twice", i, b.name)
		}
		seen[b.name] = true
		out = append(out, b)
	}
	return out, nil
}

func parseBenchmark(c *config.Config, m map[string]any) (benchmark, error) {
	s := config.Section{Values: m}
	r := s.Reader("benchmark")
	b := benchmark{
		name:  r.String("name", ""),
		train: r.Int("train", 0, 0),
		test:  r.Int("test", 0, 0),
	}
	rg := r.Floats("range", nil, 2)
	q := r.Int("components", 0, 1)
	f := r.Float("energy", 0, func(v float64) bool { return v > 0 && v <= 1 }, "a fraction in (0, 1]")
	r.Touch("dataset")
	r.Touch("corruption")
	var widths []string
	for _, p := range []string{"c", "gamma", "sigma"} {
		if s.Has(p) {
			widths = append(widths, p)
			r.Touch(p)
		}
	}
	if err := r.Err(); err != nil {
		return b, err
	}
	switch {
	case !nameRE.MatchString(b.name):
		return b, fmt.Errorf("name %q: want lower-case letters, digits and dashes", b.name)
	case rg == nil || !(rg[1] > rg[0]):
		return b, fmt.Errorf("%s: range: want [lo, hi] with hi > lo, the pixel range scored as [0, 1]", b.name)
	case (q > 0) == (f > 0):
		return b, fmt.Errorf("%s: give exactly one of components and energy", b.name)
	case len(widths) != 1:
		return b, fmt.Errorf("%s: give exactly one Gaussian width: c, gamma or sigma", b.name)
	}
	b.lo, b.hi = rg[0], rg[1]
	b.mp = config.ModelPoint{Components: q, Energy: f}
	b.param = widths[0]
	switch w := m[b.param].(type) {
	case float64:
		b.width = w
	case int:
		b.width = float64(w)
	case string:
		if w != "mean-distance" || b.param != "sigma" {
			return b, fmt.Errorf("%s: %s: want a number (or sigma: mean-distance), got %q", b.name, b.param, w)
		}
		b.meanDist = true
	default:
		return b, fmt.Errorf("%s: %s: want a number, got %v", b.name, b.param, m[b.param])
	}
	if !b.meanDist {
		if _, err := kernel.NewGaussian(b.param, b.width); err != nil {
			return b, fmt.Errorf("%s: %v", b.name, err)
		}
	}
	if err := b.parseDataset(c, m["dataset"]); err != nil {
		return b, err
	}
	return b, b.parseCorruption(m["corruption"])
}

// parseDataset reads the benchmark's dataset (the config's when absent)
// and checks its options with the dataset's own check.
func (b *benchmark) parseDataset(c *config.Config, v any) error {
	b.dataset, b.dsOpts = c.Dataset.Name, c.Dataset.Options
	if v != nil {
		m, ok := v.(map[string]any)
		name, _ := m["name"].(string)
		if !ok || name == "" {
			return fmt.Errorf("%s: dataset: want a mapping with a name", b.name)
		}
		opts := map[string]any{}
		for k, x := range m {
			if k != "name" {
				opts[k] = x
			}
		}
		b.dataset, b.dsOpts = name, config.Section{Values: opts}
	}
	spec, ok := runner.LookupDataset(b.dataset)
	if !ok {
		return fmt.Errorf("%s: unknown dataset %q", b.name, b.dataset)
	}
	var err error
	if b.dsOpt, err = spec.Parse(b.dsOpts); err != nil {
		return fmt.Errorf("%s: dataset %s: %v", b.name, b.dataset, err)
	}
	return nil
}

// parseCorruption reads {type: gaussian, std} or {type: occlusion, side,
// fill} (a square of values uniform in [0, fill), Nguyen & De la Torre)
// or {type: black-occlusion, min_side, max_side, stretch} (Zheng & Lai).
func (b *benchmark) parseCorruption(v any) error {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("%s: corruption: want a mapping with a type", b.name)
	}
	s := config.Section{Values: m}
	r := s.Reader("corruption")
	typ := r.String("type", "", "gaussian", "occlusion", "black-occlusion")
	switch typ {
	case "gaussian":
		std := r.Float("std", -1, func(v float64) bool { return v >= 0 }, "a std ≥ 0")
		if std < 0 {
			r.Fail("std", "missing (the noise standard deviation, in the data's own units)")
		}
		st := r.Bool("stretch", false)
		b.cor = datasets.Corruption{Kind: datasets.GaussianNoise, Std: std, Stretch: st}
		b.printed = fmt.Sprintf("Gaussian noise, std %g", std)
		if st {
			b.printed += ", stretched to [0, 1]"
		}
	case "occlusion":
		side := r.Int("side", 0, 1)
		fill := r.Float("fill", 1, func(v float64) bool { return v > 0 }, "a value > 0")
		b.cor = datasets.Corruption{Kind: datasets.UniformOcclusion, MinSide: side, Fill: fill}
		b.printed = fmt.Sprintf("%d×%d square of values uniform in [0, %g)", side, side, fill)
	case "black-occlusion":
		lo, hi := r.Int("min_side", 0, 1), r.Int("max_side", 0, 1)
		st := r.Bool("stretch", false)
		b.cor = datasets.Corruption{Kind: datasets.BlackOcclusion, MinSide: lo, MaxSide: hi, Stretch: st}
		b.printed = fmt.Sprintf("black rectangle, sides %d–%d px", lo, hi)
		if st {
			b.printed += ", stretched to [0, 1]"
		}
	}
	if err := r.Err(); err != nil {
		return fmt.Errorf("%s: %v", b.name, err)
	}
	if typ == "" {
		return fmt.Errorf("%s: corruption: missing type", b.name)
	}
	return nil
}

// prepared is a benchmark's data: the clean training images the model is
// fitted on, the clean test images and their corrupted copies, the kernel
// and the fit.
type prepared struct {
	*benchmark
	trainN      int
	clean       *mat.Dense
	noisy       *mat.Dense
	kern        kernel.Kernel
	width, h, d int
	key         string // names the training data by content, for the model memo
	trainX      *mat.Dense
}

func prepare(env *runner.Env, b *benchmark) (*prepared, error) {
	spec, _ := runner.LookupDataset(b.dataset)
	d, err := env.LoadDataset(spec, b.dsOpt)
	if err != nil {
		return nil, err
	}
	train, test := d.Train, d.Test
	if test == nil {
		// One set: a seeded split into training and test images.
		n, _ := train.X.Dims()
		nt := b.test
		if nt == 0 || nt >= n {
			nt = n / 2
		}
		perm := env.Rand("matrix-split:" + b.name).Perm(n)
		test = datasets.SelectRows(train, train.Name+"-test", sortInts(perm[:nt]))
		train = datasets.SelectRows(train, train.Name+"-train", sortInts(perm[nt:]))
	}
	train = subsample(env, train, b.train, "matrix-train:"+b.name)
	test = subsample(env, test, b.test, "matrix-test:"+b.name)
	p := &prepared{benchmark: b, clean: test.X, trainX: train.X, width: test.Width, h: test.Height}
	p.trainN, _ = train.X.Dims()
	_, p.d = test.X.Dims()
	cor, err := b.cor.Apply(test, runner.DeriveSeed(env.Config.Seed, "matrix-corruption:"+b.name))
	if err != nil {
		return nil, err
	}
	p.noisy = cor.Noisy
	w := b.width
	if b.meanDist {
		w = meanDistance(train.X)
		b.width = w
	}
	if p.kern, err = kernel.NewGaussian(b.param, w); err != nil {
		return nil, err
	}
	p.key = "matrix-" + b.name
	env.Log.Info("matrix benchmark", "name", b.name, "train", p.trainN, "test", test.X.RawMatrix().Rows, "kernel", kernel.Label(p.kern))
	return p, nil
}

// subsample keeps n rows of set drawn at random from the stream named by
// purpose, in their original order (n = 0 or n ≥ rows: every row).
func subsample(env *runner.Env, set *datasets.Set, n int, purpose string) *datasets.Set {
	rows, _ := set.X.Dims()
	if n == 0 || n >= rows {
		return set
	}
	perm := env.Rand(purpose).Perm(rows)
	return datasets.SelectRows(set, set.Name, sortInts(perm[:n]))
}

func sortInts(s []int) []int {
	out := append([]int(nil), s...)
	sort.Ints(out)
	return out
}

// meanDistance is the mean Euclidean distance over pairs of distinct rows
// of x: Huang et al.'s σ.
func meanDistance(x *mat.Dense) float64 {
	n, _ := x.Dims()
	var s float64
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			var d2 float64
			a, b := x.RawRowView(i), x.RawRowView(j)
			for k := range a {
				t := a[k] - b[k]
				d2 += t * t
			}
			s += math.Sqrt(d2)
		}
	}
	return s / float64(n*(n-1)/2)
}

// model returns the benchmark's kernel PCA fit (shared per process) and
// its subspace size.
func (p *prepared) model(env *runner.Env) (*methods.KPCA, int, error) {
	m, err := setup.Model(env, p.key, p.trainX, p.kern)
	if err != nil {
		return nil, 0, err
	}
	q, err := setup.Components(m, p.mp)
	return m, q, err
}
