package metrics

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/floats/scalar"
)

func TestRanks(t *testing.T) {
	for _, tc := range []struct {
		x, want []float64
	}{
		{nil, []float64{}},
		{[]float64{7}, []float64{1}},
		// No ties: the positions in sorted order, 1-based.
		{[]float64{3, 1, 2}, []float64{3, 1, 2}},
		// 20 occupies ranks 2 and 3: both get 2.5.
		{[]float64{10, 20, 20, 30}, []float64{1, 2.5, 2.5, 4}},
		// Three-way tie over ranks 1–3 → 2; the rest 4, 5.
		{[]float64{5, 5, 9, 5, 6}, []float64{2, 2, 5, 2, 4}},
		// Constant: every value spans ranks 1–4 → (1+4)/2.
		{[]float64{1, 1, 1, 1}, []float64{2.5, 2.5, 2.5, 2.5}},
	} {
		got := Ranks(tc.x)
		if !floats.Equal(got, tc.want) {
			t.Errorf("Ranks(%v) = %v, want %v", tc.x, got, tc.want)
		}
		// The ranks always sum to n(n+1)/2.
		n := float64(len(tc.x))
		if s := floats.Sum(got); s != n*(n+1)/2 {
			t.Errorf("Ranks(%v) sums to %g, want %g", tc.x, s, n*(n+1)/2)
		}
	}
}

func TestRanksNaNPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Ranks of NaN did not panic")
		}
	}()
	Ranks([]float64{1, math.NaN()})
}

func TestSpearman(t *testing.T) {
	const tol = 1e-14
	for _, tc := range []struct {
		name string
		x, y []float64
		want float64
	}{
		// No ties: 1 − 6Σd²/(n(n²−1)) with d = (−1, 1, −1, 1, 0), Σd² = 4:
		// 1 − 24/120 = 0.8.
		{"no ties", []float64{1, 2, 3, 4, 5}, []float64{2, 1, 4, 3, 5}, 0.8},
		// Ties in y: ranks (1, 2, 3.5, 5, 3.5) against (1, …, 5). Centred:
		// dx = (−2, −1, 0, 1, 2), dy = (−2, −1, 0.5, 2, 0.5); Σdx·dy = 8,
		// Σdx² = 10, Σdy² = 9.5, ρ = 8/√95 (R: cor(1:5, c(5,6,7,8,7),
		// method = "spearman") = 0.8207827).
		{"ties", []float64{1, 2, 3, 4, 5}, []float64{5, 6, 7, 8, 7}, 8 / math.Sqrt(95)},
		// Ranks only: any increasing map of x correlates perfectly.
		{"monotone", []float64{0.1, 1, 2, 30}, []float64{math.Exp(0.1), math.E, math.Exp(2), math.Exp(30)}, 1},
		{"reversed", []float64{1, 2, 3}, []float64{9, 4, 1}, -1},
	} {
		got := Spearman(tc.x, tc.y)
		if !scalar.EqualWithinAbsOrRel(got, tc.want, tol, tol) {
			t.Errorf("%s: Spearman = %v, want %v", tc.name, got, tc.want)
		}
		// Symmetric in its arguments.
		if back := Spearman(tc.y, tc.x); !scalar.EqualWithinAbsOrRel(back, got, tol, tol) {
			t.Errorf("%s: Spearman(y, x) = %v, Spearman(x, y) = %v", tc.name, back, got)
		}
	}
}

// TestSpearmanUndefined: a constant series (zero rank variance), a single
// pair or a NaN leaves ρ undefined, and Spearman says so with NaN rather
// than a number a caller could mistake for "no correlation".
func TestSpearmanUndefined(t *testing.T) {
	for _, tc := range []struct {
		name string
		x, y []float64
	}{
		{"constant y", []float64{1, 2, 3}, []float64{4, 4, 4}},
		{"constant x", []float64{2, 2}, []float64{1, 3}},
		{"both constant", []float64{0, 0, 0}, []float64{1, 1, 1}},
		{"one pair", []float64{1}, []float64{2}},
		{"empty", nil, nil},
		{"NaN", []float64{1, 2, 3}, []float64{1, math.NaN(), 3}},
	} {
		if got := Spearman(tc.x, tc.y); !math.IsNaN(got) {
			t.Errorf("%s: Spearman = %v, want NaN", tc.name, got)
		}
	}
}

func TestSpearmanLengthPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Spearman of different lengths did not panic")
		}
	}()
	Spearman([]float64{1, 2}, []float64{1, 2, 3})
}
