package suite

import (
	"math"
	"testing"
	"time"
)

// TestSimulateBounded: on times Workload.Check refuses (an infinite
// one), the simulation returns NaN at once instead of spinning on
// Inf − Inf; on sound ones it gives the time derived by hand (one
// worker runs 1 + 5 + 2 + 1 s).
func TestSimulateBounded(t *testing.T) {
	w := Workload{{Config: "a", Start: 1, Report: 1, Cells: []float64{5, 2}, Keys: []string{"a1", "a2"}}}
	if got := simulate(w, 1); got != 9 {
		t.Errorf("simulate: %g s, want 9", got)
	}
	w[0].Cells[0] = math.Inf(1)
	w = append(w, ConfigWork{Config: "b", Cells: []float64{math.Inf(1), 3}, Keys: []string{"b1", "b2"}})
	done := make(chan float64)
	go func() { done <- simulate(w, 2) }()
	select {
	case got := <-done:
		if !math.IsNaN(got) {
			t.Errorf("simulate on infinite times: %g, want NaN", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("simulate on infinite times still running after 10 s")
	}
	if w.Check() == nil {
		t.Error("Check accepted an infinite time")
	}
}
