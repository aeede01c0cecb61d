package matrix

import (
	"math"
	"testing"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/runner"
	"github.com/runexp/runexp/internal/stats"
)

// Three methods on one benchmark of 40 images. B's errors are 1 + a
// spread; A's are B's minus 0.5 ± 0.05, so every paired difference is in
// [−0.55, −0.45] and A must win. C's differ from B's by +1 and −0.9 in
// turn: C's mean is lower than B's (by 0.05), so C ranks above B, but the
// differences' interval covers 0 and C must not win.
func TestWinsNeedAnIntervalExcludingZero(t *testing.T) {
	const n = 40
	a, b, c := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range b {
		b[i] = 1 + 0.3*math.Sin(float64(i))
		a[i] = b[i] - 0.5 + 0.05*math.Cos(float64(3*i))
		if i%2 == 0 {
			c[i] = b[i] + 1
		} else {
			c[i] = b[i] - 1.1
		}
	}
	in := &instance{
		env:     runner.NewEnv(&config.Config{Seed: 7}, "", nil),
		opt:     options{level: 0.95, resamples: 1000},
		benches: []*prepared{{benchmark: &benchmark{name: "x"}}},
	}
	g := &grid{labels: []string{"A", "B", "C"}}
	for _, e := range [][]float64{a, b, c} {
		m, _ := stats.Mean(column(e), 0.95, 1000, runner.NewRand(1, "t"))
		g.s = append(g.s, []score{{errs: e, est: m}})
	}
	// The intervals the verdicts rest on, computed here directly.
	dab, err := stats.PairedDiff(column(a), column(b), 0.95, 1000, runner.NewRand(1, "ab"))
	if err != nil || !(dab.CI.Hi < 0) {
		t.Fatalf("A − B interval %v (%v), want it below 0", dab.CI, err)
	}
	dcb, err := stats.PairedDiff(column(c), column(b), 0.95, 1000, runner.NewRand(1, "cb"))
	if err != nil || !dcb.CI.Covers(0) || !(dcb.Mean < 0) {
		t.Fatalf("C − B: mean %v interval %v (%v), want a negative mean with an interval covering 0", dcb.Mean, dcb.CI, err)
	}
	w := in.wins(g)
	want := [][]int{
		{0, 1, 1}, // A beats B, and C (C − A ≈ +0.45 ± 1: checked below)
		{0, 0, 0},
		{0, 0, 0},
	}
	dca, _ := stats.PairedDiff(column(c), column(a), 0.95, 1000, runner.NewRand(1, "ca"))
	if dca.CI.Covers(0) {
		want[0][2] = 0
	}
	for i := range want {
		for j := range want[i] {
			if w[i][j] != want[i][j] {
				t.Errorf("wins[%s][%s] = %d, want %d (all %v)", g.labels[i], g.labels[j], w[i][j], want[i][j], w)
			}
		}
	}
	rk, _, _ := g.rankTable()
	if rk[0][0] != 1 || rk[2][0] != 2 || rk[1][0] != 3 {
		t.Errorf("ranks A, B, C = %v, %v, %v; want 1, 3, 2", rk[0][0], rk[1][0], rk[2][0])
	}
}

// Ties share the mean of their positions; NaN is unranked.
func TestRanks(t *testing.T) {
	got := ranks([]float64{0.3, 0.1, math.NaN(), 0.3, 0.2, 0.3})
	want := []float64{4, 1, math.NaN(), 4, 2, 4} // positions 3, 4, 5 → 4
	for i := range want {
		if got[i] != want[i] && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
			t.Errorf("ranks = %v, want %v", got, want)
			break
		}
	}
}
