package report

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The house style of every figure: one sans-serif typeface at a few fixed
// sizes, so that the panels of one figure, and the figures of different
// papers, read alike. Liberation Sans is embedded by gonum/plot, so no
// system font is consulted.
var (
	// SansFont is the typeface of every label.
	SansFont = font.Font{Typeface: "Liberation", Variant: "Sans"}

	TitleSize  = vg.Points(10) // panel titles
	LabelSize  = vg.Points(9)  // axis labels
	TickSize   = vg.Points(8)  // tick labels
	LegendSize = vg.Points(8)  // legend entries
)

// NewPanel returns a plot in the house style titled title: sans-serif text
// at the style's sizes. A panel's own legend is left empty: a [Figure]
// draws one legend for all its panels, outside the data.
func NewPanel(title string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = withSize(SansFont, TitleSize)
	p.Title.Padding = vg.Points(4)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = withSize(SansFont, LabelSize)
		a.Tick.Label.Font = withSize(SansFont, TickSize)
	}
	p.Legend.TextStyle.Font = withSize(SansFont, LegendSize)
	return p
}

func withSize(f font.Font, size vg.Length) font.Font {
	f.Size = size
	return f
}

// DataRadius is the radius of the glyphs of data points; ReferenceRadius
// that of reference markers ([ReferenceGlyph]), large enough that the two
// cannot be confused.
var (
	DataRadius      = vg.Points(1.2)
	ReferenceRadius = vg.Points(4)
)

// ReferenceGlyph marks a reference point that is not data (the noisy point
// x0 of a pre-image problem, a class centre): a target of a white disc, a
// filled centre in the glyph's colour and a black ring. Data are drawn as
// small filled dots or crosses, so a reference can never be read as one of
// them, and the white disc keeps it legible over a dense cloud.
type ReferenceGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (ReferenceGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	disc := func(col color.Color, rad vg.Length) {
		draw.CircleGlyph{}.DrawGlyph(c, draw.GlyphStyle{Color: col, Radius: rad}, pt)
	}
	disc(color.White, r)
	disc(sty.Color, 0.6*r)
	c.SetLineStyle(draw.LineStyle{Color: color.Black, Width: r / 4})
	var p vg.Path
	p.Move(vg.Point{X: pt.X + r, Y: pt.Y})
	p.Arc(pt, r, 0, 2*3.141592653589793)
	p.Close()
	c.Stroke(p)
}

// ReferenceStyle is the glyph style of a reference point of colour col.
func ReferenceStyle(col color.Color) draw.GlyphStyle {
	return draw.GlyphStyle{Color: col, Radius: ReferenceRadius, Shape: ReferenceGlyph{}}
}
