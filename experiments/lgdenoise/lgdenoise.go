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
// count of training images within that distance (package huang), unless
// its config entry (or --with) gives its own count, which runs as given:
// the precedence rule of every kind (docs/extending.md, "Parameter roles
// and precedence").
//
// models: per-group fits one model (σ, neighbours, KPCA) on each group's
// training images and de-noises that group's test images with it, the
// reading of the paper's per-expression training counts (its ambiguity
// a3); models: pooled fits one model on every group's training images.
//
// Metrics, per group and over all test images: APE = ‖x̃ − x₀‖₁/d on the
// 0–255 scale (ape_scale; ambiguity a1) as mean and standard deviation
// over test images, and SNR = ‖x̃ − x‖²/‖x̃ − x₀‖² (eq. 14) in both readings
// of its ambiguity a2: snr_mean_<group>, the mean of the per-image ratios,
// and snr_pooled_<group>, the ratio of the summed numerators and
// denominators Σ‖x̃ − x‖²/Σ‖x̃ − x₀‖². experiment.snr (per-image, the
// default, or pooled) chooses the one the table shows; claims name the
// metric they read. No re-normalisation.
//
// Fine detail (Huang et al. c5–c6, "over-smoothing", "person-specific
// details"; docs/readings.md): per image, the detail ratio
// metrics.DetailRatio(x̃, x) = ‖∇x̃‖²/‖∇x‖² (below 1: the de-noised face is
// smoother than the clean one) and the detail error metrics.DetailError =
// ‖∇x̃ − ∇x‖²/‖∇x‖² (how much of the clean face's fine detail the de-noised
// one gets wrong), forward differences on the image grid; recorded as
// detail_ratio_<group> and detail_error_<group>, means over the group's
// images, and noisy_detail_ratio_<group> for the noisy inputs.
//
// Records also hold the per-image APE, SNR, SNR numerator and denominator,
// detail ratio and detail error of each group and of all test images
// (items.go), NaN where an image failed, so that claims comparing methods
// on these metrics get a paired bootstrap interval over the test images
// (package claims, Kind.Items), and the table shows each mean's and SNR's
// 95% interval.
package lgdenoise

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/experiments/internal/common"
	"github.com/runexp/runexp/experiments/internal/figs"
	"github.com/runexp/runexp/experiments/internal/huang"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

func init() {
	k := runner.Define("lgdenoise",
		"Huang et al. Table 1 / Fig. 7: de-noising per group (50/50 split), σ and neighbours from the data, APE and SNR",
		check, start)
	// 2: records carry snr_pooled_* beside snr_mean_*. 3: records carry
	// the per-image arrays behind them (items.go). 4: and the detail
	// ratio and error.
	k.Version = "4"
	k.Items = items
	k.Takes = methods.Denoises
	k.Metrics = runner.MetricsOf(metricNames)
	// Keys show the neighbour count that runs (the rule, or the
	// experiment's count), not the estimator's bound default.
	k.KeyParams = runner.KeyParamsOf(func(_ *config.Config, o options, cell *runner.Cell) map[string]any {
		return huang.KeyParams(cell, o.kern)
	})
	runner.RegisterKind(k)
}

// SNR readings (Huang et al. ambiguity a2).
const (
	snrPerImage = "per-image" // mean of per-image ratios
	snrPooled   = "pooled"    // ratio of summed numerators and denominators
)

type options struct {
	kern       huang.KernelOpts
	trainFrac  float64
	models     string
	snr        string // which SNR reading the table shows
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
		snr:        r.String("snr", snrPerImage, snrPerImage, snrPooled),
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
	o.kern.Explicit = huang.ExplicitRoles(c, methods.NeighborsRole)
	return o, huang.CheckConfig(c, "lgdenoise")
}

// part is one model: its training rows and the test rows it de-noises.
type part struct {
	name  string // "" for pooled, else the group's metric name
	train *mat.Dense
	test  []int // rows of the test set
	fit   *huang.Fitted
}

// modelName names the part's model in logs and the shared fit's key:
// "lgdenoise-train" for the pooled model, "lgdenoise-train-GROUP" for a
// group's.
func (p *part) modelName() string {
	if p.name == "" {
		return "lgdenoise-train"
	}
	return "lgdenoise-train-" + p.name
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
	sp, err := in.split(set)
	if err != nil {
		return nil, err
	}
	in.test = datasets.SelectRows(set, set.Name+"-test", sp.Test)
	in.group = in.test.Labels
	cor, err := common.Corrupt(env, in.test)
	if err != nil {
		return nil, err
	}
	in.noisy = cor.Noisy
	if r, _ := in.noisy.Dims(); r != len(sp.Test) {
		return nil, errors.New("lgdenoise: use one corrupted copy per test image (corruption.copies: 1)")
	}
	in.makeParts(set, sp.Train)
	for _, p := range in.parts {
		if p.fit, err = huang.Build(o.kern, p.train, set.Width, set.Height); err != nil {
			return nil, err
		}
		n, _ := p.train.Dims()
		env.Log.Info("lgdenoise model", "part", p.name, "train", n, "test", len(p.test), "sigma", p.fit.Sigma, "neighbors", p.fit.Neighbors)
	}
	// Fig. 7: the first test image of each group, the groups of the
	// paper's table first, in its row order, then the others in the data's.
	first := map[int]int{}
	for k, l := range in.test.Labels {
		if _, ok := first[l]; !ok {
			first[l] = k
		}
	}
	for _, g := range in.exampleOrder() {
		if k, ok := first[g]; ok && len(in.examples) < o.examples {
			in.examples = append(in.examples, k)
		}
	}
	return in, nil
}

// exampleOrder returns the groups in the order Fig. 7 shows them: those
// the config's reference values name (metric <quantity>_<group>), in the
// order first named, which is the paper's row order, then the rest in the
// data's order.
func (in *instance) exampleOrder() []int {
	var order []int
	seen := map[int]bool{}
	for _, r := range in.env.Config.Reference {
		for g, name := range in.groups {
			if !seen[g] && strings.HasSuffix(r.Metric, "_"+name) {
				seen[g] = true
				order = append(order, g)
			}
		}
	}
	for g := range in.groups {
		if !seen[g] {
			order = append(order, g)
		}
	}
	return order
}

// split draws each group's training part (datasets.Stratified with a
// stream per group, "split:<group>"): ⌈train_fraction·n⌉ images, at least
// 2 and at most n−1. The test rows come back in group order, each group's
// rows increasing.
func (in *instance) split(set *datasets.Set) (datasets.Split, error) {
	count := make([]int, len(set.LabelNames))
	for _, l := range set.Labels {
		count[l]++
	}
	for g, n := range count {
		if n < 3 {
			return datasets.Split{}, fmt.Errorf("lgdenoise: group %s has %d images, need at least 3", in.titles[g], n)
		}
	}
	ceil := datasets.TrainCeil(in.opt.trainFrac)
	size := func(n int) int { return min(max(ceil(n), 2), n-1) }
	sp, err := datasets.Stratified(set.Labels, size, func(g int) *rand.Rand { return in.env.Rand("split:" + in.groups[g]) })
	if err != nil {
		return sp, err
	}
	sort.SliceStable(sp.Test, func(a, b int) bool {
		la, lb := set.Labels[sp.Test[a]], set.Labels[sp.Test[b]]
		if la != lb {
			return la < lb
		}
		return sp.Test[a] < sp.Test[b]
	})
	return sp, nil
}

// makeParts groups the training rows into the models of experiment.models:
// one per group, or one pooled over every group.
func (in *instance) makeParts(set *datasets.Set, train []int) {
	switch in.opt.models {
	case "per-group":
		byGroup := make([][]int, len(in.groups))
		for _, i := range train {
			byGroup[set.Labels[i]] = append(byGroup[set.Labels[i]], i)
		}
		for g, tr := range byGroup {
			p := &part{name: in.groups[g], train: datasets.SelectRows(set, "", tr).X}
			for k, l := range in.test.Labels {
				if l == g {
					p.test = append(p.test, k)
				}
			}
			in.parts = append(in.parts, p)
		}
	case "pooled":
		p := &part{train: datasets.SelectRows(set, "", train).X}
		for k := range in.test.Labels {
			p.test = append(p.test, k)
		}
		in.parts = append(in.parts, p)
	}
}

// denoiser builds the cell's estimator as a de-noiser with its neighbours
// parameter, if it has one and the config leaves it to the kind, set to k
// (methods.NeighborsRole, huang.Params).
func denoiser(cell *runner.Cell, o huang.KernelOpts, k int) (methods.Denoiser, error) {
	p, _, err := huang.Params(cell, o, k)
	if err != nil {
		return nil, err
	}
	return cell.Method.Spec.NewDenoiser(p)
}

// outcome is a cell's de-noised test images.
type outcome struct {
	z      *mat.Dense
	failed []error // per test row
	ridge  float64 // sum of the rows' ridge diagnostics
}

// denoise de-noises every part's test images with its own model and
// records each part's σ, neighbour count and component count.
func (in *instance) denoise(cell *runner.Cell, rec *report.Record) (*outcome, error) {
	nt, d := in.test.X.Dims()
	o := &outcome{z: mat.NewDense(nt, d, nil), failed: make([]error, nt)}
	for _, p := range in.parts {
		m, err := huang.Model(in.env, p.modelName(), p.train, p.fit, cell)
		if err != nil {
			return nil, err
		}
		den, err := denoiser(cell, in.opt.kern, p.fit.Neighbors)
		if err != nil {
			return nil, err
		}
		x0 := mat.NewDense(len(p.test), d, nil)
		for k, i := range p.test {
			x0.SetRow(k, in.noisy.RawRowView(i))
		}
		var out mat.Dense
		st, err := den.Denoise(&out, &methods.DenoiseInput{Model: m, Q: m.Rank(), X0: x0, Rand: cell.Rand()})
		if err != nil {
			return nil, err
		}
		for k, i := range p.test {
			o.z.SetRow(i, out.RawRowView(k))
			o.failed[i] = st[k].Err
			o.ridge += st[k].Diag["ridge"]
		}
		suffix := ""
		if p.name != "" {
			suffix = "_" + p.name
		}
		mm := modelOf(suffix)
		rec.Set(mm.sigma, p.fit.Sigma)
		rec.Set(mm.neighbors, float64(huang.Neighbors(cell, in.opt.kern, p.fit.Neighbors)))
		rec.Set(mm.components, float64(m.Rank()))
	}
	return o, nil
}

func (in *instance) Run(cell *runner.Cell, rec *report.Record) error {
	huang.MarkNeighbors(rec, cell, in.opt.kern)
	o, err := in.denoise(cell, rec)
	if err != nil {
		return err
	}
	if err := in.measure(o, rec); err != nil {
		return err
	}
	var ex []float64
	for _, i := range in.examples {
		row := append([]float64(nil), o.z.RawRowView(i)...)
		if o.failed[i] != nil {
			for k := range row {
				row[k] = math.NaN()
			}
		}
		ex = append(ex, row...)
	}
	if len(ex) > 0 {
		rec.Arrays["examples"] = ex
	}
	return nil
}

// measure records APE and SNR per group and over all test images, and the
// noisy inputs' APE.
func (in *instance) measure(o *outcome, rec *report.Record) error {
	nt, _ := in.test.X.Dims()
	all := len(in.groups)
	if rec.Arrays == nil {
		rec.Arrays = map[string][]float64{}
	}
	ape := make([][]float64, all+1)
	snr := make([][]float64, all+1)
	num := make([][]float64, all+1) // SNR numerators, per group
	den := make([][]float64, all+1) // and denominators
	noisyAPE := make([][]float64, all+1)
	noisyDetail := make([][]float64, all+1)
	detail := make([][2][]float64, all+1) // detail ratio and error, per group
	nfail := make([]int, all+1)
	// Per-image arrays (items.go), NaN where the image failed, so that
	// item k of a group's arrays is the same image in every record.
	arr := make([][6][]float64, all+1) // ape, snr, numerator, denominator, detail ratio, detail error
	w, h := in.test.Width, in.test.Height
	for i := 0; i < nt; i++ {
		g := in.group[i]
		clean := in.test.X.RawRowView(i)
		noisy := in.noisy.RawRowView(i)
		na := metrics.APE(noisy, clean, in.opt.apeScale)
		nd := metrics.DetailRatio(noisy, clean, w, h)
		noisyAPE[g] = append(noisyAPE[g], na)
		noisyAPE[all] = append(noisyAPE[all], na)
		noisyDetail[g] = append(noisyDetail[g], nd)
		noisyDetail[all] = append(noisyDetail[all], nd)
		if o.failed[i] != nil {
			nfail[g]++
			nfail[all]++
			rec.AddFailure(o.failed[i].Error())
			for _, h := range []int{g, all} {
				for j := range arr[h] {
					arr[h][j] = append(arr[h][j], math.NaN())
				}
			}
			continue
		}
		zi := o.z.RawRowView(i)
		a := metrics.APE(zi, clean, in.opt.apeScale)
		s := metrics.SNR(zi, noisy, clean)
		sn, sd := metrics.SNRTerms(zi, noisy, clean)
		dr, de := metrics.DetailRatio(zi, clean, w, h), metrics.DetailError(zi, clean, w, h)
		for _, k := range []int{g, all} {
			ape[k] = append(ape[k], a)
			snr[k] = append(snr[k], s)
			num[k] = append(num[k], sn)
			den[k] = append(den[k], sd)
			detail[k][0] = append(detail[k][0], dr)
			detail[k][1] = append(detail[k][1], de)
			for j, v := range []float64{a, s, sn, sd, dr, de} {
				arr[k][j] = append(arr[k][j], v)
			}
		}
	}
	if len(ape[all]) == 0 {
		return fmt.Errorf("every one of the %d test images failed (first: %v)", nt, o.failed[0])
	}
	for g := 0; g <= all; g++ {
		suffix := "_all"
		if g < all {
			suffix = "_" + in.groups[g]
		}
		putGroup(rec, suffix, groupScores{ape[g], snr[g], num[g], den[g], noisyAPE[g], noisyDetail[g], detail[g]}, nfail[g], arr[g])
	}
	rec.Set(RidgeFraction, o.ridge/float64(nt))
	if nfail[all] > 0 {
		rec.Status = report.StatusPartial
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
		Title: "Every group and method (long form): APE mean ± std (0–255) and SNR (eq. 14), 95% CIs in brackets",
		Caption: fmt.Sprintf("Rows: groups of %s; columns: methods. Models %s: %s corruption: %s. SNR is %s; every KPCA component kept. %s",
			cfg.Dataset.Name, in.opt.models, models, cfg.Corruption.Printed, snrCaption[in.opt.snr], ciNote),
		Header: []string{"group", "noisy APE"},
	}
	for i := range recs {
		// Each method's SNR column names the method too: a terminal
		// too narrow for the table splits it between columns.
		m := recs[i].Method()
		t.Header = append(t.Header, m+" APE", m+" SNR")
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
			snr := snrMetric[in.opt.snr] + suffix
			row = append(row, report.FormatFloat(r.Metrics["ape_mean"+suffix], 4)+" ± "+report.FormatFloat(r.Metrics["ape_std"+suffix], 3)+" "+in.meanCI(r, "ape_mean"+suffix),
				report.FormatFloat(r.Metrics[snr], 3)+" "+in.meanCI(r, snr))
		}
		t.Rows = append(t.Rows, row)
	}
	out.Tables = append(out.Tables, t)
	return in.figure(out, recs)
}

// imageNote is Fig. 7's "(APE, SNR)" of the image z of test row i,
// computed as measure does (the same numbers as the record's per-image
// arrays), or "(failed)" when z is not finite.
func (in *instance) imageNote(z []float64, i int) string {
	for _, v := range z {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return "(failed)"
		}
	}
	clean, noisy := in.test.X.RawRowView(i), in.noisy.RawRowView(i)
	return "(" + report.FormatFloat(metrics.APE(z, clean, in.opt.apeScale), 3) + ", " + report.FormatFloat(metrics.SNR(z, noisy, clean), 3) + ")"
}

// snrMetric and snrCaption name each SNR reading's metric and describe it.
var (
	snrMetric  = map[string]string{snrPerImage: "snr_mean", snrPooled: "snr_pooled"}
	snrCaption = map[string]string{
		snrPerImage: "the mean of per-image ratios (snr_mean; snr_pooled in the records)",
		snrPooled:   "the ratio of summed numerators and denominators over the group (snr_pooled; snr_mean in the records)",
	}
)

// figure draws Fig. 7: the example test images, clean, noisy and every
// method's de-noised one, each with its APE and SNR under it as the paper
// prints them, "(APE, SNR)".
func (in *instance) figure(out *runner.Output, recs []report.Record) error {
	if len(in.examples) == 0 {
		return nil
	}
	w, h := in.test.Width, in.test.Height
	dd := w * h
	g := &report.ImageGrid{Width: w, Height: h, Scale: max(1, 96/max(w, h)), Lo: 0, Hi: 1,
		Title: "Fig. 7: de-noising examples (first test image of each group; Table 1's groups first)"}
	var orig, noisy [][]float64
	var noisyNotes []string
	for _, i := range in.examples {
		orig = append(orig, in.test.X.RawRowView(i))
		noisy = append(noisy, in.noisy.RawRowView(i))
		noisyNotes = append(noisyNotes, in.imageNote(in.noisy.RawRowView(i), i))
		g.ColLabels = append(g.ColLabels, in.titles[in.group[i]])
	}
	g.Images = [][][]float64{orig, noisy}
	g.Notes = [][]string{nil, noisyNotes}
	g.RowLabels = []string{"original", "noisy"}
	g.Caption = figs.Caption(in.env.Config, fmt.Sprintf("the first test image of each group (columns): original, noisy, and each estimator's de-noised image (rows; the paper's figure has a column per method and a row per example); under each image, as in the paper, its (APE on the 0–%s scale, SNR of eq. 14)",
		report.FormatFloat(in.opt.apeScale, 4)), figs.PixelScale(in.test.X))
	for i := range recs {
		row := figs.Examples(recs[i].Arrays["examples"], len(in.examples), dd)
		var notes []string
		for k, img := range row {
			note := ""
			if img != nil {
				note = in.imageNote(img, in.examples[k])
			}
			notes = append(notes, note)
		}
		g.Images = append(g.Images, row)
		g.Notes = append(g.Notes, notes)
		g.RowLabels = append(g.RowLabels, recs[i].Method())
	}
	files, err := g.Save(out.Path(in.opt.figureName))
	out.Add(files...)
	return err
}

// groupScores are one group's per-image values over its good images.
type groupScores struct {
	ape, snr, num, den, noisyAPE, noisyDetail []float64
	detail                                    [2][]float64 // ratio, error
}

// putGroup records one group's metrics (suffix _<group> or _all) and its
// per-image arrays.
func putGroup(rec *report.Record, suffix string, gs groupScores, nfail int, arr [6][]float64) {
	m := groupOf(suffix)
	a := metrics.Summarize(gs.ape)
	rec.Set(m.apeMean, a.Mean)
	rec.Set(m.apeStd, a.Std)
	rec.Set(m.snrMean, metrics.Summarize(gs.snr).Mean)
	rec.Set(m.snrPooled, metrics.PooledSNR(gs.num, gs.den))
	rec.Set(m.noisyAPE, metrics.Summarize(gs.noisyAPE).Mean)
	rec.Set(m.detailRatio, metrics.Mean(gs.detail[0]))
	rec.Set(m.detailError, metrics.Mean(gs.detail[1]))
	rec.Set(m.noisyDetailRatio, metrics.Mean(gs.noisyDetail))
	rec.Set(m.failed, float64(nfail))
	for j, name := range []string{arrAPE, arrSNR, arrSNRNum, arrSNRDen, arrDetail, arrDetailErr} {
		rec.Arrays[name+suffix] = arr[j]
	}
}
