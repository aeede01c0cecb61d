package report

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgimg"
)

// ImageGrid is a labelled grid of grey-scale images, the form of the
// denoising figures: one row per input (or per noise level), one column per
// method, a row label on the left and a column title on top.
//
// Each image is Width×Height pixels stored row-major (the first Width values
// are the top row). Pixels map linearly from [lo, hi] to black..white, where
// lo and hi are the common range Lo, Hi when Lo < Hi, and otherwise the
// image's own finite minimum and maximum (a constant image is mid grey).
// Non-finite pixels are drawn red so that a failed estimate is visible.
//
// Labels may hold subscripts written as in TeX ("P_t", "α_i", "x_{10}"),
// drawn smaller and lowered; glyphs are placed by their measured advances
// without kerning, so that no label overlaps itself at small sizes.
//
// [ImageGrid.Save] writes base+".png", each pixel upscaled to Scale×Scale
// screen pixels by nearest-neighbour replication with labels drawn in
// Liberation Sans (embedded by gonum/plot, no system font needed), and
// base+".svg", a hand-written SVG with the same layout in which every image
// is an embedded PNG at its native size drawn with pixelated rendering and
// every label is text.
//
// An image whose length is not Width×Height, a RowLabels list whose length
// is neither zero nor the number of rows, or a ColLabels list shorter than
// the longest row of images (but not empty) are programmer errors and make
// the methods panic. Extra column labels head blank columns.
type ImageGrid struct {
	Width, Height int           // size of every image in pixels
	Images        [][][]float64 // Images[row][col]; nil entries and missing columns are left blank
	RowLabels     []string      // optional, one per row
	ColLabels     []string      // optional, one per column
	Title         string        // optional, centred above the grid
	// Caption, when set, is embedded in both files (see [Caption]).
	Caption Caption
	// Notes, when set, are short texts centred under the images,
	// Notes[row][col] (a de-noised image's errors, say), in a smaller
	// size; missing or empty entries leave none. Any note adds a line
	// under every row of images.
	Notes [][]string
	// Marks are lines drawn over images, such as the pixel row and
	// column whose intensities a profile plots.
	Marks []GridMark

	// Lo and Hi give a common grey range for all images when Lo < Hi.
	Lo, Hi float64
	// Invert draws lo as white and hi as black (dark ink on paper).
	Invert bool
	// Scale is the nearest-neighbour upscaling factor of the PNG; values
	// below 1 mean 1.
	Scale int
	// FontSize is the label size in pixels; 0 means 12.
	FontSize float64
}

// GridMark is a line over every image of one grid column, through the
// middle of one pixel row (Horizontal) or down the middle of one pixel
// column of the images.
type GridMark struct {
	Col        int  // the grid column whose images are marked
	Horizontal bool // along pixel row At; otherwise down pixel column At
	At         int
	Color      color.RGBA
}

// Grid spacing in output pixels.
const (
	igMargin   = 6 // around the figure
	igGap      = 4 // between images
	igLabelGap = 6 // between a label and the images
)

var nonFiniteColor = color.RGBA{R: 255, A: 255}

// igText is one label: baseline at (X, Y) in pixels from the top left,
// anchored at its start, middle or end.
type igText struct {
	X, Y   float64
	Anchor string // "start", "middle" or "end", as SVG's text-anchor
	Width  float64
	Runs   []textRun
	Faces  richFaces
}

// igLayout is the pixel geometry shared by the PNG and SVG renderings.
type igLayout struct {
	W, H         int
	rows, cols   int
	cellW, cellH int // size of one upscaled image
	noteH        int // height of the note line under each row, or 0
	colW         int // column pitch minus igGap; >= cellW when titles are wide
	x0, y0       int // top left of the first image slot
	texts        []igText
}

func (g *ImageGrid) scale() int { return max(g.Scale, 1) }

func (g *ImageGrid) fontSize() float64 {
	if g.FontSize > 0 {
		return g.FontSize
	}
	return 12
}

// check panics on programmer errors and returns the grid shape.
func (g *ImageGrid) check() (rows, cols int) {
	if g.Width <= 0 || g.Height <= 0 {
		panic(fmt.Sprintf("report: ImageGrid size %d×%d", g.Width, g.Height))
	}
	rows = len(g.Images)
	for i, r := range g.Images {
		cols = max(cols, len(r))
		for j, im := range r {
			if im != nil && len(im) != g.Width*g.Height {
				panic(fmt.Sprintf("report: ImageGrid image [%d][%d] has %d pixels, want %d×%d", i, j, len(im), g.Width, g.Height))
			}
		}
	}
	if len(g.ColLabels) != 0 && len(g.ColLabels) < cols {
		panic(fmt.Sprintf("report: ImageGrid has %d column labels for %d columns", len(g.ColLabels), cols))
	}
	cols = max(cols, len(g.ColLabels)) // extra labels head blank columns
	if len(g.RowLabels) != 0 && len(g.RowLabels) != rows {
		panic(fmt.Sprintf("report: ImageGrid has %d row labels for %d rows", len(g.RowLabels), rows))
	}
	if rows == 0 || cols == 0 {
		panic("report: ImageGrid with no images")
	}
	return rows, cols
}

func (g *ImageGrid) layout() igLayout {
	rows, cols := g.check()
	// At 72 DPI one point is one pixel, so font lengths are pixel lengths.
	faces := newRichFaces(g.fontSize())
	ext := faces.main.Extents()
	ascent, lineH := float64(ext.Ascent), float64(ext.Height)
	width := func(s string) float64 { return faces.width(parseRich(s)) }
	text := func(x, y float64, anchor, s string) igText {
		runs := parseRich(s)
		return igText{X: x, Y: y, Anchor: anchor, Width: faces.width(runs), Runs: runs, Faces: faces}
	}

	l := igLayout{rows: rows, cols: cols}
	l.cellW, l.cellH = g.Width*g.scale(), g.Height*g.scale()
	noteFaces := newRichFaces(math.Round(0.85 * g.fontSize()))
	g.columns(&l, width, noteFaces)
	labelW := 0
	for _, s := range g.RowLabels {
		labelW = max(labelW, int(math.Ceil(width(s))))
	}
	l.x0 = igMargin
	if labelW > 0 {
		l.x0 += labelW + igLabelGap
	}
	gridW := cols*l.colW + (cols-1)*igGap
	l.W = l.x0 + gridW + igMargin

	y := float64(igMargin)
	if g.Title != "" {
		// Centred over the images unless that would push it off the left
		// edge; the figure widens if the title is wider than the grid.
		titleW := width(g.Title)
		cx := max(float64(l.x0)+float64(gridW)/2, igMargin+titleW/2)
		l.W = max(l.W, int(math.Ceil(cx+titleW/2))+igMargin)
		l.texts = append(l.texts, text(cx, y+ascent, "middle", g.Title))
		y += lineH + igLabelGap/2
	}
	if len(g.ColLabels) > 0 {
		for j, s := range g.ColLabels {
			cx := float64(l.x0+j*(l.colW+igGap)) + float64(l.colW)/2
			l.texts = append(l.texts, text(cx, y+ascent, "middle", s))
		}
		y += lineH + igLabelGap/2
	}
	l.y0 = int(math.Ceil(y))
	l.H = l.y0 + rows*(l.cellH+l.noteH) + (rows-1)*igGap + igMargin
	// Centre each row label on its row of images: the baseline sits half
	// the ascent-minus-descent below the images' middle.
	mid := (float64(ext.Ascent) - float64(ext.Descent)) / 2
	for i, s := range g.RowLabels {
		cy := float64(l.y0+i*(l.cellH+l.noteH+igGap)) + float64(l.cellH)/2
		l.texts = append(l.texts, text(float64(l.x0-igLabelGap), cy+mid, "end", s))
	}
	g.noteTexts(&l, noteFaces)
	return l
}

// columns sets the column width, the image's unless a column label or a
// note is wider, and the height of a row of notes (0 without notes).
func (g *ImageGrid) columns(l *igLayout, width func(string) float64, noteFaces richFaces) {
	l.colW = l.cellW
	for _, s := range g.ColLabels {
		// A label wider than its image keeps a label gap from the next.
		if w := int(math.Ceil(width(s))); w > l.colW {
			l.colW = w + igLabelGap
		}
	}
	noteExt := noteFaces.main.Extents()
	for _, r := range g.Notes {
		for _, s := range r {
			if s == "" {
				continue
			}
			l.noteH = int(math.Ceil(float64(noteExt.Height))) + 1
			if w := int(math.Ceil(noteFaces.width(parseRich(s)))); w > l.colW {
				l.colW = w + igLabelGap
			}
		}
	}
}

// noteTexts places the notes under their images, centred on the column.
func (g *ImageGrid) noteTexts(l *igLayout, noteFaces richFaces) {
	noteExt := noteFaces.main.Extents()
	for i, r := range g.Notes {
		for j, s := range r {
			if s == "" || i >= l.rows || j >= l.cols {
				continue
			}
			runs := parseRich(s)
			cx := float64(l.x0+j*(l.colW+igGap)) + float64(l.colW)/2
			y := float64(l.y0+i*(l.cellH+l.noteH+igGap)+l.cellH+1) + float64(noteExt.Ascent)
			l.texts = append(l.texts, igText{X: cx, Y: y, Anchor: "middle", Width: noteFaces.width(runs), Runs: runs, Faces: noteFaces})
		}
	}
}

// cellOrigin returns the top-left pixel of image (i, j).
func (l *igLayout) cellOrigin(i, j int) (x, y int) {
	x = l.x0 + j*(l.colW+igGap) + (l.colW-l.cellW)/2
	y = l.y0 + i*(l.cellH+l.noteH+igGap)
	return x, y
}

// markRects returns the rectangles, in pixels from the top left, that the
// marks cover: a line max(1, Scale/2) pixels wide through the middle of
// the marked pixel row or column of every image of the marked column.
func (g *ImageGrid) markRects(l *igLayout) []markRect {
	s := g.scale()
	t := max(1, s/2)
	var rs []markRect
	for _, m := range g.Marks {
		for i, row := range g.Images {
			if m.Col < 0 || m.Col >= len(row) || row[m.Col] == nil {
				continue
			}
			x0, y0 := l.cellOrigin(i, m.Col)
			r := markRect{Color: m.Color}
			if m.Horizontal {
				r.X, r.Y, r.W, r.H = x0, y0+m.At*s+(s-t)/2, l.cellW, t
			} else {
				r.X, r.Y, r.W, r.H = x0+m.At*s+(s-t)/2, y0, t, l.cellH
			}
			rs = append(rs, r)
		}
	}
	return rs
}

type markRect struct {
	X, Y, W, H int
	Color      color.RGBA
}

// greyRange returns the range im is scaled from.
func (g *ImageGrid) greyRange(im []float64) (lo, hi float64) {
	if g.Lo < g.Hi {
		return g.Lo, g.Hi
	}
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range im {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	return lo, hi
}

// pixel maps v to its colour given the range [lo, hi].
func (g *ImageGrid) pixel(v, lo, hi float64) color.RGBA {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nonFiniteColor
	}
	t := 0.5
	if hi > lo {
		t = (v - lo) / (hi - lo)
	}
	t = min(max(t, 0), 1)
	if g.Invert {
		t = 1 - t
	}
	y := uint8(math.Round(255 * t))
	return color.RGBA{R: y, G: y, B: y, A: 255}
}

// RenderPNG writes the grid as a PNG image; see [ImageGrid].
func (g *ImageGrid) RenderPNG(w io.Writer) error {
	l := g.layout()
	c := vgimg.NewWith(vgimg.UseWH(vg.Length(l.W), vg.Length(l.H)), vgimg.UseDPI(72))
	for _, t := range l.texts {
		x := t.X
		switch t.Anchor {
		case "middle":
			x -= t.Width / 2
		case "end":
			x -= t.Width
		}
		// vg's origin is the bottom left.
		t.Faces.fill(c, t.Runs, x, float64(l.H)-t.Y)
	}
	img, ok := c.Image().(*image.RGBA)
	if !ok {
		return fmt.Errorf("report: unexpected canvas image type %T", c.Image())
	}
	s := g.scale()
	for i, row := range g.Images {
		for j, im := range row {
			if im == nil {
				continue
			}
			lo, hi := g.greyRange(im)
			x0, y0 := l.cellOrigin(i, j)
			for py := range g.Height {
				for px := range g.Width {
					col := g.pixel(im[py*g.Width+px], lo, hi)
					for dy := range s {
						for dx := range s {
							img.SetRGBA(x0+px*s+dx, y0+py*s+dy, col)
						}
					}
				}
			}
		}
	}
	for _, r := range g.markRects(&l) {
		for y := r.Y; y < r.Y+r.H; y++ {
			for x := r.X; x < r.X+r.W; x++ {
				img.SetRGBA(x, y, r.Color)
			}
		}
	}
	return png.Encode(w, img)
}

// nativePNG encodes im at its native size: grey-scale when every pixel is
// finite, RGBA otherwise.
func (g *ImageGrid) nativePNG(im []float64) ([]byte, error) {
	lo, hi := g.greyRange(im)
	r := image.Rect(0, 0, g.Width, g.Height)
	var img image.Image
	finite := true
	for _, v := range im {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			finite = false
			break
		}
	}
	if finite {
		gi := image.NewGray(r)
		for k, v := range im {
			gi.Pix[k] = g.pixel(v, lo, hi).R
		}
		img = gi
	} else {
		ri := image.NewRGBA(r)
		for k, v := range im {
			ri.SetRGBA(k%g.Width, k/g.Width, g.pixel(v, lo, hi))
		}
		img = ri
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// RenderSVG writes the grid as SVG; see [ImageGrid].
func (g *ImageGrid) RenderSVG(w io.Writer) error {
	l := g.layout()
	var b strings.Builder
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="%d" height="%d" viewBox="0 0 %d %d">
`, l.W, l.H, l.W, l.H)
	if c := g.Caption.String(); c != "" {
		fmt.Fprintf(&b, "<desc>%s</desc>\n", html.EscapeString(c))
	}
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="#ffffff"/>
<g font-family="Liberation Sans, Arial, Helvetica, sans-serif" font-size="%s" fill="#000000" style="font-kerning:none">
`, f(g.fontSize()))
	for _, t := range l.texts {
		if t.Faces.size != g.fontSize() {
			fmt.Fprintf(&b, `<g font-size="%s">`, f(t.Faces.size))
			t.Faces.svgText(&b, t.Runs, t.X, t.Y, t.Anchor)
			b.WriteString("</g>\n")
			continue
		}
		t.Faces.svgText(&b, t.Runs, t.X, t.Y, t.Anchor)
	}
	b.WriteString("</g>\n")
	for i, row := range g.Images {
		for j, im := range row {
			if im == nil {
				continue
			}
			p, err := g.nativePNG(im)
			if err != nil {
				return fmt.Errorf("report: image [%d][%d]: %w", i, j, err)
			}
			x, y := l.cellOrigin(i, j)
			fmt.Fprintf(&b, `<image x="%d" y="%d" width="%d" height="%d" preserveAspectRatio="none" image-rendering="optimizeSpeed" style="image-rendering:pixelated" xlink:href="data:image/png;base64,%s"/>`+"\n",
				x, y, l.cellW, l.cellH, base64.StdEncoding.EncodeToString(p))
		}
	}
	for _, r := range g.markRects(&l) {
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="#%02x%02x%02x"/>`+"\n", r.X, r.Y, r.W, r.H, r.Color.R, r.Color.G, r.Color.B)
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// Save writes the grid to base+".png" and base+".svg", atomically, and
// returns the two file names (base plus extension, in that order).
func (g *ImageGrid) Save(base string) ([]string, error) {
	var pb, sb bytes.Buffer
	if err := g.RenderPNG(&pb); err != nil {
		return nil, fmt.Errorf("report: %s.png: %w", base, err)
	}
	if err := g.RenderSVG(&sb); err != nil {
		return nil, fmt.Errorf("report: %s.svg: %w", base, err)
	}
	p := pb.Bytes()
	if c := g.Caption.String(); c != "" {
		var err error
		if p, err = pngWithText(p, pngCaptionKeyword, c); err != nil {
			return nil, err
		}
	}
	// The notes under the images are the smallest text (noteFaces).
	p, err := withTextPx(p, math.Round(0.85*g.fontSize()))
	if err != nil {
		return nil, err
	}
	return writePair(base, p, sb.Bytes())
}
