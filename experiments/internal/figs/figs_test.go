package figs

import (
	"flag"
	"fmt"
	"image/color"
	"math"
	"os"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/report/reporttest"
)

var update = flag.Bool("update", false, "rewrite the golden PNGs in testdata")

// bandsFigure is a Fig. 4-like figure on synthetic bands: a row per #PCs,
// a column per estimator, one band per panel in the colour of its #PCs,
// shared axes and one legend below. colours are the rows' colours.
func bandsFigure(colours []color.Color, style BandStyle) *report.Figure {
	ests := []string{"Mika et al.", "Tikhonov"}
	pcs := []int{4, 16, 64}
	f := &report.Figure{PanelW: 4 * vg.Centimeter, PanelH: 3 * vg.Centimeter, Placement: report.LegendBelow,
		Caption: report.Caption{Figure: "Test (2024) Fig. 4", Shows: "5–95% bands of the MSE over c"}}
	for i, q := range pcs {
		var row []*plot.Plot
		for j, e := range ests {
			p := report.NewPanel(fmt.Sprintf("%s, %d PCs", e, q))
			p.X.Label.Text, p.Y.Label.Text = "c", "MSE"
			p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
			p.X.Tick.Marker, p.Y.Tick.Marker = LogTicks125{}, LogTicks125{}
			var pts []BandPoint
			for k := range 9 {
				c := math.Pow(2, float64(k)-2)
				m := 0.1 * (1 + float64(i)) * (1 + 0.5*math.Sin(float64(k+j)))
				pts = append(pts, BandPoint{X: c, Lo: 0.7 * m, Mid: m, Hi: 1.5 * m})
			}
			if _, err := AddBandStyled(p, pts, colours[i], style); err != nil {
				panic(err)
			}
			row = append(row, p)
		}
		f.Legend.Add(fmt.Sprintf("#PCs = %d", q), BandThumb{Color: colours[i], Style: style})
		f.Panels = append(f.Panels, row)
	}
	ShareAxes(f.Panels)
	return f
}

var bandColours = []color.Color{Palette[0], Palette[1], Palette[2]}

func render(t *testing.T, f *report.Figure) []byte {
	t.Helper()
	p, _, err := f.Render()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestGoldenBands(t *testing.T) {
	reporttest.CheckPNG(t, "bands.png", render(t, bandsFigure(bandColours, BandOutlined)), *update)
}

// TestGoldenBandsCatchesSwappedColours: the golden comparison fails when
// two rows' colours are swapped or the bands are filled instead of
// outlined.
func TestGoldenBandsCatchesChanges(t *testing.T) {
	if *update {
		t.Skip("updating")
	}
	want := readFile(t, "testdata/bands.png")
	for name, f := range map[string]*report.Figure{
		"swapped colours": bandsFigure([]color.Color{Palette[1], Palette[0], Palette[2]}, BandOutlined),
		"filled bands":    bandsFigure(bandColours, BandFilled),
	} {
		d, err := reporttest.Compare(render(t, f), want)
		if err != nil {
			t.Fatal(err)
		}
		if d.Match() {
			t.Errorf("%s: still matches the golden image (%s)", name, d)
		}
	}
}

// TestShareAxes: every panel gets the union of the ranges; inner panels
// lose their tick labels and axis labels, outer ones keep them.
func TestShareAxes(t *testing.T) {
	f := bandsFigure(bandColours, BandOutlined)
	g := f.Panels
	x0, x1, y0, y1 := g[0][0].X.Min, g[0][0].X.Max, g[0][0].Y.Min, g[0][0].Y.Max
	if x0 != 0.25 || x1 != 64 {
		t.Errorf("x range [%g, %g], want [0.25, 64] (c = 2^-2 … 2^6)", x0, x1)
	}
	for i, row := range g {
		for j, p := range row {
			if p.X.Min != x0 || p.X.Max != x1 || p.Y.Min != y0 || p.Y.Max != y1 {
				t.Errorf("panel [%d][%d] has its own range", i, j)
			}
			ylab := hasLabels(p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max))
			xlab := hasLabels(p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max))
			if ylab != (j == 0) || (p.Y.Label.Text != "") != (j == 0) {
				t.Errorf("panel [%d][%d]: y labels %v, want them only in the first column", i, j, ylab)
			}
			if xlab != (i == len(g)-1) || (p.X.Label.Text != "") != (i == len(g)-1) {
				t.Errorf("panel [%d][%d]: x labels %v, want them only in the last row", i, j, xlab)
			}
		}
	}
}

func hasLabels(ts []plot.Tick) bool {
	for _, t := range ts {
		if t.Label != "" {
			return true
		}
	}
	return false
}

func TestCaption(t *testing.T) {
	cfg := &config.Config{Name: "ah-fig4", Title: "A & H (2011) Fig. 4: bands", Paper: "ah",
		Corruption: config.Corruption{Type: "gaussian", Printed: "variance 0.25 (std 0.5)"}}
	got := Caption(cfg, "5–95% bands", "median of 300 digits").String()
	want := "A & H (2011) Fig. 4: bands. 5–95% bands. Reading: noise variance 0.25 (std 0.5); median of 300 digits. runexp config ah-fig4; paper values in paper-values/ah.yaml."
	if got != want {
		t.Errorf("caption\n%q, want\n%q", got, want)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
