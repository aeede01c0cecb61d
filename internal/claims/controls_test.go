package claims_test

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
)

// control is one synthetic control of a claim check: records built so
// that the check must give want. Every family of controls has a positive
// control (PASS), a negative one (FAIL: the same records with the claim's
// sign flipped, or the effect reversed) and one at the threshold
// (INCONCLUSIVE: an interval covering the boundary, or, on a point
// verdict, two sides equal so the check cannot discriminate them).
type control struct {
	name, check string
	recs        []report.Record
	opts        claims.Options
	want        string
	// interval marks a control judged on an interval (Basis
	// "interval"); otherwise the verdict is the point verdict.
	interval bool
}

// meanTRecs are 3 cells q = 10, 20, 30 of a metric acc declared a mean
// over 5 splits (ItemStat.MeanT), with the options that declare it.
// Split by split, q=30 − q=10 is 1, 2, 3, 2, 2 (mean 2, s = √0.5); q=20 −
// q=10 is 0.5, −1, 1, 1, −1 (mean 0.1, s ≈ 1.02, t half-width ≈ 1.27).
func meanTRecs() ([]report.Record, claims.Options) {
	mk := func(x float64, acc []float64) report.Record {
		r := rec(map[string]any{"q": x}, map[string]float64{"acc": metrics.Mean(acc)})
		r.Key = "q=" + strconv.FormatFloat(x, 'g', -1, 64)
		r.Arrays = map[string][]float64{"acc": acc}
		return r
	}
	recs := []report.Record{
		mk(10, []float64{60, 61, 62, 63, 64}),
		mk(20, []float64{60.5, 60, 63, 64, 63}),
		mk(30, []float64{61, 63, 65, 65, 66}),
	}
	o := itemOpts(true, 1)
	o.Items = func(_ *report.Record, metric string) (claims.ItemStat, bool) {
		return claims.ItemStat{Array: "acc", Stat: func(_ *report.Record, x []float64) float64 { return metrics.Mean(x) }, Unit: "splits", MeanT: true}, metric == "acc"
	}
	return recs, o
}

// givenRecs is TestGiven's pair: M right on items 0–39, T wrong on 40–44
// and 50–54 only, so T's accuracy on M's 20 failures is 0.5 and on M's
// 40 successes 1.
func givenRecs() []report.Record {
	m, tt := make([]float64, 60), make([]float64, 60)
	for i := range m {
		if i < 40 {
			m[i] = 1
		}
		tt[i] = 1
		if (i >= 40 && i < 45) || (i >= 50 && i < 55) {
			tt[i] = 0
		}
	}
	return []report.Record{itemRec("M", m), itemRec("T", tt)}
}

// TestControls runs every check kind, with each of its tests and
// intervals, on a positive, a negative and a threshold control.
func TestControls(t *testing.T) {
	point := claims.Options{}
	// Point cells: metric m, one cell per method.
	pt := func(vs map[string]float64) []report.Record {
		var out []report.Record
		for _, k := range []string{"A", "B", "C"} {
			if v, ok := vs[k]; ok {
				out = append(out, rec(map[string]any{"method": k}, map[string]float64{"m": v}))
			}
		}
		return out
	}
	c3 := []float64{1, 2, 3}
	// Paired items: B = A + 1 ± 0.3 on 60 items with an item effect up
	// to 10 (pairing removes it): the 95% interval of A − B is about
	// −1 ± 0.07. The null pair differs by +1 on 31 items and −1 on 29
	// (mean 2/60, half-width about 0.25): it covers 0.
	pa, pb := pairOf(func(i int) float64 { return 1 + 0.3*float64(i%3-1) })
	na, nb := pairOf(func(i int) float64 {
		if i < 31 {
			return 1
		}
		return -1
	})
	planted := []report.Record{itemRec("A", pa), itemRec("B", pb)}
	null := []report.Record{itemRec("A", na), itemRec("B", nb)}
	items := itemOpts(true, 1)
	mt, mto := meanTRecs()
	e := spread60() // mean ≈ 5, 95% half-width ≈ 0.07
	e60 := []report.Record{itemRec("A", e)}
	emean := metrics.Summarize(e).Mean
	xs := []float64{1, 2, 3, 4}
	up := trendRecs(xs, func(x float64) float64 { return x })
	// A rise of 0.01 per step against the item-by-item wobble of ±0.3
	// between cells: the endpoints' difference 0.03 has a 95% interval
	// about ±0.08 wide, and Spearman's ρ over 4 cells a bootstrap
	// interval spanning most of [−1, 1].
	weak := trendRecs(xs, func(x float64) float64 { return 0.01 * x })
	// The cells' means in the order of up4 (1, 3, 2, 4: ρ = 0.8, the
	// threshold), 0.01 apart against the same wobble: a resample of
	// items reorders them freely, so ρ's interval straddles 0.8.
	at8 := trendRecs(xs, func(x float64) float64 { return 0.01 * up4[int(x)-1] })
	flat := trendRecs(xs, func(x float64) float64 { return math.Min(x, 3) })
	rnd := rand.New(rand.NewPCG(36, 2))
	// splitRec: 5 splits, per-split noise 0.5: the t half-width of one
	// gain is about t_{4,0.975}·0.5/√5 ≈ 0.62 (0.49 in the draw here). A
	// gain of 2 is far above it; a gain of 0, judged against its own
	// estimate, is at the threshold.
	gain2 := []report.Record{splitRec(rnd, 5, 2)}
	gain0 := []report.Record{splitRec(rnd, 5, 0)}
	gain0Mean := gain0[0].Metrics["gain_a"]
	cmpAB := func(op string) string {
		return "{type: compare, metric: m, left: {method: A}, op: '" + op + "', right: {method: B}}"
	}
	ratioAB := func(op string) string {
		return "{type: ratio, metric: m, left: {method: A}, op: '" + op + "', right: {method: B}}"
	}
	bestW := func(w string) string { return "{type: best, metric: m, among: method, winner: " + w + ", sense: min}" }
	trend := func(test, dir string) string {
		return "{type: trend, metric: m, along: x, direction: " + dir + ", test: " + test + "}"
	}
	value := func(metric, op string, v float64, extra string) string {
		return "{type: value, metric: " + metric + ", op: '" + op + "', value: " + strconv.FormatFloat(v, 'g', -1, 64) + extra + "}"
	}
	for _, tc := range []control{
		// Trend, point verdicts (no per-item scores).
		{"trend/spearman/point/pos", "{type: trend, metric: m, along: c, direction: increasing}", series("c", c3, []float64{1, 2, 3}, nil), point, claims.Pass, false},                          // ρ = 1 ≥ 0.8
		{"trend/spearman/point/neg", "{type: trend, metric: m, along: c, direction: increasing}", series("c", c3, []float64{3, 2, 1}, nil), point, claims.Fail, false},                          // ρ = −1
		{"trend/spearman/point/at", "{type: trend, metric: m, along: c, direction: increasing}", series("c", c4, up4, nil), point, claims.Pass, false},                                          // ρ = 0.8 = min_rho: the point test is inclusive
		{"trend/endpoints/point/pos", "{type: trend, metric: m, along: c, direction: increasing, test: endpoints}", series("c", c3, []float64{1, 0, 3}, nil), point, claims.Pass, false},        // 3 > 1
		{"trend/endpoints/point/neg", "{type: trend, metric: m, along: c, direction: increasing, test: endpoints}", series("c", c3, []float64{3, 4, 1}, nil), point, claims.Fail, false},        // 1 < 3
		{"trend/endpoints/point/at", "{type: trend, metric: m, along: c, direction: increasing, test: endpoints}", series("c", c3, []float64{2, 5, 2}, nil), point, claims.Inconclusive, false}, // first = last: cannot discriminate
		{"trend/monotone/point/pos", "{type: trend, metric: m, along: c, direction: increasing, test: monotone}", series("c", c3, []float64{1, 1, 3}, nil), point, claims.Pass, false},          // a flat step is allowed
		{"trend/monotone/point/neg", "{type: trend, metric: m, along: c, direction: increasing, test: monotone}", series("c", c3, []float64{1, 3, 2}, nil), point, claims.Fail, false},          // 3 → 2 falls
		{"trend/monotone/point/at", "{type: trend, metric: m, along: c, direction: increasing, test: monotone}", series("c", c3, []float64{2, 2, 2}, nil), point, claims.Inconclusive, false},   // a flat series: cannot discriminate

		// Trend, bootstrap over the items the cells share.
		{"trend/endpoints/bca/pos", trend("endpoints", "increasing"), up, items, claims.Pass, true}, // last − first = 3 ± 0.1
		{"trend/endpoints/bca/neg", trend("endpoints", "decreasing"), up, items, claims.Fail, true}, // the same rise against a claimed fall
		{"trend/endpoints/bca/at", trend("endpoints", "increasing"), weak, items, claims.Inconclusive, true},
		{"trend/monotone/bca/pos", trend("monotone", "increasing"), up, items, claims.Pass, true},          // each step 1 ± 0.1
		{"trend/monotone/bca/neg", trend("monotone", "decreasing"), up, items, claims.Fail, true},          // every step the wrong way
		{"trend/monotone/bca/at", trend("monotone", "increasing"), flat, items, claims.Inconclusive, true}, // the last step is 0 ± wobble
		{"trend/spearman/bca/pos", trend("spearman", "increasing"), up, items, claims.Pass, true},          // ρ = 1 on every resample
		{"trend/spearman/bca/neg", trend("spearman", "decreasing"), up, items, claims.Fail, true},          // sign·ρ = −1 < 0.8
		{"trend/spearman/bca/at", trend("spearman", "increasing"), at8, items, claims.Inconclusive, true},
		// Trend over few splits: Student's t of the endpoints' difference.
		{"trend/endpoints/t/pos", "{type: trend, metric: acc, along: q, direction: increasing, test: endpoints}", mt, mto, claims.Pass, true},                              // 2 ± 0.88
		{"trend/endpoints/t/neg", "{type: trend, metric: acc, along: q, direction: decreasing, test: endpoints}", mt, mto, claims.Fail, true},                              // −2 ± 0.88
		{"trend/endpoints/t/at", "{type: trend, metric: acc, along: q, direction: increasing, test: endpoints, where: {q: [10, 20]}}", mt, mto, claims.Inconclusive, true}, // 0.1 ± 1.27

		// Compare.
		{"compare/point/pos", cmpAB("<"), pt(map[string]float64{"A": 1, "B": 2}), point, claims.Pass, false},                         // 1 < 2
		{"compare/point/neg", cmpAB("<"), pt(map[string]float64{"A": 2, "B": 1}), point, claims.Fail, false},                         // 2 < 1 is false
		{"compare/point/at", cmpAB("<"), pt(map[string]float64{"A": 1, "B": 1}), point, claims.Inconclusive, false},                  // equal sides
		{"compare/bca/pos", cmpAB("<"), planted, items, claims.Pass, true},                                                           // A − B = −1 ± 0.07
		{"compare/bca/neg", cmpAB(">"), planted, items, claims.Fail, true},                                                           // the same difference against a claimed A > B
		{"compare/bca/at", cmpAB("<"), null, items, claims.Inconclusive, true},                                                       // 2/60 ± 0.25 covers 0
		{"compare/t/pos", "{type: compare, metric: acc, left: {q: 30}, op: '>', right: {q: 10}}", mt, mto, claims.Pass, true},        // 2 ± 0.88 (t over 5 splits)
		{"compare/t/neg", "{type: compare, metric: acc, left: {q: 30}, op: '<', right: {q: 10}}", mt, mto, claims.Fail, true},        // 2 ± 0.88 against a claimed fall
		{"compare/t/at", "{type: compare, metric: acc, left: {q: 20}, op: '>', right: {q: 10}}", mt, mto, claims.Inconclusive, true}, // 0.1 ± 1.27 covers 0

		// Value against a constant; with given:; on a paired statistic.
		{"value/point/pos", value("m", ">", 1, ", where: {method: A}"), pt(map[string]float64{"A": 2}), point, claims.Pass, false},                                                  // 2 > 1
		{"value/point/neg", value("m", ">", 1, ", where: {method: A}"), pt(map[string]float64{"A": 0.5}), point, claims.Fail, false},                                                // 0.5 > 1 is false
		{"value/point/at", value("m", ">", 1, ", where: {method: A}"), pt(map[string]float64{"A": 1}), point, claims.Fail, false},                                                   // a constant bound is not a second side: 1 > 1 is false
		{"value/against/point/pos", value("m", ">", 1, ", where: {method: A}, against: {method: B}"), pt(map[string]float64{"A": 2, "B": 0.5}), point, claims.Pass, false},          // 2 > 1, apart from B's 0.5
		{"value/against/point/neg", value("m", ">", 1, ", where: {method: A}, against: {method: B}"), pt(map[string]float64{"A": 0.5, "B": 2}), point, claims.Fail, false},          // 0.5 > 1 is false, apart from B's 2
		{"value/against/point/at", value("m", ">", 1, ", where: {method: A}, against: {method: B}"), pt(map[string]float64{"A": 0.5, "B": 0.5}), point, claims.Inconclusive, false}, // A and B both 0.5: cannot discriminate
		{"value/bca/pos", value("m", ">", 4, ""), e60, items, claims.Pass, true},                                                                                                    // 5 ± 0.07 > 4
		{"value/bca/neg", value("m", "<", 4, ""), e60, items, claims.Fail, true},                                                                                                    // 5 ± 0.07 is not < 4
		{"value/bca/at", value("m", ">", emean+0.02, ""), e60, items, claims.Inconclusive, true},                                                                                    // the bound 0.02 above the mean, inside ± 0.07
		{"value/t/pos", value("acc", ">", 55, ", where: {q: 10}"), mt, mto, claims.Pass, true},                                                                                      // 62 ± 1.96
		{"value/t/neg", value("acc", ">", 70, ", where: {q: 10}"), mt, mto, claims.Fail, true},                                                                                      //
		{"value/t/at", value("acc", ">", 61.5, ", where: {q: 10}"), mt, mto, claims.Inconclusive, true},                                                                             // 61.5 inside 62 ± 1.96
		{"value/paired-t/pos", value("gain_a", ">", 0, ""), gain2, splitOpts(), claims.Pass, true},                                                                                  // a planted gain of 2: [1.83, 2.81]
		{"value/paired-t/neg", value("gain_a", "<", 0, ""), gain2, splitOpts(), claims.Fail, true},                                                                                  // [1.83, 2.81] against a claimed loss
		{"value/paired-t/at", value("gain_a", ">", gain0Mean, ""), gain0, splitOpts(), claims.Inconclusive, true},                                                                   // the bound at the estimate
		{"value/given/bca/pos", value("m", ">", 0.9, ", where: {method: T}, given: {cell: {method: M}, array: e, equals: 1}"), givenRecs(), items, claims.Pass, true},               // T right on all 40 of M's successes: [1, 1]
		{"value/given/bca/neg", value("m", ">", 0.9, ", where: {method: T}, given: {cell: {method: M}, array: e, equals: 0}"), givenRecs(), items, claims.Fail, true},               // T right on 10 of M's 20 failures: 0.5 ± 0.23
		{"value/given/bca/at", value("m", ">=", 0.5, ", where: {method: T}, given: {cell: {method: M}, array: e, equals: 0}"), givenRecs(), items, claims.Inconclusive, true},       // 0.5 at the bound 0.5

		// Best.
		{"best/point/pos", bestW("A"), pt(map[string]float64{"A": 1, "B": 2, "C": 3}), point, claims.Pass, false},                              // A lowest
		{"best/point/neg", bestW("B"), pt(map[string]float64{"A": 1, "B": 2, "C": 3}), point, claims.Fail, false},                              // B beaten by A
		{"best/point/at", bestW("A"), pt(map[string]float64{"A": 1, "B": 1, "C": 3}), point, claims.Inconclusive, false},                       // winner tied with a rival
		{"best/bca/pos", bestW("A"), planted, items, claims.Pass, true},                                                                        // A below B by 1 ± 0.07
		{"best/bca/neg", bestW("B"), planted, items, claims.Fail, true},                                                                        // B above A by 1 ± 0.07
		{"best/bca/at", bestW("A"), null, items, claims.Inconclusive, true},                                                                    // A − B = 2/60 ± 0.25
		{"best/t/pos", "{type: best, metric: acc, among: q, winner: 30, sense: max, where: {q: [10, 30]}}", mt, mto, claims.Pass, true},        // q=30 above q=10 by 2 ± 0.88
		{"best/t/neg", "{type: best, metric: acc, among: q, winner: 10, sense: max, where: {q: [10, 30]}}", mt, mto, claims.Fail, true},        // q=10 below q=30 by 2 ± 0.88
		{"best/t/at", "{type: best, metric: acc, among: q, winner: 20, sense: max, where: {q: [10, 20]}}", mt, mto, claims.Inconclusive, true}, // q=20 above q=10 by 0.1 ± 1.27

		// Ratio.
		{"ratio/point/pos", "{type: ratio, metric: m, left: {method: A}, op: '<', right: {method: [B, C]}, summary: min}", pt(map[string]float64{"A": 1, "B": 2, "C": 3}), point, claims.Pass, false},                     // min A 1 < min(B, C) 2
		{"ratio/point/neg", "{type: ratio, metric: m, left: {method: A}, op: '>', right: {method: [B, C]}, summary: min}", pt(map[string]float64{"A": 1, "B": 2, "C": 3}), point, claims.Fail, false},                     // 1 > 2 is false
		{"ratio/point/at", "{type: ratio, metric: m, left: {method: A}, op: '<', right: {method: [B, C]}, summary: min, factor: 0.5}", pt(map[string]float64{"A": 1, "B": 2, "C": 3}), point, claims.Inconclusive, false}, // 1 against 0.5 × 2
		{"ratio/bca/pos", ratioAB("<"), planted, items, claims.Pass, true},     // as compare/bca/pos, one cell a side
		{"ratio/bca/neg", ratioAB(">"), planted, items, claims.Fail, true},     // as compare/bca/neg
		{"ratio/bca/at", ratioAB("<"), null, items, claims.Inconclusive, true}, // as compare/bca/at
	} {
		t.Run(tc.name, func(t *testing.T) {
			cl := claim(t, tc.check)
			if err := claims.Check(cl); err != nil {
				t.Fatalf("Check: %v", err)
			}
			res := claims.EvaluateWith(cl, tc.recs, tc.opts)
			if res.Status != tc.want {
				t.Fatalf("status %s, want %s; basis %s; evidence %s", res.Status, tc.want, res.Basis, res.Evidence)
			}
			if tc.interval != (res.Basis == "interval") {
				t.Errorf("basis %q, want an interval: %v", res.Basis, tc.interval)
			}
			if tc.interval && (res.CILo == nil || res.CIHi == nil) {
				t.Errorf("interval verdict without its interval")
			}
			// An INCONCLUSIVE point control is one that cannot
			// discriminate; an interval control is inconclusive on its
			// interval, with sides apart.
			if cd := res.CannotDiscriminate != ""; cd != (tc.want == claims.Inconclusive && !tc.interval) {
				t.Errorf("cannot_discriminate %q on a %s control judged on an interval: %v", res.CannotDiscriminate, tc.want, tc.interval)
			}
		})
	}
}
