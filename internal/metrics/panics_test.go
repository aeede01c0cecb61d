package metrics

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestShapePanics: mismatched or empty inputs are programmer errors, and
// every metric panics with the package's prefix rather than returning a
// number computed over part of the data.
func TestShapePanics(t *testing.T) {
	one, two := []float64{1}, []float64{1, 2}
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"Renormalize lengths", func() { Renormalize(make([]float64, 2), two, one) }},
		{"Renormalize empty", func() { Renormalize(nil, nil, nil) }},
		{"MSE lengths", func() { MSE(one, two) }},
		{"MSE empty", func() { MSE(nil, nil) }},
		{"Percentile above 1", func() { Percentile(two, 1.5) }},
		{"Spread below 0", func() { Spread(two, -0.1, 0.9) }},
		{"APE lengths", func() { APE(one, two, 1) }},
		{"SNR lengths", func() { SNR(two, two, one) }},
		{"SNRTerms empty", func() { SNRTerms(nil, nil, nil) }},
		{"PooledSNR lengths", func() { PooledSNR(one, two) }},
		{"MeanClassAccuracy lengths", func() { MeanClassAccuracy([]int{1}, []int{1, 2}) }},
		{"MeanClassAccuracy empty", func() { MeanClassAccuracy(nil, nil) }},
		{"BlockContrast labels", func() { BlockContrast(mat.NewSymDense(2, nil), []int{0}) }},
		{"MaskedSSE mask", func() { MaskedSSE(mat.NewDense(2, 2, nil), mat.NewDense(2, 2, nil), mat.NewDense(2, 1, nil)) }},
		{"RegionMAE lengths", func() { RegionMAE(one, two, nil) }},
		{"RegionMAE mask", func() { RegionMAE(two, two, []bool{true}) }},
	} {
		func() {
			defer func() {
				r := recover()
				s, ok := r.(string)
				if !ok || !strings.HasPrefix(s, "metrics: ") {
					t.Errorf("%s: recovered %#v, want a metrics: panic", c.name, r)
				}
			}()
			c.f()
		}()
	}
}

// TestSummarizeEmpty: the summary of no values is NaN throughout (there
// is no mean, spread or percentile of nothing), with a count of 0.
func TestSummarizeEmpty(t *testing.T) {
	s := Summarize(nil)
	if s.N != 0 {
		t.Errorf("Summarize(nil).N = %d, want 0", s.N)
	}
	for name, v := range map[string]float64{"mean": s.Mean, "std": s.Std, "p5": s.P5, "median": s.Median, "p95": s.P95, "min": s.Min, "max": s.Max} {
		if !math.IsNaN(v) {
			t.Errorf("Summarize(nil).%s = %g, want NaN", name, v)
		}
	}
}
