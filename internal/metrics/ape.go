package metrics

import (
	"fmt"
	"math"
)

// APE returns the average pixel error ‖z − clean‖₁/d of Huang, Tian & De la
// Torre (2011, eq. 14), times scale: their Table 1 reads on the 0–255 grey
// scale (ambiguity a1: noisy inputs score ≈12 = E|N(0, (0.06·255)²)|), so
// images stored on [0, 1] use scale 255.
func APE(z, clean []float64, scale float64) float64 {
	if len(z) != len(clean) || len(z) == 0 {
		panic(fmt.Sprintf("metrics: lengths %d and %d", len(z), len(clean)))
	}
	var s float64
	for i, v := range z {
		s += math.Abs(v - clean[i])
	}
	return scale * s / float64(len(z))
}

// SNR returns Huang et al.'s eq. 14, ‖z − noisy‖²/‖z − clean‖²: how far the
// de-noised z moved from the noisy input relative to how far it stays from
// the clean one (a plain ratio, 0 for z = noisy; ambiguity a2). It is +Inf
// when z equals the clean image.
func SNR(z, noisy, clean []float64) float64 {
	num, den := SNRTerms(z, noisy, clean)
	if den == 0 {
		return math.Inf(1)
	}
	return num / den
}

// SNRTerms returns the numerator ‖z − noisy‖² and the denominator
// ‖z − clean‖² of SNR. Summed over a set of images they give the pooled
// reading of Huang et al.'s Table 1 SNR (ambiguity a2), Σ‖z − noisy‖² /
// Σ‖z − clean‖²: a ratio of sums, which no single image with a tiny
// denominator can dominate, beside the mean of per-image ratios.
func SNRTerms(z, noisy, clean []float64) (num, den float64) {
	if len(z) != len(clean) || len(z) != len(noisy) || len(z) == 0 {
		panic(fmt.Sprintf("metrics: lengths %d, %d and %d", len(z), len(noisy), len(clean)))
	}
	for i, v := range z {
		a := v - noisy[i]
		b := v - clean[i]
		num += a * a
		den += b * b
	}
	return num, den
}

// PooledSNR returns Σ num / Σ den over the images whose SNRTerms are
// given: +Inf when every denominator is 0, NaN for no images.
func PooledSNR(num, den []float64) float64 {
	if len(num) != len(den) {
		panic(fmt.Sprintf("metrics: %d numerators and %d denominators", len(num), len(den)))
	}
	if len(num) == 0 {
		return math.NaN()
	}
	var n, d float64
	for i := range num {
		n += num[i]
		d += den[i]
	}
	if d == 0 {
		return math.Inf(1)
	}
	return n / d
}
