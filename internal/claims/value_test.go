package claims_test

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
)

// spread60 is 60 items 5 + u_i with u_i spread evenly over about
// [−0.5, 0.5): mean near 5, standard error about 0.29/√60 ≈ 0.037, so a
// 95% interval of half-width about 0.07.
func spread60() []float64 {
	e := make([]float64, 60)
	for i := range e {
		e[i] = 5 + float64((i*37)%61)/61 - 0.5
	}
	return e
}

// TestValueInterval: a value check on a statistic of one cell's per-item
// array gets the bootstrap interval of that statistic against the value:
// PASS and FAIL far from the mean, INCONCLUSIVE near it, with the
// smallest detectable departure (the half-width) and the items the
// observed departure would need, n·(h/d)².
func TestValueInterval(t *testing.T) {
	e := spread60()
	mean := metrics.Summarize(e).Mean
	recs := []report.Record{itemRec("A", e)}
	for _, tc := range []struct {
		op      string
		value   float64
		verdict string
	}{
		{">", 4, claims.Pass},
		{"<", 4, claims.Fail},
		{">", 6, claims.Fail},
		{">", mean + 0.02, claims.Inconclusive},
	} {
		cl := claim(t, "{type: value, metric: m, where: {method: A}, op: '"+tc.op+"', value: "+strconv.FormatFloat(tc.value, 'g', -1, 64)+"}")
		res := claims.EvaluateWith(cl, recs, itemOpts(true, 1))
		if res.Verdict != tc.verdict || res.Basis != "interval" {
			t.Errorf("m %s %v: verdict %s (%s), want %s; %s", tc.op, tc.value, res.Verdict, res.Basis, tc.verdict, res.Evidence)
			continue
		}
		if res.CIItems == nil || *res.CIItems != 60 || strings.HasPrefix(res.CIMethod, "paired") {
			t.Errorf("m %s %v: items %v, method %q; want 60 items, a one-sample bootstrap", tc.op, tc.value, res.CIItems, res.CIMethod)
		}
		if tc.verdict != claims.Inconclusive {
			if res.Detectable != nil || res.ItemsNeeded != nil {
				t.Errorf("m %s %v: a decided verdict states a detectable effect", tc.op, tc.value)
			}
			continue
		}
		// The estimate lies below the bound: the interval's reach
		// towards it is hi − mean, about the half-width.
		h := *res.CIHi - mean
		d := mean - tc.value
		if res.Detectable == nil || math.Abs(*res.Detectable-h) > 1e-12 || !(h > 0.04 && h < 0.12) {
			t.Errorf("detectable %v, want the reach hi − mean %v (about 0.07)", res.Detectable, h)
		}
		want := int(math.Ceil(60 * (h / d) * (h / d)))
		if res.ItemsNeeded == nil || *res.ItemsNeeded != want || want < 60 {
			t.Errorf("items needed %v, want %d (> 60)", res.ItemsNeeded, want)
		}
		if !strings.Contains(res.Evidence, "INCONCLUSIVE: the smallest departure") {
			t.Errorf("evidence does not state the detectable effect: %s", res.Evidence)
		}
	}
}

// TestGiven: a value check restricted to the items where another cell's
// array equals a value. M is right (1) on items 0–39 and wrong (0) on
// 40–59; T is wrong on items 40–44 and 50–54 only, so on M's 20 failures
// T is right on 45–49 and 55–59, 10 of 20 (accuracy 0.5), and on M's 40
// successes on all of them (accuracy 1, the interval the point [1, 1]).
// T's accuracy on every item, 50/60, is not what the claim judges.
func TestGiven(t *testing.T) {
	recs := givenRecs()
	for _, tc := range []struct {
		check, verdict, point, evidence string
	}{
		{"{type: value, metric: m, where: {method: T}, op: '>=', value: 0.5, given: {cell: {method: M}, array: e, equals: 0}}", claims.Inconclusive, claims.Pass, "0.5 >= 0.5 ✓ (20 items)"},
		{"{type: value, metric: m, where: {method: T}, op: '>', value: 0.9, given: {cell: {method: M}, array: e, equals: 0}}", claims.Fail, claims.Fail, "(20 items)"},
		{"{type: value, metric: m, where: {method: T}, op: '>', value: 0.9, given: {cell: {method: M}, array: e, equals: 1}}", claims.Pass, claims.Pass, "1 > 0.9 ✓ (40 items)"},
	} {
		res := claims.EvaluateWith(claim(t, tc.check), recs, itemOpts(true, 1))
		if res.PointVerdict != tc.point || res.Verdict != tc.verdict || !strings.Contains(res.Evidence, tc.evidence) {
			t.Errorf("%s: point %s interval %s, want %s and %s; evidence %s", tc.check, res.PointVerdict, res.Verdict, tc.point, tc.verdict, res.Evidence)
		}
	}
	res := claims.EvaluateWith(claim(t, "{type: value, metric: m, where: {method: T}, op: '>', value: 0.9, given: {cell: {method: M}, array: e, equals: 1}}"), recs, itemOpts(true, 1))
	if *res.CILo != 1 || *res.CIHi != 1 {
		t.Errorf("all right on the given items: interval [%v, %v], want [1, 1]", deref(res.CILo), deref(res.CIHi))
	}
	// Without per-item scores the filtered statistic cannot be computed.
	if res := claims.Evaluate(claim(t, "{type: value, metric: m, where: {method: T}, op: '>', value: 0.5, given: {cell: {method: M}, array: e, equals: 0}}"), recs); res.Status != claims.NotEvaluated {
		t.Errorf("no Items: %s, %s", res.Status, res.Evidence)
	}
	for _, bad := range []string{
		"{type: value, metric: m, op: '>', value: 0.5, given: {cell: {method: M}, array: e}}",
		"{type: value, metric: m, op: '>', value: 0.5, given: {cell: M, array: e, equals: 0}}",
		"{type: value, metric: m, op: '>', value: 0.5, given: {cell: {method: M}, array: e, equals: 0, colour: red}}",
	} {
		if err := claims.Check(claim(t, bad)); err == nil || !strings.Contains(err.Error(), "given") {
			t.Errorf("Check(%s) = %v, want an error about given", bad, err)
		}
	}
}

// trendRecs is one record per x of method A with per-item errors
// base_i + shift(x) + a small item-specific wobble, 60 items.
func trendRecs(xs []float64, shift func(x float64) float64) []report.Record {
	var out []report.Record
	for j, x := range xs {
		e := make([]float64, 60)
		for i := range e {
			e[i] = 1 + float64((i*37)%61)/6 + shift(x) + 0.15*float64((i+j)%5-2)
		}
		r := itemRec("A", e)
		r.Params["x"] = x
		r.Key += "/x=" + strconv.FormatFloat(x, 'g', -1, 64)
		out = append(out, r)
	}
	return out
}

// TestTrendInterval: trend checks on cells sharing their items get
// intervals of the trend's statistic: the endpoints' difference, each
// step of a monotone trend, Spearman's ρ against min_rho.
func TestTrendInterval(t *testing.T) {
	xs := []float64{1, 2, 3, 4}
	up := trendRecs(xs, func(x float64) float64 { return x })
	flat := trendRecs(xs, func(x float64) float64 { return math.Min(x, 3) })
	back := trendRecs(xs, func(x float64) float64 { return math.Abs(x - 3) })
	for _, tc := range []struct {
		name, check string
		recs        []report.Record
		verdict     string
	}{
		{"endpoints up", "{type: trend, metric: m, along: x, direction: increasing, test: endpoints}", up, claims.Pass},
		{"endpoints down", "{type: trend, metric: m, along: x, direction: decreasing, test: endpoints}", up, claims.Fail},
		{"monotone up", "{type: trend, metric: m, along: x, direction: increasing, test: monotone}", up, claims.Pass},
		{"monotone flat step", "{type: trend, metric: m, along: x, direction: increasing, test: monotone}", flat, claims.Inconclusive},
		{"monotone reversed step", "{type: trend, metric: m, along: x, direction: increasing, test: monotone}", back, claims.Fail},
		{"spearman up", "{type: trend, metric: m, along: x, direction: increasing}", up, claims.Pass},
		{"spearman down", "{type: trend, metric: m, along: x, direction: decreasing}", up, claims.Fail},
	} {
		res := claims.EvaluateWith(claim(t, tc.check), tc.recs, itemOpts(true, 1))
		if res.Verdict != tc.verdict || res.Basis != "interval" {
			t.Errorf("%s: %s (%s), want %s; %s", tc.name, res.Verdict, res.Basis, tc.verdict, res.Evidence)
		}
	}
	// Cells without per-item scores keep the point verdict, with the
	// kind's stated reason.
	o := itemOpts(true, 1)
	o.PointReason = func(string) string { return "one synthetic data set: nothing to resample" }
	res := claims.EvaluateWith(claim(t, "{type: trend, metric: m, along: x, direction: increasing}"), series("x", []float64{1, 2, 3}, []float64{1, 2, 3}, nil), o)
	if res.Verdict != claims.Pass || !strings.HasSuffix(res.Basis, "has no per-item e scores") {
		// series records carry no arrays: the kind declares the metric,
		// so the reason names the missing array.
		t.Errorf("no arrays: %s (%s)", res.Verdict, res.Basis)
	}
	o.Items = nil
	res = claims.EvaluateWith(claim(t, "{type: trend, metric: m, along: x, direction: increasing}"), series("x", []float64{1, 2, 3}, []float64{1, 2, 3}, nil), o)
	if res.Basis != "point: one synthetic data set: nothing to resample" {
		t.Errorf("no items declared: basis %q", res.Basis)
	}
}

// TestBestPattern: a best check whose metric is a pattern judges every
// metric it matches as a group: W lowest in group x and y passes; W
// beaten in y fails there.
func TestBestPattern(t *testing.T) {
	a, b := pairOf(func(i int) float64 { return 1 + 0.3*float64(i%3-1) })
	mk := func(method string, ex, ey []float64) report.Record {
		r := rec(map[string]any{"method": method}, map[string]float64{"a_x": metrics.Summarize(ex).Mean, "a_y": metrics.Summarize(ey).Mean})
		r.Arrays = map[string][]float64{"e_x": ex, "e_y": ey}
		return r
	}
	o := itemOpts(true, 1)
	o.Items = func(_ *report.Record, metric string) (claims.ItemStat, bool) {
		g, ok := strings.CutPrefix(metric, "a_")
		return claims.ItemStat{Array: "e_" + g, Stat: func(_ *report.Record, x []float64) float64 { return metrics.Summarize(x).Mean }}, ok
	}
	check := "{type: best, metric: 'a_*', among: method, winner: W, sense: min}"
	res := claims.EvaluateWith(claim(t, check), []report.Record{mk("W", a, a), mk("R", b, b)}, o)
	if res.Verdict != claims.Pass || !strings.Contains(res.Evidence, "a_x: W") || !strings.Contains(res.Evidence, "a_y: W") {
		t.Errorf("W best in both: %s; %s", res.Verdict, res.Evidence)
	}
	res = claims.EvaluateWith(claim(t, check), []report.Record{mk("W", a, b), mk("R", b, a)}, o)
	if res.Verdict != claims.Fail || !strings.Contains(res.CIMethod, "a_y vs R") {
		t.Errorf("W beaten in y: %s, %q; %s", res.Verdict, res.CIMethod, res.Evidence)
	}
	if err := claims.Check(claim(t, "{type: value, metric: 'a_*', op: '<', value: 1}")); err == nil {
		t.Error("a pattern outside a best check was accepted")
	}
}

// TestRatioForAll: a ratio check with for_all judges one ratio per value
// of the parameter, each with its interval.
func TestRatioForAll(t *testing.T) {
	a, b := pairOf(func(i int) float64 { return 1 + 0.3*float64(i%3-1) })
	var recs []report.Record
	for _, e := range []float64{0.8, 1} {
		for _, m := range []struct {
			name string
			x    []float64
		}{{"A", a}, {"B", b}, {"C", b}} {
			r := itemRec(m.name, m.x)
			r.Params["energy"] = e
			r.Key += "/energy=" + strconv.FormatFloat(e, 'g', -1, 64)
			recs = append(recs, r)
		}
	}
	res := claims.EvaluateWith(claim(t, "{type: ratio, metric: m, left: {method: A}, op: '<', right: {method: [B, C]}, summary: min, for_all: energy}"), recs, itemOpts(true, 1))
	if res.Verdict != claims.Pass || !strings.Contains(res.Evidence, "energy=0.8: m: min") || !strings.Contains(res.Evidence, "energy=1: m: min") {
		t.Errorf("%s; %s", res.Verdict, res.Evidence)
	}
}

// TestInclusiveOps: a statistic exactly at the bound on every resample
// (a base line's error of exactly 0 on every image: the interval [0, 0])
// satisfies "<= 0" and ">= 0" and fails "< 0"; the inclusive ops pass an
// interval that reaches the bound from the claimed side.
func TestInclusiveOps(t *testing.T) {
	recs := []report.Record{itemRec("A", make([]float64, 30))}
	for _, tc := range []struct {
		check, verdict string
	}{
		{"{type: value, metric: m, op: '<=', value: 0}", claims.Pass},
		{"{type: value, metric: m, op: '>=', value: 0}", claims.Pass},
		{"{type: value, metric: m, op: '<', value: 0}", claims.Fail},
		{"{type: value, metric: m, op: '>', value: 0}", claims.Fail},
		{"{type: value, metric: m, op: '<=', value: -0.1}", claims.Fail},
	} {
		res := claims.EvaluateWith(claim(t, tc.check), recs, itemOpts(true, 1))
		if res.Verdict != tc.verdict || res.Basis != "interval" || *res.CILo != 0 || *res.CIHi != 0 {
			t.Errorf("%s: %s (%s) on [%v, %v], want %s", tc.check, res.Verdict, res.Basis, deref(res.CILo), deref(res.CIHi), tc.verdict)
		}
	}
}

// TestMeanT: cells whose metric is declared a mean over few items
// (ItemStat.MeanT: 5 splits) are compared on Student's t-interval of the
// per-item differences, not the bootstrap: the endpoints of a trend, a
// compare check, one cell against a value. By hand: differences 1, 2, 3,
// 2, 2 (mean 2, s = √0.5), t_{4, 0.975} = 2.776: half-width
// 2.776·√0.5/√5 = 0.8779. A rank correlation of such cells gets no
// interval.
func TestMeanT(t *testing.T) {
	first, last := []float64{60, 61, 62, 63, 64}, []float64{61, 63, 65, 65, 66}
	mk := func(x float64, acc []float64) report.Record {
		r := rec(map[string]any{"q": x}, map[string]float64{"acc": metrics.Mean(acc)})
		r.Key = "q=" + strconv.FormatFloat(x, 'g', -1, 64)
		r.Arrays = map[string][]float64{"acc": acc}
		return r
	}
	recs := []report.Record{mk(10, first), mk(20, []float64{60.5, 62, 63, 64, 65}), mk(30, last)}
	o := itemOpts(true, 1)
	o.Items = func(_ *report.Record, metric string) (claims.ItemStat, bool) {
		return claims.ItemStat{Array: "acc", Stat: func(_ *report.Record, x []float64) float64 { return metrics.Mean(x) }, Unit: "splits", MeanT: true}, metric == "acc"
	}
	h := 2.776445105 * math.Sqrt(0.5) / math.Sqrt(5)
	for _, tc := range []struct {
		check      string
		verdict    string
		lo, hi     float64
		pointBasis bool
	}{
		{"{type: trend, metric: acc, along: q, direction: increasing, test: endpoints}", claims.Pass, 2 - h, 2 + h, false},
		{"{type: compare, metric: acc, left: {q: 30}, op: '>', right: {q: 10}}", claims.Pass, 2 - h, 2 + h, false},
		{"{type: value, metric: acc, where: {q: 10}, op: '>', value: 61.5}", claims.Inconclusive, 62 - 2.776445105*math.Sqrt(2.5)/math.Sqrt(5), 62 + 2.776445105*math.Sqrt(2.5)/math.Sqrt(5), false},
		{"{type: trend, metric: acc, along: q, direction: increasing}", claims.Pass, 0, 0, true},
	} {
		res := claims.EvaluateWith(claim(t, tc.check), recs, o)
		if tc.pointBasis {
			if !strings.Contains(res.Basis, "mean over few splits") {
				t.Errorf("%s: basis %q, want the few-items reason", tc.check, res.Basis)
			}
			continue
		}
		if res.Verdict != tc.verdict || !strings.Contains(res.CIMethod, "Student t-interval over 5 splits") ||
			math.Abs(*res.CILo-tc.lo) > 1e-6 || math.Abs(*res.CIHi-tc.hi) > 1e-6 {
			t.Errorf("%s: %s [%v, %v] %q, want %s [%v, %v]", tc.check, res.Verdict, deref(res.CILo), deref(res.CIHi), res.CIMethod, tc.verdict, tc.lo, tc.hi)
		}
	}
}
