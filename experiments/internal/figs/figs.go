// Package figs holds plotting pieces shared by the experiment kinds.
package figs

import (
	"image/color"
	"math"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Palette is a colour-blind-safe set (Okabe & Ito) used for groups.
var Palette = []color.Color{
	color.RGBA{0, 114, 178, 255},   // blue
	color.RGBA{230, 159, 0, 255},   // orange
	color.RGBA{0, 158, 115, 255},   // green
	color.RGBA{204, 121, 167, 255}, // purple
	color.RGBA{213, 94, 0, 255},    // vermillion
	color.RGBA{86, 180, 233, 255},  // sky
	color.RGBA{240, 228, 66, 255},  // yellow
	color.Black,
}

// Green marks the paper's highlights (Fig. 2 lines, Fig. 3 noisy point).
var Green = color.RGBA{0, 158, 115, 255}

// Segments draws line segments between pairs of points: far cheaper than
// one plotter.Line per pair when there are hundreds of them.
type Segments struct {
	// XY holds x1, y1, x2, y2 per segment.
	XY    [][4]float64
	Style draw.LineStyle
}

// Plot implements plot.Plotter.
func (s *Segments) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, q := range s.XY {
		c.StrokeLine2(s.Style, trX(q[0]), trY(q[1]), trX(q[2]), trY(q[3]))
	}
}

// DataRange implements plot.DataRanger.
func (s *Segments) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for _, q := range s.XY {
		xmin = math.Min(xmin, math.Min(q[0], q[2]))
		xmax = math.Max(xmax, math.Max(q[0], q[2]))
		ymin = math.Min(ymin, math.Min(q[1], q[3]))
		ymax = math.Max(ymax, math.Max(q[1], q[3]))
	}
	return
}

// Scatter returns a scatter of xy with small filled circles of colour c.
func Scatter(xy plotter.XYs, c color.Color, radius vg.Length, shape draw.GlyphDrawer) *plotter.Scatter {
	s, err := plotter.NewScatter(xy)
	if err != nil {
		// NewScatter fails only on NaN or infinite values, which callers
		// filter out first.
		panic(err)
	}
	s.GlyphStyle.Color = c
	s.GlyphStyle.Radius = radius
	if shape != nil {
		s.GlyphStyle.Shape = shape
	}
	return s
}

// SquareAxes makes x and y span the same range so circles look round.
func SquareAxes(p *plot.Plot) {
	lo := math.Min(p.X.Min, p.Y.Min)
	hi := math.Max(p.X.Max, p.Y.Max)
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = lo, hi, lo, hi
}

// Finite filters out points with a NaN or infinite coordinate.
func Finite(xy plotter.XYs) plotter.XYs {
	out := xy[:0:0]
	for _, p := range xy {
		if !math.IsNaN(p.X) && !math.IsNaN(p.Y) && !math.IsInf(p.X, 0) && !math.IsInf(p.Y, 0) {
			out = append(out, p)
		}
	}
	return out
}

// LogTicks125 marks 1, 2 and 5 times each power of ten, labelling them all
// when the axis spans under two decades: plot.LogTicks labels only the
// powers, which leaves an MSE axis spanning 0.05–0.8 with one label.
type LogTicks125 struct{}

// Logarithmic marks the ticker as one for a logarithmic axis, so that the
// report's axis guard can switch an axis with nothing positive to linear.
func (LogTicks125) Logarithmic() bool { return true }

// Ticks implements plot.Ticker.
func (LogTicks125) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) {
		// No logarithmic ticks exist for a range reaching 0 (every cell
		// failed, or an error of exactly 0): plot.LogTicks would panic.
		return plot.DefaultTicks{}.Ticks(min, max)
	}
	if max <= min {
		return plot.LogTicks{Prec: -1}.Ticks(min, max)
	}
	label := math.Log10(max/min) < 2
	var ticks []plot.Tick
	for e := math.Floor(math.Log10(min)); e <= math.Ceil(math.Log10(max)); e++ {
		p := math.Pow(10, e)
		for _, m := range []float64{1, 2, 3, 4, 5, 6, 7, 8, 9} {
			v := m * p
			if v < min*(1-1e-9) || v > max*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || (label && (m == 2 || m == 5)) {
				t.Label = strconv.FormatFloat(v, 'g', 3, 64)
				if v >= 1e-4 && v < 1e6 {
					t.Label = strconv.FormatFloat(v, 'f', -1, 64)
				}
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// BandPoint is one x of a percentile band: its low and high percentiles
// and the central value (median or mean).
type BandPoint struct {
	X, Lo, Mid, Hi float64
}

// BandStyle says how [AddBandStyled] draws a band.
type BandStyle int

const (
	// BandFilled fills the band with a translucent tint of its colour.
	BandFilled BandStyle = iota
	// BandOutlined draws the band's edges as thin dashed lines of its
	// colour over a faint tint, so that several bands on one axis can
	// each be followed instead of merging into one mass.
	BandOutlined
)

// AddBand draws, in colour col, the band between Lo and Hi as a translucent
// polygon (when there are at least two points) and Mid as a line with
// points, sorted by X. It returns the line for the legend, or nil when pts
// is empty.
func AddBand(p *plot.Plot, pts []BandPoint, col color.Color) (*plotter.Line, error) {
	return AddBandStyled(p, pts, col, BandFilled)
}

// AddBandStyled is [AddBand] with the band drawn in style.
func AddBandStyled(p *plot.Plot, pts []BandPoint, col color.Color, style BandStyle) (*plotter.Line, error) {
	if len(pts) == 0 {
		return nil, nil
	}
	s := append([]BandPoint(nil), pts...)
	sort.Slice(s, func(a, b int) bool { return s[a].X < s[b].X })
	mid := make(plotter.XYs, len(s))
	lo := make(plotter.XYs, len(s))
	hi := make(plotter.XYs, len(s))
	poly := make(plotter.XYs, 0, 2*len(s))
	for i, q := range s {
		mid[i] = plotter.XY{X: q.X, Y: q.Mid}
		lo[i] = plotter.XY{X: q.X, Y: q.Lo}
		hi[i] = plotter.XY{X: q.X, Y: q.Hi}
		poly = append(poly, hi[i])
	}
	for i := len(s) - 1; i >= 0; i-- {
		poly = append(poly, lo[i])
	}
	r, g, b, _ := col.RGBA()
	alpha := uint8(0x40)
	if style == BandOutlined {
		alpha = 0x14
	}
	if len(s) >= 2 {
		pg, err := plotter.NewPolygon(poly)
		if err != nil {
			return nil, err
		}
		pg.Color = color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), alpha}
		pg.LineStyle.Width = 0
		p.Add(pg)
		if style == BandOutlined {
			for _, edge := range []plotter.XYs{lo, hi} {
				l, err := plotter.NewLine(edge)
				if err != nil {
					return nil, err
				}
				l.Color, l.Width = col, vg.Points(0.6)
				l.Dashes = []vg.Length{vg.Points(2), vg.Points(1.5)}
				p.Add(l)
			}
		}
	}
	line, points, err := plotter.NewLinePoints(mid)
	if err != nil {
		return nil, err
	}
	line.Color, points.Color = col, col
	points.Shape, points.Radius = draw.CircleGlyph{}, vg.Points(1.5)
	p.Add(line, points)
	return line, nil
}

// BandThumb is the legend entry of a band: a tinted box behind its
// central line, dashed edges when outlined.
type BandThumb struct {
	Color color.Color
	Style BandStyle
}

// Thumbnail implements plot.Thumbnailer.
func (t BandThumb) Thumbnail(c *draw.Canvas) {
	r, g, b, _ := t.Color.RGBA()
	alpha := uint8(0x40)
	if t.Style == BandOutlined {
		alpha = 0x14
	}
	box := []vg.Point{
		{X: c.Min.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Min.Y},
		{X: c.Max.X, Y: c.Max.Y}, {X: c.Min.X, Y: c.Max.Y},
	}
	c.FillPolygon(color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), alpha}, box)
	if t.Style == BandOutlined {
		edge := draw.LineStyle{Color: t.Color, Width: vg.Points(0.6), Dashes: []vg.Length{vg.Points(2), vg.Points(1.5)}}
		c.StrokeLine2(edge, c.Min.X, c.Min.Y, c.Max.X, c.Min.Y)
		c.StrokeLine2(edge, c.Min.X, c.Max.Y, c.Max.X, c.Max.Y)
	}
	y := (c.Min.Y + c.Max.Y) / 2
	c.StrokeLine2(draw.LineStyle{Color: t.Color, Width: vg.Points(1)}, c.Min.X, y, c.Max.X, y)
	draw.CircleGlyph{}.DrawGlyph(c, draw.GlyphStyle{Color: t.Color, Radius: vg.Points(1.5)}, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: y})
}

// ShareAxes makes the panels of grid small multiples: every panel gets the
// union of their x and y ranges, and only the left-most panel of each row
// keeps its y tick labels and y-axis label, only the lowest panel of each
// column its x ones. The tick marks stay, so values can still be read
// across; with identical ranges the eye compares heights directly. Nil
// panels are skipped.
func ShareAxes(grid [][]*plot.Plot) {
	xmin, xmax := math.Inf(1), math.Inf(-1)
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for _, row := range grid {
		for _, p := range row {
			if p == nil {
				continue
			}
			xmin, xmax = math.Min(xmin, p.X.Min), math.Max(xmax, p.X.Max)
			ymin, ymax = math.Min(ymin, p.Y.Min), math.Max(ymax, p.Y.Max)
		}
	}
	lowest := map[int]int{} // column → row of its lowest panel
	for i, row := range grid {
		for j, p := range row {
			if p != nil {
				lowest[j] = i
			}
		}
	}
	for i, row := range grid {
		first := true
		for j, p := range row {
			if p == nil {
				continue
			}
			p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = xmin, xmax, ymin, ymax
			if !first {
				p.Y.Label.Text = ""
				p.Y.Tick.Marker = unlabelled{p.Y.Tick.Marker}
			}
			if lowest[j] != i {
				p.X.Label.Text = ""
				p.X.Tick.Marker = unlabelled{p.X.Tick.Marker}
			}
			first = false
		}
	}
}

// unlabelled keeps the ticks of a Ticker without their labels.
type unlabelled struct{ plot.Ticker }

// Ticks implements plot.Ticker.
func (u unlabelled) Ticks(min, max float64) []plot.Tick {
	ts := u.Ticker.Ticks(min, max)
	for i := range ts {
		ts[i].Label = ""
	}
	return ts
}

// LinearTicks labels a linear axis at a step of 1, 2, 2.5 or 5 times a
// power of ten, the smallest that gives at most Max labels (6 when 0):
// plot.DefaultTicks aims at 3 labels, which left LPKPCA's Fig. 2 with an
// accuracy axis labelled 55, 75 and 95 alone.
type LinearTicks struct{ Max int }

// Ticks implements plot.Ticker.
func (t LinearTicks) Ticks(lo, hi float64) []plot.Tick {
	n := t.Max
	if n <= 0 {
		n = 6
	}
	if !(hi > lo) || math.IsInf(hi-lo, 0) || math.IsNaN(hi-lo) {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	raw := (hi - lo) / float64(n-1)
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * p
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*p >= raw {
			step = m * p
			break
		}
	}
	// Labels carry the step's decimals (2.5 × 10ⁿ needs one more), so
	// that 3 × 0.2 reads 0.6.
	prec := max(0, 1-int(math.Floor(math.Log10(step))))
	var ticks []plot.Tick
	for k := math.Ceil(lo/step - 1e-9); k*step <= hi+1e-9*step; k++ {
		v, _ := strconv.ParseFloat(strconv.FormatFloat(k*step, 'f', prec, 64), 64)
		v += 0 // -0 (k = -0 at lo = 0) reads 0
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
	}
	return ticks
}
