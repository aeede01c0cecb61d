// Package stability regenerates Abrahamsen & Hansen (2011) Fig. 5: how far
// apart the pre-images of one noisy input are when an iterative estimator is
// started from different training points.
//
// For each test input the same `starts` training points (40 in the paper)
// are drawn once per run, shared by every estimator and kernel width (the
// paper does not say whether they were shared: ambiguity a7; sharing makes
// the comparison paired). Each estimator is started from each of them, all
// inputs × starts as one batch, and the spread of the solutions is their
// mean pairwise Euclidean distance in input space. The record holds the
// per-input spreads; the table and figure give their mean and 5th/95th
// percentiles against c, as the paper's Fig. 5 does. The spreads pair
// across cells (the same inputs and starts), so claims on the spread
// metrics get paired bootstrap intervals over the test inputs (items.go).
package stability

import (
	"errors"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/runexp/runexp/experiments/internal/common"
	"github.com/runexp/runexp/experiments/internal/figs"
	"github.com/runexp/runexp/experiments/setup"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

func init() {
	k := runner.Define("stability",
		"spread of pre-images started from random training points, vs c (A&H Fig. 5)",
		parse, start)
	k.Takes = methods.PreImages
	k.Metrics = runner.MetricsOf(metricNames)
	k.Needs = runner.Needs{Model: true, Methods: "iterative pre-image estimators (e.g. mika, tikhonov)", Why: "stability starts a pre-image iteration from training points", Starts: "experiment.starts random training points, the same for every method and c"}
	k.Items = items
	k.Parts = parts
	runner.RegisterKind(k)
}

type options struct {
	starts int
	zoom   float64 // y limit of the close-up panel; 0 picks the regularised curve's range
}

func parse(c *config.Config) (options, error) {
	r := c.Experiment.Reader("experiment")
	o := options{
		starts: r.Int("starts", 40, 2),
		zoom:   r.Float("zoom_max", 0, func(v float64) bool { return v >= 0 }, "a distance ≥ 0"),
	}
	return o, r.Err()
}

type instance struct {
	env    *runner.Env
	opt    options
	train  *datasets.Set
	test   *datasets.Set
	noisy  *mat.Dense
	starts [][]int // per test input, the training rows to start from
}

func start(env *runner.Env, o options) (runner.Instance, error) {
	d, err := env.LoadData()
	if err != nil {
		return nil, err
	}
	if d.Test == nil {
		return nil, fmt.Errorf("dataset %s has no test split", env.Config.Dataset.Name)
	}
	n, _ := d.Train.X.Dims()
	if o.starts > n {
		return nil, env.Config.Experiment.Errorf("starts", "experiment.starts: %d starts but only %d training points", o.starts, n)
	}
	cor, err := common.Corrupt(env, d.Test)
	if err != nil {
		return nil, err
	}
	in := &instance{env: env, opt: o, train: d.Train, noisy: cor.Noisy,
		test: &datasets.Set{Name: d.Test.Name, X: cor.Clean, Labels: cor.Labels, Width: d.Test.Width, Height: d.Test.Height}}
	rnd := env.Rand("starts")
	m, _ := cor.Noisy.Dims()
	in.starts = make([][]int, m)
	for i := range in.starts {
		in.starts[i] = rnd.Perm(n)[:o.starts]
	}
	return in, nil
}

// inputBlocks is how many parts a Mika or Tikhonov cell's test inputs are
// computed in: the batch of every input's starts took up to 160 s whole
// (c = 25, 2 cores).
const inputBlocks = 8

// parts splits the cells of the fixed-point estimators, whose rows are
// independent (each its own iteration; the batch's products give each
// row the same operations whatever rows are beside it), into blocks of
// test inputs with all their starts; any other estimator's cell (an
// external one may not be row by row) is computed whole.
func parts(_ *config.Config, _ any, cell *runner.Cell) []int {
	if cell.Method != nil && (cell.Method.Spec.Name == "mika" || cell.Method.Spec.Name == "tikhonov") {
		return []int{inputBlocks}
	}
	return nil
}

// block is one part's result: per test input of the block, what record
// needs of its solutions. Its fields are exported for the part's
// encoding.
type block struct {
	Q      int
	Inputs []inputOut
}

type inputOut struct {
	Spread  float64  // NaN when fewer than two solutions were kept
	Kept    bool     // two or more were kept
	Fails   []string // the failed rows' errors, in start order
	Nonconv int
}

func (in *instance) Run(cell *runner.Cell, rec *report.Record) error {
	return runner.RunParts(in, cell, rec)
}

// Parts computes the blocks of test inputs and combines them.
func (in *instance) Parts() runner.Parts {
	return runner.PartsOf(func(c *runner.Cell) []int { return parts(nil, nil, c) }, in.block, in.combine)
}

// block computes part k: the test inputs of block k (one block for a
// cell computed whole), each from all its starts.
func (in *instance) block(cell *runner.Cell, _, k int, _ []block) (block, error) {
	n, _ := in.noisy.Dims()
	blocks := 1
	if st := parts(nil, nil, cell); st != nil {
		blocks = st[0]
	}
	lo, hi := k*n/blocks, (k+1)*n/blocks
	if lo == hi {
		return block{}, nil // fewer test inputs than blocks
	}
	m, q, pi, err := setup.PreImager(in.env, "train", in.train.X, cell)
	if err != nil {
		return block{}, err
	}
	p := in.problem(m, q, lo, hi)
	p.Rand = cell.Rand()
	var z mat.Dense
	st, err := pi.PreImage(&z, p)
	if err != nil {
		return block{}, err
	}
	out := block{Q: q, Inputs: make([]inputOut, hi-lo)}
	s := in.opt.starts
	for i := range out.Inputs {
		var sols [][]float64
		o := &out.Inputs[i]
		for k := 0; k < s; k++ {
			r := i*s + k
			if st[r].Err != nil {
				o.Fails = append(o.Fails, st[r].Err.Error())
				continue
			}
			if !st[r].Converged && st[r].Iterations > 0 { // a direct method has no iterations to converge
				o.Nonconv++
			}
			sols = append(sols, z.RawRowView(r))
		}
		o.Spread, o.Kept = math.NaN(), len(sols) >= 2
		if o.Kept {
			o.Spread = metrics.MeanPairwiseDistance(sols)
		}
	}
	return out, nil
}

// problem is one pre-image problem of the test inputs lo to hi−1 × starts
// rows: each input's projection on q components repeated once per start,
// started from the input's training points.
func (in *instance) problem(m *methods.KPCA, q, lo, hi int) *methods.Problem {
	_, d := in.noisy.Dims()
	noisy := in.noisy.Slice(lo, hi, 0, d).(*mat.Dense)
	proj := m.Project(noisy, q)
	nTest := hi - lo
	_, nTrain := proj.Gamma.Dims()
	s := in.opt.starts
	gamma := mat.NewDense(nTest*s, nTrain, nil)
	x0 := mat.NewDense(nTest*s, d, nil)
	st0 := mat.NewDense(nTest*s, d, nil)
	for i := 0; i < nTest; i++ {
		for k, j := range in.starts[lo+i] {
			r := i*s + k
			gamma.SetRow(r, proj.Gamma.RawRowView(i))
			x0.SetRow(r, noisy.RawRowView(i))
			st0.SetRow(r, in.train.X.RawRowView(j))
		}
	}
	p := methods.NewProblem(m.Basis(), gamma, x0)
	p.Start = st0
	return p
}

// combine summarises the spread of each test input's solutions over the
// inputs that kept two, in input order.
func (in *instance) combine(_ *runner.Cell, bs []block, rec *report.Record) error {
	var inputs []inputOut
	q := 0
	for _, b := range bs {
		if len(b.Inputs) > 0 && q == 0 {
			q = b.Q
		}
		inputs = append(inputs, b.Inputs...)
	}
	rec.Set(common.NumComponents, float64(q))
	spread := make([]float64, len(inputs))
	var good []float64
	var failedRows, nonconv int
	for i, o := range inputs {
		for _, f := range o.Fails {
			failedRows++
			rec.AddFailure(f)
		}
		nonconv += o.Nonconv
		spread[i] = o.Spread
		if o.Kept {
			good = append(good, o.Spread)
		}
	}
	rec.Set(common.FailedRows, float64(failedRows))
	rec.Set(common.NonconvergedRows, float64(nonconv))
	if len(good) == 0 {
		return errors.New("no test input kept two successful solutions")
	}
	if failedRows > 0 {
		rec.Status = report.StatusPartial
	}
	sum := metrics.Summarize(good)
	rec.Set(SpreadMean, sum.Mean)
	rec.Set(SpreadP5, sum.P5)
	rec.Set(SpreadMedian, sum.Median)
	rec.Set(SpreadP95, sum.P95)
	rec.Arrays = map[string][]float64{"spread": spread}
	return nil
}

func (in *instance) Report(out *runner.Output, recs []report.Record) error {
	wn := in.env.Config.Model.WidthName
	out.Tables = append(out.Tables, in.table(recs, wn))
	labels := common.Labels(recs, "method")
	units := figs.AxisUnits(in.test.X)
	full := newPanel("mean pairwise distance of the solutions", wn, units)
	var leg report.Legend
	if err := bands(full, recs, labels, wn, &leg, 0); err != nil {
		return err
	}

	// The close-up: the y range of the most stable estimator's band, as the
	// paper's right panel zooms on the regularised curve.
	zoom := newPanel("close-up", wn, units)
	top := in.opt.zoom
	if top == 0 {
		top = zoomTop(recs)
	}
	clip := 0.0
	if !math.IsInf(top, 0) && top > 0 {
		clip = top
	}
	if err := bands(zoom, recs, labels, wn, nil, clip); err != nil {
		return err
	}
	if clip > 0 {
		zoom.Y.Min, zoom.Y.Max = 0, top
	}
	w, h := out.Size(9*vg.Centimeter, 7*vg.Centimeter)
	f := &report.Figure{Panels: [][]*plot.Plot{{full, zoom}}, PanelW: w, PanelH: h, Legend: leg, Placement: report.LegendBelow,
		Caption: figs.Caption(in.env.Config, fmt.Sprintf("mean pairwise distance between the pre-images reached from random starts, over %s: mean (line) and 5th–95th percentile band over the test inputs; right, a close-up on the most stable estimator; distances in input space", wn), figs.PixelScale(in.test.X))}
	return figs.Save(out, f, "fig5-stability")
}

func (in *instance) table(recs []report.Record, wn string) *report.Table {
	t := &report.Table{
		Title:   "Fig. 5: spread of the pre-images from random training starts",
		Caption: fmt.Sprintf("Mean pairwise Euclidean distance between the %d solutions of each test input; mean and percentiles over the test inputs. Noise: %s.", in.opt.starts, in.env.Config.Corruption.Printed),
		Header:  []string{"method", wn, "#PCs", "mean", "5th pct", "median", "95th pct", "failed rows", "not converged", "status"},
	}
	for i := range recs {
		r := &recs[i]
		mt := r.Metrics
		row := []string{r.Method(), report.FormatFloat(common.Param(r, wn), 4)}
		if r.Status == report.StatusFailed {
			row = append(row, "—", "—", "—", "—", "—", "—", "—", common.StatusText(r))
		} else {
			row = append(row, report.FormatFloat(mt["components"], 4), report.FormatFloat(mt["spread_mean"], 4), report.FormatFloat(mt["spread_p5"], 4),
				report.FormatFloat(mt["spread_median"], 4), report.FormatFloat(mt["spread_p95"], 4),
				report.FormatFloat(mt["failed_rows"], 6), report.FormatFloat(mt["nonconverged_rows"], 6), r.Status)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// newPanel is an empty panel of spread against the width on a log axis;
// units is the distance's scale (figs.AxisUnits).
func newPanel(title, wn, units string) *plot.Plot {
	p := report.NewPanel(title)
	p.X.Label.Text = wn + " (log scale)"
	p.Y.Label.Text = "mean pairwise distance" + units
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = figs.LogTicks125{}
	return p
}

// zoomTop is 1.2 × the smallest, over estimators, of the largest 95th
// percentile of the estimator's spread (+Inf without a usable record).
func zoomTop(recs []report.Record) float64 {
	top := math.Inf(1)
	byLabel := map[string]float64{}
	for i := range recs {
		if recs[i].Status != report.StatusFailed {
			l := recs[i].Method()
			byLabel[l] = math.Max(byLabel[l], recs[i].Get(SpreadP95))
		}
	}
	for _, v := range byLabel {
		top = math.Min(top, v)
	}
	return top * 1.2
}

// bands adds every estimator's band and mean to p, and their entries to
// leg unless it is nil; clip > 0 clamps values to [0, clip], since
// gonum/plot draws outside the axes: in the close-up an off-scale curve
// then runs along the top edge instead of over the title.
func bands(p *plot.Plot, recs []report.Record, labels []string, wn string, leg *report.Legend, clip float64) error {
	// The paper draws Mika red and the regularised method blue.
	colours := []color.Color{color.RGBA{213, 94, 0, 255}, color.RGBA{0, 114, 178, 255}}
	y := func(v float64) float64 {
		if clip > 0 {
			return math.Max(0, math.Min(v, clip))
		}
		return v
	}
	for li, label := range labels {
		var pts []figs.BandPoint
		for i := range recs {
			r := &recs[i]
			if r.Method() != label || r.Status == report.StatusFailed {
				continue
			}
			pts = append(pts, figs.BandPoint{X: common.Param(r, wn), Lo: y(r.Get(SpreadP5)), Mid: y(r.Get(SpreadMean)), Hi: y(r.Get(SpreadP95))})
		}
		col := colours[li%len(colours)]
		if li >= len(colours) {
			col = figs.Palette[li%len(figs.Palette)]
		}
		line, err := figs.AddBand(p, pts, col)
		if err != nil {
			return err
		}
		if line != nil && leg != nil {
			leg.Add(label+" (mean, 5th–95th pct)", figs.BandThumb{Color: col})
		}
	}
	return nil
}
