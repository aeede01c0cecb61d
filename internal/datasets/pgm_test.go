package datasets

import (
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/image/draw"
)

// pgm8 builds a binary PGM with maxval ≤ 255 from a header text and the
// samples.
func pgm8(header string, samples ...byte) []byte {
	return append([]byte(header), samples...)
}

// scaled returns s[i]/maxval for each sample, computed as DecodePGM
// documents, so comparisons below can be exact.
func scaled(maxval int, s ...int) []float64 {
	out := make([]float64, len(s))
	for i, v := range s {
		out[i] = float64(v) / float64(maxval)
	}
	return out
}

func TestDecodePGMBinary(t *testing.T) {
	samples := []int{0, 5, 15, 1, 14, 7}
	raw := make([]byte, len(samples))
	for i, s := range samples {
		raw[i] = byte(s)
	}
	for _, c := range []struct {
		name, header string
	}{
		{"plain header", "P5\n3 2\n15\n"},
		// Comments after the magic number, between the numbers, on a line
		// of their own, and with CR line ends; tabs and a form feed as
		// separators.
		{"comments", "P5 # made by hand\n# a full-line comment\n3\t# width\r2 #height\n\f15\n"},
		// A comment straight after maxval: its line end is the single
		// white-space byte before the raster.
		{"comment after maxval", "P5 3 2 15# the raster follows this line\n"},
		// A CR is as good a delimiter as an LF.
		{"CR delimiter", "P5 3 2 15\r"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := DecodePGM("hand.pgm", pgm8(c.header, raw...))
			if err != nil {
				t.Fatal(err)
			}
			if g.Width != 3 || g.Height != 2 {
				t.Fatalf("size %d×%d, want 3×2", g.Width, g.Height)
			}
			// Exact: DecodePGM documents sample/maxval, computed the
			// same way here.
			if want := scaled(15, samples...); !reflect.DeepEqual(g.Pix, want) {
				t.Errorf("Pix = %v, want %v", g.Pix, want)
			}
		})
	}

	// A raster whose first byte is white space (9 = '\t', 10 = '\n',
	// 32 = ' ') must be read as samples, not skipped as a separator.
	g, err := DecodePGM("ws.pgm", pgm8("P5 3 1 255\n", 10, 32, 9))
	if err != nil {
		t.Fatal(err)
	}
	if want := scaled(255, 10, 32, 9); !reflect.DeepEqual(g.Pix, want) {
		t.Errorf("white-space samples: Pix = %v, want %v", g.Pix, want)
	}

	// Bytes after the raster (a second image of a stream) are ignored.
	g, err = DecodePGM("stream.pgm", pgm8("P5 1 1 255\n", 255, 'P', '5'))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Pix) != 1 || g.Pix[0] != 1 {
		t.Errorf("trailing bytes: Pix = %v, want [1]", g.Pix)
	}
}

func TestDecodePGM16(t *testing.T) {
	// maxval 1000 needs two bytes a sample, most significant first:
	// 0x0100 = 256 tells the byte order apart from 0x0001 = 1.
	b := []byte("P5\n# 16-bit\n2 3\n1000\n")
	samples := []int{0, 1000, 256, 1, 999, 500}
	for _, s := range samples {
		b = append(b, byte(s>>8), byte(s))
	}
	g, err := DecodePGM("sixteen.pgm", b)
	if err != nil {
		t.Fatal(err)
	}
	if g.Width != 2 || g.Height != 3 {
		t.Fatalf("size %d×%d, want 2×3", g.Width, g.Height)
	}
	if want := scaled(1000, samples...); !reflect.DeepEqual(g.Pix, want) {
		t.Errorf("Pix = %v, want %v", g.Pix, want)
	}

	// maxval 65535: the full 16-bit range.
	g, err = DecodePGM("full.pgm", []byte("P5 2 1 65535\n\xff\xff\x80\x00"))
	if err != nil {
		t.Fatal(err)
	}
	if want := scaled(65535, 65535, 32768); !reflect.DeepEqual(g.Pix, want) {
		t.Errorf("maxval 65535: Pix = %v, want %v", g.Pix, want)
	}
}

func TestDecodePGMPlain(t *testing.T) {
	g, err := DecodePGM("plain.pgm", []byte("P2\n# plain\n3 2\n# comment\n255\n0 128 255\n  17\n# between samples\n3\t254\n"))
	if err != nil {
		t.Fatal(err)
	}
	if g.Width != 3 || g.Height != 2 {
		t.Fatalf("size %d×%d, want 3×2", g.Width, g.Height)
	}
	if want := scaled(255, 0, 128, 255, 17, 3, 254); !reflect.DeepEqual(g.Pix, want) {
		t.Errorf("Pix = %v, want %v", g.Pix, want)
	}
}

func TestDecodePGMErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		b    []byte
		want []string
	}{
		{"empty", nil, []string{"not a PGM file"}},
		{"GIF", []byte("GIF89a\x01\x00"), []string{"not a PGM file", `"GI"`}},
		{"PPM", []byte("P6 1 1 255\n\x00\x00\x00"), []string{"not a PGM file", `"P6"`}},
		{"magic glued", []byte("P5x 1 1 255\n\x00"), []string{"not a PGM file", "white space"}},
		{"garbage width", []byte("P5\nabc 2\n255\n"), []string{"bad PGM header", "width", `"abc"`}},
		{"garbage height", []byte("P5 3 x2\n255\n"), []string{"bad PGM header", "height", `"x2"`}},
		{"glued numbers", []byte("P5 168x192 255\n"), []string{"bad PGM header", "width", `"168x192"`}},
		{"negative", []byte("P5 -3 2 255\n"), []string{"bad PGM header", "width", `"-3"`}},
		{"no maxval", []byte("P5 3 2"), []string{"bad PGM header", "maxval", "ends"}},
		{"comment to EOF", []byte("P5 3 2 # 255\n"), []string{"bad PGM header", "maxval", "ends"}},
		{"zero width", []byte("P5 0 2 255\n"), []string{"bad PGM header", "0×2"}},
		{"maxval 0", []byte("P5 1 1 0\n\x00"), []string{"bad PGM header", "maxval 0"}},
		{"maxval too large", []byte("P5 1 1 65536\n\x00\x00"), []string{"bad PGM header", "maxval 65536"}},
		{"huge width", []byte("P5 99999999999 2 255\n"), []string{"bad PGM header", "width", "too large"}},
		// The size check comes before any allocation.
		{"huge image", []byte("P5 2147483647 2147483647 255\n\x00"), []string{"truncated", "present"}},
		{"truncated 8-bit", pgm8("P5 3 2 255\n", 1, 2, 3, 4), []string{"truncated", "need 6 bytes", "4 present"}},
		{"truncated 16-bit", append([]byte("P5 3 2 1000\n"), make([]byte, 11)...), []string{"truncated", "of 2 byte(s)", "need 12 bytes", "11 present"}},
		{"no raster", []byte("P5 3 2 255"), []string{"truncated", "need 6 bytes", "0 present"}},
		{"truncated plain", []byte("P2 3 2 255\n1 2 3 4\n"), []string{"truncated", "6 samples expected", "4 present"}},
		{"sample above maxval", pgm8("P5 2 2 15\n", 1, 2, 200, 3), []string{"sample 2 (row 1, column 0) is 200", "above maxval 15"}},
		{"16-bit above maxval", []byte("P5 1 1 1000\n\x03\xe9"), []string{"is 1001", "above maxval 1000"}},
		{"plain above maxval", []byte("P2 2 1 15\n3 16\n"), []string{"sample 1", "is 16", "above maxval 15"}},
		{"plain garbage sample", []byte("P2 2 1 15\n3 x\n"), []string{"bad PGM raster", "sample 1", `"x"`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := DecodePGM("/data/face.pgm", c.b)
			wantErr(t, err, append([]string{"/data/face.pgm"}, c.want...)...)
		})
	}
}

// FuzzDecodePGM checks that no input makes DecodePGM panic and that a
// decoded image is consistent. `go test` runs the seeds; `go test
// -fuzz=FuzzDecodePGM` explores further.
func FuzzDecodePGM(f *testing.F) {
	for _, s := range []string{
		"P5 3 2 15\n\x00\x05\x0f\x01\x0e\x07",
		"P5 # c\n1 1 1000\n\x01\x02",
		"P2 2 1 15 3 4",
		"P5 1 1 255",
		"P2 1 1 255 #",
		"P5\n2147483648 1 1\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := DecodePGM("fuzz", b)
		if err != nil {
			return
		}
		if g.Width < 1 || g.Height < 1 || len(g.Pix) != g.Width*g.Height {
			t.Fatalf("inconsistent image: %d×%d with %d values", g.Width, g.Height, len(g.Pix))
		}
		for i, v := range g.Pix {
			if !(v >= 0 && v <= 1) {
				t.Fatalf("Pix[%d] = %v, outside [0, 1]", i, v)
			}
		}
	})
}

// constantGray returns a w×h image with every value v.
func constantGray(w, h int, v float64) *Gray {
	g := &Gray{Width: w, Height: h, Pix: make([]float64, w*h)}
	for i := range g.Pix {
		g.Pix[i] = v
	}
	return g
}

func TestResizeConstant(t *testing.T) {
	// The kernel weights of every output pixel are normalised to sum to 1,
	// so a constant image stays constant. The values are multiples of
	// 1/65535 (13107/65535 = 0.2 exactly in real arithmetic, and the
	// float64 division rounds both to the same double), so the Gray16
	// quantisation is exact and the comparison can be too.
	for _, v := range []float64{0, 0.2, 1} {
		for _, size := range [][4]int{
			{YaleBWidth, YaleBHeight, 92, 112}, // Zheng & Lai's size
			{YaleBWidth, YaleBHeight, 30, 40},  // Zheng et al.'s LPKPCA size
			{7, 5, 16, 11},                     // upscaling
			{5, 4, 5, 4},                       // same size
		} {
			g := constantGray(size[0], size[1], v)
			out := g.Resize(size[2], size[3])
			if out.Width != size[2] || out.Height != size[3] || len(out.Pix) != size[2]*size[3] {
				t.Fatalf("%d×%d → %d×%d: got %d×%d with %d values", size[0], size[1], size[2], size[3], out.Width, out.Height, len(out.Pix))
			}
			for i, p := range out.Pix {
				if p != v {
					t.Errorf("constant %v, %d×%d → %d×%d: pixel %d is %v", v, size[0], size[1], size[2], size[3], i, p)
					break
				}
			}
			for i, p := range g.Pix {
				if p != v {
					t.Fatalf("Resize modified its input at %d", i)
				}
			}
		}
	}
}

// TestResizeCheckerboard checks the antialiasing: halving a one-pixel
// checkerboard must give mid-grey, where a filter that samples (nearest
// neighbour) or blends only nearby pixels at the old scale (x/image's
// ApproxBiLinear) would give 0s and 1s.
func TestResizeCheckerboard(t *testing.T) {
	const n = 16
	g := &Gray{Width: n, Height: n, Pix: make([]float64, n*n)}
	for y := range n {
		for x := range n {
			g.Pix[y*n+x] = float64((x + y) % 2)
		}
	}
	out := g.Resize(n/2, n/2)
	// Output pixel x is centred at source coordinate 2x+0.5, between two
	// source pixels, and the widened kernel (half-width 2·2 = 4 source
	// pixels) weighs the pixels at distance 0.5, 1.5, 2.5 and 3.5 on each
	// side equally; each such pair holds one 0 and one 1, so the weighted
	// mean is exactly 1/2 wherever the kernel is not cut by the border:
	// 2x−3.5 ≥ 0 and 2x+4.5 ≤ 16, i.e. x in 2..5. The Gray16 round trip
	// adds at most 0.5/65535 (32767.5 rounds to 32767 or 32768).
	const tol = 0.5/65535 + 1e-12
	for y := 2; y <= 5; y++ {
		for x := 2; x <= 5; x++ {
			if v := out.Pix[y*out.Width+x]; math.Abs(v-0.5) > tol {
				t.Errorf("pixel (%d, %d) = %v, want 0.5 within %.2g", x, y, v, tol)
			}
		}
	}
	// Near the border the kernel is truncated and renormalised, so the
	// values differ from 1/2, but stay in [0, 1].
	for i, v := range out.Pix {
		if !(v >= 0 && v <= 1) {
			t.Errorf("pixel %d = %v, outside [0, 1]", i, v)
		}
	}
}

func TestResizePanics(t *testing.T) {
	for _, c := range []struct {
		name string
		g    *Gray
		w, h int
	}{
		{"zero width", constantGray(4, 4, 0), 0, 2},
		{"negative height", constantGray(4, 4, 0), 2, -1},
		{"short Pix", &Gray{Width: 4, Height: 4, Pix: make([]float64, 15)}, 2, 2},
		{"empty image", &Gray{}, 2, 2},
	} {
		func() {
			defer func() {
				r := recover()
				if r == nil {
					t.Errorf("%s: no panic", c.name)
				} else if !strings.HasPrefix(fmt.Sprint(r), "datasets: ") {
					t.Errorf("%s: panic %q lacks the package prefix", c.name, r)
				}
			}()
			c.g.Resize(c.w, c.h)
		}()
	}
}

// TestResize8BitPath checks that an 8-bit image, which Resize hands to
// x/image/draw as an image.Gray, resizes exactly as the same image given as
// image.Gray16 (s·257) to draw.CatmullRom.Scale, the documented filter.
func TestResize8BitPath(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 1))
	const sw, sh, dw, dh = YaleBWidth, YaleBHeight, 92, 112
	g := &Gray{Width: sw, Height: sh, Pix: make([]float64, sw*sh)}
	ref := image.NewGray16(image.Rect(0, 0, sw, sh))
	for i := range g.Pix {
		s := rnd.IntN(256)
		g.Pix[i] = float64(s) / 255
		ref.Pix[2*i], ref.Pix[2*i+1] = byte(s), byte(s) // s·257 = s<<8 | s
	}
	dst := image.NewGray16(image.Rect(0, 0, dw, dh))
	draw.CatmullRom.Scale(dst, dst.Rect, ref, ref.Rect, draw.Src, nil)
	out := g.Resize(dw, dh)
	for i, v := range out.Pix {
		if want := float64(dst.Gray16At(i%dw, i/dw).Y) / 0xffff; v != want {
			t.Fatalf("pixel %d = %v, want %v", i, v, want)
		}
	}
	// A value that is not a multiple of 1/255 takes the Gray16 path and
	// is rounded to 16 bits on the way in.
	g.Pix[0] = 0.3
	ref.Pix[0], ref.Pix[1] = byte(19661>>8), byte(19661&0xff) // 0.3·65535 evaluates to exactly 19660.5 in float64, and math.Round takes halves away from zero
	draw.CatmullRom.Scale(dst, dst.Rect, ref, ref.Rect, draw.Src, nil)
	out = g.Resize(dw, dh)
	for i, v := range out.Pix {
		if want := float64(dst.Gray16At(i%dw, i/dw).Y) / 0xffff; v != want {
			t.Fatalf("16-bit path: pixel %d = %v, want %v", i, v, want)
		}
	}
}
