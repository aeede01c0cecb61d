package report

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// TestLogAxisWithoutData: a log-scale plot with no points (every cell
// failed) or a non-positive value draws on a linear axis with a note,
// instead of gonum/plot's "Values must be greater than 0 for a log
// scale" panic.
func TestLogAxisWithoutData(t *testing.T) {
	dir := t.TempDir()
	empty := plot.New()
	empty.Title.Text = "cost"
	empty.X.Scale, empty.X.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	empty.Y.Scale, empty.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	if _, err := SavePlot(empty, 5*vg.Centimeter, 5*vg.Centimeter, filepath.Join(dir, "empty")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(empty.Title.Text, "linear axis") {
		t.Errorf("title %q carries no note", empty.Title.Text)
	}
	zero := plot.New()
	zero.Y.Scale, zero.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	l, err := plotter.NewLine(plotter.XYs{{X: 1, Y: 0}, {X: 2, Y: 10}})
	if err != nil {
		t.Fatal(err)
	}
	zero.Add(l)
	if _, err := SaveGrid([][]*plot.Plot{{zero, nil}}, 5*vg.Centimeter, 5*vg.Centimeter, filepath.Join(dir, "zero")); err != nil {
		t.Fatal(err)
	}
	// A positive log axis is left alone.
	pos := plot.New()
	pos.Y.Scale, pos.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	l2, _ := plotter.NewLine(plotter.XYs{{X: 1, Y: 1}, {X: 2, Y: 10}})
	pos.Add(l2)
	guardAxes(pos)
	if _, ok := pos.Y.Scale.(plot.LogScale); !ok || strings.Contains(pos.Title.Text, "linear") {
		t.Errorf("a valid log axis was changed")
	}
}

// TestFigureBounds: sizes that would panic image.NewRGBA or allocate
// terabytes are errors before any allocation.
func TestFigureBounds(t *testing.T) {
	dir := t.TempDir()
	p := plot.New()
	for _, tc := range []struct {
		w, h vg.Length
		want string
	}{
		{vg.Length(math.Inf(1)), 5 * vg.Centimeter, "not positive and finite"},
		{vg.Length(1e308), 5 * vg.Centimeter, "exceeds"},
		{10000 * vg.Centimeter, 10000 * vg.Centimeter, "exceeds"},
		{-1, 5, "not positive"},
		{vg.Length(math.NaN()), 5, "not positive"},
	} {
		if _, err := SavePlot(p, tc.w, tc.h, filepath.Join(dir, "f")); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v × %v: err %v", tc.w, tc.h, err)
		}
	}
	row := make([]*plot.Plot, MaxPanels+1)
	if _, err := SaveGrid([][]*plot.Plot{row}, vg.Centimeter, vg.Centimeter, filepath.Join(dir, "g")); err == nil {
		t.Errorf("a grid of %d panels was accepted", MaxPanels+1)
	}
	if _, err := SaveGrid(nil, vg.Centimeter, vg.Centimeter, filepath.Join(dir, "g")); err == nil {
		t.Errorf("an empty grid was accepted")
	}
	if _, err := SavePlot(nil, vg.Centimeter, vg.Centimeter, filepath.Join(dir, "g")); err == nil {
		t.Errorf("a nil plot was accepted")
	}
}

func TestPseudoRevision(t *testing.T) {
	for _, tc := range []struct {
		v, rev string
		dirty  bool
		ok     bool
	}{
		{"v0.0.0-20260101120000-abcdef123456", "abcdef123456", false, true},
		{"v0.0.0-20260101120000-abcdef123456+dirty", "abcdef123456", true, true},
		{"v1.2.4-0.20260101120000-abcdef123456", "abcdef123456", false, true},
		{"v1.2.3", "", false, false},
		{"(devel)", "", false, false},
		{"v0.0.0-2026-abcdef123456", "", false, false},
	} {
		rev, dirty, ok := pseudoRevision(tc.v)
		if rev != tc.rev || dirty != tc.dirty || ok != tc.ok {
			t.Errorf("%s: %q %v %v", tc.v, rev, dirty, ok)
		}
	}
}

func TestStatusModified(t *testing.T) {
	for st, want := range map[string]bool{
		"": false,
		"?? results/x/manifest.json\n?? bin/runexp\n": false,
		"?? internal/methods/farthest.go\n":           true,
		"?? configs/new.yaml\n":                       true,
		" M README.md\n":                              true,
	} {
		if got := statusModified(st); got != want {
			t.Errorf("%q: %v, want %v", st, got, want)
		}
	}
}

// TestLogAxisFlatAndFigure: a log axis holding one value (one cell) is
// widened by a factor, since gonum/plot's ±1 widening of a flat range
// reaches 0 below 1 and panics; Figure.Render guards its panels like
// SavePlot does, including a custom logarithmic ticker.
func TestLogAxisFlatAndFigure(t *testing.T) {
	flat := NewPanel("one cell")
	flat.X.Scale, flat.Y.Scale = plot.LogScale{}, plot.LogScale{}
	flat.Y.Tick.Marker = logMarker{}
	l, err := plotter.NewLine(plotter.XYs{{X: 0.5, Y: 0.3}, {X: 0.5, Y: 0.3}})
	if err != nil {
		t.Fatal(err)
	}
	flat.Add(l)
	empty := NewPanel("every cell failed")
	empty.Y.Scale, empty.Y.Tick.Marker = plot.LogScale{}, logMarker{}
	f := &Figure{PanelW: 4 * vg.Centimeter, PanelH: 3 * vg.Centimeter, Panels: [][]*plot.Plot{{flat, empty}}}
	if _, _, err := f.Render(); err != nil {
		t.Fatal(err)
	}
	if flat.X.Min != 0.25 || flat.X.Max != 1 || !strings.Contains(empty.Title.Text, "linear axis") {
		t.Errorf("flat x range [%v, %v]; empty title %q", flat.X.Min, flat.X.Max, empty.Title.Text)
	}
}

// logMarker is a logarithmic ticker of another package's kind.
type logMarker struct{}

func (logMarker) Logarithmic() bool                  { return true }
func (logMarker) Ticks(min, max float64) []plot.Tick { return plot.LogTicks{}.Ticks(min, max) }
