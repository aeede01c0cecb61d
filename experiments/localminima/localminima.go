// Package localminima regenerates Abrahamsen & Hansen (2011) Fig. 3: a
// pre-image estimator started from every training point, for one noisy
// point, over a range of kernel widths.
//
// For each c the noisy point x0 (the origin in the paper) is projected on q
// components (50 in the paper) and the configured pre-image estimator
// (Mika's fixed point, eq. 13) is started from each of the N training
// points, all N runs as one batch. The figure shows the N pre-images per c
// and their cost R(z) = ‖φ(z) − P_qφ(x0)‖² (eq. 11), coloured by the ring the
// start came from.
//
// The paper's claim (c8) is read off the figure; we count it:
// distinct_preimages is the number of clusters among the N solutions
// (greedy, in start order, radius distinct_tol in input units), and
// mean_distance_to_x0 is how far the solutions are from the noisy point.
package localminima

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/runexp/runexp/experiments/internal/common"
	"github.com/runexp/runexp/experiments/internal/figs"
	"github.com/runexp/runexp/experiments/setup"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

func init() {
	k := runner.Define("local-minima",
		"a pre-image estimator started from every training point, over c (Abrahamsen & Hansen Fig. 3)",
		parse, start)
	k.Takes = methods.PreImages
	k.Metrics = runner.MetricsOf(metricNames)
	k.PointReason = func(string) string {
		return "one noisy point de-noised from every training point, as the paper's figure does: the distinct pre-images are a property of that one problem, with no sample of items to resample"
	}
	k.Needs = runner.Needs{Model: true, Methods: "a pre-image estimator (e.g. - name: mika)", Why: "local-minima starts a pre-image iteration from each training point", Starts: "every training point"}
	// The point is checked against the data's dimension by validate too,
	// from the dataset's options, not only once the data is loaded.
	k.Shape = func(c *config.Config, opts any, s runner.Shape) error {
		return checkPoint(c, opts.(options), s.Dim)
	}
	runner.RegisterKind(k)
	runner.RegisterNoCorruption("local-minima", "it maps the pre-image cost around one given point")
}

// checkPoint refuses a point of another dimension than the data's.
func checkPoint(c *config.Config, o options, dim int) error {
	if dim > 0 && dim != len(o.point) {
		return c.Experiment.Errorf("point", "experiment.point: has %d coordinates, the data has %d", len(o.point), dim)
	}
	return nil
}

type options struct {
	point       []float64
	distinctTol float64
	columns     int
}

func parse(c *config.Config) (options, error) {
	r := c.Experiment.Reader("experiment")
	o := options{
		point:       r.Floats("point", []float64{0, 0}, -1),
		distinctTol: r.Float("distinct_tol", 1e-3, func(v float64) bool { return v > 0 }, "a distance > 0"),
		columns:     r.IntIn("columns", 0, 0, report.MaxPanels),
	}
	return o, r.Err()
}

type instance struct {
	env  *runner.Env
	opt  options
	data *runner.Data
}

func start(env *runner.Env, o options) (runner.Instance, error) {
	d, err := env.LoadData()
	if err != nil {
		return nil, err
	}
	if _, dim := d.Train.X.Dims(); dim != len(o.point) {
		return nil, checkPoint(env.Config, o, dim)
	}
	return &instance{env: env, opt: o, data: d}, nil
}

func (in *instance) Run(cell *runner.Cell, rec *report.Record) error {
	x := in.data.Train.X
	n, d := x.Dims()
	m, q, pi, err := setup.PreImager(in.env, "train", x, cell)
	if err != nil {
		return err
	}
	x0 := mat.NewDense(1, d, append([]float64(nil), in.opt.point...))
	proj := m.Project(x0, q)
	// The same feature-space point N times, one start per training point.
	gamma := mat.NewDense(n, n, nil)
	x0s := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		gamma.SetRow(i, proj.Gamma.RawRowView(0))
		x0s.SetRow(i, in.opt.point)
	}
	p := methods.NewProblem(m.Basis(), gamma, x0s)
	p.Start = x
	p.Rand = cell.Rand()
	var z mat.Dense
	st, err := pi.PreImage(&z, p)
	if err != nil {
		return err
	}
	rec.Set(common.NumComponents, float64(q))
	if err := in.record(&z, st, methods.FeatureDist2(p.Basis, &z, gamma, p.Terms.Norm2), rec); err != nil {
		return err
	}
	rec.Set(X0Cost, methods.FeatureDist2(p.Basis, x0, proj.Gamma, p.Terms.Norm2[:1])[0])
	return nil
}

// record counts the distinct solutions among the rows of z that did not
// fail and summarises their costs (cost[i] = R(z_i), eq. 11; failed rows
// become NaN in the record's cost array).
func (in *instance) record(z *mat.Dense, st []methods.Status, cost []float64, rec *report.Record) error {
	n, _ := z.Dims()
	var failed, nonconv int
	var sols [][]float64
	var dist, finite []float64
	for i := 0; i < n; i++ {
		if st[i].Err != nil {
			failed++
			rec.AddFailure(st[i].Err.Error())
			cost[i] = math.NaN()
			continue
		}
		if !st[i].Converged && st[i].Iterations > 0 { // a direct method has no iterations to converge
			nonconv++
		}
		zi := z.RawRowView(i)
		sols = append(sols, zi)
		dist = append(dist, floats.Distance(zi, in.opt.point, 2))
		finite = append(finite, cost[i])
	}
	rec.Set(common.FailedRows, float64(failed))
	rec.Set(common.NonconvergedRows, float64(nonconv))
	if len(sols) == 0 {
		rec.Status = report.StatusPartial
		return errors.New("every start failed")
	}
	if failed > 0 {
		rec.Status = report.StatusPartial
	}
	sizes := metrics.GreedyClusters(sols, in.opt.distinctTol)
	sort.Float64s(finite)
	sort.Float64s(dist)
	rec.Set(DistinctPreimages, float64(len(sizes)))
	rec.Set(LargestClusterFraction, float64(slices.Max(sizes))/float64(len(sols)))
	rec.Set(CostMin, finite[0])
	rec.Set(CostMax, finite[len(finite)-1])
	rec.Set(CostMedian, finite[len(finite)/2])
	rec.Set(MeanDistanceToX0, floats.Sum(dist)/float64(len(dist)))
	rec.Arrays = map[string][]float64{
		"z":    append([]float64(nil), z.RawMatrix().Data...),
		"cost": cost,
	}
	return nil
}

func (in *instance) Report(out *runner.Output, recs []report.Record) error {
	cfg := in.env.Config
	wn := cfg.Model.WidthName
	t := &report.Table{
		Title:   "Fig. 3: pre-images of x0 from every training start",
		Caption: fmt.Sprintf("x0 = %v; distinct = clusters of solutions within %g; R(z) = ‖φ(z) − P_qφ(x0)‖² (eq. 11); R(x0) is the cost of not denoising at all.", in.opt.point, in.opt.distinctTol),
		Header:  []string{"method", wn, "#PCs", "distinct", "largest cluster", "R(z) min", "R(z) median", "R(z) max", "R(x0)", "mean ‖z − x0‖", "failed", "not converged"},
	}
	for i := range recs {
		r := &recs[i]
		row := []string{r.Method(), report.FormatFloat(common.Num(r.Params[wn]), 4)}
		if r.Status == report.StatusFailed {
			row = append(row, "—", "failed: "+r.Error, "", "", "", "", "", "", "", "")
		} else {
			row = append(row,
				report.FormatFloat(r.Get(common.NumComponents), 4),
				report.FormatFloat(r.Get(DistinctPreimages), 6),
				report.FormatFloat(r.Get(LargestClusterFraction), 3),
				report.FormatFloat(r.Get(CostMin), 4),
				report.FormatFloat(r.Get(CostMedian), 4),
				report.FormatFloat(r.Get(CostMax), 4),
				report.FormatFloat(r.Get(X0Cost), 4),
				report.FormatFloat(r.Get(MeanDistanceToX0), 3),
				report.FormatFloat(r.Get(common.FailedRows), 6),
				report.FormatFloat(r.Get(common.NonconvergedRows), 6))
		}
		t.Rows = append(t.Rows, row)
	}
	out.Tables = append(out.Tables, t)

	// One figure per estimator: a panel of pre-images per c, then the cost.
	byMethod := map[string][]*report.Record{}
	var order []string
	for i := range recs {
		name := recs[i].Method()
		if _, ok := byMethod[name]; !ok {
			order = append(order, name)
		}
		byMethod[name] = append(byMethod[name], &recs[i])
	}
	pw, ph := out.Size(5.5*vg.Centimeter, 5.5*vg.Centimeter)
	for mi, name := range order {
		rs := byMethod[name]
		sort.SliceStable(rs, func(a, b int) bool { return common.Num(rs[a].Params[wn]) < common.Num(rs[b].Params[wn]) })
		cols := in.opt.columns
		if cols == 0 {
			cols = (len(rs) + 1) / 2
		}
		fig := &report.Figure{PanelW: pw, PanelH: ph, Placement: report.LegendRight,
			Caption: figs.Caption(cfg, fmt.Sprintf("%s started from each of the %d training points for the noisy point x0 = %v, %s; each pre-image is coloured by the ring its start lies on", name, in.data.Train.X.RawMatrix().Rows, in.opt.point, componentsText(rs)))}
		for i, r := range rs {
			if i%cols == 0 {
				fig.Panels = append(fig.Panels, nil)
			}
			fig.Panels[len(fig.Panels)-1] = append(fig.Panels[len(fig.Panels)-1], in.scatter(r, wn, &fig.Legend, i == 0))
		}
		suffix := ""
		if len(order) > 1 {
			suffix = fmt.Sprintf("-%d", mi+1)
		}
		files, err := fig.Save(out.Path("fig3-preimages" + suffix))
		out.Add(files...)
		if err != nil {
			return err
		}
		// The cost panel, the paper's bottom row, with its legend beside.
		cost := &report.Figure{PanelW: 2 * pw, PanelH: 1.2 * ph, Placement: report.LegendRight,
			Caption: figs.Caption(cfg, fmt.Sprintf("the cost R(z) = ‖φ(z) − Pφ(x0)‖² (eq. 11, P the projection on the leading components) of each of %s's pre-images against %s, coloured by the ring its start lies on (dodged sideways by ring)", name, wn))}
		cost.Panels = [][]*plot.Plot{{in.costPlot(rs, wn, name, &cost.Legend)}}
		if err := figs.Save(out, cost, "fig3-cost"+suffix); err != nil {
			return err
		}
	}
	return nil
}

// componentsText names the #PCs of the records, "50 PCs" when they agree.
func componentsText(rs []*report.Record) string {
	seen := map[float64]bool{}
	var q []string
	for _, r := range rs {
		if c, ok := r.Lookup(common.NumComponents); ok && !seen[c] {
			seen[c] = true
			q = append(q, report.FormatFloat(c, 6))
		}
	}
	if len(q) == 0 {
		return "#PCs as configured"
	}
	return strings.Join(q, ", ") + " PCs"
}

// scatter draws one panel of Fig. 3 as the paper does: the training points
// in a light tint of their ring's colour, the noisy point x0 under the
// pre-images as a reference marker, and the pre-images as crosses in the
// colour of the ring their start lies on (× for the inner ring, + for the
// outer, so that coinciding pre-images of both rings show as a star). The
// legend entries are added to leg when first is set.
func (in *instance) scatter(r *report.Record, wn string, leg *report.Legend, first bool) *plot.Plot {
	p := report.NewPanel(fmt.Sprintf("%s = %s", wn, report.FormatFloat(common.Num(r.Params[wn]), 3)))
	p.X.Label.Text = "x₁"
	p.Y.Label.Text = "x₂"
	x := in.data.Train.X
	labels := in.data.Train.Labels
	n, d := x.Dims()
	var train [2]plotter.XYs
	for i := 0; i < n; i++ {
		g := min(max(labels[i], 0), 1)
		train[g] = append(train[g], plotter.XY{X: x.At(i, 0), Y: x.At(i, 1)})
	}
	var trainS [2]*plotter.Scatter
	for g := range train {
		if len(train[g]) > 0 {
			trainS[g] = figs.Scatter(train[g], tint(figs.Palette[g]), report.DataRadius, draw.CircleGlyph{})
			p.Add(trainS[g])
		}
	}
	x0 := figs.Scatter(plotter.XYs{{X: in.opt.point[0], Y: in.opt.point[1]}}, figs.Green, report.ReferenceRadius, report.ReferenceGlyph{})
	p.Add(x0)
	var preS [2]*plotter.Scatter
	shapes := [2]draw.GlyphDrawer{draw.CrossGlyph{}, draw.PlusGlyph{}}
	if z := r.Arrays["z"]; r.Status != report.StatusFailed && len(z) == n*d {
		var pre [2]plotter.XYs
		for i := 0; i < n; i++ {
			g := min(max(labels[i], 0), 1)
			pre[g] = append(pre[g], plotter.XY{X: z[i*d], Y: z[i*d+1]})
		}
		for g := range pre {
			if xy := figs.Finite(pre[g]); len(xy) > 0 {
				preS[g] = figs.Scatter(xy, figs.Palette[g], vg.Points(3), shapes[g])
				preS[g].GlyphStyle.Radius = vg.Points(3)
				p.Add(preS[g])
			}
		}
	} else {
		p.Title.Text += " (failed)"
	}
	if first {
		for g := range 2 {
			if trainS[g] != nil {
				leg.Add(fmt.Sprintf("training, ring %d", g+1), trainS[g])
			}
		}
		leg.Add("noisy point x0", x0)
		for g := range 2 {
			// The legend shows the glyph even when this panel has no
			// pre-image of the ring.
			s := figs.Scatter(plotter.XYs{{}}, figs.Palette[g], vg.Points(3), shapes[g])
			leg.Add(fmt.Sprintf("pre-image, start on ring %d", g+1), s)
		}
	}
	figs.SquareAxes(p)
	return p
}

// tint returns a light version of col for the training points, so that
// the pre-images in the full colour stand out on them.
func tint(col color.Color) color.Color {
	r, g, b, _ := col.RGBA()
	mix := func(v uint32) uint8 { return uint8(255 - (255-v>>8)*2/5) }
	return color.RGBA{mix(r), mix(g), mix(b), 255}
}

// costPlot draws the cost of every pre-image against c in the house
// style: every c of the grid labelled on a logarithmic axis, the axes
// padded so that no point sits on them, and the rings' entries added to
// leg (the figure's legend, outside the data).
func (in *instance) costPlot(rs []*report.Record, wn, name string, leg *report.Legend) *plot.Plot {
	p := report.NewPanel(fmt.Sprintf("%s: R(z) of each pre-image (eq. 11)", name))
	p.X.Label.Text = wn + " (log scale)"
	p.Y.Label.Text = "R(z)"
	p.X.Scale = plot.LogScale{}
	var ticks []plot.Tick
	for _, r := range rs {
		c := common.Num(r.Params[wn])
		ticks = append(ticks, plot.Tick{Value: c, Label: report.FormatFloat(c, 3)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	labels := in.data.Train.Labels
	lo, hi := math.Inf(1), math.Inf(-1)
	for ring := 0; ring < 2; ring++ {
		// Dodge the rings sideways (±4% on the log axis) so the starts of
		// one ring do not hide those of the other at the same cost.
		dodge := 0.96 + 0.08*float64(ring)
		var xy plotter.XYs
		for _, r := range rs {
			cost := r.Arrays["cost"]
			for i, c := range cost {
				if labels[i] == ring {
					xy = append(xy, plotter.XY{X: dodge * common.Num(r.Params[wn]), Y: c})
				}
			}
		}
		xy = figs.Finite(xy)
		if len(xy) == 0 {
			continue
		}
		for _, q := range xy {
			lo, hi = min(lo, q.Y), max(hi, q.Y)
		}
		s := figs.Scatter(xy, figs.Palette[ring], vg.Points(1.5), draw.CircleGlyph{})
		p.Add(s)
		leg.Add(fmt.Sprintf("start on ring %d", ring+1), s)
	}
	if len(ticks) > 0 && !math.IsInf(lo, 1) {
		// A fifth of a decade beyond the outermost c on the log axis, and
		// 6% of the cost range above and below, keep every point off the
		// axes (R(z) = 0 at the largest c sat on the x axis).
		p.X.Min, p.X.Max = ticks[0].Value/1.6, ticks[len(ticks)-1].Value*1.6
		pad := 0.06 * max(hi-lo, math.Abs(hi), 1e-12)
		p.Y.Min, p.Y.Max = lo-pad, hi+pad
	}
	return p
}

var (
	colorGrey  = color.Gray{Y: 180}
	colorBlack = color.Black
)
