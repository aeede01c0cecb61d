package metrics

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestAPESNR(t *testing.T) {
	clean := []float64{0, 0.5, 1, 0.25}
	z := []float64{0.1, 0.5, 0.8, 0.25}
	// |0.1| + |−0.2| over 4 pixels on 0–255.
	if got := APE(z, clean, 255); math.Abs(got-0.3/4*255) > 1e-12 {
		t.Errorf("APE %g, want %g", got, 0.3/4*255)
	}
	noisy := []float64{0.3, 0.4, 1, 0.25}
	// ‖z−noisy‖² = 0.04 + 0.01 + 0.04 = 0.09; ‖z−clean‖² = 0.01 + 0.04 = 0.05.
	if got := SNR(z, noisy, clean); math.Abs(got-0.09/0.05) > 1e-12 {
		t.Errorf("SNR %g, want 1.8", got)
	}
	if SNR(noisy, noisy, clean) != 0 {
		t.Error("the noisy input must score SNR 0 (Huang et al. Table 1)")
	}
	if !math.IsInf(SNR(clean, noisy, clean), 1) {
		t.Error("the clean image must score +Inf")
	}
	// Paper's a1: Gaussian noise of std 0.06 on [0, 1] gives APE ≈
	// 0.06·255·√(2/π) = 12.21 on 0–255 (E|N(0, s²)| = s√(2/π)).
	rng := rand.New(rand.NewPCG(1, 1))
	c := make([]float64, 200000)
	n := make([]float64, len(c))
	for i := range n {
		n[i] = 0.06 * rng.NormFloat64()
	}
	if got, want := APE(n, c, 255), 0.06*255*math.Sqrt(2/math.Pi); math.Abs(got-want) > 0.05 {
		t.Errorf("APE of std-0.06 noise %g, want ≈ %g", got, want)
	}
}

// TestPooledSNR: two images whose per-image ratios are 4 and 0.25 (by
// hand: ‖z−noisy‖² = 4, ‖z−clean‖² = 1 for the first; 1 and 4 for the
// second) average to 2.125 per image but pool to (4+1)/(1+4) = 1: the two
// readings of Huang et al.'s Table 1 SNR (ambiguity a2) differ.
func TestPooledSNR(t *testing.T) {
	clean := []float64{0, 0}
	z1, n1 := []float64{1, 0}, []float64{3, 0} // num 4, den 1
	z2, n2 := []float64{2, 0}, []float64{1, 0} // num 1, den 4
	var num, den []float64
	for _, c := range [][2][]float64{{z1, n1}, {z2, n2}} {
		a, b := SNRTerms(c[0], c[1], clean)
		num = append(num, a)
		den = append(den, b)
	}
	if num[0] != 4 || den[0] != 1 || num[1] != 1 || den[1] != 4 {
		t.Fatalf("terms %v / %v, want [4 1] / [1 4]", num, den)
	}
	if got := PooledSNR(num, den); got != 1 {
		t.Errorf("pooled SNR %g, want 1", got)
	}
	if got := (SNR(z1, n1, clean) + SNR(z2, n2, clean)) / 2; got != 2.125 {
		t.Errorf("mean of per-image SNR %g, want 2.125", got)
	}
	if !math.IsNaN(PooledSNR(nil, nil)) {
		t.Error("pooled SNR of no images must be NaN")
	}
	if !math.IsInf(PooledSNR([]float64{1}, []float64{0}), 1) {
		t.Error("pooled SNR with a zero denominator must be +Inf")
	}
}
