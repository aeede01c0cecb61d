package report

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"strconv"
)

// maxDownscale bounds the factor a baseline divides a figure's sides by:
// past 4 a grid of faces no longer shows a face.
const maxDownscale = 4

// maxDownscalePixels bounds the image a baseline decodes to shrink it
// (width × height, 4 bytes each in memory): runexp's largest figure has
// about 6 million.
const maxDownscalePixels = 64 << 20

// DownscalePNG returns a copy of the PNG b of at most limit bytes, and
// the factor its sides were divided by. A figure whose every pixel is
// opaque grey (a grid of faces) is first encoded losslessly as 8-bit
// grey, one byte a pixel where the figure has three: the same pixels,
// factor 1, b's caption and smallest-label height kept. Otherwise, or
// when that is still too large, its sides are divided by the smallest
// integer factor, 2 to maxDownscale, that brings the encoding to at most
// limit bytes; the copy's caption is b's followed by a sentence saying
// that it is downscaled, from what size to what, and why (why completes
// "for "), and its smallest-label height is b's divided by the factor,
// so that a page shows it as it shows the figure. Each new pixel is the
// mean of its factor × factor block in premultiplied RGBA, rounded half
// up, in integers, so that the copy is the same bytes on every machine.
// An image that does not fit at maxDownscale, or is no PNG, is an error.
func DownscalePNG(b []byte, limit int, why string) ([]byte, int, error) {
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return nil, 0, fmt.Errorf("report: downscale: %w", err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > maxDownscalePixels {
		return nil, 0, fmt.Errorf("report: downscale: a %d × %d image is over the %d pixels a baseline shrinks", cfg.Width, cfg.Height, maxDownscalePixels)
	}
	src, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, 0, fmt.Errorf("report: downscale: %w", err)
	}
	rgba := image.NewRGBA(image.Rect(0, 0, cfg.Width, cfg.Height))
	draw.Draw(rgba, rgba.Rect, src, src.Bounds().Min, draw.Src)
	caption, _ := pngText(b, pngCaptionKeyword)
	px := ReadTextPx(b)
	if g, ok := greyOf(rgba); ok {
		out, err := encodeWithText(g, caption, px)
		if err != nil || len(out) <= limit {
			return out, 1, err
		}
	}
	for k := 2; k <= maxDownscale; k++ {
		small := boxShrink(rgba, k)
		w, h := small.Rect.Dx(), small.Rect.Dy()
		note := "Downscaled " + strconv.Itoa(k) + "× (from " + strconv.Itoa(cfg.Width) + " × " + strconv.Itoa(cfg.Height) +
			" to " + strconv.Itoa(w) + " × " + strconv.Itoa(h) + " pixels) for " + why + "; rerunning the config draws it at full size."
		if caption != "" {
			note = caption + " " + note
		}
		var im image.Image = small
		if g, ok := greyOf(small); ok {
			im = g
		}
		out, err := encodeWithText(im, note, px/float64(k))
		if err != nil {
			return nil, 0, err
		}
		if len(out) <= limit {
			return out, k, nil
		}
	}
	return nil, 0, fmt.Errorf("report: downscale: a %d × %d figure is over %d bytes even at 1/%d of its sides", cfg.Width, cfg.Height, limit, maxDownscale)
}

// boxShrink returns src with its sides divided by k (rounded up; a block
// on the right or bottom edge averages the pixels it has).
func boxShrink(src *image.RGBA, k int) *image.RGBA {
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	w, h := (sw+k-1)/k, (sh+k-1)/k
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		y1 := min((y+1)*k, sh)
		for x := 0; x < w; x++ {
			x1 := min((x+1)*k, sw)
			var sum [4]int
			n := 0
			for sy := y * k; sy < y1; sy++ {
				row := src.Pix[sy*src.Stride:]
				for sx := x * k; sx < x1; sx++ {
					p := row[4*sx : 4*sx+4]
					sum[0] += int(p[0])
					sum[1] += int(p[1])
					sum[2] += int(p[2])
					sum[3] += int(p[3])
					n++
				}
			}
			d := dst.Pix[y*dst.Stride+4*x:]
			for c := range 4 {
				d[c] = uint8((2*sum[c] + n) / (2 * n))
			}
		}
	}
	return dst
}

// encodeWithText encodes im as a PNG carrying caption and the smallest
// label's height px (each left out when empty or 0).
func encodeWithText(im image.Image, caption string, px float64) ([]byte, error) {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, im); err != nil {
		return nil, fmt.Errorf("report: downscale: %w", err)
	}
	out := buf.Bytes()
	var err error
	if caption != "" {
		if out, err = pngWithText(out, pngCaptionKeyword, caption); err != nil {
			return nil, err
		}
	}
	if px > 0 {
		if out, err = withTextPx(out, px); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// greyOf returns src as 8-bit grey when every pixel of it is opaque grey,
// the same pixels.
func greyOf(src *image.RGBA) (*image.Gray, bool) {
	g := image.NewGray(src.Rect)
	w, h := src.Rect.Dx(), src.Rect.Dy()
	for y := 0; y < h; y++ {
		row := src.Pix[y*src.Stride : y*src.Stride+4*w]
		for x := 0; x < w; x++ {
			p := row[4*x : 4*x+4]
			if p[3] != 0xff || p[0] != p[1] || p[1] != p[2] {
				return nil, false
			}
			g.Pix[y*g.Stride+x] = p[0]
		}
	}
	return g, true
}
