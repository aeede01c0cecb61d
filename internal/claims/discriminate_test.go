package claims_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/report"
)

// TestCannotDiscriminate: a check whose two sides are equal to rounding
// (|l − r| ≤ 1e-9·max(1, |l|, |r|)) is INCONCLUSIVE with
// cannot_discriminate naming both values and the tolerance, whatever its
// op; the same check with its sides apart keeps its verdict and no
// cannot_discriminate. One case per check type that compares two sides.
func TestCannotDiscriminate(t *testing.T) {
	m := func(method string, v float64) report.Record {
		return rec(map[string]any{"method": method}, map[string]float64{"m": v})
	}
	// 1 and 1 + 5e-10 are equal to rounding (within 1e-9); 1 and 1.1
	// are not.
	const near = 1 + 5e-10
	for _, tc := range []struct {
		name, check  string
		equal, apart []report.Record
		apartWant    string
		// values are substrings cannot_discriminate must hold.
		values []string
	}{
		{"compare <", "{type: compare, metric: m, left: {method: A}, op: '<', right: {method: B}}",
			[]report.Record{m("A", near), m("B", 1)}, []report.Record{m("A", 1), m("B", 1.1)}, claims.Pass, []string{"m 1 (left method=A)", "1 (right method=B)", "within the tolerance 1e-09"}},
		{"compare >=", "{type: compare, metric: m, left: {method: A}, op: '>=', right: {method: B}}",
			[]report.Record{m("A", 1), m("B", 1)}, []report.Record{m("A", 1), m("B", 1.1)}, claims.Fail, []string{"differ by 0"}},
		{"compare with factor", "{type: compare, metric: m, left: {method: A}, op: '<', factor: 2, right: {method: B}}",
			[]report.Record{m("A", 2), m("B", 1)}, []report.Record{m("A", 1), m("B", 1)}, claims.Pass, []string{"m 2 (left method=A) and 2 (2 × right method=B)"}},
		{"ratio", "{type: ratio, metric: m, left: {method: A}, op: '>', right: {method: [B, C]}, summary: max}",
			[]report.Record{m("A", 3), m("B", 3), m("C", 1)}, []report.Record{m("A", 3), m("B", 2), m("C", 1)}, claims.Pass, []string{"m 3 (left max over 1 cells) and 3 (right max over 2 cells)"}},
		{"best", "{type: best, metric: m, winner: A, sense: max}",
			[]report.Record{m("A", 3), m("B", 3), m("C", 1)}, []report.Record{m("A", 3), m("B", 2), m("C", 1)}, claims.Pass, []string{"m 3 (winner A) and 3 (rival B)"}},
		{"value against", "{type: value, metric: m, where: {method: A}, op: '>', value: 1, against: {method: B}}",
			[]report.Record{m("A", 1e-13), m("B", 0)}, []report.Record{m("A", 1e-13), m("B", 2)}, claims.Fail, []string{"m 1e-13 (method=A) and 0 (against method=B)"}},
		{"trend endpoints", "{type: trend, metric: m, along: c, direction: decreasing, test: endpoints}",
			series("c", c3s, []float64{4, 1, 4}, nil), series("c", c3s, []float64{4, 1, 3}, nil), claims.Pass, []string{"m 4 (c=3) and 4 (c=1)"}},
		{"trend monotone flat", "{type: trend, metric: m, along: c, direction: increasing, test: monotone}",
			series("c", c3s, []float64{2, 2, 2}, nil), series("c", c3s, []float64{2, 2, 3}, nil), claims.Pass, []string{"m 2 (greatest along c) and 2 (least)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cl := claim(t, tc.check)
			if err := claims.Check(cl); err != nil {
				t.Fatal(err)
			}
			res := claims.Evaluate(cl, tc.equal)
			if res.Status != claims.Inconclusive || res.Verdict != claims.Inconclusive || res.PointVerdict != claims.Inconclusive {
				t.Errorf("equal sides: status %s verdict %s point %s, want INCONCLUSIVE; %s", res.Status, res.Verdict, res.PointVerdict, res.Evidence)
			}
			if !strings.HasPrefix(res.CannotDiscriminate, "cannot discriminate here: ") || !strings.Contains(res.Evidence, res.CannotDiscriminate) {
				t.Errorf("cannot_discriminate %q, evidence %q", res.CannotDiscriminate, res.Evidence)
			}
			for _, v := range tc.values {
				if !strings.Contains(res.CannotDiscriminate, v) {
					t.Errorf("cannot_discriminate %q lacks %q", res.CannotDiscriminate, v)
				}
			}
			res = claims.Evaluate(cl, tc.apart)
			if res.Status != tc.apartWant || res.CannotDiscriminate != "" {
				t.Errorf("sides apart: %s (cannot discriminate %q), want %s; %s", res.Status, res.CannotDiscriminate, tc.apartWant, res.Evidence)
			}
		})
	}
}

var c3s = []float64{1, 2, 3}

// TestCannotDiscriminateGroups: over several comparisons (for_all), an
// equal one does not hide a refutation by one whose sides are apart (the
// FAIL stands); an equal comparison makes the claim INCONCLUSIVE whether
// it fails the claim's op or a non-strict op admits it, since the order of
// two values within the tolerance is unknown.
func TestCannotDiscriminateGroups(t *testing.T) {
	cell := func(method string, s, v float64) report.Record {
		return rec(map[string]any{"method": method, "s": s}, map[string]float64{"m": v})
	}
	recs := func(a1, b1, a2, b2 float64) []report.Record {
		return []report.Record{cell("A", 1, a1), cell("B", 1, b1), cell("A", 2, a2), cell("B", 2, b2)}
	}
	for _, tc := range []struct {
		name, op string
		recs     []report.Record
		want     string
		cd       bool
		evidence string
	}{
		{"refuted by a pair apart", "<", recs(1, 1, 3, 2), claims.Fail, false, "the FAIL stands on m 3"},
		{"<= does not admit the equal pair", "<=", recs(1, 1, 1, 2), claims.Inconclusive, true, "cannot discriminate here: m 1"},
		{"< fails on the equal pair", "<", recs(1, 1, 1, 2), claims.Inconclusive, true, "cannot discriminate here: m 1"},
		{"every pair equal", "<=", recs(1, 1, 2, 2), claims.Inconclusive, true, "cannot discriminate here"},
	} {
		res := claims.Evaluate(claim(t, "{type: compare, metric: m, left: {method: A}, op: '"+tc.op+"', right: {method: B}, for_all: s}"), tc.recs)
		if res.Status != tc.want || (res.CannotDiscriminate != "") != tc.cd || !strings.Contains(res.Evidence, tc.evidence) {
			t.Errorf("%s: %s, cannot discriminate %q; want %s, %v, evidence with %q: %s", tc.name, res.Status, res.CannotDiscriminate, tc.want, tc.cd, tc.evidence, res.Evidence)
		}
	}
}

// TestCannotDiscriminateTolerance: the kind's tolerance (Options.Tolerance)
// replaces the default where it is larger. Huang Fig. 5's distances of
// Honeine–Richard's and Local Gram's pre-images to the cluster means,
// 8.281e-14 and 1.267e-7 grey levels, are apart by the default 1e-9 but
// equal within the kkcluster kind's 1e-3 grey levels; a kind tolerance
// below the default leaves the default.
func TestCannotDiscriminateTolerance(t *testing.T) {
	recs := []report.Record{
		rec(map[string]any{"method": "HR"}, map[string]float64{"dist": 8.281e-14}),
		rec(map[string]any{"method": "LG"}, map[string]float64{"dist": 1.267e-7}),
	}
	cl := claim(t, "{type: value, metric: dist, where: {method: HR}, op: '>', value: 1, against: {method: LG}}")
	if res := claims.Evaluate(cl, recs); res.Status != claims.Fail || res.CannotDiscriminate != "" {
		t.Errorf("default tolerance: %s, %q; want FAIL (1.267e-7 apart > 1e-9)", res.Status, res.CannotDiscriminate)
	}
	o := claims.Options{Tolerance: func(metric string) (float64, string) {
		if metric == "dist" {
			return 1e-3, "a thousandth of a grey level"
		}
		return 0, ""
	}}
	res := claims.EvaluateWith(cl, recs, o)
	if res.Status != claims.Inconclusive || !strings.Contains(res.CannotDiscriminate, "dist 8.281e-14 (method=HR) and 1.267e-07 (against method=LG) differ by 1.267e-07, within the tolerance 0.001 (a thousandth of a grey level)") {
		t.Errorf("kind tolerance: %s, %q", res.Status, res.CannotDiscriminate)
	}
	o.Tolerance = func(string) (float64, string) { return 1e-20, "too fine" }
	res = claims.EvaluateWith(claim(t, "{type: compare, metric: dist, left: {method: HR}, op: '<', right: {method: HR}}"), recs[:1], o)
	if !strings.Contains(res.CannotDiscriminate, "1e-9·max(1, |l|, |r|)") {
		t.Errorf("a kind tolerance below the default replaced it: %q", res.CannotDiscriminate)
	}
}

// TestCannotDiscriminateSolverTolerance: values an iterative solver
// computed are the same solution to its precision when they differ by
// less than its stopping tolerance (the cells' tol parameter) × max(1,
// |l|, |r|). A&H Fig. 5's mean spreads at c = 100, 1.906e-9 for Tikhonov
// and 2.008e-9 for Mika, cannot be ordered at tol = 1e-8: the claim
// "Tikhonov no more spread than Mika" is INCONCLUSIVE, naming the solver
// tolerance (positive control); spreads 1e-6 apart at the same tolerance
// keep the PASS (negative control). Sides 1e-8 apart pass where the cells
// carry no tol (only rounding, 1e-9, bounds them) and are INCONCLUSIVE at
// tol = 1e-8.
func TestCannotDiscriminateSolverTolerance(t *testing.T) {
	cell := func(method string, tol, v float64) report.Record {
		p := map[string]any{"method": method}
		if tol > 0 {
			p["tol"] = tol
		}
		return rec(p, map[string]float64{"spread": v})
	}
	cl := claim(t, "{type: compare, metric: spread, left: {method: Tikhonov}, op: '<=', right: {method: Mika}}")
	res := claims.Evaluate(cl, []report.Record{cell("Tikhonov", 1e-8, 1.906e-9), cell("Mika", 1e-8, 2.008e-9)})
	if res.Status != claims.Inconclusive || !strings.Contains(res.CannotDiscriminate, "the solvers' stopping tolerance tol = 1e-08") {
		t.Errorf("spreads at the solver tolerance: %s, %q; want INCONCLUSIVE naming tol", res.Status, res.CannotDiscriminate)
	}
	res = claims.Evaluate(cl, []report.Record{cell("Tikhonov", 1e-8, 1e-9), cell("Mika", 1e-8, 1e-6)})
	if res.Status != claims.Pass || res.CannotDiscriminate != "" {
		t.Errorf("spreads apart beyond the solver tolerance: %s, %q; want PASS", res.Status, res.CannotDiscriminate)
	}
	res = claims.Evaluate(cl, []report.Record{cell("Tikhonov", 0, 1e-9), cell("Mika", 0, 1.1e-8)})
	if res.Status != claims.Pass || res.CannotDiscriminate != "" {
		t.Errorf("no solver tolerance, sides apart by more than rounding: %s, %q; want PASS", res.Status, res.CannotDiscriminate)
	}
	res = claims.Evaluate(cl, []report.Record{cell("Tikhonov", 1e-8, 1e-9), cell("Mika", 1e-8, 1.1e-8)})
	if res.Status != claims.Inconclusive {
		t.Errorf("the same sides at tol 1e-8: %s; want INCONCLUSIVE", res.Status)
	}
}

// TestCannotDiscriminateInterval: two cells with the same per-item scores
// compare equal on the point and on every resample: the interval [0, 0]
// and the point are overridden alike, and the JSON field is
// cannot_discriminate; a given: check's against: cell is judged on the
// same items.
func TestCannotDiscriminateInterval(t *testing.T) {
	a, _ := pairOf(func(int) float64 { return 1 })
	recs := []report.Record{itemRec("A", a), itemRec("B", append([]float64(nil), a...))}
	res := claims.EvaluateWith(claim(t, "{type: compare, metric: m, left: {method: A}, op: '<', right: {method: B}}"), recs, itemOpts(true, 1))
	if res.Status != claims.Inconclusive || res.Basis != "interval" || res.CannotDiscriminate == "" || res.Detectable != nil {
		t.Errorf("identical cells: %s (%s) %q detectable %v; %s", res.Status, res.Basis, res.CannotDiscriminate, res.Detectable, res.Evidence)
	}
	b, err := json.Marshal(res)
	if err != nil || !strings.Contains(string(b), `"cannot_discriminate":"cannot discriminate here: `) {
		t.Errorf("JSON %s (%v) lacks cannot_discriminate", b, err)
	}
	// given: T on M's failures is 0.5 (TestGiven); against T itself it
	// is the same 0.5 on the same items; against M it is 0 there.
	g := givenRecs()
	check := func(against string) string {
		return "{type: value, metric: m, where: {method: T}, op: '>', value: 0.4, given: {cell: {method: M}, array: e, equals: 0}, against: {method: " + against + "}}"
	}
	res = claims.EvaluateWith(claim(t, check("T")), g, itemOpts(true, 1))
	if res.Status != claims.Inconclusive || !strings.Contains(res.CannotDiscriminate, `m 0.5 (method="T") and 0.5 (against method="T")`) {
		t.Errorf("given, against itself: %s %q; %s", res.Status, res.CannotDiscriminate, res.Evidence)
	}
	res = claims.EvaluateWith(claim(t, check("M")), g, itemOpts(true, 1))
	if res.CannotDiscriminate != "" || !strings.Contains(res.Evidence, "(against method=M: 0)") {
		t.Errorf("given, against M: %s %q; %s", res.Status, res.CannotDiscriminate, res.Evidence)
	}
	// against: must name one cell.
	if res := claims.Evaluate(claim(t, "{type: value, metric: m, op: '>', value: 0, against: {method: Z}}"), g); res.Status != claims.NotEvaluated || !strings.Contains(res.Evidence, "against: cell") {
		t.Errorf("against no cell: %s %s", res.Status, res.Evidence)
	}
}

// TestCannotDiscriminateBecause: {cannot_discriminate} fills a because:
// text with the explanation, and is an error where the check could tell
// its sides apart.
func TestCannotDiscriminateBecause(t *testing.T) {
	cs := parseClaims(t, "  - id: x\n    statement: s\n    source: src\n    expect: inconclusive\n    because: \"our test: {cannot_discriminate}\"\n    check: {type: compare, metric: m, left: {method: A}, op: '<', right: {method: B}}\n")
	eq := []report.Record{rec(map[string]any{"method": "A"}, map[string]float64{"m": 2}), rec(map[string]any{"method": "B"}, map[string]float64{"m": 2})}
	res := claims.Evaluate(cs[0], eq)
	if !res.AsExpected || res.Because != "our test: "+res.CannotDiscriminate {
		t.Errorf("as expected %v, because %q", res.AsExpected, res.Because)
	}
	eq[1].Metrics["m"] = 3
	res = claims.Evaluate(cs[0], eq)
	if !strings.Contains(res.Because, "{cannot_discriminate}: the check could tell its sides apart") {
		t.Errorf("sides apart: because %q", res.Because)
	}
}
