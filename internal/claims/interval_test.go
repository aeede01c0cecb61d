package claims_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
)

// itemOpts computes metric "m" as the mean and "med" as the median of the
// per-item array "e", with the bootstrap stream seeded by the key.
func itemOpts(counts bool, reps int) claims.Options {
	return claims.Options{
		Items: func(_ *report.Record, metric string) (claims.ItemStat, bool) {
			switch metric {
			case "m":
				return claims.ItemStat{Array: "e", Stat: func(_ *report.Record, x []float64) float64 { return metrics.Summarize(x).Mean }}, true
			case "med":
				return claims.ItemStat{Array: "e", Stat: func(_ *report.Record, x []float64) float64 { return metrics.Percentile(x, 0.5) }}, true
			}
			return claims.ItemStat{}, false
		},
		Repeats: reps,
		Rand:    func(key string) *rand.Rand { return rand.New(rand.NewPCG(1, uint64(len(key)))) },
		Counts:  counts,
	}
}

// itemRec is a cell of method with per-item errors e and their mean "m"
// and median "med".
func itemRec(method string, e []float64) report.Record {
	r := rec(map[string]any{"method": method}, map[string]float64{"m": metrics.Summarize(e).Mean, "med": metrics.Percentile(e, 0.5)})
	r.Arrays = map[string][]float64{"e": e}
	return r
}

// pairOf returns the per-item errors of two methods on 60 shared items:
// a large item effect (items differ by up to 10) that pairing cancels,
// and B = A + shift_i.
func pairOf(shift func(i int) float64) (a, b []float64) {
	const n = 60
	a, b = make([]float64, n), make([]float64, n)
	for i := range a {
		a[i] = 1 + float64((i*37)%61)/6
		b[i] = a[i] + shift(i)
	}
	return a, b
}

// TestIntervalVerdicts: a planted difference of 1 between two methods on
// the same items (the item effect, up to 10, is paired away) passes on the
// interval; a difference of mean 2/60 in noise of ±1 per item is PASS on
// the point but INCONCLUSIVE on the interval (its half-width is about
// 1.96/√60 ≈ 0.25); the opposite claim on the planted difference FAILs.
func TestIntervalVerdicts(t *testing.T) {
	pa, pb := pairOf(func(i int) float64 { return 1 + 0.3*float64(i%3-1) })
	na, nb := pairOf(func(i int) float64 {
		if i < 31 {
			return 1
		}
		return -1
	})
	for _, tc := range []struct {
		name, check     string
		a, b            []float64
		point, interval string
	}{
		{"planted", "{type: compare, metric: m, left: {method: A}, op: '<', right: {method: B}}", pa, pb, claims.Pass, claims.Pass},
		{"planted wrong way", "{type: compare, metric: m, left: {method: A}, op: '>', right: {method: B}}", pa, pb, claims.Fail, claims.Fail},
		{"null", "{type: compare, metric: m, left: {method: A}, op: '<', right: {method: B}}", na, nb, claims.Pass, claims.Inconclusive},
		{"ratio of single cells", "{type: ratio, metric: m, left: {method: A}, op: '<', right: {method: B}}", pa, pb, claims.Pass, claims.Pass},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recs := []report.Record{itemRec("A", tc.a), itemRec("B", tc.b)}
			cl := claim(t, tc.check)
			res := claims.EvaluateWith(cl, recs, itemOpts(false, 1))
			if res.PointVerdict != tc.point || res.Verdict != tc.interval || res.Basis != "interval" {
				t.Errorf("point %s interval %s (%s), want %s and %s; evidence %s", res.PointVerdict, res.Verdict, res.Basis, tc.point, tc.interval, res.Evidence)
			}
			if res.Status != res.PointVerdict {
				t.Errorf("without Counts the status is %s, want the point verdict %s", res.Status, res.PointVerdict)
			}
			if res.CILo == nil || res.CIHi == nil || res.CILevel == nil || *res.CILevel != 0.95 || res.CIMethod == "" {
				t.Fatalf("interval fields missing: %+v", res)
			}
			diff := metrics.Summarize(tc.a).Mean - metrics.Summarize(tc.b).Mean
			if !(*res.CILo <= diff && diff <= *res.CIHi) {
				t.Errorf("interval [%v, %v] does not hold the observed difference %v", *res.CILo, *res.CIHi, diff)
			}
			counted := claims.EvaluateWith(cl, recs, itemOpts(true, 1))
			if counted.Status != tc.interval {
				t.Errorf("with Counts the status is %s, want %s", counted.Status, tc.interval)
			}
			again := claims.EvaluateWith(cl, recs, itemOpts(true, 1))
			if *again.CILo != *counted.CILo || *again.CIHi != *counted.CIHi {
				t.Error("the same seed gave another interval")
			}
		})
	}
}

// TestIntervalStatistic: a claim about medians is judged on the interval
// of the median difference, not the mean's. A's errors have the lower
// median (1 against 2 on every item but a few) and the higher mean (a
// few items at 100): "median A < median B" passes on the interval,
// while the same claim on means fails on the point. With factor 0.6 the
// difference is median(A) − 0.6·median(B) = 1 − 1.2 < 0.
func TestIntervalStatistic(t *testing.T) {
	a, b := make([]float64, 40), make([]float64, 40)
	for i := range a {
		a[i], b[i] = 1, 2
		if i%10 == 0 {
			a[i] = 100
		}
	}
	recs := []report.Record{itemRec("A", a), itemRec("B", b)}
	for _, tc := range []struct{ check, point, interval string }{
		{"{type: compare, metric: med, left: {method: A}, op: '<', right: {method: B}}", claims.Pass, claims.Pass},
		{"{type: compare, metric: med, left: {method: A}, op: '<', factor: 0.6, right: {method: B}}", claims.Pass, claims.Pass},
		{"{type: compare, metric: m, left: {method: A}, op: '<', right: {method: B}}", claims.Fail, claims.Fail},
	} {
		res := claims.EvaluateWith(claim(t, tc.check), recs, itemOpts(true, 1))
		if res.PointVerdict != tc.point || res.Verdict != tc.interval {
			t.Errorf("%s: point %s interval %s, want %s and %s; %s", tc.check, res.PointVerdict, res.Verdict, tc.point, tc.interval, res.Evidence)
		}
	}
}

// TestIntervalRepeats: with 2 repeats the arrays hold items × repeats
// (repeat r of item i at r·n + i) and the items are resampled with both
// repeats; an array whose length is not a multiple of the repeats is not
// paired evidence and the point verdict stands.
func TestIntervalRepeats(t *testing.T) {
	pa, pb := pairOf(func(i int) float64 { return 1 })
	recs := []report.Record{itemRec("A", append(append([]float64{}, pa...), pa...)), itemRec("B", append(append([]float64{}, pb...), pb...))}
	cl := claim(t, "{type: compare, metric: m, left: {method: A}, op: '<', right: {method: B}}")
	res := claims.EvaluateWith(cl, recs, itemOpts(true, 2))
	if res.Verdict != claims.Pass || !strings.Contains(res.CIMethod, "2 corruption repeats") {
		t.Errorf("verdict %s, method %q", res.Verdict, res.CIMethod)
	}
	res = claims.EvaluateWith(cl, recs, itemOpts(true, 7))
	if res.Basis == "interval" || res.Verdict != res.PointVerdict || res.CILo != nil {
		t.Errorf("120 scores taken as 7 repeats: %+v", res)
	}
}

// TestIntervalFallback: without per-item arrays, or with an array that
// does not reproduce the recorded metric, the verdict is the point
// verdict and says why.
func TestIntervalFallback(t *testing.T) {
	pa, pb := pairOf(func(i int) float64 { return 1 })
	cl := claim(t, "{type: compare, metric: m, left: {method: A}, op: '<', right: {method: B}}")
	plain := []report.Record{rec(map[string]any{"method": "A"}, map[string]float64{"m": 1}), rec(map[string]any{"method": "B"}, map[string]float64{"m": 2})}
	bad := []report.Record{itemRec("A", pa), itemRec("B", pb)}
	bad[0].Metrics["m"] = 0.5
	for name, recs := range map[string][]report.Record{"no arrays": plain, "wrong metric": bad} {
		res := claims.EvaluateWith(cl, recs, itemOpts(true, 1))
		if res.Verdict != claims.Pass || res.PointVerdict != claims.Pass || res.Status != claims.Pass || !strings.HasPrefix(res.Basis, "point: ") || res.CILo != nil {
			t.Errorf("%s: %+v", name, res)
		}
	}
	// A trend has no paired cells: point verdict.
	tr := claims.EvaluateWith(claim(t, "{type: trend, metric: m, along: x, direction: increasing}"),
		series("x", []float64{1, 2, 3}, []float64{1, 2, 3}, nil), itemOpts(true, 1))
	if tr.Verdict != claims.Pass || !strings.HasPrefix(tr.Basis, "point") {
		t.Errorf("trend: %+v", tr)
	}
}

// TestExpectInconclusive: expect: inconclusive expects INCONCLUSIVE (an
// interval covering zero) and is met by it alone: a point PASS is a
// change, and so is NOT-EVALUATED (a claim that could not be judged is
// not inconclusive).
func TestExpectInconclusive(t *testing.T) {
	na, nb := pairOf(func(i int) float64 {
		if i < 31 {
			return 1
		}
		return -1
	})
	cs := parseClaims(t, "  - id: x\n    statement: s\n    source: src\n    expect: inconclusive\n    because: b\n    check: {type: compare, metric: m, left: {method: A}, op: '<', right: {method: B}}\n")
	res := claims.EvaluateWith(cs[0], []report.Record{itemRec("A", na), itemRec("B", nb)}, itemOpts(true, 1))
	if res.Status != claims.Inconclusive || !res.AsExpected {
		t.Errorf("status %s, as expected %v", res.Status, res.AsExpected)
	}
	if res.Expected != claims.Inconclusive {
		t.Errorf("expected %q, want INCONCLUSIVE", res.Expected)
	}
	res = claims.EvaluateWith(cs[0], []report.Record{itemRec("A", na), itemRec("B", nb)}, itemOpts(false, 1))
	if res.Status != claims.Pass || res.AsExpected {
		t.Errorf("point status %s, as expected %v", res.Status, res.AsExpected)
	}
	res = claims.EvaluateWith(cs[0], []report.Record{itemRec("A", na)}, itemOpts(true, 1))
	if res.Status != claims.NotEvaluated || res.AsExpected {
		t.Errorf("no right cell: status %s, as expected %v", res.Status, res.AsExpected)
	}
}

// TestItemsByPrefix checks a metric family's lookup: the first entry
// whose prefix the metric has and whose suffix is accepted names the
// array prefix+suffix and carries the entry's statistic and the unit;
// a refused suffix or an unknown prefix declares nothing.
func TestItemsByPrefix(t *testing.T) {
	table := []claims.PrefixStat{
		{Prefix: "err_mean_", Array: "err_", Stat: metrics.Mean},
		{Prefix: "err_std_", Array: "err_", Stat: metrics.Std},
	}
	nonEmpty := func(s string) bool { return s != "" }
	st, ok := claims.ItemsByPrefix(table, "err_std_0.1", nonEmpty, "reps")
	if !ok || st.Array != "err_0.1" || st.Unit != "reps" || st.Stat == nil {
		t.Fatalf("err_std_0.1: %+v, %t; want array err_0.1 over reps", st, ok)
	}
	// The sample standard deviation of 1, 2, 3 is 1.
	if got := st.Stat(nil, []float64{1, 2, 3}); got != 1 {
		t.Errorf("err_std_0.1's statistic of 1, 2, 3: %v, want 1 (the std)", got)
	}
	for _, m := range []string{"err_mean_", "mse_mean_0.1", "err_"} {
		if st, ok := claims.ItemsByPrefix(table, m, nonEmpty, ""); ok {
			t.Errorf("%s: %+v declared, want nothing", m, st)
		}
	}
}
