package paperreport

import (
	"bytes"
	"fmt"
	"image/color"
	"image/png"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
)

// drawnFig is a figure the report draws from a run's records: its file
// name in the report's folder, caption, PNG bytes, size and the height of
// its smallest label in its own pixels.
type drawnFig struct {
	File, Caption string
	png           []byte
	TextPx        float64
	W, H          int
}

// figurePalette is the Okabe–Ito palette, distinguishable in colour
// blindness, one colour per series.
var figurePalette = []color.Color{
	color.RGBA{0, 114, 178, 255}, color.RGBA{213, 94, 0, 255}, color.RGBA{0, 158, 115, 255},
	color.RGBA{204, 121, 167, 255}, color.RGBA{86, 180, 233, 255}, color.RGBA{230, 159, 0, 255},
	color.RGBA{0, 0, 0, 255}, color.RGBA{240, 228, 66, 255},
}

// maxPanels bounds the panels of a figure drawn from records (one per
// value of its second axis), and maxFigMetrics the figures per config.
const (
	maxPanels     = 6
	maxFigMetrics = 3
	panelsPerRow  = 3
)

// recordFigures draws, for a config whose root keeps no figure files,
// what its records hold of its figure: each metric its checks read,
// against the grid axis with the most values (a numeric parameter that
// varies within a method), one line per method (or per value of the
// grid's other axis when there is one method), one panel per value of a
// second axis, with the 5th–95th percentile band where the records hold
// one. It returns why none could be drawn where none is ("" when figures
// were drawn, or when the config's result is a table the Results print).
func (b *builder) recordFigures(r *run) ([]drawnFig, string, error) {
	if !r.HasRecords {
		return nil, "", nil
	}
	recs, err := figureRecords(r.Config, filepath.Join(r.Dir, "records.jsonl"))
	if err != nil {
		return nil, "", err
	}
	x, panel, metrics, why := figurePlan(r.Config, recs)
	if why != "" {
		return nil, why, nil
	}
	var out []drawnFig
	for _, m := range metrics[:min(len(metrics), maxFigMetrics)] {
		f, err := drawMetric(r.Config, recs, x, panel, m)
		if err != nil {
			return nil, "", err
		}
		if f != nil {
			out = append(out, *f)
		}
	}
	return out, "", nil
}

// figureRecords reads the records a figure of c is drawn from; none for
// a config whose result is the paper's table (figurePlan needs none).
func figureRecords(c *config.Config, records string) ([]report.Record, error) {
	if c.PaperTable != nil {
		return nil, nil
	}
	return report.ReadJSONL(records)
}

// figurePlan is what the records of c draw of its figure: the axes and
// metrics (figureAxes, figureMetrics), or why they draw none ("" with no
// metrics when the result is the paper's table, which the Results print).
func figurePlan(c *config.Config, recs []report.Record) (x, panel string, metrics []string, why string) {
	if c.PaperTable != nil {
		// The result is the paper's table, printed above; a figure the
		// config also regenerates shows the cells' images, which only
		// the run's figure files keep.
		if strings.Contains(c.Title, "Fig.") {
			return "", "", nil, "the paper's figure this config also regenerates shows example images; this results root keeps no figure files for it and its records no images, so it is not shown here: rerunning the config draws it"
		}
		return "", "", nil, ""
	}
	x, panel = figureAxes(recs)
	metrics = figureMetrics(c, recs)
	if x == "" || len(metrics) == 0 {
		return "", "", nil, "this results root keeps no figure files for it, and the records hold no grid axis to draw the checks' metrics along (the paper's figure shows images or one value per method; the checks below give its numbers; rerunning the config draws it from the cells' arrays)"
	}
	return x, panel, metrics, ""
}

// figureAxes picks the axes of a figure: x, the numeric parameter with
// the most values (three or more) that varies within some method's
// records; panel, another such parameter with at most maxPanels values
// ("" for none).
func figureAxes(recs []report.Record) (x, panel string) {
	type axis struct {
		name string
		n    int
	}
	var axes []axis
	names := map[string]bool{}
	for _, r := range recs {
		for k := range r.Params {
			names[k] = true
		}
	}
	for k := range names {
		if k == "method" {
			continue
		}
		vals := map[float64]bool{}
		within := false
		byMethod := map[string]map[float64]bool{}
		numeric := true
		for _, r := range recs {
			v, ok := r.Params[k]
			if !ok {
				continue
			}
			f, isNum := paramNumber(v)
			if !isNum {
				numeric = false
				break
			}
			vals[f] = true
			m := fmt.Sprint(r.Params["method"])
			if byMethod[m] == nil {
				byMethod[m] = map[float64]bool{}
			}
			byMethod[m][f] = true
			if len(byMethod[m]) > 1 {
				within = true
			}
		}
		if numeric && within && len(vals) >= 2 {
			axes = append(axes, axis{k, len(vals)})
		}
	}
	sort.Slice(axes, func(i, j int) bool {
		if axes[i].n != axes[j].n {
			return axes[i].n > axes[j].n
		}
		return axes[i].name < axes[j].name
	})
	if len(axes) == 0 || axes[0].n < 3 {
		return "", ""
	}
	x = axes[0].name
	for _, a := range axes[1:] {
		if a.n <= maxPanels {
			return x, a.name
		}
	}
	return x, ""
}

// figureMetrics are the metrics the config's checks read that its
// records hold, in the claims' order.
func figureMetrics(c *config.Config, recs []report.Record) []string {
	var out []string
	for _, cl := range c.Claims {
		m, _ := cl.Check.Values["metric"].(string)
		if m == "" || slices.Contains(out, m) || capMetric.MatchString(m) || strings.HasPrefix(m, "failed_") {
			continue
		}
		if slices.ContainsFunc(recs, func(r report.Record) bool { _, ok := r.Metrics[m]; return ok }) {
			out = append(out, m)
		}
	}
	return out
}

// bandOf returns the 5th and 95th percentile metrics that go with m
// (mse_median: mse_p5, mse_p95), when the records hold them.
func bandOf(m string, recs []report.Record) (lo, hi string, ok bool) {
	i := strings.LastIndex(m, "_")
	if i < 0 {
		return "", "", false
	}
	stem := m[:i]
	lo, hi = stem+"_p5", stem+"_p95"
	for _, r := range recs {
		_, a := r.Metrics[lo]
		_, b := r.Metrics[hi]
		if a && b {
			return lo, hi, true
		}
	}
	return "", "", false
}

// drawMetric draws metric m of recs against x, one panel per value of
// panel, one line per series (the methods, or the values of the grid's
// remaining axis), and renders it.
func drawMetric(c *config.Config, recs []report.Record, x, panel, m string) (*drawnFig, error) {
	f := metricFigure{recs: recs, x: x, panel: panel, m: m, logX: logAxis(recs, x)}
	f.lo, f.hi, f.band = bandOf(m, recs)
	grid, leg, drawn, err := f.panels()
	if err != nil || drawn == 0 {
		return nil, err
	}
	fig := &report.Figure{Panels: grid, PanelW: 8 * vg.Centimeter, PanelH: 6 * vg.Centimeter, Legend: leg, Placement: report.LegendBelow,
		Caption: report.Caption{Figure: c.Title, Shows: f.shows(), Source: "config " + c.Name}}
	pngBytes, _, err := fig.Render()
	if err != nil {
		return nil, fmt.Errorf("paperreport: %s: figure of %s: %w", c.Name, m, err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(pngBytes))
	if err != nil {
		return nil, err
	}
	return &drawnFig{File: c.Name + "--" + m + ".png", Caption: fig.Caption.String(), png: pngBytes, TextPx: report.ReadTextPx(pngBytes), W: cfg.Width, H: cfg.Height}, nil
}

// metricFigure is a figure of metric m against x drawn from recs: one
// panel per value of panel ("" for one), the band lo–hi where band.
type metricFigure struct {
	recs        []report.Record
	x, panel, m string
	lo, hi      string
	band, logX  bool
}

// series names the line a record is drawn on: its method, else the
// value of the grid's axis that is neither x nor the panels'.
func (f metricFigure) series(r report.Record) string {
	if s, ok := r.Params["method"]; ok {
		return fmt.Sprint(s)
	}
	for _, k := range sortedKeys(r.Params) {
		if k != f.x && k != f.panel {
			if _, num := paramNumber(r.Params[k]); num && varies(f.recs, k) {
				return k + " " + paramText(r.Params[k])
			}
		}
	}
	return f.m
}

// panels draws the figure's panels, panelsPerRow to a row, and its
// legend; drawn counts the lines drawn.
func (f metricFigure) panels() (grid [][]*plot.Plot, leg report.Legend, drawn int, err error) {
	panels := []float64{math.NaN()}
	if f.panel != "" {
		panels = nil
		for _, r := range f.recs {
			if v, ok := paramNumber(r.Params[f.panel]); ok && !slices.Contains(panels, v) {
				panels = append(panels, v)
			}
		}
		slices.Sort(panels)
	}
	var names []string
	for _, r := range f.recs {
		if s := f.series(r); !slices.Contains(names, s) {
			names = append(names, s)
		}
	}
	for pi, pv := range panels {
		title := f.m
		if f.panel != "" {
			title = f.panel + " = " + paramText(pv)
		}
		p := report.NewPanel(title)
		p.X.Label.Text, p.Y.Label.Text = f.x, f.m
		if f.logX {
			p.X.Scale = plot.LogScale{}
			p.X.Tick.Marker = plot.LogTicks{Prec: -1}
		}
		for si, name := range names {
			line, points, err := f.line(p, name, pv, figurePalette[si%len(figurePalette)])
			if err != nil {
				return nil, leg, 0, err
			}
			if line == nil {
				continue
			}
			drawn++
			if pi == 0 {
				leg.Add(name, line, points)
			}
		}
		if pi%panelsPerRow == 0 {
			grid = append(grid, nil)
		}
		grid[len(grid)-1] = append(grid[len(grid)-1], p)
	}
	for len(grid) > 0 && len(grid[len(grid)-1]) < len(grid[0]) {
		grid[len(grid)-1] = append(grid[len(grid)-1], nil)
	}
	return grid, leg, drawn, nil
}

// line draws series name's points in the panel of pv onto p, with its
// band where the figure has one; nil when the series has no point there.
func (f metricFigure) line(p *plot.Plot, name string, pv float64, col color.Color) (*plotter.Line, *plotter.Scatter, error) {
	var mid, lows, highs plotter.XYs
	for _, r := range f.recs {
		if f.series(r) != name || r.Status == report.StatusFailed {
			continue
		}
		if f.panel != "" {
			if v, _ := paramNumber(r.Params[f.panel]); v != pv {
				continue
			}
		}
		xv, ok := paramNumber(r.Params[f.x])
		yv, has := r.Metrics[f.m]
		if !ok || !has || math.IsNaN(yv) || math.IsInf(yv, 0) || (f.logX && xv <= 0) {
			continue
		}
		mid = append(mid, plotter.XY{X: xv, Y: yv})
		if f.band {
			lows = append(lows, plotter.XY{X: xv, Y: r.Metrics[f.lo]})
			highs = append(highs, plotter.XY{X: xv, Y: r.Metrics[f.hi]})
		}
	}
	if len(mid) == 0 {
		return nil, nil, nil
	}
	order := sortXY(mid, lows, highs)
	if f.band && len(mid) >= 2 {
		poly := append(plotter.XYs(nil), order.hi...)
		for i := len(order.lo) - 1; i >= 0; i-- {
			poly = append(poly, order.lo[i])
		}
		pg, err := plotter.NewPolygon(poly)
		if err != nil {
			return nil, nil, err
		}
		r, g, bl, _ := col.RGBA()
		pg.Color = color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), 0x40}
		pg.LineStyle.Width = 0
		p.Add(pg)
	}
	line, points, err := plotter.NewLinePoints(order.mid)
	if err != nil {
		return nil, nil, err
	}
	line.Color, points.Color = col, col
	points.Shape, points.Radius = draw.CircleGlyph{}, vg.Points(1.6)
	p.Add(line, points)
	return line, points, nil
}

// shows says what the figure draws, for its caption.
func (f metricFigure) shows() string {
	s := fmt.Sprintf("our %s against %s", f.m, f.x)
	if f.panel != "" {
		s += ", one panel per " + f.panel
	}
	if f.band {
		s += ", with the 5th–95th percentile band over the test items (" + f.lo + ", " + f.hi + ")"
	}
	if f.logX {
		s += "; " + f.x + " on a log scale"
	}
	return s + ". Drawn by runexp report from the records (this results root keeps no figure file for it)"
}

// xyOrder holds a series' points sorted by x.
type xyOrder struct{ mid, lo, hi plotter.XYs }

// sortXY sorts a series' points (and its band's, when given) by x.
func sortXY(mid, lo, hi plotter.XYs) xyOrder {
	idx := make([]int, len(mid))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return mid[idx[a]].X < mid[idx[b]].X })
	var o xyOrder
	for _, i := range idx {
		o.mid = append(o.mid, mid[i])
		if len(lo) == len(mid) {
			o.lo = append(o.lo, lo[i])
			o.hi = append(o.hi, hi[i])
		}
	}
	return o
}

// logAxis reports whether x's values are all positive and span more
// than a decade and a half (a factor 50): a log scale then shows them
// evenly.
func logAxis(recs []report.Record, x string) bool {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range recs {
		v, ok := paramNumber(r.Params[x])
		if !ok {
			continue
		}
		if v <= 0 {
			return false
		}
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	return hi/lo >= 50
}

// varies reports whether parameter k takes more than one value over recs.
func varies(recs []report.Record, k string) bool {
	seen := map[string]bool{}
	for _, r := range recs {
		if v, ok := r.Params[k]; ok {
			seen[paramText(v)] = true
		}
	}
	return len(seen) > 1
}

func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// paramNumber is a record parameter's value as a number: the records hold
// integral values as int and the others as float64.
func paramNumber(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case measuredValue:
		return float64(x), true
	case int:
		return float64(x), true
	}
	return 0, false
}
