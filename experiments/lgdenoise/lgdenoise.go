// Package lgdenoise is the de-noising experiment of Huang, Tian & De la
// Torre (2011, §5.2): Table 1 (APE mean ± std and SNR per expression group
// for each method) and Fig. 7 (example de-noised faces).
//
// # Protocol
//
// The data set's labels are the groups (Yale face conditions, PIE
// expressions). Each group is split at random (a stream per group) into
// a training part of ceil(train_fraction·n) images and a test part. The
// test images are corrupted by the config's corruption (Gaussian noise of
// std 0.06 on [0, 1] in the paper). Kernel PCA keeps every component. The
// kernel is exp(−‖x−y‖²/σ²) with σ the mean pairwise distance of the
// training images, and every estimator with a neighbors parameter gets the
// count of training images within that distance (package huang).
//
// models: per-group fits one model (σ, neighbours, KPCA) on each group's
// training images and de-noises that group's test images with it, the
// reading of the paper's per-expression training counts (its ambiguity
// a3); models: pooled fits one model on every group's training images.
//
// Metrics, per group and over all test images: APE = ‖x̃ − x₀‖₁/d on the
// 0–255 scale (ape_scale; ambiguity a1) as mean and standard deviation
// over test images, and SNR = ‖x̃ − x‖²/‖x̃ − x₀‖² (eq. 14) as the mean of
// the per-image ratios (ambiguity a2). No re-normalisation.
package lgdenoise

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/experiments/internal/common"
	"github.com/runexp/runexp/experiments/internal/huang"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

func init() {
	runner.RegisterKind(runner.Define("lgdenoise",
		"Huang et al. Table 1 / Fig. 7: de-noising per group (50/50 split), σ and neighbours from the data, APE and SNR",
		check, start))
}

type options struct {
	kern       huang.KernelOpts
	trainFrac  float64
	models     string
	apeScale   float64
	examples   int
	figureName string
}

func parse(c *config.Config) (options, error) {
	s := c.Experiment
	r := s.Reader("experiment")
	o := options{
		kern:       huang.Parse(s, r),
		trainFrac:  r.Float("train_fraction", 0.5, func(v float64) bool { return v > 0 && v < 1 }, "a fraction in (0, 1)"),
		models:     r.String("models", "per-group", "per-group", "pooled"),
		apeScale:   r.Float("ape_scale", 255, func(v float64) bool { return v > 0 }, "a scale > 0"),
		examples:   r.Int("examples", 0, 0),
		figureName: r.String("figure_name", "fig7-examples"),
	}
	return o, r.Err()
}

func check(c *config.Config) (options, error) {
	o, err := parse(c)
	if err != nil {
		return o, err
	}
	return o, huang.CheckConfig(c, "lgdenoise")
}

// part is one model: its training rows and the test rows it de-noises.
type part struct {
	name  string // "" for pooled, else the group's metric name
	train *mat.Dense
	test  []int // rows of the test set
	fit   *huang.Fitted
}

type instance struct {
	env      *runner.Env
	opt      options
	groups   []string // metric names of the groups
	titles   []string // display names
	test     *datasets.Set
	group    []int // group of each test row
	noisy    *mat.Dense
	parts    []*part
	examples []int // test rows shown in Fig. 7
}

// metricName turns a label name into a metric suffix.
func metricName(s string) string {
	return strings.ToLower(strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' || r == '.' {
			return '_'
		}
		return r
	}, s))
}

func start(env *runner.Env, o options) (runner.Instance, error) {
	d, err := env.LoadData()
	if err != nil {
		return nil, err
	}
	set := d.Train
	if set.Labels == nil || len(set.LabelNames) == 0 {
		return nil, fmt.Errorf("lgdenoise: dataset %s has no named groups (labels)", set.Name)
	}
	in := &instance{env: env, opt: o}
	for _, n := range set.LabelNames {
		in.groups = append(in.groups, metricName(n))
		in.titles = append(in.titles, n)
	}
	byGroup := make([][]int, len(set.LabelNames))
	for i, l := range set.Labels {
		byGroup[l] = append(byGroup[l], i)
	}
	_, dim := set.X.Dims()
	var trainRows [][]int
	var testRows []int
	for g, rows := range byGroup {
		if len(rows) < 3 {
			return nil, fmt.Errorf("lgdenoise: group %s has %d images, need at least 3", in.titles[g], len(rows))
		}
		perm := env.Rand("split:" + in.groups[g]).Perm(len(rows))
		nt := int(math.Ceil(o.trainFrac * float64(len(rows))))
		nt = min(max(nt, 2), len(rows)-1)
		var tr []int
		for k, p := range perm {
			if k < nt {
				tr = append(tr, rows[p])
			} else {
				testRows = append(testRows, rows[p])
			}
		}
		sort.Ints(tr)
		trainRows = append(trainRows, tr)
	}
	// Test rows in group order, each group's rows increasing.
	sort.SliceStable(testRows, func(a, b int) bool {
		la, lb := set.Labels[testRows[a]], set.Labels[testRows[b]]
		if la != lb {
			return la < lb
		}
		return testRows[a] < testRows[b]
	})
	test := &datasets.Set{Name: set.Name + "-test", X: mat.NewDense(len(testRows), dim, nil), Width: set.Width, Height: set.Height, LabelNames: set.LabelNames}
	for k, i := range testRows {
		test.X.SetRow(k, set.X.RawRowView(i))
		test.Labels = append(test.Labels, set.Labels[i])
	}
	in.test = test
	in.group = test.Labels
	cor, err := common.Corrupt(env, test)
	if err != nil {
		return nil, err
	}
	in.noisy = cor.Noisy
	if r, _ := in.noisy.Dims(); r != len(testRows) {
		return nil, errors.New("lgdenoise: use one corrupted copy per test image (corruption.copies: 1)")
	}
	gather := func(rows []int) *mat.Dense {
		x := mat.NewDense(len(rows), dim, nil)
		for k, i := range rows {
			x.SetRow(k, set.X.RawRowView(i))
		}
		return x
	}
	switch o.models {
	case "per-group":
		for g, tr := range trainRows {
			p := &part{name: in.groups[g], train: gather(tr)}
			for k, l := range test.Labels {
				if l == g {
					p.test = append(p.test, k)
				}
			}
			in.parts = append(in.parts, p)
		}
	case "pooled":
		var all []int
		for _, tr := range trainRows {
			all = append(all, tr...)
		}
		sort.Ints(all)
		p := &part{train: gather(all)}
		for k := range testRows {
			p.test = append(p.test, k)
		}
		in.parts = append(in.parts, p)
	}
	for _, p := range in.parts {
		if p.fit, err = huang.Build(o.kern, p.train, set.Width, set.Height); err != nil {
			return nil, err
		}
		n, _ := p.train.Dims()
		env.Log.Info("lgdenoise model", "part", p.name, "train", n, "test", len(p.test), "sigma", p.fit.Sigma, "neighbors", p.fit.Neighbors)
	}
	// Fig. 7: the first test image of each group in turn.
	seen := map[int]bool{}
	for k, l := range test.Labels {
		if len(in.examples) < o.examples && !seen[l] {
			seen[l] = true
			in.examples = append(in.examples, k)
		}
	}
	return in, nil
}

func (in *instance) Run(cell *runner.Cell, rec *report.Record) error {
	huang.MarkNeighbors(rec, cell, in.opt.kern)
	nt, d := in.test.X.Dims()
	z := mat.NewDense(nt, d, nil)
	failed := make([]error, nt)
	ridge := 0.0
	for _, p := range in.parts {
		m, err := huang.Model(in.env, "lgdenoise-train-"+p.name, p.train, p.fit, cell)
		if err != nil {
			return err
		}
		est, _, err := huang.Estimator(cell, p.fit.Neighbors)
		if err != nil {
			return err
		}
		den, ok := methods.AsDenoiser(est)
		if !ok {
			return errors.New("the estimator neither de-noises nor finds pre-images")
		}
		x0 := mat.NewDense(len(p.test), d, nil)
		for k, i := range p.test {
			x0.SetRow(k, in.noisy.RawRowView(i))
		}
		var out mat.Dense
		st, err := den.Denoise(&out, &methods.DenoiseInput{Model: m, Q: m.Rank(), X0: x0, Rand: cell.Rand()})
		if err != nil {
			return err
		}
		for k, i := range p.test {
			z.SetRow(i, out.RawRowView(k))
			failed[i] = st[k].Err
			ridge += st[k].Diag["ridge"]
		}
		suffix := ""
		if p.name != "" {
			suffix = "_" + p.name
		}
		rec.Metrics["sigma"+suffix] = p.fit.Sigma
		rec.Metrics["neighbors"+suffix] = float64(p.fit.Neighbors)
		rec.Metrics["components"+suffix] = float64(m.Rank())
	}
	ape := make([][]float64, len(in.groups)+1)
	snr := make([][]float64, len(in.groups)+1)
	noisyAPE := make([][]float64, len(in.groups)+1)
	nfail := make([]int, len(in.groups)+1)
	all := len(in.groups)
	for i := 0; i < nt; i++ {
		g := in.group[i]
		clean := in.test.X.RawRowView(i)
		noisy := in.noisy.RawRowView(i)
		na := metrics.APE(noisy, clean, in.opt.apeScale)
		noisyAPE[g] = append(noisyAPE[g], na)
		noisyAPE[all] = append(noisyAPE[all], na)
		if failed[i] != nil {
			nfail[g]++
			nfail[all]++
			continue
		}
		zi := z.RawRowView(i)
		a := metrics.APE(zi, clean, in.opt.apeScale)
		s := metrics.SNR(zi, noisy, clean)
		ape[g] = append(ape[g], a)
		snr[g] = append(snr[g], s)
		ape[all] = append(ape[all], a)
		snr[all] = append(snr[all], s)
	}
	if len(ape[all]) == 0 {
		return fmt.Errorf("every one of the %d test images failed (first: %v)", nt, failed[0])
	}
	for g := 0; g <= all; g++ {
		suffix := "_all"
		if g < all {
			suffix = "_" + in.groups[g]
		}
		a := metrics.Summarize(ape[g])
		rec.Metrics["ape_mean"+suffix] = a.Mean
		rec.Metrics["ape_std"+suffix] = a.Std
		rec.Metrics["snr_mean"+suffix] = metrics.Summarize(snr[g]).Mean
		rec.Metrics["noisy_ape"+suffix] = metrics.Summarize(noisyAPE[g]).Mean
		rec.Metrics["failed"+suffix] = float64(nfail[g])
	}
	rec.Metrics["ridge_fraction"] = ridge / float64(nt)
	if nfail[all] > 0 {
		rec.Status = report.StatusPartial
	}
	var ex []float64
	for _, i := range in.examples {
		row := append([]float64(nil), z.RawRowView(i)...)
		if failed[i] != nil {
			for k := range row {
				row[k] = math.NaN()
			}
		}
		ex = append(ex, row...)
	}
	if len(ex) > 0 {
		rec.Arrays = map[string][]float64{"examples": ex}
	}
	return nil
}

func (in *instance) Report(out *runner.Output, recs []report.Record) error {
	cfg := in.env.Config
	var models string
	for _, p := range in.parts {
		n, _ := p.train.Dims()
		name := p.name
		if name == "" {
			name = "pooled"
		}
		models += fmt.Sprintf("%s: %d train / %d test, σ = %s, %d neighbours; ", name, n, len(p.test), report.FormatFloat(p.fit.Sigma, 4), p.fit.Neighbors)
	}
	t := &report.Table{
		Title: "Table 1: de-noising by group — APE mean ± std (0–255) and SNR (eq. 14)",
		Caption: fmt.Sprintf("Rows: groups of %s; columns: methods. Models %s: %s corruption: %s. SNR is the mean of per-image ratios; every KPCA component kept.",
			cfg.Dataset.Name, in.opt.models, models, cfg.Corruption.Printed),
		Header: []string{"group", "noisy APE"},
	}
	for i := range recs {
		t.Header = append(t.Header, fmt.Sprint(recs[i].Params["method"])+" APE", "SNR")
	}
	for g := 0; g <= len(in.groups); g++ {
		suffix, title := "_all", "all"
		if g < len(in.groups) {
			suffix, title = "_"+in.groups[g], in.titles[g]
		}
		row := []string{title, ""}
		for i := range recs {
			r := &recs[i]
			if i == 0 {
				row[1] = report.FormatFloat(r.Metrics["noisy_ape"+suffix], 4)
			}
			if r.Status == report.StatusFailed {
				row = append(row, "failed", "—")
				continue
			}
			row = append(row, report.FormatFloat(r.Metrics["ape_mean"+suffix], 4)+" ± "+report.FormatFloat(r.Metrics["ape_std"+suffix], 3),
				report.FormatFloat(r.Metrics["snr_mean"+suffix], 3))
		}
		t.Rows = append(t.Rows, row)
	}
	out.Tables = append(out.Tables, t)
	if len(in.examples) == 0 {
		return nil
	}
	w, h := in.test.Width, in.test.Height
	dd := w * h
	g := &report.ImageGrid{Width: w, Height: h, Scale: max(1, 96/max(w, h)), Lo: 0, Hi: 1,
		Title: "Fig. 7: de-noising examples (first test image of each group)"}
	var orig, noisy [][]float64
	for _, i := range in.examples {
		orig = append(orig, in.test.X.RawRowView(i))
		noisy = append(noisy, in.noisy.RawRowView(i))
		g.ColLabels = append(g.ColLabels, in.titles[in.group[i]])
	}
	g.Images = [][][]float64{orig, noisy}
	g.RowLabels = []string{"original", "noisy"}
	for i := range recs {
		ex := recs[i].Arrays["examples"]
		var row [][]float64
		for k := range in.examples {
			if len(ex) >= (k+1)*dd {
				row = append(row, ex[k*dd:(k+1)*dd])
			} else {
				row = append(row, nil)
			}
		}
		g.Images = append(g.Images, row)
		g.RowLabels = append(g.RowLabels, fmt.Sprint(recs[i].Params["method"]))
	}
	files, err := g.Save(out.Path(in.opt.figureName))
	out.Add(files...)
	return err
}
