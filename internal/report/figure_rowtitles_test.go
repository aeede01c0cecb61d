package report

import (
	"bytes"
	"image"
	"image/png"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// rowsFigure is two rows of one empty panel each, titled by rows.
func rowsFigure(rows ...string) *Figure {
	f := &Figure{PanelW: 4 * vg.Centimeter, PanelH: 3 * vg.Centimeter, RowTitles: rows}
	f.Panels = [][]*plot.Plot{{NewPanel("")}, {NewPanel("")}}
	return f
}

// TestFigureRowTitlesLayout checks the strip the row titles take: one
// font height per line of the most wrapped title plus the legend's pad,
// added to the figure's width and nothing else; each title wrapped to the
// panel's height at spaces, its words kept in order.
func TestFigureRowTitlesLayout(t *testing.T) {
	const long = "denoised by kernel PCA with twenty components and a Gaussian kernel of width eight"
	plain := rowsFigure().layout()
	l := rowsFigure("noisy", long).layout()

	ts := rowTitleStyle()
	if len(l.rowTitles) != 2 || len(l.rowTitles[0]) != 1 || l.rowTitles[0][0] != "noisy" {
		t.Fatalf("row titles wrapped as %q, want the short one on one line", l.rowTitles)
	}
	lines := l.rowTitles[1]
	if len(lines) < 2 {
		t.Fatalf("the long title (%v wide) kept on %d line for a panel %v high", ts.Width(long), len(lines), rowsFigure().PanelH)
	}
	if got := strings.Join(lines, " "); got != long {
		t.Errorf("wrapped lines joined give %q, want %q", got, long)
	}
	for _, s := range lines {
		if w := ts.Width(s); w > 3*vg.Centimeter {
			t.Errorf("line %q is %v wide, more than the panel's height", s, w)
		}
	}
	if want := vg.Length(len(lines))*ts.FontExtents().Height + legendPad; l.rowTitleW != want {
		t.Errorf("title strip %v wide, want %d lines of %v plus %v = %v", l.rowTitleW, len(lines), ts.FontExtents().Height, legendPad, want)
	}
	// 1e-9 points: the widths are sums of float64 lengths.
	if math.Abs(float64(l.W-plain.W-l.rowTitleW)) > 1e-9 || l.H != plain.H || l.panelsW != plain.panelsW {
		t.Errorf("with titles %v×%v (panels %v wide), without %v×%v (%v): want only the width to grow, by %v",
			l.W, l.H, l.panelsW, plain.W, plain.H, plain.panelsW, l.rowTitleW)
	}
	if plain.rowTitleW != 0 || plain.rowTitles != nil {
		t.Errorf("without titles: strip %v, titles %q; want none", plain.rowTitleW, plain.rowTitles)
	}
}

// TestFigureRowTitlesDrawn checks where the titles land in the PNG: in
// the strip left of the panels, within each row's height, written up the
// page (the ink of a one-word title taller than wide).
func TestFigureRowTitlesDrawn(t *testing.T) {
	f := rowsFigure("noisy", "denoised")
	p, _, err := f.Render()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(p))
	if err != nil {
		t.Fatal(err)
	}
	l := f.layout()
	px := func(v vg.Length) int { return int(float64(v) * DPI / 72) }
	stripX0, stripX1 := px(figureMargin), px(figureMargin+l.rowTitleW)
	for i := range 2 {
		top := px(figureMargin + vg.Length(i)*(f.PanelH+gridPadGap))
		bot := px(figureMargin + vg.Length(i)*(f.PanelH+gridPadGap) + f.PanelH)
		ink := image.Rectangle{Min: image.Pt(1<<30, 1<<30)}
		for y := top; y < bot; y++ {
			for x := stripX0; x < stripX1; x++ {
				if r, g, b, _ := img.At(x, y).RGBA(); r+g+b < 3*0x8000 {
					ink = ink.Union(image.Rect(x, y, x+1, y+1))
				}
			}
		}
		if ink.Empty() || ink.Min.X > stripX1 {
			t.Errorf("row %d: no ink in the title strip x ∈ [%d, %d), y ∈ [%d, %d)", i, stripX0, stripX1, top, bot)
			continue
		}
		if ink.Dy() <= ink.Dx() {
			t.Errorf("row %d: the title's ink %v is %d×%d, want it written upwards (taller than wide)", i, ink, ink.Dx(), ink.Dy())
		}
		// Centred on the row: its middle within a tenth of the row's height.
		if mid, want := (ink.Min.Y+ink.Max.Y)/2, (top+bot)/2; abs(mid-want) > (bot-top)/10 {
			t.Errorf("row %d: the title's middle at y = %d, the row's at %d", i, mid, want)
		}
	}
	// Without titles, the strip's pixels belong to the panels: the page
	// starts with them at the margin.
	if p2, _, err := rowsFigure().Render(); err != nil || bytes.Equal(p, p2) {
		t.Errorf("rendering without titles gave the same bytes (%v)", err)
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
