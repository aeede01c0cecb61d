package report

import (
	"fmt"
	"image/color"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Caption ties a figure to the paper it regenerates. Its String form is
// embedded in the PNG and SVG files, where the HTML page of the run reads
// it back and shows it under the figure ([ReadCaption]); it is not drawn
// in the image, so that a page shows it once, in type that does not
// shrink with a wide figure.
type Caption struct {
	// Figure names the paper and the figure regenerated, e.g.
	// "Abrahamsen & Hansen (2011) Fig. 3".
	Figure string
	// Shows says what is drawn, e.g. "pre-images of x0 from every
	// training point, coloured by the ring the start lies on".
	Shows string
	// Reading is how this run reads the paper where the paper is open to
	// more than one reading, e.g. "noise variance 0.25"; "" for none.
	Reading string
	// Source names where the run and the paper's values come from, e.g.
	// "config abrahamsen-hansen-fig3; paper values
	// abrahamsen-hansen-regularized-preimage".
	Source string
}

// String joins the parts present into sentences.
func (c Caption) String() string {
	var parts []string
	add := func(s string) {
		s = strings.TrimSpace(s)
		if s == "" {
			return
		}
		if !strings.HasSuffix(s, ".") {
			s += "."
		}
		r, n := utf8.DecodeRuneInString(s)
		parts = append(parts, string(unicode.ToUpper(r))+s[n:])
	}
	add(c.Figure)
	add(c.Shows)
	if c.Reading != "" {
		add("Reading: " + c.Reading)
	}
	add(c.Source)
	return strings.Join(parts, " ")
}

// LegendPlacement says where a [Figure] draws its legend.
type LegendPlacement int

const (
	// LegendRight stacks the entries in one column right of the panels.
	LegendRight LegendPlacement = iota
	// LegendBelow lays the entries out in rows under the panels, as many
	// to a row as fit the figure's width.
	LegendBelow
)

// Legend is the one legend of a [Figure], drawn outside every panel so
// that it never covers data.
type Legend struct {
	entries []legendEntry
}

type legendEntry struct {
	label  string
	thumbs []plot.Thumbnailer
}

// Add appends an entry: label beside the thumbnails drawn on top of each
// other (a line and its points, say).
func (l *Legend) Add(label string, thumbs ...plot.Thumbnailer) {
	l.entries = append(l.entries, legendEntry{label: label, thumbs: thumbs})
}

// Len returns the number of entries.
func (l *Legend) Len() int { return len(l.entries) }

// Figure is a grid of panels with one legend outside the data, in the
// house style, and a caption embedded in its files. Panels are laid out as
// by [SaveGrid]: aligned data areas, nil entries blank.
type Figure struct {
	Panels         [][]*plot.Plot
	PanelW, PanelH vg.Length
	// RowTitles, when set, head the rows of small multiples: one per row,
	// written up the left edge of the row (wrapped to the panel height),
	// so that each panel's own title can stay short.
	RowTitles []string
	Legend    Legend
	Placement LegendPlacement
	Caption   Caption
}

// Figure geometry.
var (
	legendThumbW = vg.Points(18)
	legendGap    = vg.Points(4) // between a thumbnail and its label, and between entries in a row
	legendPad    = vg.Points(6) // between the panels and the legend
	legendLead   = 1.35         // line height of the legend in font heights
	figureMargin = gridPadEdge  // around everything
)

func (f *Figure) grid() (rows, cols int) {
	rows = len(f.Panels)
	for _, r := range f.Panels {
		cols = max(cols, len(r))
	}
	return rows, cols
}

// legendStyle is the text style of legend entries.
func legendStyle() text.Style {
	return text.Style{Font: withSize(SansFont, LegendSize), Handler: plot.DefaultTextHandler, Color: color.Black}
}

func rowTitleStyle() text.Style {
	return text.Style{Font: withSize(SansFont, TitleSize), Handler: plot.DefaultTextHandler, Color: color.Black,
		Rotation: math.Pi / 2, XAlign: text.XCenter, YAlign: text.YTop}
}

// entryW returns the width of one legend entry: thumbnail, gap, label.
func entryW(sty text.Style, e legendEntry) vg.Length {
	return legendThumbW + legendGap + sty.Width(e.label)
}

// legendRows splits the entries into rows no wider than w (one column
// when placed right).
func (f *Figure) legendRows(w vg.Length) [][]legendEntry {
	sty := legendStyle()
	var rows [][]legendEntry
	var cur []legendEntry
	var curW vg.Length
	for _, e := range f.Legend.entries {
		ew := entryW(sty, e)
		if f.Placement == LegendRight || (len(cur) > 0 && curW+2*legendGap+ew > w) {
			if len(cur) > 0 {
				rows = append(rows, cur)
			}
			cur, curW = nil, 0
		}
		if len(cur) > 0 {
			curW += 2 * legendGap
		}
		cur = append(cur, e)
		curW += ew
	}
	if len(cur) > 0 {
		rows = append(rows, cur)
	}
	return rows
}

// wrapWidth splits s into lines no wider than w as measured by width, at
// spaces; a word wider than w has a line of its own.
func wrapWidth(s string, w float64, width func(string) float64) []string {
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		words := strings.Fields(para)
		line := ""
		for _, wd := range words {
			try := wd
			if line != "" {
				try = line + " " + wd
			}
			if line != "" && width(try) > w {
				lines = append(lines, line)
				line = wd
				continue
			}
			line = try
		}
		if line != "" {
			lines = append(lines, line)
		}
	}
	return lines
}

// figureLayout is the geometry of a Figure.
type figureLayout struct {
	W, H       vg.Length
	panelsW    vg.Length
	panelsH    vg.Length
	legendW    vg.Length // LegendRight: width of the legend column
	legendH    vg.Length // LegendBelow: height of the legend rows
	legendRows [][]legendEntry
	lineH      vg.Length
	rowTitleW  vg.Length  // width of the strip of row titles
	rowTitles  [][]string // wrapped lines of each row title
}

func (f *Figure) layout() figureLayout {
	rows, cols := f.grid()
	if rows == 0 || cols == 0 {
		panic("report: Figure with no panels")
	}
	var l figureLayout
	l.panelsW = vg.Length(cols)*f.PanelW + vg.Length(cols-1)*gridPadGap
	l.panelsH = vg.Length(rows)*f.PanelH + vg.Length(rows-1)*gridPadGap
	sty := legendStyle()
	l.lineH = vg.Length(legendLead) * sty.FontExtents().Height
	if len(f.RowTitles) != 0 && len(f.RowTitles) != rows {
		panic(fmt.Sprintf("report: Figure has %d row titles for %d rows", len(f.RowTitles), rows))
	}
	if len(f.RowTitles) > 0 {
		ts := rowTitleStyle()
		maxLines := 1
		for _, t := range f.RowTitles {
			lines := wrapWidth(t, float64(f.PanelH), func(s string) float64 { return float64(ts.Width(s)) })
			l.rowTitles = append(l.rowTitles, lines)
			maxLines = max(maxLines, len(lines))
		}
		l.rowTitleW = vg.Length(maxLines)*ts.FontExtents().Height + legendPad
	}
	l.W = l.rowTitleW + l.panelsW
	if f.Legend.Len() > 0 {
		l.legendRows = f.legendRows(l.panelsW)
		switch f.Placement {
		case LegendRight:
			for _, e := range f.Legend.entries {
				l.legendW = max(l.legendW, entryW(sty, e))
			}
			l.legendW += legendPad
			l.W += l.legendW
		case LegendBelow:
			l.legendH = legendPad + vg.Length(len(l.legendRows))*l.lineH
		default:
			panic(fmt.Sprintf("report: Figure legend placement %d", f.Placement))
		}
	}
	l.W += 2 * figureMargin
	l.H = 2*figureMargin + max(l.panelsH, l.legendRowsH(f)) + l.legendH
	return l
}

// legendRowsH is the height of a LegendRight column, which may exceed the
// panels' height when the panels are short.
func (l *figureLayout) legendRowsH(f *Figure) vg.Length {
	if f.Placement != LegendRight {
		return 0
	}
	return vg.Length(len(l.legendRows)) * l.lineH
}

// draw renders the figure on c, which must be l.W×l.H.
func (f *Figure) draw(l figureLayout, c draw.Canvas) {
	rows, cols := f.grid()
	grid := make([][]*plot.Plot, rows)
	for i, r := range f.Panels {
		grid[i] = make([]*plot.Plot, cols)
		copy(grid[i], r)
	}
	defer f.wrapTitles(grid)()
	top := c.Max.Y - figureMargin
	left := c.Min.X + figureMargin + l.rowTitleW
	bodyH := max(l.panelsH, l.legendRowsH(f))
	// Panels: vertically centred in the body when the legend is taller.
	pTop := top - (bodyH-l.panelsH)/2
	pc := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
		Min: vg.Point{X: left, Y: pTop - l.panelsH},
		Max: vg.Point{X: left + l.panelsW, Y: pTop},
	}}
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: gridPadGap, PadY: gridPadGap}
	canvases := plot.Align(grid, tiles, pc)
	if len(l.rowTitles) > 0 {
		ts := rowTitleStyle()
		for i, lines := range l.rowTitles {
			// Centred on the row's panels, read bottom to top.
			cy := pTop - vg.Length(i)*(f.PanelH+gridPadGap) - f.PanelH/2
			c.FillText(ts, vg.Point{X: c.Min.X + figureMargin, Y: cy}, strings.Join(lines, "\n"))
		}
	}
	drawPanels(c, grid, canvases)
	f.drawLegend(l, c, left, top, bodyH)
}

// wrapTitles wraps the panel titles wider than a panel to it for the
// drawing, so that neighbouring titles never run into each other, and
// returns what puts them back.
func (f *Figure) wrapTitles(grid [][]*plot.Plot) (restore func()) {
	var undo []func()
	for _, r := range grid {
		for _, p := range r {
			if p == nil || p.Title.Text == "" {
				continue
			}
			title, ts := p.Title.Text, p.Title.TextStyle
			lines := wrapWidth(title, float64(f.PanelW), func(s string) float64 { return float64(ts.Width(s)) })
			p.Title.Text = strings.Join(lines, "\n")
			undo = append(undo, func() { p.Title.Text = title })
		}
	}
	return func() {
		// In reverse, as the defers they replace ran.
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
}

// drawPanels draws the panels of grid into canvases, then their titles:
// after every panel, since a panel's white background would otherwise
// cover the end of its left neighbour's title.
func drawPanels(c draw.Canvas, grid [][]*plot.Plot, canvases [][]draw.Canvas) {
	var titles []func()
	for i := range grid {
		// Panel titles are drawn by the figure, on one line per row and
		// centred over the data: gonum/plot centres a title over the whole
		// panel, y-axis labels included, and Align shifts panels whose
		// tick labels overhang, so titles of one row would not line up.
		rowTop := vg.Length(math.Inf(-1))
		for j, p := range grid[i] {
			if p != nil && p.Title.Text != "" {
				rowTop = max(rowTop, canvases[i][j].Max.Y)
			}
		}
		for j, p := range grid[i] {
			if p == nil {
				continue
			}
			if p.Title.Text == "" {
				p.Draw(canvases[i][j])
				continue
			}
			// Keep the title's room in the layout, but draw it ourselves.
			ts := p.Title.TextStyle
			p.Title.TextStyle.Color = color.Transparent
			p.Draw(canvases[i][j])
			p.Title.TextStyle = ts
			ts.XAlign, ts.YAlign = text.XCenter, text.YTop
			dc := p.DataCanvas(canvases[i][j])
			pt := vg.Point{X: dc.Center().X, Y: rowTop + ts.FontExtents().Descent}
			txt := p.Title.Text
			titles = append(titles, func() { c.FillText(ts, pt, txt) })
		}
	}
	for _, t := range titles {
		t()
	}
}

// drawLegend draws the legend right of the panels or below them.
func (f *Figure) drawLegend(l figureLayout, c draw.Canvas, left, top, bodyH vg.Length) {
	sty := legendStyle()
	ext := sty.FontExtents()
	drawEntry := func(x, yTop vg.Length, e legendEntry) {
		// The thumbnail's box spans the text's ascent, centred on it.
		base := yTop - (l.lineH-ext.Ascent+ext.Descent)/2 - ext.Ascent + ext.Descent
		box := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: x, Y: base},
			Max: vg.Point{X: x + legendThumbW, Y: base + ext.Ascent - ext.Descent},
		}}
		for _, t := range e.thumbs {
			t.Thumbnail(&box)
		}
		c.FillText(sty, vg.Point{X: x + legendThumbW + legendGap, Y: base}, e.label)
	}
	switch {
	case f.Legend.Len() == 0:
	case f.Placement == LegendRight:
		x := left + l.panelsW + legendPad
		// Centred on the panels' height.
		y := top - (bodyH-vg.Length(len(l.legendRows))*l.lineH)/2
		for _, r := range l.legendRows {
			drawEntry(x, y, r[0])
			y -= l.lineH
		}
	default:
		y := top - bodyH - legendPad
		for _, r := range l.legendRows {
			var rw vg.Length
			for k, e := range r {
				if k > 0 {
					rw += 2 * legendGap
				}
				rw += entryW(sty, e)
			}
			x := left + (l.panelsW-rw)/2
			for _, e := range r {
				drawEntry(x, y, e)
				x += entryW(sty, e) + 2*legendGap
			}
			y -= l.lineH
		}
	}
}

// Render returns the PNG and SVG encodings of the figure, the caption
// embedded in both as metadata.
func (f *Figure) Render() (pngBytes, svgBytes []byte, err error) {
	for _, r := range f.Panels {
		for _, p := range r {
			if p != nil {
				guardAxes(p)
			}
		}
	}
	l := f.layout()
	pngBytes, svgBytes, err = renderFigure(l.W, l.H, func(c draw.Canvas) { f.draw(l, c) })
	if err != nil {
		return nil, nil, err
	}
	pngBytes, svgBytes, err = embedCaption(pngBytes, svgBytes, f.Caption.String())
	if err != nil {
		return nil, nil, err
	}
	// The tick labels and legend entries are the smallest text.
	pngBytes, err = withTextPx(pngBytes, float64(min(TickSize, LegendSize)/vg.Inch)*DPI)
	return pngBytes, svgBytes, err
}

// Save writes base+".png" and base+".svg" atomically and returns the two
// file names (base plus extension, in that order).
func (f *Figure) Save(base string) ([]string, error) {
	pngBytes, svgBytes, err := f.Render()
	if err != nil {
		return nil, fmt.Errorf("report: %s: %w", base, err)
	}
	return writePair(base, pngBytes, svgBytes)
}

// writePair writes base.png and base.svg atomically.
func writePair(base string, pngBytes, svgBytes []byte) ([]string, error) {
	names := []string{base + ".png", base + ".svg"}
	if err := WriteFileAtomic(names[0], pngBytes); err != nil {
		return nil, err
	}
	if err := WriteFileAtomic(names[1], svgBytes); err != nil {
		return nil, err
	}
	return names, nil
}
