package report

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"reflect"
	"strings"
	"testing"
)

// TestCaptionUnderscores: in a caption, identifiers with underscores (a
// config name, metric names) are drawn with their underscores, and only
// a formula's subscript ("P_t") is drawn as one, in Figure captions as in
// ImageGrid captions (issue 13). A Figure caption line with no subscript
// is drawn as plain text, pixel for pixel as before (the golden figures).
func TestCaptionUnderscores(t *testing.T) {
	c := Caption{Figure: "Test (2024) Fig. 1", Shows: "P_t per fig6_a, metric mse_raw_median and lpkpca_l0.05_k3",
		Source: "config zheng-lai-table1_clip"}
	var subs []string
	for _, ln := range wrapWidth(c.String(), 1e6, captionWidth) {
		for _, r := range parseRich(ln) {
			if r.Sub {
				subs = append(subs, r.S)
			}
		}
	}
	if !reflect.DeepEqual(subs, []string{"t"}) {
		t.Errorf("subscripts %q in %q, want only the t of P_t", subs, c.String())
	}
	// A line with a subscript is measured as drawn: narrower than its
	// plain text, whose "_t" is full size; one without as plain text.
	if w, plain := captionWidth("P_t"), float64(captionStyle().Width("P_t")); !(w < plain) {
		t.Errorf("width of P_t %v, want below the plain %v", w, plain)
	}
	if w, plain := captionWidth("mse_raw_median"), float64(captionStyle().Width("mse_raw_median")); w != plain {
		t.Errorf("width of mse_raw_median %v, want the plain %v", w, plain)
	}

	// The grid's SVG holds the identifiers whole and P's t as a tspan.
	g := goldenGrid()
	g.Caption = c
	var b bytes.Buffer
	if err := g.RenderSVG(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"zheng-lai-table1_clip", "mse_raw_median", "fig6_a", `>t</tspan>`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("grid SVG lacks %q", want)
		}
	}

	// The figure draws P_t's line run by run: its rendering differs from
	// the same caption with the subscript spelt out, and the line without
	// a subscript renders as before.
	// (Pixels are compared: the PNG's text chunk holds the caption as
	// written.)
	render := func(c Caption) []byte {
		f := scatterFigure(LegendRight, [2]color.Color{testBlue, testOrange})
		f.Caption = c
		im, err := png.Decode(bytes.NewReader(renderPNG(t, f)))
		if err != nil {
			t.Fatal(err)
		}
		return im.(*image.RGBA).Pix
	}
	sub := render(Caption{Shows: "P_t"})
	if !bytes.Equal(sub, render(Caption{Shows: "P_{t}"})) {
		t.Error(`"P_t" and "P_{t}" render differently, want one subscript`)
	}
	if bytes.Equal(sub, render(Caption{Shows: "P t"})) {
		t.Error(`"P_t" renders as "P t": no subscript drawn`)
	}
}
