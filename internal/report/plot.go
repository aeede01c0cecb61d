package report

import (
	"bytes"
	"fmt"

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
		panic("report: SavePlot of nil plot")
	}
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
		panic("report: SaveGrid with no panels")
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
	pngBytes, svgBytes, err := renderFigure(w, h, drawFn)
	if err != nil {
		return nil, fmt.Errorf("report: %s: %w", base, err)
	}
	names := []string{base + ".png", base + ".svg"}
	if err := WriteFileAtomic(names[0], pngBytes); err != nil {
		return nil, err
	}
	if err := WriteFileAtomic(names[1], svgBytes); err != nil {
		return nil, err
	}
	return names, nil
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
