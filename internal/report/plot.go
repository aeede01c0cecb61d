package report

import (
	"bytes"
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// DPI is the resolution of every PNG figure written by [SavePlot] and
// [SaveGrid]. It is fixed so that the same plot always gives the same
// pixels.
const DPI = 150

// Padding of the panels laid out by SaveGrid.
const (
	gridPadEdge = 2 * vg.Millimeter // around the figure
	gridPadGap  = 4 * vg.Millimeter // between panels
)

// SavePlot renders p at w×h into base+".png" (at [DPI]) and base+".svg",
// both atomically, and returns the two file names (base plus extension, in
// that order).
//
// The SVG refers to the Liberation fonts by name rather than embedding them;
// the PNG uses the copies gonum/plot embeds, so no system font is needed.
func SavePlot(p *plot.Plot, w, h vg.Length, base string) ([]string, error) {
	if p == nil {
		return nil, fmt.Errorf("report: %s: no plot", base)
	}
	guardAxes(p)
	return saveFigure(w, h, base, func(c draw.Canvas) { p.Draw(c) })
}

// SaveGrid lays out rows of plots as the panels of one figure, each panel
// w×h, and writes base+".png" and base+".svg" as [SavePlot] does. The panels
// are placed with plot.Align on draw.Tiles with small pads, so the data
// areas line up across rows and columns. Nil entries, and the missing
// entries of rows shorter than the longest, are left blank.
func SaveGrid(panels [][]*plot.Plot, w, h vg.Length, base string) ([]string, error) {
	rows, cols := len(panels), 0
	for _, r := range panels {
		cols = max(cols, len(r))
	}
	if rows == 0 || cols == 0 {
		return nil, fmt.Errorf("report: %s: a grid with no panels", base)
	}
	if rows*cols > MaxPanels || rows > MaxPanels || cols > MaxPanels {
		return nil, fmt.Errorf("report: %s: %d×%d panels exceed the bound of %d", base, rows, cols, MaxPanels)
	}
	for _, r := range panels {
		for _, p := range r {
			if p != nil {
				guardAxes(p)
			}
		}
	}
	grid := make([][]*plot.Plot, rows)
	for i, r := range panels {
		grid[i] = make([]*plot.Plot, cols)
		copy(grid[i], r)
	}
	tiles := draw.Tiles{
		Rows: rows, Cols: cols,
		PadTop: gridPadEdge, PadBottom: gridPadEdge, PadLeft: gridPadEdge, PadRight: gridPadEdge,
		PadX: gridPadGap, PadY: gridPadGap,
	}
	W := vg.Length(cols)*w + vg.Length(cols-1)*gridPadGap + 2*gridPadEdge
	H := vg.Length(rows)*h + vg.Length(rows-1)*gridPadGap + 2*gridPadEdge
	return saveFigure(W, H, base, func(c draw.Canvas) {
		canvases := plot.Align(grid, tiles, c)
		for i := range grid {
			for j, p := range grid[i] {
				if p != nil {
					p.Draw(canvases[i][j])
				}
			}
		}
	})
}

// saveFigure renders drawFn on a w×h PNG canvas and a w×h SVG canvas and
// writes both atomically.
func saveFigure(w, h vg.Length, base string, drawFn func(draw.Canvas)) ([]string, error) {
	if err := checkSize(w, h); err != nil {
		return nil, fmt.Errorf("report: %s: %w", base, err)
	}
	pngBytes, svgBytes, err := renderFigure(w, h, drawFn)
	if err != nil {
		return nil, fmt.Errorf("report: %s: %w", base, err)
	}
	return writePair(base, pngBytes, svgBytes)
}

// renderFigure returns the PNG and SVG encodings of drawFn at w×h.
func renderFigure(w, h vg.Length, drawFn func(draw.Canvas)) (pngBytes, svgBytes []byte, err error) {
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(DPI))
	drawFn(draw.New(img))
	var pb bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&pb); err != nil {
		return nil, nil, err
	}

	svg := vgsvg.New(w, h)
	drawFn(draw.New(svg))
	var sb bytes.Buffer
	if _, err := svg.WriteTo(&sb); err != nil {
		return nil, nil, err
	}
	return pb.Bytes(), sb.Bytes(), nil
}

// Bounds on a figure, checked before its image is allocated.
const (
	// MaxPanels bounds the panels of one SaveGrid figure.
	MaxPanels = 400
	// MaxPixels bounds a PNG's pixel count at DPI (60 Mpx, 240 MB of
	// RGBA): the largest shipped figure has under 10 Mpx.
	MaxPixels = 60_000_000
)

// checkSize refuses a figure size that is not finite and positive or whose
// PNG would exceed MaxPixels; image.NewRGBA would otherwise panic or
// allocate terabytes.
func checkSize(w, h vg.Length) error {
	if !(w > 0 && h > 0) || math.IsInf(float64(w), 0) || math.IsInf(float64(h), 0) {
		return fmt.Errorf("figure size %v × %v is not positive and finite", w, h)
	}
	px := func(l vg.Length) float64 { return math.Ceil(float64(l/vg.Inch) * DPI) }
	if n := px(w) * px(h); n > MaxPixels {
		return fmt.Errorf("figure of %.0f × %.0f px at %d DPI exceeds %d pixels; make outputs.width/height or the grid smaller", px(w), px(h), DPI, MaxPixels)
	}
	return nil
}

// guardAxes switches a logarithmic axis whose range is not positive (no
// data drawn, every cell failed, or a zero value) to a linear one, noting
// it in the title: gonum/plot panics on such an axis ("Values must be
// greater than 0 for a log scale"). A plot it changes had no valid
// logarithmic rendering, so no figure that drew before changes.
func guardAxes(p *plot.Plot) {
	fix := func(a *plot.Axis) bool {
		_, logScale := a.Scale.(plot.LogScale)
		_, logTicks := a.Tick.Marker.(plot.LogTicks)
		if m, ok := a.Tick.Marker.(interface{ Logarithmic() bool }); ok && m.Logarithmic() {
			logTicks = true
		}
		if !logScale && !logTicks {
			return false
		}
		if a.Min > 0 && a.Max > 0 && !math.IsInf(a.Max, 0) && !math.IsNaN(a.Min) {
			if a.Min == a.Max {
				// One value: gonum/plot widens a flat range by ±1, which
				// can reach 0 on a log axis; widen by a factor instead.
				a.Min, a.Max = a.Min/2, a.Max*2
			}
			return false
		}
		a.Scale = plot.LinearScale{}
		a.Tick.Marker = plot.DefaultTicks{}
		return true
	}
	fx, fy := fix(&p.X), fix(&p.Y)
	if fx || fy {
		p.Title.Text += " (no positive values: linear axis)"
	}
}
