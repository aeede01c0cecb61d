package report

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"testing"
)

// figurePNG encodes im as the figure writer does, with a caption and a
// smallest-label height of 10 pixels.
func figurePNG(t *testing.T, im image.Image, caption string) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, im); err != nil {
		t.Fatal(err)
	}
	b, err := pngWithText(buf.Bytes(), pngCaptionKeyword, caption)
	if err != nil {
		t.Fatal(err)
	}
	if b, err = withTextPx(b, 10); err != nil {
		t.Fatal(err)
	}
	return b
}

// noise returns a w × h opaque image of uniform random pixels (grey when
// grey is set): a PNG of it does not compress.
func noise(w, h int, grey bool) *image.RGBA {
	rng := rand.New(rand.NewPCG(1, 2))
	im := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(im.Pix); i += 4 {
		r, g, b := uint8(rng.Uint32()), uint8(rng.Uint32()), uint8(rng.Uint32())
		if grey {
			g, b = r, r
		}
		im.Pix[i], im.Pix[i+1], im.Pix[i+2], im.Pix[i+3] = r, g, b, 0xff
	}
	return im
}

// A grey figure over the limit comes back losslessly: the same pixels,
// the same caption and label height, at most limit bytes.
func TestDownscalePNGGreyLossless(t *testing.T) {
	src := noise(300, 200, true)
	b := figurePNG(t, src, "Faces.")
	limit := 300*200 + 4096 // one byte a pixel and the chunks; RGB needs three
	if len(b) <= limit {
		t.Fatalf("the fixture is %d bytes, want over %d", len(b), limit)
	}
	out, k, err := DownscalePNG(b, limit, "a test")
	if err != nil || k != 1 || len(out) > limit {
		t.Fatalf("DownscalePNG: %d bytes, factor %d, %v; want at most %d bytes, factor 1", len(out), k, err, limit)
	}
	got, err := png.Decode(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if got.Bounds() != src.Rect {
		t.Fatalf("bounds %v, want %v", got.Bounds(), src.Rect)
	}
	for y := 0; y < 200; y++ {
		for x := 0; x < 300; x++ {
			if r, _, _, _ := got.At(x, y).RGBA(); uint8(r>>8) != src.Pix[y*src.Stride+4*x] {
				t.Fatalf("pixel (%d, %d) changed", x, y)
			}
		}
	}
	if c, _ := pngText(out, pngCaptionKeyword); c != "Faces." {
		t.Errorf("caption %q, want the figure's", c)
	}
	if px := ReadTextPx(out); px != 10 {
		t.Errorf("label height %v, want 10", px)
	}
}

// A colour figure over the limit is downscaled by the smallest factor
// that fits, and its caption and label height say so.
func TestDownscalePNGColour(t *testing.T) {
	b := figurePNG(t, noise(300, 201, false), "Grid.")
	// A 150 × 101 noise image needs about 3 × 150 × 101 = 45450 bytes,
	// the full one four times that.
	limit := 60000
	out, k, err := DownscalePNG(b, limit, "a test")
	if err != nil || k != 2 || len(out) > limit {
		t.Fatalf("DownscalePNG: %d bytes, factor %d, %v; want at most %d bytes, factor 2", len(out), k, err, limit)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(out))
	if err != nil || cfg.Width != 150 || cfg.Height != 101 {
		t.Errorf("downscaled to %d × %d (%v), want 150 × 101 (201 / 2 rounded up)", cfg.Width, cfg.Height, err)
	}
	c, _ := pngText(out, pngCaptionKeyword)
	if want := "Grid. Downscaled 2× (from 300 × 201 to 150 × 101 pixels) for a test; rerunning the config draws it at full size."; c != want {
		t.Errorf("caption %q, want %q", c, want)
	}
	if px := ReadTextPx(out); px != 5 {
		t.Errorf("label height %v, want 10 / 2", px)
	}
	if _, _, err := DownscalePNG(b, 1000, "a test"); err == nil {
		t.Error("a noise figure fitted 1000 bytes at a quarter of its sides")
	}
	if _, _, err := DownscalePNG([]byte("\x89PNG\r\n\x1a\nnot an image"), limit, "a test"); err == nil {
		t.Error("bytes that are no PNG were downscaled")
	}
}

// Each pixel of a shrunk image is the mean of its block, rounded half
// up; an edge block averages the pixels it has. The numbers are worked
// by hand: red (1+2+2+2)/4 = 1.75 → 2, green (0+0+1+2)/4 = 0.75 → 1,
// and the lone column's red (5+6)/2 = 5.5 → 6.
func TestBoxShrink(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 3, 2))
	for _, p := range []struct{ x, y, r, g int }{
		{0, 0, 1, 0}, {1, 0, 2, 0}, {2, 0, 5, 0},
		{0, 1, 2, 1}, {1, 1, 2, 2}, {2, 1, 6, 0},
	} {
		src.Set(p.x, p.y, color.RGBA{uint8(p.r), uint8(p.g), 1, 255})
	}
	got := boxShrink(src, 2)
	if got.Rect != image.Rect(0, 0, 2, 1) {
		t.Fatalf("bounds %v, want 2 × 1", got.Rect)
	}
	if want := []uint8{2, 1, 1, 255, 6, 0, 1, 255}; !bytes.Equal(got.Pix, want) {
		t.Errorf("boxShrink: %v, want %v", got.Pix, want)
	}
}
