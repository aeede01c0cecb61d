// Package reporttest compares rendered figures with golden PNG files, for
// the tests of the packages that draw figures.
//
// The comparison follows gonum/plot's cmpimg: two images match when they
// have the same size and every pixel pair is within a perceptual distance
// (the YIQ colour difference of Kotsarenko and Ramos, normalised by its
// largest value, red against cyan, so that black against white is 0.966). Unlike cmpimg it tolerates a few stray pixels
// (MaxFraction), so that a change of anti-aliasing in a font rasteriser
// does not fail a test, while a moved legend, a swapped colour or a
// missing label, which change hundreds of pixels, do.
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
	"testing"
)

// Tolerances of [Compare].
const (
	// MaxDistance is the largest normalised YIQ distance at which two
	// pixels still count as equal.
	MaxDistance = 0.1
	// MaxFraction is the largest fraction of unequal pixels at which two
	// images still match.
	MaxFraction = 2e-4
)

// Diff describes how two images differ.
type Diff struct {
	SameSize bool
	Pixels   int // pixels farther apart than MaxDistance
	Total    int
	Image    *image.RGBA // red where the pixels differ, faded got elsewhere; nil when sizes differ
}

// Match reports whether the images match within the tolerances.
func (d Diff) Match() bool {
	return d.SameSize && float64(d.Pixels) <= MaxFraction*float64(d.Total)
}

func (d Diff) String() string {
	if !d.SameSize {
		return "sizes differ"
	}
	return fmt.Sprintf("%d of %d pixels differ (%.3g%%; at most %.3g%% allowed)",
		d.Pixels, d.Total, 100*float64(d.Pixels)/float64(d.Total), 100*MaxFraction)
}

// Compare decodes two PNGs and compares them pixel by pixel.
func Compare(got, want []byte) (Diff, error) {
	g, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		return Diff{}, fmt.Errorf("reporttest: got: %w", err)
	}
	w, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		return Diff{}, fmt.Errorf("reporttest: want: %w", err)
	}
	b := g.Bounds()
	if b.Size() != w.Bounds().Size() {
		return Diff{}, nil
	}
	d := Diff{SameSize: true, Total: b.Dx() * b.Dy(), Image: image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))}
	wb := w.Bounds()
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			c1 := color.RGBAModel.Convert(g.At(b.Min.X+x, b.Min.Y+y)).(color.RGBA)
			c2 := color.RGBAModel.Convert(w.At(wb.Min.X+x, wb.Min.Y+y)).(color.RGBA)
			if yiqDistance(c1, c2) > MaxDistance {
				d.Pixels++
				d.Image.SetRGBA(x, y, color.RGBA{R: 255, A: 255})
				continue
			}
			// Faded, so that the red stands out.
			f := func(v uint8) uint8 { return 255 - (255-v)/4 }
			d.Image.SetRGBA(x, y, color.RGBA{R: f(c1.R), G: f(c1.G), B: f(c1.B), A: 255})
		}
	}
	return d, nil
}

// yiqDistance is the normalised perceptual distance of two colours: the
// metric of gonum.org/v1/plot/cmpimg, square-rooted, 1 for red against
// cyan (the largest) and 0.966 for black against white.
func yiqDistance(c1, c2 color.RGBA) float64 {
	const maxDiff = 35215.0 // red against cyan, pixelmatch's maximum
	r1, g1, b1 := float64(c1.R), float64(c1.G), float64(c1.B)
	r2, g2, b2 := float64(c2.R), float64(c2.G), float64(c2.B)
	y := (r1-r2)*0.29889531 + (g1-g2)*0.58662247 + (b1-b2)*0.11448223
	i := (r1-r2)*0.59597799 - (g1-g2)*0.27417610 - (b1-b2)*0.32180189
	q := (r1-r2)*0.21147017 - (g1-g2)*0.52261711 + (b1-b2)*0.31114694
	d := (0.5053*y*y + 0.299*i*i + 0.1957*q*q) / maxDiff
	if d <= 0 {
		return 0
	}
	return math.Sqrt(d)
}

// CheckPNG compares got with the golden file testdata/name, or rewrites
// the golden file when update is true (the -update flag of the calling
// test). On a mismatch it writes got and a difference image next to each
// other in a temporary directory and names them in the failure.
func CheckPNG(t testing.TB, name string, got []byte, update bool) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	d, err := Compare(got, want)
	if err != nil {
		t.Fatal(err)
	}
	if d.Match() {
		return
	}
	dir, err := os.MkdirTemp("", "golden-")
	if err != nil {
		t.Fatalf("%s: %s", name, d)
	}
	gotPath := filepath.Join(dir, "got-"+name)
	_ = os.WriteFile(gotPath, got, 0o644)
	msg := fmt.Sprintf("%s differs from its golden file: %s; got written to %s", name, d, gotPath)
	if d.Image != nil {
		var buf bytes.Buffer
		if png.Encode(&buf, d.Image) == nil {
			diffPath := filepath.Join(dir, "diff-"+name)
			if os.WriteFile(diffPath, buf.Bytes(), 0o644) == nil {
				msg += ", differences in red in " + diffPath
			}
		}
	}
	t.Error(msg + " (go test -update rewrites the golden file if the change is wanted)")
}
