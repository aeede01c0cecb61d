package figs

import (
	"image/color"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// TestSegmentsDataRange checks the range of a set of segments: both ends
// of every segment count, whichever comes first.
func TestSegmentsDataRange(t *testing.T) {
	s := &Segments{XY: [][4]float64{{1, 5, -2, 3}, {0, -7, 4, 2}}}
	xmin, xmax, ymin, ymax := s.DataRange()
	if xmin != -2 || xmax != 4 || ymin != -7 || ymax != 5 {
		t.Errorf("range x [%v, %v], y [%v, %v]; want x [-2, 4], y [-7, 5]", xmin, xmax, ymin, ymax)
	}
}

// TestFinite checks that a point with any non-finite coordinate is
// dropped and the others kept in order (plotter.NewScatter refuses them).
func TestFinite(t *testing.T) {
	in := plotter.XYs{{X: 1, Y: 2}, {X: math.NaN(), Y: 0}, {X: 3, Y: math.Inf(1)}, {X: math.Inf(-1), Y: 1}, {X: 4, Y: 5}}
	got := Finite(in)
	if want := (plotter.XYs{{X: 1, Y: 2}, {X: 4, Y: 5}}); !slices.Equal(got, want) {
		t.Errorf("Finite = %v, want %v", got, want)
	}
	if in[1].X == in[1].X {
		t.Error("Finite modified its input")
	}
}

// TestSquareAxes checks that both axes take the union of their ranges.
func TestSquareAxes(t *testing.T) {
	p := plot.New()
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = -1, 2, 0, 5
	SquareAxes(p)
	if p.X.Min != -1 || p.X.Max != 5 || p.Y.Min != -1 || p.Y.Max != 5 {
		t.Errorf("x [%v, %v], y [%v, %v]; want both [-1, 5]", p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
	}
}

// labels returns the values of the labelled ticks.
func labels(ts []plot.Tick) (vals []float64, texts []string) {
	for _, t := range ts {
		if t.Label != "" {
			vals = append(vals, t.Value)
			texts = append(texts, t.Label)
		}
	}
	return vals, texts
}

// TestLogTicks125 checks the log-axis ticks: within two decades 1, 2 and
// 5 of every decade are labelled (an MSE axis from 0.05 to 0.8 gets
// 0.05, 0.1, 0.2, 0.5), beyond that the powers of ten only; every
// 1–9 multiple inside the range is a tick; and a range reaching 0 falls
// back to linear ticks instead of panicking.
func TestLogTicks125(t *testing.T) {
	var lt LogTicks125
	ts := lt.Ticks(0.05, 0.8)
	vals, texts := labels(ts)
	if !slices.Equal(texts, []string{"0.05", "0.1", "0.2", "0.5"}) {
		t.Errorf("0.05–0.8: labels %q (at %v)", texts, vals)
	}
	// 0.05 … 0.09 (5), 0.1 … 0.8 (8): 13 ticks.
	if len(ts) != 13 {
		t.Errorf("0.05–0.8: %d ticks, want 13", len(ts))
	}
	// Just under two decades: 1, 2, 5 labelled; two and a half: powers.
	_, texts = labels(lt.Ticks(1, 99))
	if !slices.Equal(texts, []string{"1", "2", "5", "10", "20", "50"}) {
		t.Errorf("1–99: labels %q", texts)
	}
	_, texts = labels(lt.Ticks(1, 300))
	if !slices.Equal(texts, []string{"1", "10", "100"}) {
		t.Errorf("1–300: labels %q, want the powers of ten only", texts)
	}
	_, texts = labels(lt.Ticks(1, 1e4))
	if !slices.Equal(texts, []string{"1", "10", "100", "1000", "10000"}) {
		t.Errorf("1–1e4: labels %q, want the powers of ten only", texts)
	}
	_, texts = labels(lt.Ticks(1e-6, 1e-5))
	if !slices.Equal(texts, []string{"1e-06", "2e-06", "5e-06", "1e-05"}) {
		t.Errorf("1e-6–1e-5: labels %q, want them in exponent form", texts)
	}
	for _, r := range [][2]float64{{0, 1}, {-1, 3}} {
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("range %v: panic %v", r, p)
				}
			}()
			if ts := lt.Ticks(r[0], r[1]); len(ts) == 0 {
				t.Errorf("range %v: no ticks", r)
			}
		}()
	}
	if !lt.Logarithmic() {
		t.Error("LogTicks125 does not say it is logarithmic")
	}
}

// drawn renders p on a recording canvas and returns what it drew: the
// colours set and the dash patterns of the strokes.
func drawn(p *plot.Plot) (colours []color.Color, dashed int) {
	var rec recorder.Canvas
	p.Draw(draw.NewCanvas(&rec, 10*vg.Centimeter, 8*vg.Centimeter))
	for _, a := range rec.Actions {
		switch a := a.(type) {
		case *recorder.SetColor:
			colours = append(colours, a.Color)
		case *recorder.SetLineDash:
			if len(a.Dashes) > 0 {
				dashed++
			}
		}
	}
	return colours, dashed
}

// TestAddBand checks what a band adds to a panel, through what plot.Add
// makes of it (the axes' ranges) and what the panel draws: nothing for no
// points; for one point the central line only (the axes span the middle
// value, no band of one x); for more, the band from the lowest Lo to the
// highest Hi, filled with the colour at alpha 0x40, and the line through
// the middles sorted by x; outlined, two dashed edges over a fainter
// fill (alpha 0x14).
func TestAddBand(t *testing.T) {
	blue := color.RGBA{0, 114, 178, 255}
	p := plot.New()
	if l, err := AddBand(p, nil, blue); l != nil || err != nil {
		t.Errorf("no points: %v, %v", l, err)
	}
	one := plot.New()
	if _, err := AddBand(one, []BandPoint{{X: 1, Lo: 0, Mid: 1, Hi: 2}}, blue); err != nil {
		t.Fatal(err)
	}
	if one.Y.Min != 1 || one.Y.Max != 1 {
		t.Errorf("one point: y range [%v, %v], want the middle value alone", one.Y.Min, one.Y.Max)
	}
	pts := []BandPoint{{X: 3, Lo: 5, Mid: 6, Hi: 7}, {X: 1, Lo: 1, Mid: 2, Hi: 3}, {X: 2, Lo: 2, Mid: 4, Hi: 5}}
	filled := plot.New()
	line, err := AddBand(filled, pts, blue)
	if err != nil {
		t.Fatal(err)
	}
	if want := (plotter.XYs{{X: 1, Y: 2}, {X: 2, Y: 4}, {X: 3, Y: 6}}); !slices.Equal(line.XYs, want) {
		t.Errorf("central line %v, want %v (sorted by x)", line.XYs, want)
	}
	if filled.X.Min != 1 || filled.X.Max != 3 || filled.Y.Min != 1 || filled.Y.Max != 7 {
		t.Errorf("filled band: x [%v, %v], y [%v, %v]; want x [1, 3], y [1, 7]", filled.X.Min, filled.X.Max, filled.Y.Min, filled.Y.Max)
	}
	colours, dashed := drawn(filled)
	if !slices.Contains(colours, color.Color(color.NRGBA{0, 114, 178, 0x40})) || dashed != 0 {
		t.Errorf("filled band: colours %v, %d dashed strokes; want the fill at alpha 0x40, none dashed", colours, dashed)
	}
	outlined := plot.New()
	if _, err := AddBandStyled(outlined, pts, blue, BandOutlined); err != nil {
		t.Fatal(err)
	}
	colours, dashed = drawn(outlined)
	if !slices.Contains(colours, color.Color(color.NRGBA{0, 114, 178, 0x14})) || dashed != 2 {
		t.Errorf("outlined band: colours %v, %d dashed strokes; want the fill at alpha 0x14 and two dashed edges", colours, dashed)
	}
}

// TestAxisUnits checks the second line of an axis label.
func TestAxisUnits(t *testing.T) {
	if got := AxisUnits(mat.NewDense(1, 3, []float64{0, 0.5, 1})); got != "\n(scale [0, 1])" {
		t.Errorf("AxisUnits = %q", got)
	}
	if got := AxisUnits(mat.NewDense(1, 1, []float64{math.Inf(1)})); got != "" {
		t.Errorf("AxisUnits of nothing finite = %q", got)
	}
}

// TestScatter checks the scatter's style and its refusal of non-finite
// points (callers filter them with Finite first).
func TestScatter(t *testing.T) {
	s := Scatter(plotter.XYs{{X: 1, Y: 2}}, Green, 3, nil)
	if s.GlyphStyle.Color != Green || s.GlyphStyle.Radius != 3 {
		t.Errorf("style %+v", s.GlyphStyle)
	}
	defer func() {
		if recover() == nil {
			t.Error("a NaN point did not panic")
		}
	}()
	Scatter(plotter.XYs{{X: math.NaN(), Y: 0}}, Green, 3, nil)
}
