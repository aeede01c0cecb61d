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

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/runexp/runexp/experiments/internal/common"
	"github.com/runexp/runexp/experiments/internal/figs"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

func init() {
	runner.RegisterKind(runner.Define("local-minima",
		"a pre-image estimator started from every training point, over c (Abrahamsen & Hansen Fig. 3)",
		check, start))
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
		columns:     r.Int("columns", 0, 0),
	}
	return o, r.Err()
}

func check(c *config.Config) (options, error) {
	o, err := parse(c)
	if err != nil {
		return o, err
	}
	if err := common.CheckModel(c, "local-minima", true, "a pre-image estimator (e.g. - name: mika)"); err != nil {
		return o, err
	}
	for i, m := range c.Methods {
		spec, ok := methods.Lookup(m.Name)
		if ok && !spec.Can(methods.PreImages) {
			return o, c.Errorf(m.Line, "methods[%d]: %s is not a pre-image estimator; local-minima starts a pre-image iteration from each training point", i, m.Name)
		}
	}
	return o, nil
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
		return nil, env.Config.Experiment.Errorf("point", "experiment.point: has %d coordinates, the data has %d", len(o.point), dim)
	}
	return &instance{env: env, opt: o, data: d}, nil
}

func (in *instance) Run(cell *runner.Cell, rec *report.Record) error {
	if cell.Method == nil {
		return errors.New("the cell has no estimator")
	}
	x := in.data.Train.X
	n, d := x.Dims()
	m, err := common.Model(in.env, "train", x, cell)
	if err != nil {
		return err
	}
	q, err := common.Components(m, cell)
	if err != nil {
		return err
	}
	pi, err := cell.Method.Spec.NewPreImager(cell.Method.Params)
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
	rec.Metrics["components"] = float64(q)
	if err := in.record(&z, st, methods.FeatureDist2(p.Basis, &z, gamma, p.Terms.Norm2), rec); err != nil {
		return err
	}
	rec.Metrics["x0_cost"] = methods.FeatureDist2(p.Basis, x0, proj.Gamma, p.Terms.Norm2[:1])[0]
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
	rec.Metrics["failed_rows"] = float64(failed)
	rec.Metrics["nonconverged_rows"] = float64(nonconv)
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
	rec.Metrics["distinct_preimages"] = float64(len(sizes))
	rec.Metrics["largest_cluster_fraction"] = float64(slices.Max(sizes)) / float64(len(sols))
	rec.Metrics["cost_min"] = finite[0]
	rec.Metrics["cost_max"] = finite[len(finite)-1]
	rec.Metrics["cost_median"] = finite[len(finite)/2]
	rec.Metrics["mean_distance_to_x0"] = floats.Sum(dist) / float64(len(dist))
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
		row := []string{fmt.Sprint(r.Params["method"]), report.FormatFloat(common.Num(r.Params[wn]), 4)}
		if r.Status == report.StatusFailed {
			row = append(row, "—", "failed: "+r.Error, "", "", "", "", "", "", "", "")
		} else {
			mt := r.Metrics
			row = append(row,
				report.FormatFloat(mt["components"], 4),
				report.FormatFloat(mt["distinct_preimages"], 6),
				report.FormatFloat(mt["largest_cluster_fraction"], 3),
				report.FormatFloat(mt["cost_min"], 4),
				report.FormatFloat(mt["cost_median"], 4),
				report.FormatFloat(mt["cost_max"], 4),
				report.FormatFloat(mt["x0_cost"], 4),
				report.FormatFloat(mt["mean_distance_to_x0"], 3),
				report.FormatFloat(mt["failed_rows"], 6),
				report.FormatFloat(mt["nonconverged_rows"], 6))
		}
		t.Rows = append(t.Rows, row)
	}
	out.Tables = append(out.Tables, t)

	// One figure per estimator: a panel of pre-images per c, then the cost.
	byMethod := map[string][]*report.Record{}
	var order []string
	for i := range recs {
		name := fmt.Sprint(recs[i].Params["method"])
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
		var grid [][]*plot.Plot
		for i, r := range rs {
			if i%cols == 0 {
				grid = append(grid, nil)
			}
			grid[len(grid)-1] = append(grid[len(grid)-1], in.scatter(r, wn))
		}
		for len(grid[len(grid)-1]) < cols {
			grid[len(grid)-1] = append(grid[len(grid)-1], nil)
		}
		suffix := ""
		if len(order) > 1 {
			suffix = fmt.Sprintf("-%d", mi+1)
		}
		if err := out.SaveGrid(grid, pw, ph, "fig3-preimages"+suffix); err != nil {
			return err
		}
		if err := out.SavePlot(in.costPlot(rs, wn, name), 2*pw, 1.2*ph, "fig3-cost"+suffix); err != nil {
			return err
		}
	}
	return nil
}

func (in *instance) scatter(r *report.Record, wn string) *plot.Plot {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s = %s", wn, report.FormatFloat(common.Num(r.Params[wn]), 3))
	p.X.Label.Text = "x₁"
	p.Y.Label.Text = "x₂"
	x := in.data.Train.X
	var train plotter.XYs
	n, d := x.Dims()
	for i := 0; i < n; i++ {
		train = append(train, plotter.XY{X: x.At(i, 0), Y: x.At(i, 1)})
	}
	grey := figs.Scatter(train, colorGrey, vg.Points(1), draw.CircleGlyph{})
	p.Add(grey)
	if z := r.Arrays["z"]; r.Status != report.StatusFailed && len(z) == n*d {
		var pre plotter.XYs
		for i := 0; i < n; i++ {
			pre = append(pre, plotter.XY{X: z[i*d], Y: z[i*d+1]})
		}
		pre = figs.Finite(pre)
		if len(pre) > 0 {
			s := figs.Scatter(pre, colorBlack, vg.Points(2.5), draw.CrossGlyph{})
			p.Add(s)
			p.Legend.Add("pre-images", s)
		}
	} else {
		p.Title.Text += " (failed)"
	}
	x0 := figs.Scatter(plotter.XYs{{X: in.opt.point[0], Y: in.opt.point[1]}}, figs.Green, vg.Points(3), draw.CircleGlyph{})
	p.Add(x0)
	p.Legend.Add("x0", x0)
	p.Legend.Add("training", grey)
	p.Legend.Top = true
	p.Legend.TextStyle.Font.Size = vg.Points(6)
	figs.SquareAxes(p)
	return p
}

func (in *instance) costPlot(rs []*report.Record, wn, name string) *plot.Plot {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: R(z) of each pre-image (eq. 11)", name)
	p.X.Label.Text = wn + " (log scale)"
	p.Y.Label.Text = "R(z)"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	labels := in.data.Train.Labels
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
		s := figs.Scatter(xy, figs.Palette[ring], vg.Points(1.5), draw.CircleGlyph{})
		p.Add(s)
		p.Legend.Add(fmt.Sprintf("start on ring %d", ring+1), s)
	}
	p.Legend.Top = true
	p.Legend.TextStyle.Font.Size = vg.Points(8)
	// Head room so the legend sits above the data.
	p.Y.Min = math.Min(p.Y.Min, 0)
	p.Y.Max *= 1.3
	return p
}

var (
	colorGrey  = color.Gray{Y: 180}
	colorBlack = color.Black
)
