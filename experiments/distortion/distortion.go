// Package distortion regenerates Abrahamsen & Hansen (2011) Fig. 2: which
// pairs of training points are closest in the kernel PCA subspace, drawn
// as lines in input space.
//
// For each (c, q) the training points are projected onto the first q
// components (eq. 2); the feature-space distance between projections is
// ‖P_qφ(x_i) − P_qφ(x_j)‖² = ‖β_i − β_j‖² (the mean φ̄ cancels), and the
// given fraction of closest pairs (0.5% in the paper) is kept. In an
// undistorted map those pairs are input-space neighbours; the paper's point
// is that small c (strong non-linearity) and few components join points far
// apart, even on different rings.
//
// Besides the picture we measure the distortion, which the paper only shows:
// cross_ring_fraction (share of kept pairs joining the two rings),
// mean_pair_length (their mean input-space length) and distortion_ratio
// (that length over the mean length of the same number of closest pairs in
// input space).
package distortion

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/runexp/runexp/experiments/internal/common"
	"github.com/runexp/runexp/experiments/internal/figs"
	"github.com/runexp/runexp/experiments/setup"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

func init() {
	k := runner.Define("distortion",
		"closest feature-space pairs drawn in input space over c × #PCs (Abrahamsen & Hansen Fig. 2)",
		check, start)
	k.Metrics = runner.MetricsOf(metricNames)
	k.PointReason = func(string) string {
		return "one synthetic data set: the closest pairs are a set chosen from all the points together, not independent items, so there is nothing to resample (a bootstrap over points would redraw the pairs)"
	}
	runner.RegisterKind(k)
	runner.RegisterNoCorruption("distortion", "it measures distances between the clean points")
}

type options struct {
	fraction   float64
	fixedQ     int     // panel a: this many PCs, c varies
	fixedWidth float64 // panel b: this width, #PCs varies
}

func parse(c *config.Config) (options, error) {
	r := c.Experiment.Reader("experiment")
	o := options{
		fraction:   r.Float("fraction", 0.005, func(v float64) bool { return v > 0 && v <= 1 }, "a fraction in (0, 1]"),
		fixedQ:     r.Int("fixed_components", 5, 1),
		fixedWidth: r.Float("fixed_width", 0.2, func(v float64) bool { return v > 0 }, "a kernel width > 0"),
	}
	return o, r.Err()
}

func check(c *config.Config) (options, error) {
	o, err := parse(c)
	if err != nil {
		return o, err
	}
	if c.Model.Kernel != "gaussian" || len(c.Model.Components) == 0 {
		return o, c.ModelErrorf("model: distortion needs kernel: gaussian with a width grid and a components grid")
	}
	if len(c.Methods) > 0 {
		return o, c.Errorf(c.Methods[0].Line, "methods: distortion uses no estimator; remove the methods list")
	}
	// Panel (a) is the width grid at fixed_components PCs, panel (b) the
	// components grid at fixed_width: a value off its grid has no cells,
	// and a caption would name a panel that does not exist.
	if !slices.Contains(c.Model.Components, o.fixedQ) {
		return o, c.Experiment.Errorf("fixed_components", "experiment.fixed_components: %d is not in model.components %v, so panel (a) would have no cells; want one of them", o.fixedQ, c.Model.Components)
	}
	if !slices.Contains(c.Model.Widths, o.fixedWidth) {
		return o, c.Experiment.Errorf("fixed_width", "experiment.fixed_width: %g is not in model.%s %v, so panel (b) would have no cells; want one of them", o.fixedWidth, c.Model.WidthName, c.Model.Widths)
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
	return &instance{env: env, opt: o, data: d}, nil
}

type pair struct {
	i, j int
	d    float64
}

// closest returns the k pairs i < j with the smallest d, ties broken by
// index so the choice is deterministic.
func closest(d *mat.Dense, k int) []pair {
	n, _ := d.Dims()
	ps := make([]pair, 0, n*(n-1)/2)
	for i := 0; i < n; i++ {
		row := d.RawRowView(i)
		for j := i + 1; j < n; j++ {
			ps = append(ps, pair{i, j, row[j]})
		}
	}
	sort.Slice(ps, func(a, b int) bool {
		if ps[a].d != ps[b].d {
			return ps[a].d < ps[b].d
		}
		if ps[a].i != ps[b].i {
			return ps[a].i < ps[b].i
		}
		return ps[a].j < ps[b].j
	})
	return ps[:k]
}

func (in *instance) Run(cell *runner.Cell, rec *report.Record) error {
	x := in.data.Train.X
	m, q, err := setup.Fit(in.env, "train", x, cell)
	if err != nil {
		return err
	}
	n, _ := x.Dims()
	k := int(math.Round(in.opt.fraction * float64(n*(n-1)/2)))
	if k < 1 {
		k = 1
	}
	var fd, id mat.Dense
	beta := m.Project(x, q).Beta
	kernel.SqDist(&fd, beta, beta)
	kernel.SqDist(&id, x, x)
	feat := closest(&fd, k)
	input := closest(&id, k)

	labels := in.data.Train.Labels
	var cross int
	var length, inLength float64
	idx := make([]float64, 0, 2*k)
	for _, p := range feat {
		if labels[p.i] != labels[p.j] {
			cross++
		}
		length += math.Sqrt(id.At(p.i, p.j))
		idx = append(idx, float64(p.i), float64(p.j))
	}
	for _, p := range input {
		inLength += math.Sqrt(p.d)
	}
	rec.Set(Pairs, float64(k))
	rec.Set(CrossRingFraction, float64(cross)/float64(k))
	rec.Set(MeanPairLength, length/float64(k))
	rec.Set(InputPairLength, inLength/float64(k))
	rec.Set(DistortionRatio, length/inLength)
	rec.Set(EigenEnergy, energy(m.Values, q))
	rec.Arrays = map[string][]float64{"pairs": idx}
	return nil
}

func energy(vals []float64, q int) float64 {
	var s, t float64
	for i, v := range vals {
		t += v
		if i < q {
			s += v
		}
	}
	return s / t
}

func (in *instance) Report(out *runner.Output, recs []report.Record) error {
	t := &report.Table{
		Title:   "Fig. 2: distortion of the closest feature-space pairs",
		Caption: fmt.Sprintf("%.3g%% closest pairs of %d points; cross-ring = share joining the two rings; ratio = their mean input-space length over that of the same number of closest input-space pairs (1 = no distortion).", 100*in.opt.fraction, in.data.Train.X.RawMatrix().Rows),
		Header:  []string{"c", "#PCs", "energy", "pairs", "cross-ring", "mean length", "ratio", "status"},
	}
	byKey := map[[2]string]*report.Record{}
	widths := common.Values(recs, in.env.Config.Model.WidthName)
	var qs []int
	for _, q := range common.Values(recs, "components") {
		qs = append(qs, int(q))
	}
	for i := range recs {
		r := &recs[i]
		w := common.Param(r, in.env.Config.Model.WidthName)
		q := int(common.Param(r, "components"))
		byKey[[2]string{config.FormatValue(w), fmt.Sprint(q)}] = r
		t.Rows = append(t.Rows, []string{
			report.FormatFloat(w, 4), fmt.Sprint(q),
			report.FormatFloat(r.Get(EigenEnergy), 3),
			report.FormatFloat(r.Get(Pairs), 6),
			report.FormatFloat(r.Get(CrossRingFraction), 3),
			report.FormatFloat(r.Get(MeanPairLength), 3),
			report.FormatFloat(r.Get(DistortionRatio), 3),
			common.StatusText(r),
		})
	}
	out.Tables = append(out.Tables, t)
	return in.figures(out, byKey, widths, qs)
}

// figures draws panels (a) and (b) of Fig. 2 and the whole grid from the
// records by (c, #PCs) key.
func (in *instance) figures(out *runner.Output, byKey map[[2]string]*report.Record, widths []float64, qs []int) error {
	sort.Float64s(widths)
	sort.Ints(qs)
	panel := func(w float64, q int) *plot.Plot {
		r := byKey[[2]string{config.FormatValue(w), fmt.Sprint(q)}]
		if r == nil {
			return nil
		}
		return in.panel(r, w, q)
	}
	pw, ph := out.Size(6*vg.Centimeter, 6*vg.Centimeter)
	wn := in.env.Config.Model.WidthName
	shared := fmt.Sprintf("%s = %s, %d PCs", wn, report.FormatFloat(in.opt.fixedWidth, 3), in.opt.fixedQ)
	// The paper shows c = 0.20 with 5 PCs as the top right panel of both
	// (a) and (b), each moving from it towards more distortion. In reading
	// order each panel here runs from most distorted to most linear and
	// wraps after the shared panel, so that it is top right, as in the
	// paper; the values on the linear side of it (which the paper does
	// not give) fill the second row. It is shaded in every figure.
	var rowA, rowB []*plot.Plot
	var splitA, splitB int // panels up to and including the shared one
	for _, w := range widths {
		if p := panel(w, in.opt.fixedQ); p != nil {
			rowA = append(rowA, p)
			if w <= in.opt.fixedWidth {
				splitA = len(rowA)
			}
		}
	}
	for _, q := range qs {
		if p := panel(in.opt.fixedWidth, q); p != nil {
			rowB = append(rowB, p)
			if q <= in.opt.fixedQ {
				splitB = len(rowB)
			}
		}
	}
	save := func(grid [][]*plot.Plot, name, shows string) error { return in.save(out, grid, pw, ph, name, shows) }
	if len(rowA) > 0 {
		if err := save(wrapAfter(rowA, splitA), "fig2a", fmt.Sprintf("panel (a): %d PCs, %s from most distorted to most linear in reading order; %s", in.opt.fixedQ, wn, sharedPlace(splitA, len(rowA), shared))); err != nil {
			return err
		}
	}
	if len(rowB) > 0 {
		if err := save(wrapAfter(rowB, splitB), "fig2b", fmt.Sprintf("panel (b): %s = %s, #PCs from most distorted to most linear in reading order; %s", wn, report.FormatFloat(in.opt.fixedWidth, 3), sharedPlace(splitB, len(rowB), shared))); err != nil {
			return err
		}
	}
	// The whole grid: rows #PCs (most first), columns c (smallest first).
	var grid [][]*plot.Plot
	at := ""
	for i := range qs {
		q := qs[len(qs)-1-i]
		var row []*plot.Plot
		for j, w := range widths {
			row = append(row, panel(w, q))
			if q == in.opt.fixedQ && w == in.opt.fixedWidth {
				at = fmt.Sprintf("; the paper's shared panel %s is shaded (row %d, column %d)", shared, i+1, j+1)
			}
		}
		grid = append(grid, row)
	}
	return save(grid, "fig2-grid", fmt.Sprintf("the whole grid: a row per #PCs (most first), a column per %s (smallest first)%s", wn, at))
}

// wrapAfter lays out a row of panels as the paper's: the first n panels
// (up to the shared one) on the first row and the rest on a second, or
// one row when either part is empty.
func wrapAfter(row []*plot.Plot, n int) [][]*plot.Plot {
	if n == 0 || n == len(row) {
		return [][]*plot.Plot{row}
	}
	return [][]*plot.Plot{row[:n], row[n:]}
}

// sharedPlace says where the shared panel is in a figure of wrapAfter.
func sharedPlace(n, total int, shared string) string {
	switch {
	case n == 0:
		return "the shared panel " + shared + " was not run"
	case n == total:
		return "the shared panel " + shared + " (shaded) is the last, top right as in the paper"
	}
	return "the shared panel " + shared + " (shaded) ends the first row, top right as in the paper; the second row holds the values on the linear side of it, which the paper does not show"
}

// save writes a figure of Fig. 2 panels, pw×ph each, with one legend
// beside them and a caption saying what they show.
func (in *instance) save(out *runner.Output, grid [][]*plot.Plot, pw, ph vg.Length, name, shows string) error {
	f := &report.Figure{Panels: grid, PanelW: pw, PanelH: ph, Placement: report.LegendRight,
		Caption: figs.Caption(in.env.Config, fmt.Sprintf("the %.1f%% of training pairs closest in feature space, drawn as segments in input space; %s", 100*in.opt.fraction, shows))}
	in.legend(&f.Legend)
	return figs.Save(out, f, name)
}

// legend adds the entries of the Fig. 2 panels to l.
func (in *instance) legend(l *report.Legend) {
	for ring := 0; ring < 2; ring++ {
		l.Add(fmt.Sprintf("ring %d", ring+1), figs.Scatter(plotter.XYs{{}}, figs.Palette[ring], vg.Points(1.2), draw.CircleGlyph{}))
	}
	l.Add(fmt.Sprintf("%.1f%% closest (feature sp.)", 100*in.opt.fraction), &plotter.Line{LineStyle: pairStyle})
}

var pairStyle = draw.LineStyle{Color: figs.Green, Width: vg.Points(0.6)}

// sharedShade is the background of the shared panel c = 0.20, 5 PCs.
var sharedShade = color.RGBA{250, 243, 214, 255}

func (in *instance) panel(r *report.Record, w float64, q int) *plot.Plot {
	p := report.NewPanel(fmt.Sprintf("%s = %s, %d PCs", in.env.Config.Model.WidthName, report.FormatFloat(w, 3), q))
	if w == in.opt.fixedWidth && q == in.opt.fixedQ {
		p.BackgroundColor = sharedShade
	}
	p.X.Label.Text = "x₁"
	p.Y.Label.Text = "x₂"
	x := in.data.Train.X
	if r.Status == "failed" {
		p.Title.Text += " (failed)"
		return p
	}
	idx := r.Arrays["pairs"]
	seg := &figs.Segments{Style: pairStyle}
	for i := 0; i+1 < len(idx); i += 2 {
		a, b := int(idx[i]), int(idx[i+1])
		seg.XY = append(seg.XY, [4]float64{x.At(a, 0), x.At(a, 1), x.At(b, 0), x.At(b, 1)})
	}
	for ring := 0; ring < 2; ring++ {
		var xy plotter.XYs
		for i, l := range in.data.Train.Labels {
			if l == ring {
				xy = append(xy, plotter.XY{X: x.At(i, 0), Y: x.At(i, 1)})
			}
		}
		p.Add(figs.Scatter(xy, figs.Palette[ring], vg.Points(1.2), draw.CircleGlyph{}))
	}
	p.Add(seg)
	figs.SquareAxes(p)
	return p
}
