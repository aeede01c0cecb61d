package figs

import (
	"slices"
	"testing"
)

// TestLinearTicks checks the labels of LinearTicks on hand-worked ranges:
// LPKPCA Fig. 2's accuracy axis (about 53–97 %) gets a label every 10
// (44/5 = 8.8, the next step of 1, 2, 2.5, 5, 10 × 10ⁿ), not 55, 75, 95.
func TestLinearTicks(t *testing.T) {
	for _, tc := range []struct {
		min, max float64
		want     []string
	}{
		{53, 97, []string{"60", "70", "80", "90"}},
		{0, 1, []string{"0", "0.2", "0.4", "0.6", "0.8", "1"}}, // 0.2, 3 × 0.2 read 0.6
		{-1.5, 1.5, []string{"-1", "0", "1"}},                  // 3/5 = 0.6 → 1
		{0.05, 0.8, []string{"0.2", "0.4", "0.6", "0.8"}},      // 0.15 → 0.2
		{12, 37, []string{"15", "20", "25", "30", "35"}},       // 5
		{0.1, 0.23, []string{"0.1", "0.15", "0.2"}},            // 0.026 → 0.05
	} {
		var got []string
		for _, tk := range (LinearTicks{}).Ticks(tc.min, tc.max) {
			got = append(got, tk.Label)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("[%g, %g]: labels %q, want %q", tc.min, tc.max, got, tc.want)
		}
	}
}
