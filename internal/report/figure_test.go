package report

import (
	"bytes"
	"image/color"
	"image/png"
	"math"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/runexp/runexp/internal/report/reporttest"
)

// Golden-image tests: each figure type is drawn from small synthetic
// inputs and compared with testdata/*.png (go test -update rewrites them
// after a wanted change; look at the new PNGs before committing them).
// The negative tests plant the changes a reader would notice — a legend
// moved, two colours swapped, two images swapped — and require the
// comparison to fail, so the golden tests cannot pass on a wrong image.

var (
	testBlue   = color.RGBA{0, 114, 178, 255}
	testOrange = color.RGBA{230, 159, 0, 255}
	testGreen  = color.RGBA{0, 158, 115, 255}
)

// ringXY returns n points on a circle of radius r, deterministic.
func ringXY(n int, r, phase float64) plotter.XYs {
	xy := make(plotter.XYs, n)
	for i := range xy {
		a := phase + 2*math.Pi*float64(i)/float64(n)
		xy[i] = plotter.XY{X: r * math.Cos(a), Y: r * math.Sin(a)}
	}
	return xy
}

func mustScatter(xy plotter.XYs, sty draw.GlyphStyle) *plotter.Scatter {
	s, err := plotter.NewScatter(xy)
	if err != nil {
		panic(err)
	}
	s.GlyphStyle = sty
	return s
}

// scatterFigure is a Fig. 3-like figure: two panels of grey training
// points, crosses coloured by group, a reference point, one legend and a
// caption. colours gives the two groups' colours.
func scatterFigure(place LegendPlacement, colours [2]color.Color) *Figure {
	f := &Figure{PanelW: 4 * vg.Centimeter, PanelH: 4 * vg.Centimeter, Placement: place,
		Caption: Caption{Figure: "Test (2024) Fig. 1", Shows: "two rings and their pre-images", Reading: "none", Source: "config test"}}
	var row []*plot.Plot
	for k, title := range []string{"c = 0.1", "c = 1"} {
		p := NewPanel(title)
		p.X.Label.Text, p.Y.Label.Text = "x₁", "x₂"
		train := mustScatter(append(ringXY(40, 1, 0), ringXY(60, 2, 0)...),
			draw.GlyphStyle{Color: color.Gray{Y: 170}, Radius: DataRadius, Shape: draw.CircleGlyph{}})
		x0 := mustScatter(plotter.XYs{{}}, ReferenceStyle(testGreen))
		p.Add(train, x0)
		var pre [2]*plotter.Scatter
		for g := range pre {
			pre[g] = mustScatter(ringXY(6-4*k, float64(g+1), 0.3),
				draw.GlyphStyle{Color: colours[g], Radius: vg.Points(2.5), Shape: draw.CrossGlyph{}})
			p.Add(pre[g])
		}
		if k == 0 {
			f.Legend.Add("training", train)
			f.Legend.Add("x0", x0)
			f.Legend.Add("pre-image, start on ring 1", pre[0])
			f.Legend.Add("pre-image, start on ring 2", pre[1])
		}
		row = append(row, p)
	}
	f.Panels = [][]*plot.Plot{row}
	return f
}

var linesColours = [3]color.Color{color.Black, testBlue, testOrange}

// linesFigure is a Fig. 6 profile-like figure: two panels of curves, one
// legend below.
func linesFigure(colours [3]color.Color) *Figure {
	f := &Figure{PanelW: 5 * vg.Centimeter, PanelH: 3.5 * vg.Centimeter, Placement: LegendBelow,
		Caption: Caption{Figure: "Test (2024) Fig. 2", Shows: "profiles"}}
	var row []*plot.Plot
	for k := range 2 {
		p := NewPanel([]string{"along row 7", "along column 7"}[k])
		p.X.Label.Text, p.Y.Label.Text = "pixel", "intensity"
		for j, c := range colours {
			xy := make(plotter.XYs, 16)
			for i := range xy {
				xy[i] = plotter.XY{X: float64(i), Y: math.Sin(float64(i)/3+float64(j+k)) * float64(3-j)}
			}
			l, err := plotter.NewLine(xy)
			if err != nil {
				panic(err)
			}
			l.Color, l.Width = c, vg.Points(1)
			p.Add(l)
			if k == 0 {
				f.Legend.Add([]string{"original", "Mika et al.", "Kwok-Tsang"}[j], l)
			}
		}
		row = append(row, p)
	}
	f.Panels = [][]*plot.Plot{row}
	return f
}

func renderPNG(t *testing.T, f *Figure) []byte {
	t.Helper()
	p, _, err := f.Render()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestGoldenFigureScatter(t *testing.T) {
	reporttest.CheckPNG(t, "figure-scatter.png", renderPNG(t, scatterFigure(LegendRight, [2]color.Color{testBlue, testOrange})), *update)
}

func TestGoldenFigureLines(t *testing.T) {
	reporttest.CheckPNG(t, "figure-lines.png", renderPNG(t, linesFigure(linesColours)), *update)
}

func TestGoldenImageGrid(t *testing.T) {
	var b bytes.Buffer
	if err := goldenGrid().RenderPNG(&b); err != nil {
		t.Fatal(err)
	}
	reporttest.CheckPNG(t, "imagegrid.png", b.Bytes(), *update)
}

// goldenGrid has the labels that used to collide (kerned "-T" and "&T",
// long method names), the subscripts Huang's figures use, notes under
// the images of one row (Huang's Fig. 7 prints each image's APE and SNR)
// and marks over the first column (the profile segments of Abrahamsen &
// Hansen's Fig. 6: a red line along a pixel row, a green one down a
// pixel column).
func goldenGrid() *ImageGrid {
	ramp := func(k int) []float64 {
		im := make([]float64, 8*8)
		for i := range im {
			im[i] = float64((i%8+i/8+k)%8) / 7
		}
		return im
	}
	g := &ImageGrid{Width: 8, Height: 8, Scale: 4,
		Title:     "centre with P_t, neighbours' P_i (α_i)",
		RowLabels: []string{"Kwok-Tsang", "Nguyen&De la Torre", "x_{10}, lasso_gps"},
		ColLabels: []string{"P_t", "α_1 = 0.8", "α_2 = 0.7"},
		Caption:   Caption{Figure: "Test (2024) Fig. 3", Shows: "a grid of ramps"},
		Notes:     [][]string{nil, {"(7.51, 3.21)", "", "(26.9, 1.18)"}},
		Marks: []GridMark{
			{Col: 0, Horizontal: true, At: 2, Color: color.RGBA{R: 220, A: 255}},
			{Col: 0, At: 5, Color: color.RGBA{G: 160, A: 255}},
		},
	}
	for i := range 3 {
		var row [][]float64
		for j := range 3 {
			row = append(row, ramp(3*i+j))
		}
		g.Images = append(g.Images, row)
	}
	return g
}

// mustDiffer requires a planted change to fail the golden comparison.
func mustDiffer(t *testing.T, golden string, changed []byte) {
	t.Helper()
	want := readAll(t, []string{"testdata/" + golden})[0]
	d, err := reporttest.Compare(changed, want)
	if err != nil {
		t.Fatal(err)
	}
	if d.Match() {
		t.Errorf("%s: a planted change still matches the golden image (%s)", golden, d)
	}
}

func TestGoldenCatchesMovedLegend(t *testing.T) {
	if *update {
		t.Skip("updating")
	}
	mustDiffer(t, "figure-scatter.png", renderPNG(t, scatterFigure(LegendBelow, [2]color.Color{testBlue, testOrange})))
}

func TestGoldenCatchesSwappedColours(t *testing.T) {
	if *update {
		t.Skip("updating")
	}
	mustDiffer(t, "figure-scatter.png", renderPNG(t, scatterFigure(LegendRight, [2]color.Color{testOrange, testBlue})))
	mustDiffer(t, "figure-lines.png", renderPNG(t, linesFigure([3]color.Color{color.Black, testOrange, testBlue})))
}

func TestGoldenCatchesSwappedImages(t *testing.T) {
	if *update {
		t.Skip("updating")
	}
	g := goldenGrid()
	g.Images[1][0], g.Images[1][1] = g.Images[1][1], g.Images[1][0]
	var b bytes.Buffer
	if err := g.RenderPNG(&b); err != nil {
		t.Fatal(err)
	}
	mustDiffer(t, "imagegrid.png", b.Bytes())
}

// TestGoldenCatchesNotesAndMarks: a grid without its notes, or with a
// mark moved by one pixel row, fails the golden comparison.
func TestGoldenCatchesNotesAndMarks(t *testing.T) {
	if *update {
		t.Skip("updating")
	}
	for name, change := range map[string]func(g *ImageGrid){
		"notes dropped": func(g *ImageGrid) { g.Notes = nil },
		"mark moved":    func(g *ImageGrid) { g.Marks[0].At++ },
	} {
		g := goldenGrid()
		change(g)
		var b bytes.Buffer
		if err := g.RenderPNG(&b); err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) { mustDiffer(t, "imagegrid.png", b.Bytes()) })
	}
}

func TestFigurePanics(t *testing.T) {
	for name, f := range map[string]*Figure{
		"no panels":       {PanelW: 100, PanelH: 100},
		"row titles":      {Panels: [][]*plot.Plot{{NewPanel("a")}}, PanelW: 100, PanelH: 100, RowTitles: []string{"a", "b"}},
		"legend position": {Panels: [][]*plot.Plot{{NewPanel("a")}}, PanelW: 100, PanelH: 100, Placement: LegendPlacement(7), Legend: oneEntry()},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			_, _, _ = f.Render()
		}()
	}
}

func oneEntry() Legend {
	var l Legend
	l.Add("x", &plotter.Line{})
	return l
}

// TestFigureDeterministic: rendering twice gives the same bytes, and the
// panels' titles are left as they were (the figure draws them itself).
func TestFigureDeterministic(t *testing.T) {
	f := scatterFigure(LegendRight, [2]color.Color{testBlue, testOrange})
	p1, s1, err := f.Render()
	if err != nil {
		t.Fatal(err)
	}
	p2, s2, err := f.Render()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(p1, p2) || !bytes.Equal(s1, s2) {
		t.Error("two renderings differ")
	}
	if c := f.Panels[0][0].Title.TextStyle.Color; c == color.Transparent {
		t.Error("rendering left a panel title transparent")
	}
}

// TestFigureWrapsWideTitles: a title wider than its panel is drawn on
// several lines instead of running into its neighbour's, and the panel's
// title is left as it was.
func TestFigureWrapsWideTitles(t *testing.T) {
	const long = "intensity along column 7 of the first example digit"
	f := linesFigure(linesColours)
	f.Panels[0][1].Title.Text = long
	p, _, err := f.Render()
	if err != nil {
		t.Fatal(err)
	}
	if f.Panels[0][1].Title.Text != long {
		t.Errorf("title changed to %q", f.Panels[0][1].Title.Text)
	}
	// The wide title must not reach into the first panel's column: the
	// pixels between the panels, in the title band, stay white.
	img, err := png.Decode(bytes.NewReader(p))
	if err != nil {
		t.Fatal(err)
	}
	l := f.layout()
	dpi := float64(DPI) / 72
	xGap := int(float64(figureMargin+f.PanelW+gridPadGap/2) * dpi)
	for y := 0; y < int(float64(figureMargin+vg.Points(12))*dpi); y++ {
		r, g, b, _ := img.At(xGap, y).RGBA()
		if r < 0xf000 || g < 0xf000 || b < 0xf000 {
			t.Fatalf("ink at (%d, %d) between the panels' titles: titles overlap (figure %v wide)", xGap, y, l.W)
		}
	}
}
