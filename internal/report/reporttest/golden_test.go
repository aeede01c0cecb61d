package reporttest

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestYIQDistance checks the metric's normalisation and symmetry. The
// values are the formula of yiqDistance evaluated by hand (Python, in
// float64) over the eight corners of the RGB cube: the largest distance,
// 1 to 6 digits, is red against cyan (35215 is pixelmatch's maximum
// squared YIQ difference); black against white is √(0.5053·255²/35215) =
// 0.96594; a grey step of k levels moves only Y, by k, so its distance is
// k·√(0.5053/35215) = 0.0037880·k.
func TestYIQDistance(t *testing.T) {
	const tol = 1e-5
	black, white := color.RGBA{A: 255}, color.RGBA{255, 255, 255, 255}
	red, cyan := color.RGBA{R: 255, A: 255}, color.RGBA{G: 255, B: 255, A: 255}
	for _, tc := range []struct {
		a, b color.RGBA
		want float64
	}{
		{black, black, 0},
		{red, cyan, 0.99999644},
		{black, white, 0.96594186},
		{red, black, 0.54370918},
		{color.RGBA{128, 128, 128, 255}, color.RGBA{154, 154, 154, 255}, 26 * 0.0037880},
	} {
		for _, p := range [][2]color.RGBA{{tc.a, tc.b}, {tc.b, tc.a}} {
			if got := yiqDistance(p[0], p[1]); math.Abs(got-tc.want) > tol {
				t.Errorf("yiqDistance(%v, %v) = %.8f, want %.8f", p[0], p[1], got, tc.want)
			}
		}
	}
	// No pair of corners is farther apart than red and cyan.
	for c1 := range 8 {
		for c2 := range 8 {
			a := color.RGBA{uint8(255 * (c1 & 1)), uint8(255 * (c1 >> 1 & 1)), uint8(255 * (c1 >> 2)), 255}
			b := color.RGBA{uint8(255 * (c2 & 1)), uint8(255 * (c2 >> 1 & 1)), uint8(255 * (c2 >> 2)), 255}
			if d := yiqDistance(a, b); d > 1 {
				t.Errorf("yiqDistance(%v, %v) = %v > 1", a, b, d)
			}
		}
	}
}

// grey is a w×h PNG of one grey level, with the pixels at the points
// set to another.
func grey(t *testing.T, w, h int, level, other uint8, at ...image.Point) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetRGBA(x, y, color.RGBA{level, level, level, 255})
		}
	}
	for _, p := range at {
		img.SetRGBA(p.X, p.Y, color.RGBA{other, other, other, 255})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestCompare checks the two tolerances at their edges: a grey step of
// 26 levels is within MaxDistance (0.0985) and 27 is not (0.1023, by
// TestYIQDistance's slope), and 2 stray pixels of 10000 are within
// MaxFraction (2e-4) while 3 are not.
func TestCompare(t *testing.T) {
	base := grey(t, 100, 100, 128, 128)
	three := []image.Point{{0, 0}, {50, 50}, {99, 99}}
	for _, tc := range []struct {
		name   string
		got    []byte
		pixels int
		match  bool
		text   string
	}{
		{"same", base, 0, true, "0 of 10000 pixels differ (0%; at most 0.02% allowed)"},
		{"26 levels everywhere", grey(t, 100, 100, 154, 154), 0, true, ""},
		{"27 levels everywhere", grey(t, 100, 100, 155, 155), 10000, false, "10000 of 10000 pixels differ (100%; at most 0.02% allowed)"},
		{"two stray pixels", grey(t, 100, 100, 128, 255, three[:2]...), 2, true, ""},
		{"three stray pixels", grey(t, 100, 100, 128, 255, three...), 3, false, "3 of 10000 pixels differ (0.03%; at most 0.02% allowed)"},
	} {
		d, err := Compare(tc.got, base)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !d.SameSize || d.Total != 10000 || d.Pixels != tc.pixels || d.Match() != tc.match {
			t.Errorf("%s: %+v (match %v), want %d pixels of 10000 differing, match %v", tc.name, d, d.Match(), tc.pixels, tc.match)
		}
		if tc.text != "" && d.String() != tc.text {
			t.Errorf("%s: %q, want %q", tc.name, d, tc.text)
		}
		// The difference image: red where they differ, the got pixel
		// faded to 255 − (255 − v)/4 elsewhere (128 → 224).
		red := 0
		for y := range 100 {
			for x := range 100 {
				switch c := d.Image.RGBAAt(x, y); c {
				case color.RGBA{R: 255, A: 255}:
					red++
				case color.RGBA{224, 224, 224, 255}, color.RGBA{230, 230, 230, 255}:
					// 128 and 154 faded.
				default:
					t.Fatalf("%s: difference pixel (%d,%d) is %v", tc.name, x, y, c)
				}
			}
		}
		if red != tc.pixels {
			t.Errorf("%s: %d red pixels, want %d", tc.name, red, tc.pixels)
		}
	}

	d, err := Compare(grey(t, 100, 99, 128, 128), base)
	if err != nil || d.SameSize || d.Match() || d.Image != nil || d.String() != "sizes differ" {
		t.Errorf("another size: %+v, %v; want sizes differ, no match, no image", d, err)
	}
	for _, tc := range []struct {
		got, want []byte
		say       string
	}{
		{[]byte("not a png"), base, "reporttest: got: png: invalid format: not a PNG file"},
		{base, nil, "reporttest: want: unexpected EOF"},
	} {
		if _, err := Compare(tc.got, tc.want); err == nil || err.Error() != tc.say {
			t.Errorf("Compare: %v, want %q", err, tc.say)
		}
	}
}

// recorder is a testing.TB that keeps what CheckPNG reports; Fatal ends
// the goroutine it runs in, as testing's does.
type recorder struct {
	testing.TB
	errors []string
	fatal  bool
}

func (r *recorder) Helper()                   {}
func (r *recorder) Error(args ...any)         { r.errors = append(r.errors, fmt.Sprint(args...)) }
func (r *recorder) Fatal(args ...any)         { r.fatal = true; r.Error(args...); runtime.Goexit() }
func (r *recorder) Fatalf(f string, a ...any) { r.Fatal(fmt.Sprintf(f, a...)) }

func checkPNG(name string, got []byte, update bool) *recorder {
	r := new(recorder)
	done := make(chan struct{})
	go func() {
		defer close(done)
		CheckPNG(r, name, got, update)
	}()
	<-done
	return r
}

// TestCheckPNG checks the golden-file cycle in a directory of its own:
// -update writes the file, the same image then passes, a missing file is
// fatal with the hint, and a mismatch names the image got and a
// difference image whose red pixels are those that differ.
func TestCheckPNG(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.Mkdir("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	base := grey(t, 100, 100, 128, 128)
	if r := checkPNG("g.png", base, true); len(r.errors) != 0 {
		t.Fatalf("update: %q", r.errors)
	}
	if b, err := os.ReadFile(filepath.Join("testdata", "g.png")); err != nil || !bytes.Equal(b, base) {
		t.Fatalf("update wrote %d bytes (%v), want the image's %d", len(b), err, len(base))
	}
	if r := checkPNG("g.png", base, false); len(r.errors) != 0 {
		t.Errorf("the same image: %q", r.errors)
	}

	r := checkPNG("none.png", base, false)
	if !r.fatal || len(r.errors) != 1 || !strings.HasSuffix(r.errors[0], "(run go test -update to create it)") {
		t.Errorf("no golden file: fatal %v, %q", r.fatal, r.errors)
	}
	r = checkPNG("g.png", []byte("not a png"), false)
	if !r.fatal || len(r.errors) != 1 || r.errors[0] != "reporttest: got: png: invalid format: not a PNG file" {
		t.Errorf("a broken image: fatal %v, %q", r.fatal, r.errors)
	}
	r = checkPNG("g.png", grey(t, 10, 10, 128, 128), false)
	if r.fatal || len(r.errors) != 1 || !strings.Contains(r.errors[0], "g.png differs from its golden file: sizes differ; got written to ") ||
		strings.Contains(r.errors[0], "differences in red") {
		t.Errorf("another size: fatal %v, %q; want an error without a difference image", r.fatal, r.errors)
	}

	changed := grey(t, 100, 100, 128, 0, image.Pt(1, 2), image.Pt(3, 4), image.Pt(5, 6))
	r = checkPNG("g.png", changed, false)
	if r.fatal || len(r.errors) != 1 {
		t.Fatalf("three pixels changed: fatal %v, %q; want one error", r.fatal, r.errors)
	}
	msg := r.errors[0]
	const head = "g.png differs from its golden file: 3 of 10000 pixels differ (0.03%; at most 0.02% allowed); got written to "
	if !strings.HasPrefix(msg, head) || !strings.HasSuffix(msg, " (go test -update rewrites the golden file if the change is wanted)") {
		t.Fatalf("three pixels changed: %q", msg)
	}
	gotPath, diffPath, ok := strings.Cut(strings.TrimPrefix(msg, head), ", differences in red in ")
	if !ok {
		t.Fatalf("no difference image named in %q", msg)
	}
	diffPath = strings.TrimSuffix(diffPath, " (go test -update rewrites the golden file if the change is wanted)")
	t.Cleanup(func() { os.RemoveAll(filepath.Dir(gotPath)) })
	if b, err := os.ReadFile(gotPath); err != nil || !bytes.Equal(b, changed) {
		t.Errorf("%s holds %d bytes (%v), want the image got", gotPath, len(b), err)
	}
	f, err := os.Open(diffPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []image.Point{{1, 2}, {3, 4}, {5, 6}, {0, 0}} {
		want := color.RGBA{224, 224, 224, 255}
		if p != (image.Point{}) {
			want = color.RGBA{R: 255, A: 255}
		}
		if c := color.RGBAModel.Convert(img.At(p.X, p.Y)); c != want {
			t.Errorf("difference image at %v is %v, want %v", p, c, want)
		}
	}
}
