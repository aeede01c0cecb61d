// Package denoise is the kernel PCA de-noising experiment: corrupt the test
// inputs, project them on q kernel principal components of the clean
// training set, map them back with each estimator, and measure the error
// against the clean inputs. It regenerates Abrahamsen & Hansen (2011)
// Fig. 4 (5th–95th percentile bands of per-digit MSE over c × #PCs, one
// panel per estimator) and Fig. 6 (example digits and intensity profiles).
//
// # Protocol
//
// The kernel PCA model is fitted once per kernel width on the clean
// training inputs and shared by every #PCs and estimator. The corruption
// (noise, occlusion, optional stretch to [0, 1], copies per image) draws
// from a stream per image and copy. Without a test split, the corrupted
// copies of the training images are de-noised (Zheng & Lai's protocol). All test inputs
// go through an estimator as one batch. Iterative estimators start at the
// noisy input (their start parameter). Before the error, each pre-image is
// re-normalised to the range of its clean image (metrics.Renormalize: the
// min–max map, our reading of the paper's unstated re-normalisation, a3);
// mse is per pixel. Re-normalising needs images: on points without a
// width and height (two-rings) it maps a few coordinates onto the clean
// ones and every estimator scores the same, so start refuses it there.
//
// # Readings of the error
//
// Every cell records both errors: after re-normalisation under mse_*,
// band_width, sse_* and mse255_mean, and raw under mse_raw_*,
// band_width_raw, sse_raw_* and mse255_raw_mean (per-row arrays mse and
// mse_raw; example images examples and examples_raw). renormalize only
// chooses which the config reports: with renormalize: false, Present
// copies the raw errors and examples onto the plain names before the
// records are written, drawn and judged, so a config's mse_* is the error
// it asked for (as when the cell measured only that one). Since no record
// depends on renormalize, or on the other options that only shape the
// report (reportOnly), the cell cache leaves them out of its key: a
// config that differs from another only in them (such as
// abrahamsen-hansen-fig4-raw-mse) reuses every cell of the other.
//
// # Per-item evidence
//
// Beside the errors (mse, per row), every record holds zeros, the
// fraction of exactly-zero pixels of each pre-image (zero_fraction is
// their mean). With experiment.background: true, background holds each
// pre-image's background noise (backgroundNoise: its RMS deviation from
// the clean image's background value over the clean image's background
// pixels, over the image's range) and background_noise their mean:
// Abrahamsen & Hansen's "only a minimum of background noise", read
// against the data's real background (−1 on the [−1, 1] USPS digits,
// where the ℓ1 penalty's exact zeros are mid-grey). With experiment.
// identify: true, each pre-image, as the estimator returned it, is given
// the label of its nearest clean training image (Euclidean 1-NN: a digit
// classifier trained on clean digits, or the subject of the nearest clean
// face), and nn_correct holds 1 where that is its own label, 0 where not:
// nn_accuracy is their mean, noisy_nn_accuracy that of the corrupted
// inputs. Abrahamsen & Hansen's c7 ("Tikhonov recovers the correct digit
// where Mika fails") and Zheng & Lai's c11 ("some reconstructed faces do
// not resemble the real person") are read on it (docs/readings.md). All
// arrays are NaN where the estimator failed and pool the repeats like mse,
// and claims on these metrics get intervals over the test inputs (items.go).
package denoise

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/experiments/internal/common"
	"github.com/runexp/runexp/experiments/setup"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
	"github.com/runexp/runexp/internal/vecmath"
)

func init() {
	k := runner.Define("denoise",
		"de-noise test inputs with every estimator over c × #PCs; percentile bands (A&H Fig. 4) or example images (Fig. 6)",
		parse, start)
	k.Needs = runner.Needs{Model: true, Methods: "at least one estimator"}
	k.Items = items
	k.PointReason = func(metric string) string {
		if metric == "failed_rows" || metric == "nonconverged_rows" {
			return "a count over every test input of the rows an estimator could not solve (or did not converge on): each row's outcome is a property of its solved system, so a count that must be 0 has no sampling error to bound"
		}
		return ""
	}
	k.Repeats = true
	k.Takes = methods.Denoises
	k.Metrics = runner.MetricsOf(metricNames)
	runner.RegisterKind(k)
	runner.RegisterReportOnly("denoise", reportOnly...)
}

// reportOnly are the experiment options no record depends on: Run
// measures both readings of the error whatever renormalize says, and the
// others only shape the tables and figures. examples is not among them: it
// chooses which pre-images a record keeps.
var reportOnly = []string{"renormalize", "error", "figure", "figure_name", "profiles", "profile_row", "profile_col", "invert"}

// rawArrays pairs the per-row arrays the same way; the raw ones are the
// cache's copy for the other reading and are not reported.
var rawArrays = [][2]string{{"mse", "mse_raw"}, {"examples", "examples_raw"}}

type options struct {
	renormalize bool
	errorKind   string // which error the table and bands show: mse, sse or mse255
	figure      string
	examples    int
	profiles    bool
	profileRow  int
	profileCol  int
	figureName  string
	invert      bool
	identify    bool
	background  bool
}

func parse(c *config.Config) (options, error) {
	r := c.Experiment.Reader("experiment")
	o := options{
		renormalize: r.Bool("renormalize", true),
		errorKind:   r.String("error", "mse", "mse", "sse", "mse255"),
		figure:      r.String("figure", "bands", "bands", "images", "none"),
		examples:    r.Int("examples", 0, 0),
		profiles:    r.Bool("profiles", true),
		figureName:  r.String("figure_name", ""),
		invert:      r.Bool("invert", false),
		profileRow:  r.Int("profile_row", 7, 0),
		profileCol:  r.Int("profile_col", 7, 0),
		identify:    r.Bool("identify", false),
		background:  r.Bool("background", false),
	}
	if err := r.Err(); err != nil {
		return o, err
	}
	if o.figureName == "" {
		o.figureName = map[string]string{"bands": "fig4-bands", "images": "fig6-images"}[o.figure]
	}
	if o.figure == "images" && o.examples == 0 {
		return o, c.Experiment.Errorf("examples", "experiment: figure: images needs examples: N (how many test inputs to show)")
	}
	return o, nil
}

type instance struct {
	env      *runner.Env
	opt      options
	train    *datasets.Set
	test     *datasets.Set
	noisy    []*mat.Dense // one corrupted test set per repeat
	examples []int        // test rows shown in the images figure
	noisyAcc float64      // 1-NN accuracy of the corrupted inputs (identify)
}

func start(env *runner.Env, o options) (runner.Instance, error) {
	d, err := env.LoadData()
	if err != nil {
		return nil, err
	}
	// Without a test split the corrupted copies of the training images
	// are de-noised: Zheng & Lai's transductive protocol (their a4), in
	// which the model is fitted on the clean images themselves.
	src := d.Test
	if src == nil {
		src = d.Train
	}
	// Re-normalising to the clean input's range maps a point of a few
	// coordinates onto it (2-D points score exactly 0 for every
	// estimator), and "per pixel" names no unit of such data: the
	// reading holds for images only.
	if o.renormalize && (src.Width == 0 || src.Height == 0) {
		return nil, env.Config.Experiment.Errorf("renormalize", "experiment.renormalize: re-normalising each result to its clean image's range needs images, and dataset %s holds %d-D points without a width and height (every estimator would score the same); set renormalize: false, which reports the raw squared error per coordinate", d.Train.Name, src.X.RawMatrix().Cols)
	}
	draws, err := common.CorruptRepeats(env, src)
	if err != nil {
		return nil, err
	}
	cor := draws[0]
	in := &instance{env: env, opt: o, train: d.Train,
		test: &datasets.Set{Name: src.Name, X: cor.Clean, Labels: cor.Labels, Width: src.Width, Height: src.Height}}
	for _, dr := range draws {
		in.noisy = append(in.noisy, dr.Noisy)
	}
	in.examples = pickExamples(in.test.Labels, o.examples)
	if o.identify {
		if in.train.Labels == nil || in.test.Labels == nil {
			return nil, env.Config.Experiment.Errorf("identify", "experiment.identify: dataset %s has no labels to identify", d.Train.Name)
		}
		in.noisyAcc = in.noisyAccuracy()
	}
	if o.figure == "images" && (o.profileRow >= src.Height || o.profileCol >= src.Width) {
		return nil, env.Config.Experiment.Errorf("profile_row", "experiment: profile_row/profile_col outside the %d×%d images", src.Width, src.Height)
	}
	return in, nil
}

// pickExamples takes n test rows spread over the classes: the first of
// each class in turn, then the second, and so on.
func pickExamples(labels []int, n int) []int {
	if n == 0 {
		return nil
	}
	classes, byClass := datasets.ByClass(labels)
	var out []int
	for k := 0; len(out) < n; k++ {
		added := false
		for _, c := range classes {
			if k < len(byClass[c]) && len(out) < n {
				out = append(out, byClass[c][k])
				added = true
			}
		}
		if !added {
			break
		}
	}
	return out
}

func (in *instance) Run(cell *runner.Cell, rec *report.Record) error {
	m, q, den, err := setup.Denoiser(in.env, "train", in.train.X, cell)
	if err != nil {
		return err
	}
	// Each repeat de-noises its own corruption draw; the scores pool
	// over items × repeats (repeat r's errors follow repeat r − 1's), so
	// a summary is over every test input under every draw, and the
	// examples are repeat 0's.
	var z0 mat.Dense
	var st0 []methods.Status
	sc := &scores{diag: map[string][]float64{}, identify: in.opt.identify, background: in.opt.background, renormalize: in.opt.renormalize}
	rnd := cell.Rand()
	for r, noisy := range in.noisy {
		var z mat.Dense
		st, err := den.Denoise(&z, &methods.DenoiseInput{Model: m, Q: q, X0: noisy, Rand: rnd})
		if err != nil {
			return err
		}
		in.score(sc, &z, st)
		if r == 0 {
			z0, st0 = z, st
		}
	}
	n, _ := in.test.X.Dims()
	if len(in.noisy) > 1 {
		rec.Set(Repeats, float64(len(in.noisy)))
	}
	rec.Set(common.NumComponents, float64(q))
	rec.Set(common.FailedRows, float64(sc.failed))
	rec.Set(common.NonconvergedRows, float64(sc.nonconv))
	for _, r := range sc.reasons {
		rec.AddFailure(r)
	}
	if len(sc.good) == 0 {
		return fmt.Errorf("every one of the %d inputs failed (first: %v)", n, st0[0].Err)
	}
	if sc.failed > 0 {
		rec.Status = report.StatusPartial
	}
	sc.record(rec)
	rec.Arrays = map[string][]float64{"mse": sc.mse, "mse_raw": sc.mseRaw, "zeros": sc.zeroRows}
	if in.opt.identify {
		rec.Arrays["nn_correct"] = sc.correct
		rec.Set(NNAccuracy, metrics.Mean(sc.goodCorrect))
		rec.Set(NoisyNNAccuracy, in.noisyAcc)
	}
	if in.opt.background {
		rec.Arrays[backgroundArray] = sc.bgRows
		rec.Set(BackgroundNoise, metrics.Mean(sc.goodBg))
	}
	if ex, raw := in.exampleImages(&z0, st0); len(ex) > 0 {
		rec.Arrays["examples"], rec.Arrays["examples_raw"] = ex, raw
	}
	return nil
}

// Present reports the reading of the error the config asks for: with
// renormalize off, the raw errors and example images under the plain
// names (as when the cell measured only the raw error). The raw arrays are
// dropped either way (the reported ones are the config's reading); the raw
// metrics stay.
func (in *instance) Present(rec *report.Record) {
	// A failed cell records no error; the raw errors are written
	// together, so one stands for all.
	if _, ok := rec.Lookup(MSERawMean); ok && !in.opt.renormalize {
		for i, m := range renormalised {
			rec.Set(m, rec.Get(raw[i]))
		}
	}
	for _, p := range rawArrays {
		if v, ok := rec.Arrays[p[1]]; ok && !in.opt.renormalize {
			rec.Arrays[p[0]] = v
		}
		delete(rec.Arrays, p[1])
	}
}

// scores are the per-row errors of one cell's pre-images.
type scores struct {
	// per test row, NaN where the estimator failed: after
	// re-normalisation and raw
	mse, mseRaw     []float64
	good, raw       []float64 // over the rows that did not fail
	sse, sseRaw     []float64
	failed, nonconv int
	// reasons are the failed rows' errors, in row order.
	reasons  []string
	zeros, d int       // exact zeros among the good rows' d pixels
	zeroRows []float64 // per test row: its fraction of exact zeros, NaN where failed
	diag     map[string][]float64
	// identify: per test row 1 when the pre-image's nearest clean
	// training image has its label, 0 when not, NaN where failed; and
	// over the good rows.
	identify             bool
	correct, goodCorrect []float64
	// background: per test row its background noise (backgroundNoise),
	// NaN where failed, and over the good rows; measured on the error's
	// reading of the pre-image (re-normalised or raw).
	background, renormalize bool
	bgRows, goodBg          []float64
}

// score measures every pre-image of one repeat against its clean image,
// appending to sc: the error after re-normalising to the clean image's
// range, the raw error, the squared error per image of each, and the
// estimator's diagnostics.
func (in *instance) score(sc *scores, z *mat.Dense, st []methods.Status) {
	n, d := in.test.X.Dims()
	sc.d = d
	off := len(sc.mse)
	sc.mse = append(sc.mse, make([]float64, n)...)
	sc.mseRaw = append(sc.mseRaw, make([]float64, n)...)
	zn := make([]float64, d)
	for i := 0; i < n; i++ {
		clean := in.test.X.RawRowView(i)
		zi := z.RawRowView(i)
		if st[i].Err != nil {
			sc.failed++
			sc.reasons = append(sc.reasons, st[i].Err.Error())
			sc.mse[off+i], sc.mseRaw[off+i] = math.NaN(), math.NaN()
			sc.zeroRows = append(sc.zeroRows, math.NaN())
			if sc.identify {
				sc.correct = append(sc.correct, math.NaN())
			}
			if sc.background {
				sc.bgRows = append(sc.bgRows, math.NaN())
			}
			continue
		}
		if !st[i].Converged && st[i].Iterations > 0 {
			sc.nonconv++
		}
		for k, v := range st[i].Diag {
			sc.diag[k] = append(sc.diag[k], v)
		}
		z0 := 0
		for _, v := range zi {
			if v == 0 {
				z0++
			}
		}
		sc.zeros += z0
		sc.zeroRows = append(sc.zeroRows, float64(z0)/float64(d))
		if sc.identify {
			c := 0.0
			if in.nearestLabel(zi) == in.test.Labels[i] {
				c = 1
			}
			sc.correct = append(sc.correct, c)
			sc.goodCorrect = append(sc.goodCorrect, c)
		}
		sc.mseRaw[off+i] = metrics.MSE(zi, clean)
		sc.raw = append(sc.raw, sc.mseRaw[off+i])
		sc.sseRaw = append(sc.sseRaw, sc.mseRaw[off+i]*float64(d))
		metrics.Renormalize(zn, zi, clean)
		if sc.background {
			shown := zi
			if sc.renormalize {
				shown = zn
			}
			b := backgroundNoise(shown, clean)
			sc.bgRows = append(sc.bgRows, b)
			sc.goodBg = append(sc.goodBg, b)
		}
		sc.mse[off+i] = metrics.MSE(zn, clean)
		sc.good = append(sc.good, sc.mse[off+i])
		sc.sse = append(sc.sse, sc.mse[off+i]*float64(d))
	}
}

// backgroundNoise is how far a pre-image z strays from its clean image's
// background: the RMS of z − b over the clean image's background pixels
// (those at its darkest value b: −1 on the [−1, 1] USPS digits, 0 on
// [0, 1]), over the clean image's range, so that 0 is a background as
// clean as the original and 1 a background as bright as the digit. A
// pre-image that is sparse in the ℓ1 sense on [−1, 1] data (exact zeros)
// has mid-grey, not blank, background here. NaN for a flat clean image.
func backgroundNoise(z, clean []float64) float64 {
	lo, hi := clean[0], clean[0]
	for _, v := range clean {
		lo, hi = min(lo, v), max(hi, v)
	}
	if hi == lo {
		return math.NaN()
	}
	var s float64
	n := 0
	for p, v := range clean {
		if v == lo {
			d := z[p] - lo
			s += d * d
			n++
		}
	}
	return math.Sqrt(s/float64(n)) / (hi - lo)
}

// errorSummary is one reading of the error over the good rows.
type errorSummary struct {
	mse, sse metrics.Summary
}

func summarize(mse, sse []float64) errorSummary {
	return errorSummary{metrics.Summarize(mse), metrics.Summarize(sse)}
}

// record writes the summary metrics of the good rows: each error after
// re-normalisation and raw (the *_raw names Present reports when
// renormalize is off). Zheng & Lai's MSE has no stated scale (their
// ambiguity): sse is the per-image squared error on the [0, 1] images,
// mse255 the per-pixel MSE on [0, 255].
func (sc *scores) record(rec *report.Record) {
	renormalised.set(rec, summarize(sc.good, sc.sse))
	raw.set(rec, summarize(sc.raw, sc.sseRaw))
	rec.Set(ZeroFraction, float64(sc.zeros)/float64(len(sc.good)*sc.d))
	keys := make([]string, 0, len(sc.diag))
	for k := range sc.diag {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		rec.Set(diagnostic(k), metrics.Summarize(sc.diag[k]).Mean)
	}
}

// exampleImages returns the pre-images of the example rows, in test-row
// order, re-normalised like the errors and raw; a failed row shows as NaN
// in both.
func (in *instance) exampleImages(z *mat.Dense, st []methods.Status) (renorm, raw []float64) {
	for _, i := range in.examples {
		zi := z.RawRowView(i)
		e := append([]float64(nil), zi...)
		r := append([]float64(nil), zi...)
		if st[i].Err == nil {
			metrics.Renormalize(e, zi, in.test.X.RawRowView(i))
		} else {
			for k := range e {
				e[k], r[k] = math.NaN(), math.NaN()
			}
		}
		renorm, raw = append(renorm, e...), append(raw, r...)
	}
	return renorm, raw
}

func (in *instance) Report(out *runner.Output, recs []report.Record) error {
	cfg := in.env.Config
	wn := cfg.Model.WidthName
	size := "#PCs"
	sizeKey := "components"
	if len(cfg.Model.Energy) > 0 {
		size, sizeKey = "energy", "energy"
	}
	noisy := make([]float64, 0)
	n, _ := in.test.X.Dims()
	for _, x := range in.noisy {
		for i := 0; i < n; i++ {
			noisy = append(noisy, metrics.MSE(x.RawRowView(i), in.test.X.RawRowView(i)))
		}
	}
	inputs := fmt.Sprintf("%d test inputs", n)
	if reps := len(in.noisy); reps > 1 {
		inputs = fmt.Sprintf("%d test inputs × %d corruption draws", n, reps)
	}
	errName := map[string]string{"mse": "MSE per pixel", "sse": "squared error per image", "mse255": "MSE per pixel on [0, 255]"}[in.opt.errorKind]
	t := &report.Table{
		Title: "De-noising error per test input: " + errName,
		Caption: fmt.Sprintf("%s; pre-images re-normalised to the clean image's range: %v; percentiles over the %s; corruption: %s, corrupted-input median MSE per pixel %s. %s",
			errName, in.opt.renormalize, inputs, cfg.Corruption.Printed, report.FormatFloat(metrics.Percentile(noisy, 0.5), 4), ciNote(len(in.noisy))),
		Header: []string{"method", "params", wn, size},
	}
	// ciMetric is the mean whose interval the table shows.
	var ciMetric report.Metric
	switch in.opt.errorKind {
	case "mse":
		t.Header = append(t.Header, "median", "5th pct", "95th pct", "band width", "mean", "mean 95% CI")
		ciMetric = MSEMean
	case "sse":
		t.Header = append(t.Header, "mean SSE/image [0,1]", "std", "median", "MSE/pixel [0,255]", "mean SSE 95% CI")
		ciMetric = SSEMean
	case "mse255":
		t.Header = append(t.Header, "MSE/pixel [0,255]", "mean SSE/image [0,1]", "MSE/pixel [0,255] 95% CI")
		ciMetric = MSE255Mean
	}
	t.Header = append(t.Header, "failed rows", "status")
	varying := varyingParams(recs, cfg)
	for i := range recs {
		r := &recs[i]
		row := []string{r.Method(), methodParams(r, varying), report.FormatFloat(common.Param(r, wn), 4), report.FormatFloat(common.Param(r, sizeKey), 4)}
		var vals []float64
		switch in.opt.errorKind {
		case "mse":
			vals = []float64{r.Get(MSEMedian), r.Get(MSEP5), r.Get(MSEP95), r.Get(BandWidth), r.Get(MSEMean)}
		case "sse":
			vals = []float64{r.Get(SSEMean), r.Get(SSEStd), r.Get(SSEMedian), r.Get(MSE255Mean)}
		case "mse255":
			vals = []float64{r.Get(MSE255Mean), r.Get(SSEMean)}
		}
		for _, v := range vals {
			if r.Status == report.StatusFailed {
				row = append(row, "—")
			} else {
				row = append(row, report.FormatFloat(v, 4))
			}
		}
		row = append(row, in.meanCI(r, string(ciMetric)))
		if r.Status == report.StatusFailed {
			row = append(row, "—", common.StatusText(r))
		} else {
			row = append(row, report.FormatFloat(r.Get(common.FailedRows), 6), r.Status)
		}
		t.Rows = append(t.Rows, row)
	}
	out.Tables = append(out.Tables, t)
	switch in.opt.figure {
	case "bands":
		return in.bands(out, recs, wn, sizeKey, size)
	case "images":
		return in.images(out, recs, wn, sizeKey)
	}
	return nil
}

// varyingParams returns, per method label, the estimator parameters that
// take more than one value among its records: the grid axes that tell its
// rows apart (R-LPL's s, Kwok–Tsang's n), not every default.
func varyingParams(recs []report.Record, cfg *config.Config) map[string][]string {
	skip := map[string]bool{"method": true, "kernel": true, "components": true, "energy": true, "degree": true, "offset": true}
	if cfg.Model.WidthName != "" {
		skip[cfg.Model.WidthName] = true
	}
	vals := map[string]map[string]map[string]bool{}
	for i := range recs {
		label := recs[i].Method()
		if vals[label] == nil {
			vals[label] = map[string]map[string]bool{}
		}
		for k, v := range recs[i].Params {
			if skip[k] {
				continue
			}
			if vals[label][k] == nil {
				vals[label][k] = map[string]bool{}
			}
			vals[label][k][config.FormatValue(v)] = true
		}
	}
	out := map[string][]string{}
	for label, byKey := range vals {
		for k, set := range byKey {
			if len(set) > 1 {
				out[label] = append(out[label], k)
			}
		}
		sort.Strings(out[label])
	}
	return out
}

// methodParams renders the varying parameters of a record, e.g.
// "neighbors=5".
func methodParams(r *report.Record, varying map[string][]string) string {
	var parts []string
	for _, k := range varying[r.Method()] {
		parts = append(parts, k+"="+config.FormatValue(r.Params[k]))
	}
	return strings.Join(parts, ", ")
}

// nearestLabel is the label of the clean training image nearest to x in
// Euclidean distance (the first of equals): a 1-NN classifier trained on
// the clean images. The squared distances are vecmath.SqDist4's, four
// training images at a time (the same bits on every machine).
func (in *instance) nearestLabel(x []float64) int {
	n, _ := in.train.X.Dims()
	best, lab := math.Inf(1), -1
	row := in.train.X.RawRowView
	j := 0
	for ; j+4 <= n; j += 4 {
		var d [4]float64
		d[0], d[1], d[2], d[3] = vecmath.SqDist4(x, row(j), row(j+1), row(j+2), row(j+3))
		for k, v := range d {
			if v < best {
				best, lab = v, in.train.Labels[j+k]
			}
		}
	}
	for ; j < n; j++ {
		if v := vecmath.SqDist(x, row(j)); v < best {
			best, lab = v, in.train.Labels[j]
		}
	}
	return lab
}

// noisyAccuracy is the 1-NN accuracy of the corrupted inputs themselves
// (every repeat): what de-noising starts from.
func (in *instance) noisyAccuracy() float64 {
	var right, all int
	for _, x := range in.noisy {
		n, _ := x.Dims()
		for i := 0; i < n; i++ {
			all++
			if in.nearestLabel(x.RawRowView(i)) == in.test.Labels[i] {
				right++
			}
		}
	}
	return float64(right) / float64(all)
}
