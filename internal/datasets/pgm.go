package datasets

import (
	"errors"
	"fmt"
	"image"
	"math"

	"golang.org/x/image/draw"
)

// Gray is a grey-level image with samples scaled to [0, 1].
type Gray struct {
	// Width and Height are the image size in pixels.
	Width, Height int
	// Pix holds Height rows of Width samples each, row-major, so pixel
	// (x, y) is Pix[y*Width+x]. For a decoded PGM each value is
	// sample/maxval: 0 is black and 1 is white.
	Pix []float64
}

// DecodePGM decodes a Netpbm grey map: binary (P5) or plain (P2). name
// identifies the file in errors, usually its full path.
//
// The header is the magic number and three decimal integers, width, height
// and maxval, separated by white space (space, tab, CR, LF, VT, FF); a '#'
// anywhere in the header starts a comment that runs to the end of the line.
// Width and height must be at least 1 and maxval in 1..65535. In a binary
// file exactly one white-space character (or a comment and its line end)
// follows maxval and the raster starts at the next byte: one byte a sample
// when maxval < 256, otherwise two bytes, most significant first. In a plain
// file the samples are decimal numbers separated by white space.
//
// Sample values are scaled to [0, 1] as float64(sample)/float64(maxval), so a
// file with maxval 15 and one with maxval 255 showing the same picture decode
// to the same values. Bytes after the raster are ignored: a Netpbm stream may
// hold several images, and only the first is decoded.
//
// A file that is not a PGM, a malformed header, a truncated raster (the error
// says how many bytes were expected and how many are present) and a sample
// above maxval are errors naming name. DecodePGM never panics on bad input.
func DecodePGM(name string, b []byte) (*Gray, error) {
	if len(b) < 2 || b[0] != 'P' || (b[1] != '5' && b[1] != '2') {
		return nil, fmt.Errorf("datasets: %s: not a PGM file: it starts with %q, want \"P5\" (binary) or \"P2\" (plain); convert it to PGM (e.g. with netpbm's pamtopnm) or get the right file",
			name, b[:min(len(b), 2)])
	}
	plain := b[1] == '2'
	if len(b) > 2 && !isPNMSpace(b[2]) && b[2] != '#' {
		return nil, fmt.Errorf("datasets: %s: not a PGM file: the magic number %q is followed by %q, want white space",
			name, b[:2], b[2])
	}
	pos := 2
	var hdr [3]int
	for i, what := range [3]string{"width", "height", "maxval"} {
		v, next, err := pnmUint(b, pos)
		if err != nil {
			return nil, fmt.Errorf("datasets: %s: bad PGM header: %s: %v", name, what, err)
		}
		hdr[i], pos = v, next
	}
	w, h, maxval := hdr[0], hdr[1], hdr[2]
	if w < 1 || h < 1 {
		return nil, fmt.Errorf("datasets: %s: bad PGM header: size %d×%d, want width and height at least 1", name, w, h)
	}
	if maxval < 1 || maxval > 65535 {
		return nil, fmt.Errorf("datasets: %s: bad PGM header: maxval %d, want 1..65535", name, maxval)
	}
	// pnmUint caps each number at 1<<31, so w*h cannot overflow int64.
	n64 := int64(w) * int64(h)
	// Every sample takes at least one byte, so a size larger than the
	// file is truncated; checking it first bounds the allocation below by
	// 8 times the file size.
	if n64 > int64(len(b)) {
		return nil, truncatedPGM(name, plain, w, h, maxval, n64, len(b)-pos)
	}
	n := int(n64)
	g := &Gray{Width: w, Height: h, Pix: make([]float64, n)}

	read := readBinaryPGM
	if plain {
		read = readPlainPGM
	}
	if err := read(g, name, b, pos, maxval); err != nil {
		return nil, err
	}
	return g, nil
}

// readPlainPGM reads the raster of a plain (P2) PGM file from b[pos:]
// into g: decimal samples separated by white space.
func readPlainPGM(g *Gray, name string, b []byte, pos, maxval int) error {
	w, n := g.Width, len(g.Pix)
	for i := range n {
		v, next, err := pnmUint(b, pos)
		if err == errPNMEnd {
			return fmt.Errorf("datasets: %s: truncated PGM raster: %d×%d = %d samples expected, %d present; the file is incomplete: get it again",
				name, w, g.Height, n, i)
		}
		if err != nil {
			return fmt.Errorf("datasets: %s: bad PGM raster: sample %d (row %d, column %d): %v", name, i, i/w, i%w, err)
		}
		if v > maxval {
			return sampleAboveMax(name, i, w, v, maxval)
		}
		g.Pix[i] = float64(v) / float64(maxval)
		pos = next
	}
	return nil
}

// readBinaryPGM reads the raster of a binary (P5) PGM file, whose header
// ends at b[pos], into g: one byte a sample, or two (big-endian) when
// maxval is above 255.
func readBinaryPGM(g *Gray, name string, b []byte, pos, maxval int) error {
	w, n := g.Width, len(g.Pix)
	// Exactly one white-space byte ends the header of a binary file; a
	// comment straight after maxval runs to the end of its line, and that
	// line end is the delimiter (as libnetpbm's pm_getc reads it).
	if pos < len(b) && b[pos] == '#' {
		pos = commentEnd(b, pos)
	}
	if pos < len(b) {
		pos++
	}
	bps := 1
	if maxval > 255 {
		bps = 2
	}
	raster := b[pos:]
	if need := n * bps; len(raster) < need {
		return truncatedPGM(name, false, w, g.Height, maxval, int64(n), len(raster))
	}
	if bps == 1 {
		// Dividing once per grey level gives the same float64 as dividing
		// per pixel.
		var lut [256]float64
		for s := range min(256, maxval+1) {
			lut[s] = float64(s) / float64(maxval)
		}
		for i, s := range raster[:n] {
			if int(s) > maxval {
				return sampleAboveMax(name, i, w, int(s), maxval)
			}
			g.Pix[i] = lut[s]
		}
		return nil
	}
	for i := range n {
		s := int(raster[2*i])<<8 | int(raster[2*i+1])
		if s > maxval {
			return sampleAboveMax(name, i, w, s, maxval)
		}
		g.Pix[i] = float64(s) / float64(maxval)
	}
	return nil
}

func truncatedPGM(name string, plain bool, w, h, maxval int, n int64, present int) error {
	if plain {
		return fmt.Errorf("datasets: %s: truncated PGM raster: %d×%d = %d samples expected, but only %d bytes follow the header; the file is incomplete: get it again",
			name, w, h, n, present)
	}
	bps := int64(1)
	if maxval > 255 {
		bps = 2
	}
	return fmt.Errorf("datasets: %s: truncated PGM raster: %d×%d samples of %d byte(s) need %d bytes, %d present; the file is incomplete: get it again",
		name, w, h, bps, n*bps, present)
}

func sampleAboveMax(name string, i, w, v, maxval int) error {
	return fmt.Errorf("datasets: %s: bad PGM raster: sample %d (row %d, column %d) is %d, above maxval %d; the file is corrupt: get it again",
		name, i, i/w, i%w, v, maxval)
}

// errPNMEnd reports that the input ended where a number was expected.
var errPNMEnd = errors.New("the file ends where a number is expected")

// pnmUint skips white space and comments from b[pos:] and reads an unsigned
// decimal integer, returning it and the position just after its last digit.
// The number must be followed by white space, '#' or the end of b. Values
// above 1<<31 are errors, which keeps products of two of them within int64.
func pnmUint(b []byte, pos int) (v, next int, err error) {
	pos = skipPNMSpace(b, pos)
	if pos == len(b) {
		return 0, pos, errPNMEnd
	}
	start := pos
	for pos < len(b) && b[pos] >= '0' && b[pos] <= '9' {
		v = 10*v + int(b[pos]-'0')
		if v > 1<<31 {
			return 0, pos, fmt.Errorf("%q… is too large", b[start:pos+1])
		}
		pos++
	}
	if pos == start || (pos < len(b) && !isPNMSpace(b[pos]) && b[pos] != '#') {
		end := pos
		for end < len(b) && end-start < 16 && !isPNMSpace(b[end]) {
			end++
		}
		return 0, pos, fmt.Errorf("%q is not an unsigned decimal integer", b[start:max(end, start+1)])
	}
	return v, pos, nil
}

// skipPNMSpace returns the position of the first byte at or after pos that
// is neither white space nor inside a comment, or len(b).
func skipPNMSpace(b []byte, pos int) int {
	for pos < len(b) {
		switch c := b[pos]; {
		case isPNMSpace(c):
			pos++
		case c == '#':
			pos = commentEnd(b, pos)
		default:
			return pos
		}
	}
	return pos
}

// commentEnd returns the position of the line end (LF or CR) closing the
// comment that starts at b[pos], or len(b).
func commentEnd(b []byte, pos int) int {
	for pos < len(b) && b[pos] != '\n' && b[pos] != '\r' {
		pos++
	}
	return pos
}

// isPNMSpace reports whether c is white space in the Netpbm sense (C's
// isspace: space, \t, \n, \v, \f, \r).
func isPNMSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// Resize returns g resampled to width×height with the Catmull-Rom cubic
// kernel (golang.org/x/image/draw.CatmullRom); g is not modified.
//
// draw.Kernel.Scale antialiases: when shrinking by a factor s > 1 it widens
// the kernel's support by s and evaluates the kernel at distances divided by
// s (newDistrib in x/image/draw/scale.go, v0.47.0), so every source pixel
// contributes and a pattern finer than the new pixel grid averages out
// instead of aliasing. This is the same filter as MATLAB's imresize bicubic
// with its default antialiasing. (draw.ApproxBiLinear, by contrast, blends
// only the 4 nearest source pixels and aliases when shrinking.) Weights are
// normalised to sum to 1 for every output pixel, including at the borders,
// where the kernel is truncated.
//
// The resampling runs through 16-bit images (image.Gray16, or image.Gray
// for 8-bit data, which draw reads as s·257, exactly what Gray16 would
// hold): each value is rounded to the nearest multiple of 1/65535 on the
// way in and on the way out, an error of at most 0.5/65535 ≈ 7.6e-6 each
// time (none on the way in for samples s/255 of an 8-bit PGM, which are
// s·257/65535 exactly); values outside [0, 1] are clipped first.
// Catmull-Rom has negative lobes, so at a sharp edge the result may
// overshoot; it is clipped to [0, 1].
//
// Resize panics if width or height is less than 1 or len(g.Pix) is not
// g.Width×g.Height: those are programmer errors, since loaders validate
// their options and check decoded sizes first.
func (g *Gray) Resize(width, height int) *Gray {
	if width < 1 || height < 1 {
		panic(fmt.Sprintf("datasets: Gray.Resize: target size %d×%d, want both at least 1", width, height))
	}
	return newResizer(g.Width, g.Height, width, height).resize(g)
}

// resizer resamples many images of one size to another, reusing the kernel
// weights and buffers.
type resizer struct {
	scaler draw.Scaler
	src8   *image.Gray
	src16  *image.Gray16
	dst    *image.Gray16
}

func newResizer(sw, sh, dw, dh int) *resizer {
	if sw < 1 || sh < 1 || dw < 1 || dh < 1 {
		panic(fmt.Sprintf("datasets: resize from %d×%d to %d×%d: sizes must be at least 1×1", sw, sh, dw, dh))
	}
	return &resizer{
		scaler: draw.CatmullRom.NewScaler(dw, dh, sw, sh),
		src8:   image.NewGray(image.Rect(0, 0, sw, sh)),
		src16:  image.NewGray16(image.Rect(0, 0, sw, sh)),
		dst:    image.NewGray16(image.Rect(0, 0, dw, dh)),
	}
}

// resize resamples g into a new Gray; see Gray.Resize.
func (z *resizer) resize(g *Gray) *Gray {
	sw, sh := z.src8.Rect.Dx(), z.src8.Rect.Dy()
	if g.Width != sw || g.Height != sh || len(g.Pix) != sw*sh {
		panic(fmt.Sprintf("datasets: resize: image is %d×%d with %d values, want %d×%d", g.Width, g.Height, len(g.Pix), sw, sh))
	}
	// An image whose values are all exact multiples of 1/255 (every
	// 8-bit PGM) goes through image.Gray, for which x/image/draw reads
	// the pixels directly, about twice as fast as through the
	// image.Gray16 interface path; both give the same result, since
	// draw widens an 8-bit s to s·257, which is what Gray16 would hold.
	var src image.Image = z.src8
	for i, v := range g.Pix {
		q := math.Round(v * 0xff)
		if q/0xff != v {
			src = z.src16
			break
		}
		z.src8.Pix[i] = uint8(q)
	}
	if src == image.Image(z.src16) {
		for i, v := range g.Pix {
			q := uint16(math.Round(math.Max(0, math.Min(1, v)) * 0xffff))
			z.src16.Pix[2*i] = uint8(q >> 8)
			z.src16.Pix[2*i+1] = uint8(q)
		}
	}
	// draw.Src overwrites every destination pixel, so the buffer needs no
	// clearing between images.
	z.scaler.Scale(z.dst, z.dst.Rect, src, z.src8.Rect, draw.Src, nil)
	dw, dh := z.dst.Rect.Dx(), z.dst.Rect.Dy()
	out := &Gray{Width: dw, Height: dh, Pix: make([]float64, dw*dh)}
	for i := range out.Pix {
		out.Pix[i] = float64(uint16(z.dst.Pix[2*i])<<8|uint16(z.dst.Pix[2*i+1])) / 0xffff
	}
	return out
}
