package report

import (
	"bytes"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// testPlot is a small line plot with a title, axis labels and a legend, so
// every kind of text is drawn.
func testPlot() *plot.Plot {
	p := plot.New()
	p.Title.Text = "MSE against λ"
	p.X.Label.Text = "λ"
	p.Y.Label.Text = "MSE"
	pts := make(plotter.XYs, 20)
	for i := range pts {
		pts[i].X = float64(i) / 4
		pts[i].Y = math.Sin(pts[i].X)
	}
	l, err := plotter.NewLine(pts)
	if err != nil {
		panic(err)
	}
	p.Add(l, plotter.NewGrid())
	p.Legend.Add("sin", l)
	return p
}

// readAll reads each named file.
func readAll(t *testing.T, names []string) [][]byte {
	t.Helper()
	var out [][]byte
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) == 0 {
			t.Fatalf("%s is empty", n)
		}
		out = append(out, b)
	}
	return out
}

// checkDeterministic saves twice into two directories and compares bytes.
func checkDeterministic(t *testing.T, save func(base string) ([]string, error)) []string {
	t.Helper()
	var files [2][][]byte
	var names []string
	for k := range files {
		var err error
		names, err = save(filepath.Join(t.TempDir(), "fig"))
		if err != nil {
			t.Fatal(err)
		}
		if len(names) != 2 || filepath.Ext(names[0]) != ".png" || filepath.Ext(names[1]) != ".svg" {
			t.Fatalf("names = %q, want fig.png and fig.svg", names)
		}
		files[k] = readAll(t, names)
	}
	for i := range files[0] {
		if !bytes.Equal(files[0][i], files[1][i]) {
			t.Errorf("%s differs between two renderings", filepath.Base(names[i]))
		}
	}
	return names
}

func TestSavePlotDeterministic(t *testing.T) {
	names := checkDeterministic(t, func(base string) ([]string, error) {
		return SavePlot(testPlot(), 4*vg.Inch, 3*vg.Inch, base)
	})
	b := readAll(t, names[:1])[0]
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	// 4in × 3in at DPI.
	if cfg.Width != 4*DPI || cfg.Height != 3*DPI {
		t.Errorf("PNG is %d×%d, want %d×%d", cfg.Width, cfg.Height, 4*DPI, 3*DPI)
	}
}

func TestSaveGridDeterministic(t *testing.T) {
	panels := [][]*plot.Plot{
		{testPlot(), nil, testPlot()},
		{testPlot()}, // short row: the rest is blank
	}
	checkDeterministic(t, func(base string) ([]string, error) {
		return SaveGrid(panels, 3*vg.Inch, 2*vg.Inch, base)
	})
}

// testImageGrid is a 2×3 grid of 8×8 ramps; one image holds a NaN and one
// cell is empty.
func testImageGrid() *ImageGrid {
	const w, h = 8, 8
	ramp := func(shift float64) []float64 {
		im := make([]float64, w*h)
		for y := range h {
			for x := range w {
				im[y*w+x] = float64(x+y) + shift
			}
		}
		return im
	}
	bad := ramp(0)
	bad[0] = math.NaN()
	return &ImageGrid{
		Width: w, Height: h,
		Images:    [][][]float64{{ramp(0), ramp(3), bad}, {ramp(-2), nil, ramp(1)}},
		RowLabels: []string{"noisy", "σ = 0.5"},
		ColLabels: []string{"input", "Mika", "Kwok–Tsang"},
		Title:     "Denoised digits",
		Scale:     4,
	}
}

func TestImageGrid(t *testing.T) {
	g := testImageGrid()
	names := checkDeterministic(t, g.Save)
	b := readAll(t, names[:1])[0]
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	l := g.layout()
	if img.Bounds().Dx() != l.W || img.Bounds().Dy() != l.H {
		t.Errorf("PNG is %v, want %d×%d", img.Bounds(), l.W, l.H)
	}
	// Image [0][0] is a ramp min-max scaled on its own: its top-left pixel
	// (the minimum) is black, its bottom-right (the maximum) white, each
	// upscaled to 4×4 screen pixels.
	x0, y0 := l.cellOrigin(0, 0)
	for _, tc := range []struct {
		x, y int
		want uint32
	}{
		{x0, y0, 0}, {x0 + 3, y0 + 3, 0},
		{x0 + 8*4 - 1, y0 + 8*4 - 1, 0xffff}, {x0 + 7*4, y0 + 7*4, 0xffff},
	} {
		r, gg, bb, _ := img.At(tc.x, tc.y).RGBA()
		if r != tc.want || gg != tc.want || bb != tc.want {
			t.Errorf("pixel (%d,%d) = %x %x %x, want grey %x", tc.x, tc.y, r, gg, bb, tc.want)
		}
	}
	// The NaN pixel of image [0][2] is red.
	x2, y2 := l.cellOrigin(0, 2)
	if r, gg, bb, _ := img.At(x2+1, y2+1).RGBA(); r != 0xffff || gg != 0 || bb != 0 {
		t.Errorf("NaN pixel = %x %x %x, want red", r, gg, bb)
	}
}

func TestImageGridCommonRange(t *testing.T) {
	// With a common range [0, 2], a constant image of 1 is mid grey
	// (round(255/2) = 128) and out-of-range values clip.
	g := &ImageGrid{Width: 2, Height: 1, Images: [][][]float64{{{1, 5}}}, Lo: 0, Hi: 2}
	lo, hi := g.greyRange(g.Images[0][0])
	if got := g.pixel(1, lo, hi).R; got != 128 {
		t.Errorf("pixel(1) = %d, want 128", got)
	}
	if got := g.pixel(5, lo, hi).R; got != 255 {
		t.Errorf("pixel(5) = %d, want 255 (clipped)", got)
	}
	g.Invert = true
	if got := g.pixel(5, lo, hi).R; got != 0 {
		t.Errorf("inverted pixel(5) = %d, want 0", got)
	}
}

func TestImageGridBadSizePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic for an image of the wrong size")
		}
	}()
	g := &ImageGrid{Width: 2, Height: 2, Images: [][][]float64{{{1, 2, 3}}}}
	g.RenderPNG(new(bytes.Buffer))
}
