package methods

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The Geman–McClure scale of Nguyen & De la Torre §3.3 is
// σ = 1.4826·median|z_i − x_i|. Hand-worked: residuals z − x =
// (3, −1, 4, −1, 5) have |·| = (3, 1, 4, 1, 5), sorted (1, 1, 3, 4, 5),
// median 3, σ = 4.4478. Masking the 4 (entry 2) leaves (1, 1, 3, 5), an even
// count, median (1 + 3)/2 = 2, σ = 2.9652.
func TestGemanMcClureScale(t *testing.T) {
	z := []float64{3, 0, 4, 1, 5}
	x := []float64{0, 1, 0, 2, 0}
	res := make([]float64, len(z))
	if got, want := gemanMcClureScale(res, z, x, nil), 4.4478; math.Abs(got-want) > 1e-12 {
		t.Errorf("σ = %v, want %v", got, want)
	}
	obs := []float64{1, 1, 0, 1, 1}
	if got, want := gemanMcClureScale(res, z, x, obs), 2.9652; math.Abs(got-want) > 1e-12 {
		t.Errorf("masked σ = %v, want %v", got, want)
	}
	if got := gemanMcClureScale(res, z, x, []float64{0, 0, 0, 0, 0}); got != 0 {
		t.Errorf("σ with nothing observed = %v, want 0", got)
	}
}

// TestSelectKthMatchesSort: selectKth returns the order statistic sorting
// gives, on seeded random data with many ties, every k, lengths 1–40.
func TestSelectKthMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for n := 1; n <= 40; n++ {
		for trial := 0; trial < 20; trial++ {
			a := make([]float64, n)
			for i := range a {
				a[i] = float64(rng.IntN(7)) * 0.25
			}
			sorted := slices.Clone(a)
			slices.Sort(sorted)
			for k := 0; k < n; k++ {
				b := slices.Clone(a)
				if got := selectKth(b, k); got != sorted[k] {
					t.Fatalf("n=%d k=%d: %v, want %v (input %v)", n, k, got, sorted[k], a)
				}
				if k > 0 && slices.Max(b[:k]) != sorted[k-1] {
					t.Fatalf("n=%d k=%d: max below k is %v, want %v", n, k, slices.Max(b[:k]), sorted[k-1])
				}
			}
		}
	}
}
