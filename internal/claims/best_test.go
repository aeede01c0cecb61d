package claims_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
)

// bestDraw simulates one run of a best check: n test items with a large
// item effect (uniform on [0, 10), shared by every candidate and paired
// away), candidate "W" and rivals "R1".."Rm" scoring item effect + shift
// + N(0, 1). W's shift is delta, the rivals' 0. The bootstrap stream is
// seeded by the draw, so draws are independent.
func bestDraw(t *testing.T, check string, n, m int, delta float64, draw uint64) claims.Result {
	t.Helper()
	rnd := rand.New(rand.NewPCG(17, draw))
	u := make([]float64, n)
	for i := range u {
		u[i] = 10 * rnd.Float64()
	}
	cand := func(name string, shift float64) report.Record {
		e := make([]float64, n)
		for i := range e {
			e[i] = u[i] + shift + rnd.NormFloat64()
		}
		return itemRec(name, e)
	}
	recs := []report.Record{cand("W", delta)}
	for j := range m {
		recs = append(recs, cand("R"+string(rune('1'+j)), 0))
	}
	o := itemOpts(true, 1)
	o.Rand = func(key string) *rand.Rand { return rand.New(rand.NewPCG(draw, uint64(len(key)))) }
	return claims.EvaluateWith(claim(t, check), recs, o)
}

// rates counts a best check's interval verdicts over draws.
func rates(t *testing.T, check string, n, m int, delta float64, draws int) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	for d := range draws {
		res := bestDraw(t, check, n, m, delta, uint64(d))
		if res.Basis != "interval" {
			t.Fatalf("draw %d: basis %q, want an interval; evidence %s", d, res.Basis, res.Evidence)
		}
		out[res.Verdict] += 1 / float64(draws)
	}
	return out
}

// TestBestPlanted: W's mean is 1 below (sense min) each of 2 rivals on 40
// items with unit noise, so each paired difference has standard error
// √2/√40 ≈ 0.22 and lies about 4.5 standard errors below zero: the
// claim "W is best" passes in nearly every draw, and "W is best" with
// W 1 above its rivals fails in nearly every draw (the interval of each
// rival excludes zero on the wrong side). Bounds: 95% of 40 draws; the
// chance that a 4.5-SE difference's interval reaches zero is below 1%.
func TestBestPlanted(t *testing.T) {
	const check = "{type: best, metric: m, winner: W, sense: min}"
	if r := rates(t, check, 40, 2, -1, 40); r[claims.Pass] < 0.95 {
		t.Errorf("planted winner: verdict rates %v, want PASS in at least 95%% of draws", r)
	}
	if r := rates(t, check, 40, 2, 1, 40); r[claims.Fail] < 0.95 {
		t.Errorf("planted loser: verdict rates %v, want FAIL in at least 95%% of draws", r)
	}
	// sense: max turns both around.
	const maxCheck = "{type: best, metric: m, winner: W, sense: max}"
	if r := rates(t, maxCheck, 40, 2, 1, 40); r[claims.Pass] < 0.95 {
		t.Errorf("planted winner (max): verdict rates %v, want PASS in at least 95%% of draws", r)
	}
	if r := rates(t, maxCheck, 40, 2, -1, 40); r[claims.Fail] < 0.95 {
		t.Errorf("planted loser (max): verdict rates %v, want FAIL in at least 95%% of draws", r)
	}
}

// TestBestNullRate: every candidate's scores come from one distribution.
// With one rival the claim is INCONCLUSIVE when the 95% interval of
// W − R1 covers zero: nominally 0.949 (an exact normal interval: 1 − 2 ×
// 0.0256). With 3 rivals it FAILs when any of three intervals lies above
// zero and PASSes only when all three lie below; the three differences
// share W, so they are normal with correlation 1/2, and INCONCLUSIVE has
// nominal rate 0.936 (FAIL 0.062, PASS 0.002; 200 000 simulated draws of
// the normal differences). The BCa bootstrap over 40 items covers a
// little under nominal: 400 draws gave 0.935 and 0.915, the 200 here
// 0.920 and 0.920. Tolerance:
// 0.05, over 3 binomial standard errors at 200 draws (√(0.94·0.06/200) ≈
// 0.017).
func TestBestNullRate(t *testing.T) {
	const check = "{type: best, metric: m, winner: W, sense: min}"
	for _, tc := range []struct {
		m    int
		want float64
	}{{1, 0.949}, {3, 0.936}} {
		r := rates(t, check, 40, tc.m, 0, 200)
		t.Logf("%d rivals: %v", tc.m, r)
		if got := r[claims.Inconclusive]; got < tc.want-0.05 || got > tc.want+0.05 {
			t.Errorf("%d rivals under the null: INCONCLUSIVE in %.3f of draws, want %.3f ± 0.05 (rates %v)", tc.m, got, tc.want, r)
		}
	}
}

// TestBestDeciding: the deciding interval is the rival that comes closest
// to beating the winner, and the rivals share the resampled items (the
// same stream for every rival of a group), so a rival identical to R1
// gets R1's interval exactly.
func TestBestDeciding(t *testing.T) {
	a, b := pairOf(func(i int) float64 { return 1 + 0.3*float64(i%3-1) }) // b = a + ~1
	c := make([]float64, len(a))
	for i := range c {
		c[i] = b[i] + 2 // a further rival
	}
	recs := []report.Record{itemRec("A", a), itemRec("B", b), itemRec("C", c), itemRec("D", append([]float64(nil), b...))}
	res := claims.EvaluateWith(claim(t, "{type: best, metric: m, winner: A, sense: min}"), recs, itemOpts(true, 1))
	if res.Verdict != claims.Pass || res.PointVerdict != claims.Pass || res.Status != claims.Pass {
		t.Fatalf("verdict %s point %s status %s, want PASS; evidence %s", res.Verdict, res.PointVerdict, res.Status, res.Evidence)
	}
	diff := metrics.Summarize(a).Mean - metrics.Summarize(b).Mean
	if !(*res.CILo <= diff && diff <= *res.CIHi && *res.CIHi < 0) {
		t.Errorf("deciding interval [%v, %v], want B's, holding %v and below 0", *res.CILo, *res.CIHi, diff)
	}
	if !strings.Contains(res.CIMethod, "deciding rival: vs B") {
		t.Errorf("ci_method %q does not name rival B", res.CIMethod)
	}
	// B and D hold the same scores: on the same resampled items their
	// intervals are the same text in the evidence.
	iv := func(name string) string {
		i := strings.Index(res.Evidence, "vs "+name+": ")
		if i < 0 {
			t.Fatalf("no interval for %s in %s", name, res.Evidence)
		}
		rest := res.Evidence[i+len("vs "+name+": "):]
		return rest[:strings.Index(rest, "]")+1]
	}
	if iv("B") != iv("D") {
		t.Errorf("identical rivals B %s and D %s got different intervals: not the same resampled items", iv("B"), iv("D"))
	}
	// A tie on every item is [0, 0]: INCONCLUSIVE, not FAIL; the two
	// sides are equal, so the point verdict too cannot discriminate.
	tie := []report.Record{itemRec("A", a), itemRec("B", append([]float64(nil), a...))}
	res = claims.EvaluateWith(claim(t, "{type: best, metric: m, winner: A, sense: min}"), tie, itemOpts(true, 1))
	if res.PointVerdict != claims.Inconclusive || res.Verdict != claims.Inconclusive || res.CannotDiscriminate == "" {
		t.Errorf("tie: point %s interval %s, want INCONCLUSIVE for both, cannot discriminate; evidence %s", res.PointVerdict, res.Verdict, res.Evidence)
	}
	// Without per-item scores for the metric the point verdict stands.
	res = claims.EvaluateWith(claim(t, "{type: best, metric: x, winner: A, sense: min}"),
		[]report.Record{rec(map[string]any{"method": "A"}, map[string]float64{"x": 1}), rec(map[string]any{"method": "B"}, map[string]float64{"x": 2})}, itemOpts(true, 1))
	if res.Verdict != claims.Pass || !strings.HasPrefix(res.Basis, "point: ") {
		t.Errorf("no per-item scores: verdict %s basis %q, want the point PASS", res.Verdict, res.Basis)
	}
}

// TestJointStatistic: a metric that is a ratio of sums of two per-item
// arrays (ItemStat.Arrays and Joint) gets an interval of the ratio
// itself. A's ratio Σnum/Σden is 2 on every item and B's is 1, so the
// bootstrap of ratio(A) − ratio(B) is the point 1 on every resample:
// the interval is [1, 1] and "A > B" passes. An item where A's
// denominator is NaN drops the item from A's sums only.
func TestJointStatistic(t *testing.T) {
	const n = 20
	num, denA, denB := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range num {
		num[i] = float64(1 + i%7)
		denA[i], denB[i] = num[i]/2, num[i]
	}
	denA[3] = math.NaN()
	ratio := func(num, den []float64) float64 {
		var a, b float64
		for i := range num {
			if !math.IsNaN(den[i]) {
				a += num[i]
				b += den[i]
			}
		}
		return a / b
	}
	mk := func(m string, den []float64) report.Record {
		r := rec(map[string]any{"method": m}, map[string]float64{"pooled": ratio(num, den)})
		r.Arrays = map[string][]float64{"num": num, "den": den}
		return r
	}
	o := itemOpts(true, 1)
	o.Items = func(_ *report.Record, metric string) (claims.ItemStat, bool) {
		return claims.ItemStat{Arrays: []string{"num", "den"}, Joint: func(_ *report.Record, c [][]float64) float64 {
			return metrics.PooledSNR(c[0], c[1])
		}}, metric == "pooled"
	}
	res := claims.EvaluateWith(claim(t, "{type: compare, metric: pooled, left: {method: A}, op: '>', right: {method: B}}"), []report.Record{mk("A", denA), mk("B", denB)}, o)
	if res.Verdict != claims.Pass || res.Basis != "interval" || *res.CILo != 1 || *res.CIHi != 1 {
		t.Errorf("verdict %s (%s), interval [%v, %v]; want PASS on [1, 1]; evidence %s", res.Verdict, res.Basis, deref(res.CILo), deref(res.CIHi), res.Evidence)
	}
}

func deref(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}
