package stats_test

import (
	"math"
	"testing"

	"github.com/runexp/runexp/internal/stats"
)

// TestTMeanHand: x = 1, 2, 3, 4, 5 has mean 3 and sample variance 2.5, so
// s/√n = √(2.5/5) = √0.5; t_{4, 0.975} = 2.776 (NIST/SEMATECH
// e-Handbook §1.3.6.7.2, table of upper critical values of the t
// distribution, ν = 4, α = 0.025: 2.776) gives the half-width
// 2.776·√0.5 = 1.963 and the interval [1.037, 4.963]. The table has 3
// decimals, so the tolerance is 1e-3·√0.5 on each end.
func TestTMeanHand(t *testing.T) {
	e, err := stats.TMean([]float64{1, 2, 3, 4, 5}, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	h := 2.776 * math.Sqrt(0.5)
	tol := 1e-3 * math.Sqrt(0.5)
	if e.Mean != 3 || math.Abs(e.CI.Lo-(3-h)) > tol || math.Abs(e.CI.Hi-(3+h)) > tol || e.CI.Level != 0.95 || e.Items != 5 {
		t.Errorf("TMean(1..5) = %v (level %v, %d items), want 3 [%.4f, %.4f]", e, e.CI.Level, e.Items, 3-h, 3+h)
	}
	// t_{9, 0.995} = 3.250 (same table, ν = 9, α = 0.005).
	if q := stats.TQuantile(9, 0.995); math.Abs(q-3.250) > 1e-3 {
		t.Errorf("t_{9, 0.995} = %v, want 3.250", q)
	}
}

// TestTMeanEdges: a constant sample has the point interval; fewer than two
// items, a bad level or a NaN item is an error, not a panic.
func TestTMeanEdges(t *testing.T) {
	e, err := stats.TMean([]float64{2, 2, 2}, 0.95)
	if err != nil || e.CI.Lo != 2 || e.CI.Hi != 2 {
		t.Errorf("constant sample: %v, %v; want [2, 2]", e, err)
	}
	for _, c := range []struct {
		x     []float64
		level float64
	}{{[]float64{1}, 0.95}, {[]float64{1, 2}, 1}, {[]float64{1, math.NaN()}, 0.95}} {
		if _, err := stats.TMean(c.x, c.level); err == nil {
			t.Errorf("TMean(%v, %v): no error", c.x, c.level)
		}
	}
}
