package denoise

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/runexp/runexp/experiments/internal/common"
	"github.com/runexp/runexp/experiments/internal/figs"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// The two figures: Fig. 4's percentile bands and Fig. 6's example images
// with intensity profiles.

// bands draws Fig. 4 as small multiples: a row per estimator (the paper's
// panels (a)–(e)), a column per subspace size, and in each panel the
// 5th–95th percentile band of per-input MSE against the kernel width with
// its median, in the colour of its size. The medians of the row's other
// sizes are drawn as thin grey lines behind it, so that a panel compares
// sizes as the paper's panel does without five bands merging into one
// mass. Every panel shares the axes, so estimators and sizes compare at a
// glance.
//
// The axes are logarithmic, so an error of exactly 0 (an estimator that
// reproduces its inputs, such as the base line without corruption) is
// drawn at a floor a decade below the smallest positive error; when no
// error is positive there is nothing to draw on a log scale and no figure.
// series is one row of the bands figure: a method label and the values
// of the method's own grid parameters (neighbors: [5, 10, 20] gives a
// row per value), named "Kwok–Tsang (neighbors = 5)".
type series struct {
	label, name string
	fixed       map[string]string // grid parameter → its value, fmt.Sprint'd
}

// has reports whether r belongs to the series.
func (s series) has(r *report.Record) bool {
	if r.Method() != s.label {
		return false
	}
	for k, v := range s.fixed {
		if fmt.Sprint(r.Params[k]) != v {
			return false
		}
	}
	return true
}

// methodSeries returns the rows of the bands figure: one per method
// label, and per value of each parameter that varies among that label's
// records other than the axes' (wn, sizeKey), in the records' order; the
// points of one row then run along wn once, where a grid's values
// interleaved used to draw one sawtooth line.
func methodSeries(recs []report.Record, wn, sizeKey string) []series {
	var out []series
	for _, label := range common.Labels(recs, "method") {
		vals := map[string]map[string]bool{}
		var keys []string
		for i := range recs {
			if recs[i].Method() != label {
				continue
			}
			for k, v := range recs[i].Params {
				if k == "method" || k == wn || k == sizeKey {
					continue
				}
				if vals[k] == nil {
					vals[k] = map[string]bool{}
					keys = append(keys, k)
				}
				vals[k][fmt.Sprint(v)] = true
			}
		}
		sort.Strings(keys)
		var grid []string
		for _, k := range keys {
			if len(vals[k]) > 1 {
				grid = append(grid, k)
			}
		}
		seen := map[string]bool{}
		for i := range recs {
			if recs[i].Method() != label {
				continue
			}
			s := series{label: label, name: label, fixed: map[string]string{}}
			var parts []string
			for _, k := range grid {
				v := fmt.Sprint(recs[i].Params[k])
				s.fixed[k] = v
				parts = append(parts, k+" = "+v)
			}
			if len(parts) > 0 {
				s.name += " (" + strings.Join(parts, ", ") + ")"
			}
			if !seen[s.name] {
				seen[s.name] = true
				out = append(out, s)
			}
		}
	}
	return out
}

func (in *instance) bands(out *runner.Output, recs []report.Record, wn, sizeKey, size string) error {
	rows := methodSeries(recs, wn, sizeKey)
	sizes := common.Values(recs, sizeKey)
	if len(rows) == 0 || len(sizes) == 0 {
		return nil
	}
	floor := errorFloor(recs)
	if floor == 0 {
		in.env.Log.Warn("no positive error to draw on the log axes of the bands figure", "figure", in.opt.figureName)
		return nil
	}
	band := func(ms series, sz float64) []figs.BandPoint {
		var pts []figs.BandPoint
		for i := range recs {
			r := &recs[i]
			if !ms.has(r) || common.Param(r, sizeKey) != sz || r.Status == report.StatusFailed {
				continue
			}
			pts = append(pts, figs.BandPoint{X: common.Param(r, wn), Lo: max(r.Get(MSEP5), floor), Mid: max(r.Get(MSEMedian), floor), Hi: max(r.Get(MSEP95), floor)})
		}
		return pts
	}
	colour := func(si int) color.Color { return figs.Palette[si%len(figs.Palette)] }
	units, axisUnits := figs.PixelScale(in.test.X), figs.AxisUnits(in.test.X)
	w, h := out.Size(4.5*vg.Centimeter, 3.6*vg.Centimeter)
	fig := &report.Figure{PanelW: w, PanelH: h, Placement: report.LegendBelow,
		Caption: figs.Caption(in.env.Config, fmt.Sprintf("5th–95th percentile band (dashed edges) and median (line) of the per-input MSE over %s, a row per estimator and a column per %s; grey lines are the medians of the row's other %s", wn, size, size), units)}
	for _, label := range rows {
		var row []*plot.Plot
		for si, sz := range sizes {
			p := report.NewPanel(fmt.Sprintf("%s = %s", size, report.FormatFloat(sz, 4)))
			p.X.Label.Text = wn + " (log scale)"
			p.Y.Label.Text = "MSE per pixel" + axisUnits
			p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
			p.X.Tick.Marker, p.Y.Tick.Marker = figs.LogTicks125{}, figs.LogTicks125{}
			for sk, other := range sizes {
				if sk == si {
					continue
				}
				if err := addMedian(p, band(label, other)); err != nil {
					return err
				}
			}
			pts := band(label, sz)
			if len(pts) == 0 {
				p.Title.Text += " (failed)"
			}
			if _, err := figs.AddBandStyled(p, pts, colour(si), figs.BandOutlined); err != nil {
				return err
			}
			row = append(row, p)
		}
		fig.Panels = append(fig.Panels, row)
		fig.RowTitles = append(fig.RowTitles, label.name)
	}
	for si, sz := range sizes {
		fig.Legend.Add(fmt.Sprintf("%s = %s", size, report.FormatFloat(sz, 4)), figs.BandThumb{Color: colour(si), Style: figs.BandOutlined})
	}
	fig.Legend.Add("median, other "+size, contextLine())
	figs.ShareAxes(fig.Panels)
	return figs.Save(out, fig, in.opt.figureName)
}

var contextGrey = color.Gray{Y: 185}

func contextLine() *plotter.Line {
	l := &plotter.Line{}
	l.Color, l.Width = contextGrey, vg.Points(0.7)
	return l
}

// addMedian draws the medians of pts as a thin grey line behind a panel's
// band.
func addMedian(p *plot.Plot, pts []figs.BandPoint) error {
	if len(pts) < 2 {
		return nil
	}
	s := append([]figs.BandPoint(nil), pts...)
	sort.Slice(s, func(a, b int) bool { return s[a].X < s[b].X })
	xy := make(plotter.XYs, len(s))
	for i, q := range s {
		xy[i] = plotter.XY{X: q.X, Y: q.Mid}
	}
	l, err := plotter.NewLine(xy)
	if err != nil {
		return err
	}
	l.LineStyle = contextLine().LineStyle
	p.Add(l)
	return nil
}

// errorFloor returns a tenth of the smallest positive error percentile of
// the records that did not fail, or 0 when none is positive.
func errorFloor(recs []report.Record) float64 {
	least := math.Inf(1)
	for i := range recs {
		if recs[i].Status == report.StatusFailed {
			continue
		}
		for _, k := range []report.Metric{MSEP5, MSEMedian, MSEP95} {
			if v := recs[i].Get(k); v > 0 {
				least = math.Min(least, v)
			}
		}
	}
	if math.IsInf(least, 1) {
		return 0
	}
	return least / 10
}

// modelPoint is a (kernel width, subspace size) pair of the grid.
type modelPoint struct{ width, size float64 }

// modelPoints returns the grid's model points in record order.
func modelPoints(recs []report.Record, wn, sizeKey string) []modelPoint {
	var points []modelPoint
	seen := map[modelPoint]bool{}
	for i := range recs {
		pt := modelPoint{common.Param(&recs[i], wn), common.Param(&recs[i], sizeKey)}
		if !seen[pt] {
			seen[pt] = true
			points = append(points, pt)
		}
	}
	return points
}

// profileLine is one curve of the intensity profiles.
type profileLine struct {
	label string
	img   []float64
}

// images draws, per model point, the example inputs: original, noisy and
// each estimator's pre-image, then intensity profiles along one row and one
// column of the first example.
func (in *instance) images(out *runner.Output, recs []report.Record, wn, sizeKey string) error {
	points := modelPoints(recs, wn, sizeKey)
	varying := varyingParams(recs, in.env.Config)
	for pi, pt := range points {
		suffix := ""
		if len(points) > 1 {
			suffix = fmt.Sprintf("-%d", pi+1)
		}
		g, lines := in.exampleGrid(recs, pt, varying, wn, sizeKey)
		files, err := g.Save(out.Path(in.opt.figureName + suffix))
		out.Add(files...)
		if err != nil {
			return err
		}
		if len(in.examples) == 0 || !in.opt.profiles {
			continue
		}
		if err := in.profiles(out, lines, suffix, pt, wn, sizeKey); err != nil {
			return err
		}
	}
	return nil
}

// exampleGrid returns the image grid of model point pt (original and
// corrupted examples, then one row per estimator) and the profile lines
// of the first example: original, corrupted, then each estimator's.
func (in *instance) exampleGrid(recs []report.Record, pt modelPoint, varying map[string][]string, wn, sizeKey string) (*report.ImageGrid, []profileLine) {
	w, h := in.test.Width, in.test.Height
	d := w * h
	g := &report.ImageGrid{Width: w, Height: h, Scale: max(1, 64/max(w, h)), Invert: in.opt.invert,
		Title: fmt.Sprintf("%s = %s, %s = %s", wn, report.FormatFloat(pt.width, 4), sizeKey, report.FormatFloat(pt.size, 4))}
	var orig, noisy [][]float64
	for _, i := range in.examples {
		orig = append(orig, in.test.X.RawRowView(i))
		noisy = append(noisy, in.noisy[0].RawRowView(i))
		g.ColLabels = append(g.ColLabels, fmt.Sprintf("%d", in.test.Labels[i]))
	}
	g.Images = [][][]float64{orig, noisy}
	g.RowLabels = []string{"original", "corrupted"}
	shows := "example test inputs (columns, headed by their class): original, corrupted, and each estimator's pre-image (rows)"
	if len(in.examples) > 0 && in.opt.profiles {
		// The profile's segments, marked on the first example as the
		// paper marks them: a red line along the row, a green one down
		// the column.
		g.Marks = []report.GridMark{
			{Col: 0, Horizontal: true, At: in.opt.profileRow, Color: profileRowColour},
			{Col: 0, At: in.opt.profileCol, Color: profileColColour},
		}
		shows += fmt.Sprintf("; the orange line on the first example (the paper's red) is row %d, the bluish-green one (the paper's green) column %d, whose intensities the profiles figure plots", in.opt.profileRow, in.opt.profileCol)
	}
	g.Caption = figs.Caption(in.env.Config, shows, figs.PixelScale(in.test.X))
	var lines []profileLine
	if len(in.examples) > 0 {
		first := in.examples[0]
		lines = append(lines, profileLine{"original", in.test.X.RawRowView(first)}, profileLine{"corrupted", in.noisy[0].RawRowView(first)})
	}
	for i := range recs {
		r := &recs[i]
		if common.Param(r, wn) != pt.width || common.Param(r, sizeKey) != pt.size {
			continue
		}
		label := r.Method()
		if ps := methodParams(r, varying); ps != "" {
			label += " (" + ps + ")"
		}
		ex := r.Arrays["examples"]
		g.Images = append(g.Images, figs.Examples(ex, len(in.examples), d))
		g.RowLabels = append(g.RowLabels, label)
		if len(ex) >= d {
			lines = append(lines, profileLine{label, ex[:d]})
		}
	}
	return g, lines
}

// The colours of the profile's row and column, as the paper's red and
// green lines (Okabe & Ito's vermillion and bluish green).
var (
	profileRowColour = color.RGBA{213, 94, 0, 255}
	profileColColour = color.RGBA{0, 158, 115, 255}
)

// profileDodge is the step between the horizontal shifts of successive
// estimators' profiles, in pixels: Mika, Tikhonov and the Lasso give
// nearly the same profile on Fig. 6's first example, and unshifted the
// Lasso's line and markers lay hidden under the other two.
const profileDodge = 0.15

// Estimators' profile lines: a colour, a dash pattern and an open marker
// at every pixel each, so that two estimators with the same profile (Mika
// and the Lasso at c = 50 differ by 0.0003 in median MSE) both stay
// visible, the marker of one inside the other's.
var (
	profileDashes = [][]vg.Length{nil, {vg.Points(4), vg.Points(2)}, {vg.Points(1), vg.Points(1.5)}, {vg.Points(5), vg.Points(1.5), vg.Points(1), vg.Points(1.5)}}
	profileGlyphs = []draw.GlyphDrawer{draw.RingGlyph{}, draw.TriangleGlyph{}, draw.PlusGlyph{}, draw.SquareGlyph{}, draw.CrossGlyph{}}
)

// profiles draws the intensity of each line along the profile row and
// column (the red and green segments the images figure marks), the
// original in black and the corrupted input in grey, each estimator in
// its colour, dashes and markers, with one legend beside the panels.
func (in *instance) profiles(out *runner.Output, lines []profileLine, suffix string, pt modelPoint, wn, sizeKey string) error {
	w, h := in.test.Width, in.test.Height
	units := figs.PixelScale(in.test.X)
	var panels []*plot.Plot
	var leg report.Legend
	for _, seg := range []struct {
		name string
		at   func(k int) int
		n    int
	}{
		{fmt.Sprintf("row %d (orange line)", in.opt.profileRow), func(k int) int { return in.opt.profileRow*w + k }, w},
		{fmt.Sprintf("column %d (green line)", in.opt.profileCol), func(k int) int { return k*w + in.opt.profileCol }, h},
	} {
		p := report.NewPanel(fmt.Sprintf("intensity along %s of the first example", seg.name))
		p.X.Label.Text = "pixel"
		p.Y.Label.Text = "intensity" + figs.AxisUnits(in.test.X)
		for li, l := range lines {
			var xy plotter.XYs
			// The estimators (lines 2 on) are dodged: estimator e of n
			// at k + (e − (n−1)/2)·profileDodge.
			dx := 0.0
			if li >= 2 {
				dx = (float64(li-2) - float64(len(lines)-3)/2) * profileDodge
			}
			for k := 0; k < seg.n; k++ {
				xy = append(xy, plotter.XY{X: float64(k) + dx, Y: l.img[seg.at(k)]})
			}
			xy = figs.Finite(xy)
			if len(xy) < 2 {
				continue
			}
			ln, pts, err := plotter.NewLinePoints(xy)
			if err != nil {
				return err
			}
			thumbs := []plot.Thumbnailer{ln}
			switch li {
			case 0:
				ln.Color, ln.Width = color.Black, vg.Points(1.5)
				p.Add(ln)
			case 1:
				ln.Color = color.Gray{Y: 160}
				p.Add(ln)
			default:
				k := li - 2
				ln.Color = figs.Palette[k%len(figs.Palette)]
				ln.Dashes = profileDashes[k%len(profileDashes)]
				pts.Color, pts.Shape = ln.Color, profileGlyphs[k%len(profileGlyphs)]
				pts.Radius = vg.Points(2.6 - 0.3*float64(k%len(profileGlyphs)))
				p.Add(ln, pts)
				thumbs = append(thumbs, pts)
			}
			if len(panels) == 0 {
				leg.Add(l.label, thumbs...)
			}
		}
		panels = append(panels, p)
	}
	pw, ph := out.Size(9*vg.Centimeter, 6*vg.Centimeter)
	fig := &report.Figure{Panels: [][]*plot.Plot{panels}, PanelW: pw, PanelH: ph, Legend: leg, Placement: report.LegendRight,
		Caption: figs.Caption(in.env.Config, fmt.Sprintf("intensity profiles of the first example along row %d (the orange line on the images, the paper's red) and column %d (the bluish-green line, the paper's green), 0-based: original, corrupted and each estimator's pre-image at %s = %s, %s = %s; each estimator's markers are shifted by up to ±%s pixel along the axis so that estimators with the same profile stay visible side by side",
			in.opt.profileRow, in.opt.profileCol, wn, report.FormatFloat(pt.width, 4), sizeKey, report.FormatFloat(pt.size, 4), report.FormatFloat(profileDodge*float64(max(len(lines)-3, 0))/2, 2)), units)}
	return figs.Save(out, fig, in.opt.figureName+"-profiles"+suffix)
}
