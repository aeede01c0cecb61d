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
	if r.Config.PaperTable != nil {
		// The result is the paper's table, printed above; a figure the
		// config also regenerates shows the cells' images, which a root
		// without figure files does not keep.
		if strings.Contains(r.Config.Title, "Fig.") {
			return nil, "the paper's figure this config also regenerates shows example images; this results root keeps no figure files and its records no images (a baseline keeps neither), so it is not shown here: rerunning the config draws it", nil
		}
		return nil, "", nil
	}
	recs, err := report.ReadJSONL(filepath.Join(r.Dir, "records.jsonl"))
	if err != nil {
		return nil, "", err
	}
	x, panel := figureAxes(recs)
	metrics := figureMetrics(r.Config, recs)
	if x == "" || len(metrics) == 0 {
		if r.Config.PaperTable != nil {
			return nil, "", nil
		}
		return nil, "this results root keeps no figure files, and the records hold no grid axis to draw the checks' metrics along (the paper's figure shows images or one value per method; the checks below give its numbers; rerunning the config draws it from the cells' arrays, which a baseline does not keep)", nil
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
	lo, hi, band := bandOf(m, recs)
	series := func(r report.Record) string {
		if s, ok := r.Params["method"]; ok {
			return fmt.Sprint(s)
		}
		for _, k := range sortedKeys(r.Params) {
			if k != x && k != panel {
				if _, num := paramNumber(r.Params[k]); num && varies(recs, k) {
					return k + " " + paramText(r.Params[k])
				}
			}
		}
		return m
	}
	var panels []float64
	if panel != "" {
		for _, r := range recs {
			if v, ok := paramNumber(r.Params[panel]); ok && !slices.Contains(panels, v) {
				panels = append(panels, v)
			}
		}
		slices.Sort(panels)
	} else {
		panels = []float64{math.NaN()}
	}
	var names []string
	for _, r := range recs {
		if s := series(r); !slices.Contains(names, s) {
			names = append(names, s)
		}
	}
	logX := logAxis(recs, x)
	var leg report.Legend
	var grid [][]*plot.Plot
	drawn := 0
	for pi, pv := range panels {
		title := m
		if panel != "" {
			title = panel + " = " + paramText(pv)
		}
		p := report.NewPanel(title)
		p.X.Label.Text = x
		p.Y.Label.Text = m
		if logX {
			p.X.Scale = plot.LogScale{}
			p.X.Tick.Marker = plot.LogTicks{Prec: -1}
		}
		for si, name := range names {
			col := figurePalette[si%len(figurePalette)]
			var mid, lows, highs plotter.XYs
			for _, r := range recs {
				if series(r) != name || r.Status == report.StatusFailed {
					continue
				}
				if panel != "" {
					if v, _ := paramNumber(r.Params[panel]); v != pv {
						continue
					}
				}
				xv, ok := paramNumber(r.Params[x])
				yv, has := r.Metrics[m]
				if !ok || !has || math.IsNaN(yv) || math.IsInf(yv, 0) || (logX && xv <= 0) {
					continue
				}
				mid = append(mid, plotter.XY{X: xv, Y: yv})
				if band {
					lows = append(lows, plotter.XY{X: xv, Y: r.Metrics[lo]})
					highs = append(highs, plotter.XY{X: xv, Y: r.Metrics[hi]})
				}
			}
			if len(mid) == 0 {
				continue
			}
			order := sortXY(mid, lows, highs)
			if band && len(mid) >= 2 {
				poly := append(plotter.XYs(nil), order.hi...)
				for i := len(order.lo) - 1; i >= 0; i-- {
					poly = append(poly, order.lo[i])
				}
				pg, err := plotter.NewPolygon(poly)
				if err != nil {
					return nil, err
				}
				r, g, bl, _ := col.RGBA()
				pg.Color = color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), 0x40}
				pg.LineStyle.Width = 0
				p.Add(pg)
			}
			line, points, err := plotter.NewLinePoints(order.mid)
			if err != nil {
				return nil, err
			}
			line.Color, points.Color = col, col
			points.Shape, points.Radius = draw.CircleGlyph{}, vg.Points(1.6)
			p.Add(line, points)
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
	if drawn == 0 {
		return nil, nil
	}
	for len(grid[len(grid)-1]) < len(grid[0]) {
		grid[len(grid)-1] = append(grid[len(grid)-1], nil)
	}
	shows := fmt.Sprintf("our %s against %s", m, x)
	if panel != "" {
		shows += ", one panel per " + panel
	}
	if band {
		shows += ", with the 5th–95th percentile band over the test items (" + lo + ", " + hi + ")"
	}
	if logX {
		shows += "; " + x + " on a log scale"
	}
	shows += ", drawn by runexp report from the records (this results root keeps no figure files)"
	f := &report.Figure{Panels: grid, PanelW: 8 * vg.Centimeter, PanelH: 6 * vg.Centimeter, Legend: leg, Placement: report.LegendBelow,
		Caption: report.Caption{Figure: c.Title, Shows: shows, Source: "config " + c.Name}}
	pngBytes, _, err := f.Render()
	if err != nil {
		return nil, fmt.Errorf("paperreport: %s: figure of %s: %w", c.Name, m, err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(pngBytes))
	if err != nil {
		return nil, err
	}
	return &drawnFig{File: c.Name + "--" + m + ".png", Caption: f.Caption.String(), png: pngBytes, TextPx: report.ReadTextPx(pngBytes), W: cfg.Width, H: cfg.Height}, nil
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
	case int:
		return float64(x), true
	}
	return 0, false
}
