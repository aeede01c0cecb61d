package report

import (
	"fmt"
	"html"
	"strconv"
	"strings"
	"unicode"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
)

// Labels of image grids may carry subscripts, written as in TeX: "P_t",
// "α_i" or "x_{10}". Liberation Sans has no glyph for most Unicode
// subscript letters (no ₜ, no ₚ), so a subscript is drawn as a smaller run
// lowered below the baseline. A bare "_" subscripts the one letter or
// digit after it only as in a formula: after a one-letter base ("P_t",
// "α_i", "(x_0)") and before no other letter, digit or "_". Identifiers keep
// their underscores, whatever follows: "lasso_gps", "mse_raw_median",
// "fig6_a", "table1_b", "a_b_c", a config named "zheng-lai-table1_clip". "_{…}"
// subscripts anything. Figure captions and grid labels and captions all
// read "_" this way.

// Subscripts are subScale of the label size, lowered by subShift of it.
const (
	subScale = 0.7
	subShift = 0.22
)

// textRun is a piece of a label drawn at one size and baseline.
type textRun struct {
	S   string
	Sub bool
}

// parseRich splits a label into runs.
func parseRich(s string) []textRun {
	var runs []textRun
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			runs = append(runs, textRun{S: b.String()})
			b.Reset()
		}
	}
	rs := []rune(s)
	isAlnum := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	// oneLetterBase reports whether the "_" at i follows a word of one
	// letter: a letter not itself preceded by a letter, digit or "_".
	oneLetterBase := func(i int) bool {
		return i >= 1 && unicode.IsLetter(rs[i-1]) && (i < 2 || !isAlnum(rs[i-2]) && rs[i-2] != '_')
	}
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if r != '_' || i+1 >= len(rs) {
			b.WriteRune(r)
			continue
		}
		if rs[i+1] == '{' {
			if end := indexRune(rs[i+2:], '}'); end >= 0 {
				flush()
				runs = append(runs, textRun{S: string(rs[i+2 : i+2+end]), Sub: true})
				i += 2 + end
				continue
			}
		}
		if oneLetterBase(i) && isAlnum(rs[i+1]) && (i+2 >= len(rs) || !isAlnum(rs[i+2]) && rs[i+2] != '_') {
			flush()
			runs = append(runs, textRun{S: string(rs[i+1]), Sub: true})
			i++
			continue
		}
		b.WriteRune(r)
	}
	flush()
	return runs
}

func indexRune(rs []rune, r rune) int {
	for i, x := range rs {
		if x == r {
			return i
		}
	}
	return -1
}

// richFaces are the faces of a label size.
type richFaces struct {
	size      float64
	main, sub font.Face
}

func newRichFaces(size float64) richFaces {
	return richFaces{
		size: size,
		main: font.DefaultCache.Lookup(SansFont, font.Length(size)),
		sub:  font.DefaultCache.Lookup(SansFont, font.Length(size*subScale)),
	}
}

func (f richFaces) face(r textRun) font.Face {
	if r.Sub {
		return f.sub
	}
	return f.main
}

// advance returns the width of one rune: glyphs are placed one by one by
// their advance, without kerning. Liberation Sans kerns pairs such as
// "-T" and "Ts" so tightly that at the 12-pixel size of grid labels the
// glyphs touch ("Kwok-Tsang"); unkerned text never overlaps itself.
func (f richFaces) advance(face font.Face, r rune) float64 {
	return float64(face.Width(string(r)))
}

// width returns the width of a label in pixels (at 72 DPI a point is a
// pixel).
func (f richFaces) width(runs []textRun) float64 {
	var w float64
	for _, r := range runs {
		face := f.face(r)
		for _, c := range r.S {
			w += f.advance(face, c)
		}
	}
	return w
}

// fill draws runs with their left end at x and baseline at y, in vg
// coordinates (origin bottom left).
func (f richFaces) fill(c interface {
	FillString(font.Face, vg.Point, string)
}, runs []textRun, x, y float64) {
	for _, r := range runs {
		face := f.face(r)
		by := y
		if r.Sub {
			by -= subShift * f.size
		}
		for _, ch := range r.S {
			c.FillString(face, vg.Point{X: vg.Length(x), Y: vg.Length(by)}, string(ch))
			x += f.advance(face, ch)
		}
	}
}

// svgText writes a <text> element for runs: subscripts as <tspan>s with a
// smaller size and a baseline shift, kerning off as in the PNG.
func (f richFaces) svgText(b *strings.Builder, runs []textRun, x, y float64, anchor string) {
	ff := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="%s">`, ff(x), ff(y), anchor)
	shift := subShift * f.size
	down := false
	for _, r := range runs {
		switch {
		case r.Sub && !down:
			fmt.Fprintf(b, `<tspan dy="%s" font-size="%s">%s</tspan>`, ff(shift), ff(f.size*subScale), html.EscapeString(r.S))
			down = true
		case r.Sub:
			fmt.Fprintf(b, `<tspan font-size="%s">%s</tspan>`, ff(f.size*subScale), html.EscapeString(r.S))
		case down:
			fmt.Fprintf(b, `<tspan dy="%s">%s</tspan>`, ff(-shift), html.EscapeString(r.S))
			down = false
		default:
			b.WriteString(html.EscapeString(r.S))
		}
	}
	b.WriteString("</text>\n")
}

// hasSub reports whether runs hold a subscript.
func hasSub(runs []textRun) bool {
	for _, r := range runs {
		if r.Sub {
			return true
		}
	}
	return false
}
