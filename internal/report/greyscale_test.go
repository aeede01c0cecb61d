package report_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"testing"

	"github.com/runexp/runexp/internal/report"
)

// pixelCounts renders g as a PNG and counts its pixels by colour.
func pixelCounts(t *testing.T, g *report.ImageGrid) map[color.RGBA]int {
	t.Helper()
	var b bytes.Buffer
	if err := g.RenderPNG(&b); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[color.RGBA]int{}
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			counts[c]++
		}
	}
	return counts
}

func grey(y uint8) color.RGBA { return color.RGBA{y, y, y, 255} }

// TestImageGridGreys checks the grey levels a reader's eye compares, by
// counting the pixels of each colour in the PNG (each image pixel is
// Scale² = 9 screen pixels; no label, so the image pixels are the only
// non-white ones): on the common range [0, 1], 0.25 is round(255/4) = 64,
// 0.5 is round(127.5) = 128, −1 clamps to black, and NaN and +Inf are red;
// inverted, 0.25 is 255 − 64 = 191; on an image's own range its minimum is
// black and its middle value 128; a constant image is mid grey.
func TestImageGridGreys(t *testing.T) {
	red := color.RGBA{255, 0, 0, 255}
	for _, tc := range []struct {
		name string
		g    report.ImageGrid
		want map[color.RGBA]int
	}{
		{"common range", report.ImageGrid{Width: 5, Height: 1, Lo: 0, Hi: 1, Scale: 3,
			Images: [][][]float64{{{0.25, 0.5, math.NaN(), -1, math.Inf(1)}}}},
			map[color.RGBA]int{grey(64): 9, grey(128): 9, grey(0): 9, red: 18}},
		{"inverted", report.ImageGrid{Width: 3, Height: 1, Lo: 0, Hi: 1, Scale: 3, Invert: true,
			Images: [][][]float64{{{0.25, 0.5, 2}}}},
			map[color.RGBA]int{grey(191): 9, grey(128): 9, grey(0): 9}},
		{"own range", report.ImageGrid{Width: 3, Height: 1, Scale: 3,
			Images: [][][]float64{{{2, 4, 3}}}},
			map[color.RGBA]int{grey(0): 9, grey(128): 9}},
		{"constant", report.ImageGrid{Width: 2, Height: 1, Scale: 3,
			Images: [][][]float64{{{5, 5}}}},
			map[color.RGBA]int{grey(128): 18}},
	} {
		got := pixelCounts(t, &tc.g)
		for c, n := range tc.want {
			if got[c] != n {
				t.Errorf("%s: %d pixels of %v, want %d", tc.name, got[c], c, n)
			}
		}
	}
}

// TestImageGridShape checks the PNG grows with the grid: a second column
// of images widens it by the image and the gap, a second row heightens it,
// and Scale multiplies every image's pixels.
func TestImageGridShape(t *testing.T) {
	size := func(g report.ImageGrid) image.Point {
		var b bytes.Buffer
		if err := g.RenderPNG(&b); err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(&b)
		if err != nil {
			t.Fatal(err)
		}
		return image.Pt(cfg.Width, cfg.Height)
	}
	im := []float64{0, 1, 1, 0}
	one := size(report.ImageGrid{Width: 2, Height: 2, Scale: 4, Images: [][][]float64{{im}}})
	wide := size(report.ImageGrid{Width: 2, Height: 2, Scale: 4, Images: [][][]float64{{im, im}}})
	tall := size(report.ImageGrid{Width: 2, Height: 2, Scale: 4, Images: [][][]float64{{im}, {im}}})
	big := size(report.ImageGrid{Width: 2, Height: 2, Scale: 8, Images: [][][]float64{{im}}})
	if wide.X <= one.X || wide.Y != one.Y {
		t.Errorf("two columns %v, one %v", wide, one)
	}
	if tall.Y <= one.Y || tall.X != one.X {
		t.Errorf("two rows %v, one %v", tall, one)
	}
	// Scale 8 against 4: each image 2×2 pixels grows by 2·(8 − 4) = 8.
	if big.X-one.X != 8 || big.Y-one.Y != 8 {
		t.Errorf("scale 8: %v, scale 4: %v; want 8 pixels more each way", big, one)
	}
	if wide.X-one.X != tall.Y-one.Y {
		t.Errorf("a column adds %d pixels, a row %d; want the same image and gap", wide.X-one.X, tall.Y-one.Y)
	}
}
