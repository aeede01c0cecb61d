package missing

import (
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

func cellOf(t *testing.T, name string) *runner.Cell {
	t.Helper()
	spec, ok := methods.Lookup(name)
	if !ok {
		t.Fatalf("no estimator %s", name)
	}
	p, err := spec.Bind(map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	return &runner.Cell{Key: "method=" + name, Seed: 1, Method: &runner.BoundMethod{Spec: spec, Label: name, Params: p}}
}

// TestMeanImputationByHand runs one cell on a hand-made draw. The subset
//
//	1 2
//	3 4
//	5 9
//
// loses (0,1) and (2,0). The observed column means are (1+3)/2 = 2 and
// (4+9)/2 = 6.5, so impute-mean fills (0,1) with 6.5 (true 2) and (2,0)
// with 2 (true 5): squared error 4.5² + 3² = 20.25 + 9 = 29.25.
func TestMeanImputationByHand(t *testing.T) {
	x := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 9})
	mask := mat.NewDense(3, 2, []float64{1, 0, 1, 1, 0, 1})
	in := &instance{
		opt:   options{pdel: []float64{0.3}, repetitions: 1, points: 3},
		n:     3,
		draws: [][]draw{{{x: x, mask: mask}}},
	}
	rec := report.Record{Metrics: map[string]float64{}}
	if err := in.Run(cellOf(t, "impute-mean"), &rec); err != nil {
		t.Fatal(err)
	}
	if got := rec.Metrics["err_mean_p30"]; got != 29.25 {
		t.Errorf("mean-imputation error %v, want 29.25", got)
	}
	// One repetition: a standard deviation of 0 (n − 1 = 0 terms, by the
	// convention of metrics.Summarize).
	if got := rec.Metrics["err_std_p30"]; got != 0 {
		t.Errorf("std over one repetition %v, want 0", got)
	}
	// 1-NN: row 0 (observed 1 in column 0) is nearest to row 1 (3; row 2
	// has column 0 deleted), which gives 4 for (0,1): error (4−2)² = 4.
	// Row 2 (observed 9 in column 1) is nearest to row 1 (4), which gives
	// 3 for (2,0): error (3−5)² = 4. Total 8.
	rec = report.Record{Metrics: map[string]float64{}}
	if err := in.Run(cellOf(t, "impute-nn"), &rec); err != nil {
		t.Fatal(err)
	}
	if got := rec.Metrics["err_mean_p30"]; got != 8 {
		t.Errorf("1-NN imputation error %v, want 8", got)
	}
}

// TestMaskedCopy: deleted entries become NaN, so no imputer can read the
// truth.
func TestMaskedCopy(t *testing.T) {
	x := mat.NewDense(1, 3, []float64{1, 2, 3})
	got := maskedCopy(draw{x: x, mask: mat.NewDense(1, 3, []float64{1, 0, 1})})
	if got.At(0, 0) != 1 || got.At(0, 1) == got.At(0, 1) || got.At(0, 2) != 3 || x.At(0, 1) != 2 {
		t.Errorf("maskedCopy = %v, x = %v", mat.Formatted(got), mat.Formatted(x))
	}
}
