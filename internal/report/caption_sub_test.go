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
// config name, metric names) keep their underscores, and only a formula's
// subscript ("P_t") becomes one, as the run page shows it (issue 13).
func TestCaptionUnderscores(t *testing.T) {
	c := Caption{Figure: "Test (2024) Fig. 1", Shows: "P_t per fig6_a, metric mse_raw_median and lpkpca_l0.05_k3",
		Source: "config zheng-lai-table1_clip"}
	var subs []string
	for _, r := range parseRich(c.String()) {
		if r.Sub {
			subs = append(subs, r.S)
		}
	}
	if !reflect.DeepEqual(subs, []string{"t"}) {
		t.Errorf("subscripts %q in %q, want only the t of P_t", subs, c.String())
	}
	var b bytes.Buffer
	if err := htmlTemplates.ExecuteTemplate(&b, "rich", parseRich(c.String())); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"P<sub>t</sub> per fig6_a", "mse_raw_median", "lpkpca_l0.05_k3", "zheng-lai-table1_clip"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("page caption %q lacks %q", b.String(), want)
		}
	}
}

// TestCaptionNotDrawn: a caption travels in the files' metadata and is
// shown by the page, not drawn in the image (issue 26: it was drawn in
// the PNG and repeated under it on the page, and shrank with a wide
// figure). Figures and grids that differ only in their captions have the
// same pixels.
func TestCaptionNotDrawn(t *testing.T) {
	pixels := func(b []byte) []byte {
		im, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		switch im := im.(type) {
		case *image.RGBA:
			return im.Pix
		case *image.NRGBA:
			return im.Pix
		}
		t.Fatalf("unexpected image type %T", im)
		return nil
	}
	figure := func(c Caption) []byte {
		f := scatterFigure(LegendRight, [2]color.Color{testBlue, testOrange})
		f.Caption = c
		return pixels(renderPNG(t, f))
	}
	long := Caption{Figure: "Test (2024) Fig. 1", Shows: strings.Repeat("a long caption that would wrap to many lines ", 8)}
	if !bytes.Equal(figure(Caption{}), figure(long)) {
		t.Error("a Figure's caption changes its pixels: it is drawn")
	}
	grid := func(c Caption) []byte {
		g := goldenGrid()
		g.Caption = c
		var b bytes.Buffer
		if err := g.RenderPNG(&b); err != nil {
			t.Fatal(err)
		}
		return pixels(b.Bytes())
	}
	if !bytes.Equal(grid(Caption{}), grid(long)) {
		t.Error("an ImageGrid's caption changes its pixels: it is drawn")
	}
}
