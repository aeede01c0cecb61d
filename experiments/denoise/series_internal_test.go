package denoise

import (
	"slices"
	"testing"

	"github.com/runexp/runexp/internal/report"
)

// TestMethodSeries: a method with a parameter grid (neighbors: [5, 10])
// is a row of the bands figure per value, named with it, each row's points
// running along the width once; a method without one is one row; the
// figure's axes (c, components) never split a row.
func TestMethodSeries(t *testing.T) {
	rec := func(m string, c, q float64, own map[string]any) report.Record {
		p := map[string]any{"method": m, "c": c, "components": q, "kernel": "gaussian"}
		for k, v := range own {
			p[k] = v
		}
		return report.Record{Params: p}
	}
	var recs []report.Record
	for _, c := range []float64{1, 10} {
		for _, q := range []float64{2, 4} {
			recs = append(recs, rec("Mika", c, q, map[string]any{"tol": 1e-9}))
			for _, k := range []int{5, 10} {
				recs = append(recs, rec("Kwok–Tsang", c, q, map[string]any{"neighbors": k}))
			}
		}
	}
	rows := methodSeries(recs, "c", "components")
	var names []string
	for _, r := range rows {
		names = append(names, r.name)
	}
	want := []string{"Mika", "Kwok–Tsang (neighbors = 5)", "Kwok–Tsang (neighbors = 10)"}
	if !slices.Equal(names, want) {
		t.Fatalf("rows %q, want %q", names, want)
	}
	// Each row holds one record per (c, components): no sawtooth.
	for _, r := range rows {
		n := 0
		for i := range recs {
			if r.has(&recs[i]) {
				n++
			}
		}
		if n != 4 {
			t.Errorf("%s holds %d records, want 4 (2 widths × 2 sizes)", r.name, n)
		}
	}
}
