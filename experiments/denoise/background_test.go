package denoise

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
)

// TestBackgroundNoise: the RMS deviation from the clean image's
// background value over its background pixels, over its range, by hand.
// The clean image (−1, −1, 1, 0.5) has background −1 on its first two
// pixels and range 2: a pre-image with those at −1 scores 0; one with
// them at 0 (the ℓ1 penalty's exact zeros on [−1, 1] data) scores
// √((1² + 1²)/2) / 2 = 0.5; one with them at −0.8 and −1.2 scores
// √((0.04 + 0.04)/2) / 2 = 0.1. On [0, 1] data the same digit, (0, 0, 1,
// 0.75), with zeros there scores 0. A flat clean image has no background
// to tell: NaN.
func TestBackgroundNoise(t *testing.T) {
	clean := []float64{-1, -1, 1, 0.5}
	for _, tc := range []struct {
		z, clean []float64
		want     float64
	}{
		{[]float64{-1, -1, 0.9, 0.4}, clean, 0},
		{[]float64{0, 0, 0.9, 0.4}, clean, 0.5},
		{[]float64{-0.8, -1.2, 0.9, 0.4}, clean, 0.1},
		{[]float64{0, 0, 0.9, 0.4}, []float64{0, 0, 1, 0.75}, 0},
	} {
		if got := backgroundNoise(tc.z, tc.clean); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("backgroundNoise(%v, %v) = %v, want %v", tc.z, tc.clean, got, tc.want)
		}
	}
	if got := backgroundNoise([]float64{1, 2}, []float64{3, 3}); !math.IsNaN(got) {
		t.Errorf("flat clean image: %v, want NaN", got)
	}
}

// TestBackgroundClaimControls: Abrahamsen & Hansen's c6, "only a minimum
// of background noise is present" (Fig. 6, Lasso), read against the
// digits' real background. Positive control: Lasso's pre-images keep the
// background at −1 while Tikhonov's and Mika's stray by 0.2 of the range:
// PASS on the interval over the test digits. Negative control: Lasso's
// background at 0 on [−1, 1] digits, the exact zeros an ℓ1 penalty gives,
// half the range from the real background: FAIL, although its share of
// exactly-zero pixels (the old check, "more exactly-zero pixels than
// Tikhonov") is the largest and passes.
func TestBackgroundClaimControls(t *testing.T) {
	const n = 60
	cell := func(method string, bg, zeros func(i int) float64) report.Record {
		p := map[string]any{"method": method}
		r := report.Record{Key: config.CanonicalKey(p), Params: p, Status: report.StatusOK, Metrics: map[string]float64{},
			Arrays: map[string][]float64{backgroundArray: make([]float64, n), "zeros": make([]float64, n)}}
		for i := range n {
			r.Arrays[backgroundArray][i], r.Arrays["zeros"][i] = bg(i), zeros(i)
		}
		r.Metrics[string(BackgroundNoise)] = mean(r.Arrays[backgroundArray])
		r.Metrics["zero_fraction"] = mean(r.Arrays["zeros"])
		return r
	}
	wobble := func(c float64) func(int) float64 {
		return func(i int) float64 { return c + 0.02*float64(i%5-2) }
	}
	none := func(int) float64 { return 0 }
	others := []report.Record{cell("Tikhonov", wobble(0.2), none), cell("Mika", wobble(0.25), none)}
	clean := append([]report.Record{cell("Lasso", wobble(0.03), func(int) float64 { return 0.005 })}, others...)
	grey := append([]report.Record{cell("Lasso", wobble(0.5), func(int) float64 { return 0.4 })}, others...)

	check := func(text string) config.Claim {
		c, err := config.Parse("c.yaml", []byte("title: t\npaper: p\nkind: denoise\ndataset: {name: usps}\nclaims:\n  - id: c6\n    statement: s\n    check: "+text+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		return c.Claims[0]
	}
	background := check("{type: best, metric: background_noise, among: method, winner: Lasso, sense: min}")
	zeros := check("{type: compare, metric: zero_fraction, left: {method: Lasso}, op: '>', right: {method: Tikhonov}}")
	o := claims.Options{Items: items, Counts: true, Rand: func(string) *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }}
	if res := claims.EvaluateWith(background, clean, o); res.Status != claims.Pass || res.Basis != "interval" {
		t.Errorf("Lasso with a clean background: %s (%s), want PASS on the interval; %s", res.Status, res.Basis, res.Evidence)
	}
	if res := claims.EvaluateWith(background, grey, o); res.Status != claims.Fail {
		t.Errorf("Lasso's zeros on a −1 background: %s, want FAIL; %s", res.Status, res.Evidence)
	}
	if res := claims.EvaluateWith(zeros, grey, o); res.Status != claims.Pass {
		t.Errorf("the zero-pixel check on the grey background: %s; it passes, which is why it is too weak", res.Status)
	}
}

func mean(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}
