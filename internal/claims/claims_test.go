package claims_test

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
)

// head is a minimal config whose claims list starts on line 6.
const head = "title: t\npaper: p\nkind: k\ndataset: {name: d}\nclaims:\n"

// parseClaims parses head+src as f.yaml and returns its claims.
func parseClaims(t *testing.T, src string) []config.Claim {
	t.Helper()
	c, err := config.Parse("f.yaml", []byte(head+src))
	if err != nil {
		t.Fatalf("config.Parse:\n%s%s\n%v", head, src, err)
	}
	return c.Claims
}

// claim builds one claim whose check is the YAML flow mapping check.
func claim(t *testing.T, check string) config.Claim {
	t.Helper()
	return parseClaims(t, "  - id: x\n    statement: s\n    source: src\n    check: "+check+"\n")[0]
}

// rec is a successful cell with the given parameters and metrics.
func rec(params map[string]any, metrics map[string]float64) report.Record {
	return report.Record{Key: config.CanonicalKey(params), Params: params, Metrics: metrics, Status: report.StatusOK}
}

// series is one record per x, with param along = x, metric "m" = y, and
// the extra parameters.
func series(along string, xs, ys []float64, extra map[string]any) []report.Record {
	out := make([]report.Record, len(xs))
	for i := range xs {
		p := map[string]any{along: xs[i]}
		for k, v := range extra {
			p[k] = v
		}
		out[i] = rec(p, map[string]float64{"m": ys[i]})
	}
	return out
}

func concat(rs ...[]report.Record) []report.Record {
	var out []report.Record
	for _, r := range rs {
		out = append(out, r...)
	}
	return out
}

// cells is one record per (method, s) with metric "m"; it is the shape
// of a table of methods by noise level.
func cells(m map[string][]float64, ss ...float64) []report.Record {
	var out []report.Record
	for _, method := range []string{"A", "B", "C", "D-C(3)", "R-LPL"} {
		for i, v := range m[method] {
			out = append(out, rec(map[string]any{"method": method, "s": ss[i]}, map[string]float64{"m": v}))
		}
	}
	return out
}

type evalCase struct {
	name   string
	check  string
	recs   []report.Record
	status string
	// evidence holds substrings of the verdict's evidence.
	evidence []string
	// badCheck marks a check that claims.Check rejects.
	badCheck bool
}

func runEval(t *testing.T, cases []evalCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cl := claim(t, tc.check)
			// Only a case about a bad check may fail Check: any other
			// NOT-EVALUATED must come from the records.
			if err := claims.Check(cl); (err != nil) != tc.badCheck {
				t.Fatalf("Check(%s) = %v, want an error: %v", tc.check, err, tc.badCheck)
			}
			res := claims.Evaluate(cl, tc.recs)
			if res.Status != tc.status {
				t.Errorf("status %s, want %s; evidence: %s", res.Status, tc.status, res.Evidence)
			}
			for _, e := range tc.evidence {
				if !strings.Contains(res.Evidence, e) {
					t.Errorf("evidence %q does not contain %q", res.Evidence, e)
				}
			}
			if res.ID != "x" || res.Statement != "s" || res.Source != "src" {
				t.Errorf("result id %q statement %q source %q, want x s src", res.ID, res.Statement, res.Source)
			}
		})
	}
}

var (
	c4 = []float64{1, 2, 3, 4}
	// up4 has Spearman ρ = 0.8 against c4: the rank differences are
	// 0, 1, −1, 0, so ρ = 1 − 6·2/(4·15) = 0.8. In floating point the
	// ranks' Pearson correlation is 4/√(5·5) = 0.8 exactly.
	up4 = []float64{1, 3, 2, 4}
)

func TestTrend(t *testing.T) {
	runEval(t, []evalCase{
		{
			name:     "spearman at the default threshold",
			check:    "{type: trend, metric: m, along: c, direction: increasing}",
			recs:     series("c", c4, up4, nil),
			status:   claims.Pass, // ρ = 0.8 ≥ min_rho default 0.8
			evidence: []string{"Spearman ρ = 0.8 (need ≥ 0.8)", "c=1: 1; c=2: 3; c=3: 2; c=4: 4"},
		},
		{
			name:     "spearman below min_rho",
			check:    "{type: trend, metric: m, along: c, direction: increasing, min_rho: 0.9}",
			recs:     series("c", c4, up4, nil),
			status:   claims.Fail, // ρ = 0.8 < 0.9
			evidence: []string{"Spearman ρ = 0.8 (need ≥ 0.9)"},
		},
		{
			name:     "spearman decreasing",
			check:    "{type: trend, metric: m, along: c, direction: decreasing, test: spearman}",
			recs:     series("c", c4, []float64{4, 3, 2, 1}, nil),
			status:   claims.Pass, // ρ = −1 ≤ −0.8
			evidence: []string{"Spearman ρ = -1 (need ≤ −0.8)"},
		},
		{
			name:   "spearman decreasing on rising data",
			check:  "{type: trend, metric: m, along: c, direction: decreasing}",
			recs:   series("c", c4, up4, nil),
			status: claims.Fail, // ρ = +0.8, not ≤ −0.8
		},
		{
			// Tied ranks have no variance: ρ is undefined (metrics.Spearman
			// returns NaN), so the claim is not judged on a made-up ρ.
			name:     "spearman of a constant metric",
			check:    "{type: trend, metric: m, along: c, direction: increasing}",
			recs:     series("c", c4, []float64{2, 2, 2, 2}, nil),
			status:   claims.NotEvaluated,
			evidence: []string{"m is constant along c, so Spearman ρ is undefined", "c=4: 2"},
		},
		{
			// The same flat series under test: endpoints compares last
			// and first, equal here, so the check cannot discriminate a
			// rise from a fall: INCONCLUSIVE, not FAIL.
			name:     "endpoints of a constant metric",
			check:    "{type: trend, metric: m, along: c, direction: increasing, test: endpoints}",
			recs:     series("c", c4, []float64{2, 2, 2, 2}, nil),
			status:   claims.Inconclusive,
			evidence: []string{"cannot discriminate here: m 2 (c=4) and 2 (c=1) differ by 0"},
		},
		{
			// Ties that leave some order are fine: 1, 2, 2, 3 ranks 1, 2.5,
			// 2.5, 4 against 1, 2, 3, 4. Centred: (−1.5, 0, 0, 1.5) and
			// (−1.5, −0.5, 0.5, 1.5); Σ = 4.5, Σdx² = 4.5, Σdc² = 5:
			// ρ = 4.5/√22.5 = 0.9487.
			name:     "spearman with ties",
			check:    "{type: trend, metric: m, along: c, direction: increasing}",
			recs:     series("c", c4, []float64{1, 2, 2, 3}, nil),
			status:   claims.Pass,
			evidence: []string{"Spearman ρ = 0.9487"},
		},
		{
			// 5, 1, 9, 6: ranks 2, 1, 4, 3 against 1, 2, 3, 4 give
			// Σd² = 4 and ρ = 1 − 24/60 = 0.6, below 0.8 …
			name:     "spearman rejects a noisy rise",
			check:    "{type: trend, metric: m, along: c, direction: increasing}",
			recs:     series("c", c4, []float64{5, 1, 9, 6}, nil),
			status:   claims.Fail,
			evidence: []string{"Spearman ρ = 0.6"},
		},
		{
			// … but the last value 6 exceeds the first 5.
			name:     "endpoints accept the same rise",
			check:    "{type: trend, metric: m, along: c, direction: increasing, test: endpoints}",
			recs:     series("c", c4, []float64{5, 1, 9, 6}, nil),
			status:   claims.Pass,
			evidence: []string{"first 5, last 6"},
		},
		{
			name:   "endpoints decreasing, last above first",
			check:  "{type: trend, metric: m, along: c, direction: decreasing, test: endpoints}",
			recs:   series("c", []float64{1, 2, 3}, []float64{1, 0, 2}, nil),
			status: claims.Fail, // 2 > 1
		},
		{
			name:   "endpoints are strict",
			check:  "{type: trend, metric: m, along: c, direction: increasing, test: endpoints}",
			recs:   series("c", []float64{1, 2}, []float64{3, 2.5}, nil),
			status: claims.Fail, // 2.5 is not above 3
		},
		{
			name:     "monotone allows equal neighbours",
			check:    "{type: trend, metric: m, along: c, direction: increasing, test: monotone}",
			recs:     series("c", c4, []float64{1, 2, 2, 3}, nil),
			status:   claims.Pass,
			evidence: []string{"monotone"},
		},
		{
			name:     "monotone broken",
			check:    "{type: trend, metric: m, along: c, direction: increasing, test: monotone}",
			recs:     series("c", c4, up4, nil),
			status:   claims.Fail, // 3 then 2
			evidence: []string{"breaks between c=2 and 3"},
		},
		{
			// Records arrive in any order; the series is sorted by c:
			// c=1: 10, c=2: 20, c=3: 30, c=4: 40.
			name:     "records out of order",
			check:    "{type: trend, metric: m, along: c, direction: increasing, test: monotone}",
			recs:     series("c", []float64{3, 1, 4, 2}, []float64{30, 10, 40, 20}, nil),
			status:   claims.Pass,
			evidence: []string{"c=1: 10; c=2: 20; c=3: 30; c=4: 40"},
		},
		{
			// components=5 rises, components=10 falls; where keeps the first.
			name:  "where selects the rising series",
			check: "{type: trend, metric: m, along: c, direction: increasing, where: {components: 5}}",
			recs: concat(
				series("c", c4, []float64{1, 2, 3, 4}, map[string]any{"components": 5}),
				series("c", c4, []float64{4, 3, 2, 1}, map[string]any{"components": 10})),
			status: claims.Pass, // ρ = 1
		},
		{
			name:  "where selects the falling series",
			check: "{type: trend, metric: m, along: c, direction: increasing, where: {components: 10}}",
			recs: concat(
				series("c", c4, []float64{1, 2, 3, 4}, map[string]any{"components": 5}),
				series("c", c4, []float64{4, 3, 2, 1}, map[string]any{"components": 10})),
			status: claims.Fail, // ρ = −1
		},
		{
			name:  "two series without where or group",
			check: "{type: trend, metric: m, along: c, direction: increasing}",
			recs: concat(
				series("c", c4, []float64{1, 2, 3, 4}, map[string]any{"components": 5}),
				series("c", c4, []float64{4, 3, 2, 1}, map[string]any{"components": 10})),
			status:   claims.NotEvaluated, // two cells at each c: which trend?
			evidence: []string{"several cells share c=1"},
		},
		{
			name:  "group: one series falls",
			check: "{type: trend, metric: m, along: c, direction: increasing, group: components}",
			recs: concat(
				series("c", c4, []float64{1, 2, 3, 4}, map[string]any{"components": 5}),
				series("c", c4, []float64{4, 3, 2, 1}, map[string]any{"components": 10})),
			status:   claims.Fail, // components=10 has ρ = −1
			evidence: []string{"components=5: m increasing along c — Spearman ρ = 1", "components=10: m increasing along c — Spearman ρ = -1"},
		},
		{
			name:  "group: every series rises",
			check: "{type: trend, metric: m, along: c, direction: increasing, group: components}",
			recs: concat(
				series("c", c4, []float64{1, 2, 3, 4}, map[string]any{"components": 5}),
				series("c", c4, up4, map[string]any{"components": 10})),
			status: claims.Pass, // ρ = 1 and ρ = 0.8
		},
		{
			name:     "a single point",
			check:    "{type: trend, metric: m, along: c, direction: increasing}",
			recs:     series("c", []float64{1}, []float64{1}, nil),
			status:   claims.NotEvaluated,
			evidence: []string{"a trend needs at least 2 values of c, have 1"},
		},
		{
			name:     "along is not numeric",
			check:    "{type: trend, metric: m, along: method, direction: increasing}",
			recs:     cells(map[string][]float64{"A": {1}, "B": {2}}, 0.1),
			status:   claims.NotEvaluated,
			evidence: []string{`has no numeric "method"`},
		},
		{
			name:     "where matches nothing",
			check:    "{type: trend, metric: m, along: c, direction: increasing, where: {components: 99}}",
			recs:     series("c", c4, up4, map[string]any{"components": 5}),
			status:   claims.NotEvaluated,
			evidence: []string{"no cell matches {components=99}"},
		},
	})
}

func TestCompare(t *testing.T) {
	// The shape of "D-C(3) is more than ten times worse than R-LPL at every
	// noise level s".
	const tenTimes = "{type: compare, metric: m, left: {method: D-C(3)}, right: {method: R-LPL}, op: '>', factor: 10, for_all: s}"
	runEval(t, []evalCase{
		{
			name:     "single pair holds",
			check:    "{type: compare, metric: m, left: {c: 5}, op: '<', right: {c: 0.05}}",
			recs:     series("c", []float64{0.05, 5}, []float64{0.9, 0.2}, nil),
			status:   claims.Pass, // 0.2 < 0.9
			evidence: []string{"m: 0.2 < 0.9 ✓"},
		},
		{
			name:     "single pair fails",
			check:    "{type: compare, metric: m, left: {c: 0.05}, op: '<', right: {c: 5}}",
			recs:     series("c", []float64{0.05, 5}, []float64{0.9, 0.2}, nil),
			status:   claims.Fail, // 0.9 < 0.2 is false
			evidence: []string{"m: 0.9 < 0.2 ✗"},
		},
		{
			// Sides that four digits show alike (0.4097) are printed
			// with as many as tell them apart.
			name:     "close sides keep their digits",
			check:    "{type: compare, metric: m, left: {c: 5}, op: '<', right: {c: 0.05}}",
			recs:     series("c", []float64{0.05, 5}, []float64{0.40973, 0.40971}, nil),
			status:   claims.Pass,
			evidence: []string{"m: 0.40971 < 0.40973 ✓"},
		},
		{
			// Equal sides: the check cannot tell them apart, whatever the
			// op (discriminate), "<=" included.
			name:     "<= at equality cannot discriminate",
			check:    "{type: compare, metric: m, left: {c: 1}, op: '<=', right: {c: 2}}",
			recs:     series("c", []float64{1, 2}, []float64{3, 3}, nil),
			status:   claims.Inconclusive,
			evidence: []string{"m: 3 <= 3 ✓", "cannot discriminate here"},
		},
		{
			name:     "< at equality cannot discriminate",
			check:    "{type: compare, metric: m, left: {c: 1}, op: '<', right: {c: 2}}",
			recs:     series("c", []float64{1, 2}, []float64{3, 3}, nil),
			status:   claims.Inconclusive,
			evidence: []string{"m: 3 < 3 ✗", "cannot discriminate here"},
		},
		{
			name:     "factor for all s holds",
			check:    tenTimes,
			recs:     cells(map[string][]float64{"D-C(3)": {25, 30}, "R-LPL": {2, 2.5}}, 1, 2),
			status:   claims.Pass, // 25 > 10·2 = 20 and 30 > 10·2.5 = 25
			evidence: []string{"s=1: 25 > 10×2 ✓", "s=2: 30 > 10×2.5 ✓"},
		},
		{
			name:     "factor fails at one s",
			check:    tenTimes,
			recs:     cells(map[string][]float64{"D-C(3)": {25, 24}, "R-LPL": {2, 2.5}}, 1, 2),
			status:   claims.Fail, // 24 > 25 is false
			evidence: []string{"s=1: 25 > 10×2 ✓", "s=2: 24 > 10×2.5 ✗"},
		},
		{
			name:     "several cells without for_all",
			check:    "{type: compare, metric: m, left: {method: D-C(3)}, right: {method: R-LPL}, op: '>'}",
			recs:     cells(map[string][]float64{"D-C(3)": {25, 30}, "R-LPL": {2, 2.5}}, 1, 2),
			status:   claims.NotEvaluated,
			evidence: []string{"selector matches several cells"},
		},
		{
			name:     "right cell missing for one s",
			check:    tenTimes,
			recs:     cells(map[string][]float64{"D-C(3)": {25, 30}, "R-LPL": {2}}, 1, 2),
			status:   claims.NotEvaluated,
			evidence: []string{"no right cell {method=R-LPL} for s=2"},
		},
		{
			name:     "left matches nothing",
			check:    "{type: compare, metric: m, left: {method: Z}, right: {method: A}, op: '<'}",
			recs:     cells(map[string][]float64{"A": {1}}, 1),
			status:   claims.NotEvaluated,
			evidence: []string{"no cell matches left {method=Z}"},
		},
		{
			// Only s=1 is kept: 25 > 20 holds; s=2 (24 vs 25) is ignored.
			name:   "where restricts both sides",
			check:  "{type: compare, metric: m, left: {method: D-C(3)}, right: {method: R-LPL}, op: '>', factor: 10, where: {s: 1}}",
			recs:   cells(map[string][]float64{"D-C(3)": {25, 24}, "R-LPL": {2, 2.5}}, 1, 2),
			status: claims.Pass,
		},
	})
}

func TestValue(t *testing.T) {
	// Two cells at c = 5 (components 10 and 50) and one at c = 0.05.
	recs := []report.Record{
		rec(map[string]any{"c": 5.0, "components": 10}, map[string]float64{"m": 1}),
		rec(map[string]any{"c": 5.0, "components": 50}, map[string]float64{"m": 0}),
		rec(map[string]any{"c": 0.05, "components": 50}, map[string]float64{"m": 7}),
	}
	runEval(t, []evalCase{
		{
			name:     "every selected cell holds",
			check:    "{type: value, metric: m, where: {c: 5}, op: '<=', value: 1}",
			recs:     recs,
			status:   claims.Pass, // 1 ≤ 1 and 0 ≤ 1; the 7 at c=0.05 is not selected
			evidence: []string{"1 <= 1 ✓", "0 <= 1 ✓"},
		},
		{
			name:     "one selected cell fails",
			check:    "{type: value, metric: m, where: {c: 5}, op: '<', value: 1}",
			recs:     recs,
			status:   claims.Fail, // 1 < 1 is false
			evidence: []string{"1 < 1 ✗"},
		},
		{
			name:   "no where selects every cell",
			check:  "{type: value, metric: m, op: '<', value: 1}",
			recs:   recs,
			status: claims.Fail, // 7 < 1 is false
		},
		{
			name:     "where matches nothing",
			check:    "{type: value, metric: m, where: {c: 99}, op: '<', value: 1}",
			recs:     recs,
			status:   claims.NotEvaluated,
			evidence: []string{"no cell matches {c=99}"},
		},
	})
}

func TestBest(t *testing.T) {
	runEval(t, []evalCase{
		{
			name:     "min: A lowest at every s",
			check:    "{type: best, metric: m, among: method, winner: A, sense: min, for_all: [s]}",
			recs:     cells(map[string][]float64{"A": {1, 2}, "B": {3, 4}, "C": {5, 6}}, 0.1, 0.2),
			status:   claims.Pass,
			evidence: []string{"m (min is better)", "s=0.1: A 1, best A 1 ✓", "s=0.2: A 2, best A 2 ✓"},
		},
		{
			name:     "min: B beats A at one s",
			check:    "{type: best, metric: m, winner: A, for_all: s}", // among method, sense min by default
			recs:     cells(map[string][]float64{"A": {1, 5}, "B": {3, 4}, "C": {5, 6}}, 0.1, 0.2),
			status:   claims.Fail, // at s=0.2, B's 4 < A's 5
			evidence: []string{"s=0.2: A 5, best B 4 ✗"},
		},
		{
			name:     "max: A highest",
			check:    "{type: best, metric: m, winner: A, sense: max, for_all: s}",
			recs:     cells(map[string][]float64{"A": {9, 8}, "B": {3, 4}, "C": {5, 6}}, 0.1, 0.2),
			status:   claims.Pass,
			evidence: []string{"m (max is better)"},
		},
		{
			name:   "max: A is lowest",
			check:  "{type: best, metric: m, winner: A, sense: max, for_all: s}",
			recs:   cells(map[string][]float64{"A": {1, 2}, "B": {3, 4}, "C": {5, 6}}, 0.1, 0.2),
			status: claims.Fail,
		},
		{
			// B is seen first and ties A: the point comparison passes a
			// tie, but a winner tied with a rival is not shown the best,
			// so the check cannot discriminate them.
			name:     "tie with a rival cannot discriminate",
			check:    "{type: best, metric: m, winner: B, sense: min}",
			recs:     cells(map[string][]float64{"A": {1}, "B": {1}, "C": {2}}, 0.1),
			status:   claims.Inconclusive,
			evidence: []string{"B 1, best A 1 ✓", "cannot discriminate here: m 1 (winner B) and 1 (rival A)"},
		},
		{
			name:     "winner absent from a group",
			check:    "{type: best, metric: m, winner: A, for_all: s}",
			recs:     cells(map[string][]float64{"A": {1}, "B": {3, 4}}, 0.1, 0.2),
			status:   claims.NotEvaluated,
			evidence: []string{"no method=A cell in group s=0.2"},
		},
		{
			name:     "several winner cells without for_all",
			check:    "{type: best, metric: m, winner: A}",
			recs:     cells(map[string][]float64{"A": {1, 2}, "B": {3, 4}}, 0.1, 0.2),
			status:   claims.NotEvaluated,
			evidence: []string{"several method=A cells"},
		},
		{
			// where keeps s=0.1, where A (1) beats B (3); s=0.2 would fail.
			name:   "where restricts the groups",
			check:  "{type: best, metric: m, winner: A, where: {s: 0.1}}",
			recs:   cells(map[string][]float64{"A": {1, 5}, "B": {3, 4}}, 0.1, 0.2),
			status: claims.Pass,
		},
	})
}

func TestRatio(t *testing.T) {
	// A: 1, 4, 2 (max 4, min 1, mean 7/3); B: 1, 3 (max 3, min 1, mean 2).
	recs := cells(map[string][]float64{"A": {1, 4, 2}, "B": {1, 3}}, 0.1, 0.2, 0.3)
	runEval(t, []evalCase{
		{
			name:     "max",
			check:    "{type: ratio, metric: m, left: {method: A}, right: {method: B}, summary: max, op: '>'}",
			recs:     recs,
			status:   claims.Pass, // 4 > 1·3
			evidence: []string{"m: max 4 (3 cells) > 1×max 3 (2 cells) ✓"},
		},
		{
			name:   "max is the default summary",
			check:  "{type: ratio, metric: m, left: {method: A}, right: {method: B}, op: '>', factor: 1.5}",
			recs:   recs,
			status: claims.Fail, // 4 > 1.5·3 = 4.5 is false
		},
		{
			name:     "min",
			check:    "{type: ratio, metric: m, left: {method: A}, right: {method: B}, summary: min, op: '<'}",
			recs:     recs,
			status:   claims.Inconclusive, // 1 < 1 compares equal sides
			evidence: []string{"m: min 1 (3 cells) < 1×min 1 (2 cells) ✗", "cannot discriminate here"},
		},
		{
			name:     "mean with a factor",
			check:    "{type: ratio, metric: m, left: {method: A}, right: {method: B}, summary: mean, op: '<', factor: 1.2}",
			recs:     recs,
			status:   claims.Pass, // 7/3 ≈ 2.333 < 1.2·2 = 2.4
			evidence: []string{"m: mean 2.333 (3 cells) < 1.2×mean 2 (2 cells) ✓"},
		},
		{
			name:     "right matches nothing",
			check:    "{type: ratio, metric: m, left: {method: A}, right: {method: Z}, op: '<'}",
			recs:     recs,
			status:   claims.NotEvaluated,
			evidence: []string{"no cell matches {method=Z}"},
		},
	})
}

func TestNotEvaluated(t *testing.T) {
	failed := rec(map[string]any{"c": 5.0}, nil)
	failed.Status, failed.Error = report.StatusFailed, "singular matrix"
	partial := rec(map[string]any{"c": 5.0}, map[string]float64{"m": 0.5})
	partial.Status = report.StatusPartial
	ok := rec(map[string]any{"c": 1.0}, map[string]float64{"m": 0.5})
	const check = "{type: value, metric: m, where: {c: 5}, op: '<', value: 1}"
	runEval(t, []evalCase{
		{
			name:     "selected cell failed",
			check:    check,
			recs:     []report.Record{ok, failed},
			status:   claims.NotEvaluated,
			evidence: []string{"cell c=5 failed: singular matrix"},
		},
		{
			name:     "metric missing",
			check:    "{type: value, metric: other, op: '<', value: 1}",
			recs:     []report.Record{ok},
			status:   claims.NotEvaluated,
			evidence: []string{`cell c=1 has no metric "other"`},
		},
		{
			name:     "metric NaN",
			check:    check,
			recs:     []report.Record{rec(map[string]any{"c": 5.0}, map[string]float64{"m": math.NaN()})},
			status:   claims.NotEvaluated,
			evidence: []string{"cell c=5: m is NaN"},
		},
		{
			name:     "no cell matches",
			check:    check,
			recs:     []report.Record{ok},
			status:   claims.NotEvaluated,
			evidence: []string{"no cell matches {c=5}"},
		},
		{
			name:   "no records at all",
			check:  check,
			recs:   nil,
			status: claims.NotEvaluated,
		},
		{
			name:     "NaN in a trend",
			check:    "{type: trend, metric: m, along: c, direction: increasing}",
			recs:     series("c", []float64{1, 2, 3}, []float64{1, math.NaN(), 3}, nil),
			status:   claims.NotEvaluated,
			evidence: []string{"cell c=2: m is NaN"},
		},
		{
			name:  "failed cell among best candidates",
			check: "{type: best, metric: m, winner: ok}",
			recs: []report.Record{rec(map[string]any{"method": "ok"}, map[string]float64{"m": 1}), func() report.Record {
				r := failed
				r.Params = map[string]any{"method": "bad"}
				r.Key = "method=bad"
				return r
			}()},
			status:   claims.NotEvaluated, // the failed method might have won
			evidence: []string{"cell method=bad failed"},
		},
		{
			// A failed cell outside the selection does not matter.
			name:   "failed cell not selected",
			check:  "{type: value, metric: m, where: {c: 1}, op: '<', value: 1}",
			recs:   []report.Record{ok, failed},
			status: claims.Pass, // 0.5 < 1
		},
		{
			// A partial cell's metrics cover the rows that succeeded.
			name:   "partial cell counts",
			check:  check,
			recs:   []report.Record{ok, partial},
			status: claims.Pass, // 0.5 < 1
		},
		{
			name:     "malformed check",
			check:    "{type: value, metric: m, op: '<'}",
			recs:     []report.Record{ok},
			status:   claims.NotEvaluated,
			evidence: []string{"f.yaml:9: check: a value check needs value"},
			badCheck: true,
		},
	})
}

func TestMatches(t *testing.T) {
	// Selectors are read from YAML, as in a config, so "5e-1" and "1.0"
	// are as written there.
	sel := func(s string) map[string]any {
		c := claim(t, "{type: value, metric: m, op: '<', value: 1, where: "+s+"}")
		return c.Check.Values["where"].(map[string]any)
	}
	for _, tc := range []struct {
		sel    string
		params map[string]any
		want   bool
	}{
		{"{c: 5e-1}", map[string]any{"c": 0.5}, true},
		{"{c: 0.5}", map[string]any{"c": 5e-1, "q": 3}, true},
		{"{q: 1}", map[string]any{"q": 1.0}, true},    // int selector, float64 param
		{"{q: 1.0}", map[string]any{"q": 1}, true},    // float64 selector, int param
		{"{q: 1.5}", map[string]any{"q": 1}, false},   // different values
		{"{c: 0.5}", map[string]any{"q": 0.5}, false}, // param absent
		{"{method: D-C(3), s: 2}", map[string]any{"method": "D-C(3)", "s": 2.0}, true},
		{"{method: D-C(3), s: 2}", map[string]any{"method": "D-C(3)", "s": 3}, false}, // every key must match
		{"{method: mika}", map[string]any{"method": "Mika"}, false},                   // names are case-sensitive
		{"{}", map[string]any{"c": 1}, true},                                          // the empty selector matches all
	} {
		r := rec(tc.params, nil)
		s := sel(tc.sel)
		if got := claims.Matches(&r, s); got != tc.want {
			t.Errorf("Matches(%v, %s = %#v) = %v, want %v", tc.params, tc.sel, s, got, tc.want)
		}
	}
}

// TestCheckErrors writes each malformed check as a block mapping starting
// on line 8 (lines 6–7 are "- id: x" and "check:"), so an error at an
// absent key falls back to line 8 and one at a key is at that key's line.
func TestCheckErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		check []string // lines 8, 9, …
		line  int
		want  string
	}{
		{"unknown type", []string{"type: slope", "metric: m"}, 8, `check.type: want one of trend, compare, value, best, ratio, got "slope"`},
		{"missing type", []string{"metric: m", "along: c"}, 8, "check: needs type (trend, compare, value, best, ratio) and metric"},
		{"missing metric", []string{"type: trend", "along: c", "direction: increasing"}, 8, "check: needs type (trend, compare, value, best, ratio) and metric"},
		{"metric not a string", []string{"type: trend", "metric: [a, b]"}, 9, "check.metric: want a string"},
		{"trend without along", []string{"type: trend", "metric: m", "direction: increasing"}, 8, "check: a trend needs along (a parameter) and direction"},
		{"trend without direction", []string{"type: trend", "metric: m", "along: c"}, 10, "check: a trend needs along (a parameter) and direction"},
		{"trend direction", []string{"type: trend", "metric: m", "along: c", "direction: up"}, 11, `check.direction: want one of increasing, decreasing, got "up"`},
		{"trend test", []string{"type: trend", "metric: m", "along: c", "direction: increasing", "test: kendall"}, 12, `check.test: want one of spearman, endpoints, monotone, got "kendall"`},
		{"trend min_rho", []string{"type: trend", "metric: m", "along: c", "direction: increasing", "min_rho: 1.5"}, 12, "check.min_rho: 1.5 is impossible, want a correlation in (0, 1]"},
		{"trend where not a mapping", []string{"type: trend", "metric: m", "along: c", "direction: increasing", "where: 5"}, 12, "check.where: want a mapping {param: value}, got 5"},
		{"compare without op", []string{"type: compare", "metric: m", "left: {c: 1}", "right: {c: 2}"}, 8, "check: a compare check needs op (<, <=, >, >=)"},
		{"compare without right", []string{"type: compare", "metric: m", "left: {c: 1}", "op: '<'"}, 8, "check.right: compare check needs right: {param: value, ...}"},
		{"compare op", []string{"type: compare", "metric: m", "left: {c: 1}", "right: {c: 2}", "op: '=='"}, 12, `check.op: want one of <, <=, >, >=, got "=="`},
		{"compare factor", []string{"type: compare", "metric: m", "left: {c: 1}", "right: {c: 2}", "op: '<'", "factor: 0"}, 13, "check.factor: 0 is impossible, want a factor > 0"},
		{"compare for_all not names", []string{"type: compare", "metric: m", "left: {c: 1}", "right: {c: 2}", "op: '<'", "for_all: [1]"}, 13, "check.for_all: want parameter names, got 1"},
		{"value without value", []string{"type: value", "metric: m", "op: '<'"}, 8, "check: a value check needs value"},
		{"value without op", []string{"type: value", "metric: m", "value: 1"}, 8, "check: a value check needs op"},
		{"best without winner", []string{"type: best", "metric: m", "among: method"}, 8, `check: a best check needs winner (the value of "method" expected to win)`},
		{"best sense", []string{"type: best", "metric: m", "winner: A", "sense: median"}, 11, `check.sense: want one of min, max, got "median"`},
		{"ratio summary", []string{"type: ratio", "metric: m", "left: {c: 1}", "right: {c: 2}", "op: '<'", "summary: median"}, 13, `check.summary: want one of max, min, mean, got "median"`},
		{"unknown key", []string{"type: value", "metric: m", "op: '<'", "value: 1", "colour: red"}, 12, `check: unknown key "colour" (expected one of: given, metric, op, type, value, where)`},
		{"key of another check type", []string{"type: trend", "metric: m", "along: c", "direction: increasing", "factor: 2"}, 12, `check: unknown key "factor"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "  - id: x\n    check:\n      " + strings.Join(tc.check, "\n      ") + "\n"
			cl := parseClaims(t, src)[0]
			err := claims.Check(cl)
			if err == nil {
				t.Fatalf("Check(%q): no error, want %q", tc.check, tc.want)
			}
			if prefix := fmt.Sprintf("f.yaml:%d: %s", tc.line, tc.want); !strings.HasPrefix(err.Error(), prefix) {
				t.Errorf("Check(%q):\n got %q\nwant prefix %q", tc.check, err, prefix)
			}
			// Evaluate gives the same error as the evidence of NOT-EVALUATED.
			res := claims.Evaluate(cl, nil)
			if res.Status != claims.NotEvaluated || res.Evidence != err.Error() {
				t.Errorf("Evaluate: %s %q, want %s %q", res.Status, res.Evidence, claims.NotEvaluated, err)
			}
		})
	}
}

func TestCheckAccepts(t *testing.T) {
	for _, check := range []string{
		"{type: trend, metric: m, along: c, direction: increasing}",
		"{type: trend, metric: m, along: c, direction: decreasing, test: monotone, where: {q: 5}, group: s, min_rho: 1}",
		"{type: compare, metric: m, left: {c: 1}, right: {c: 2}, op: '<', factor: 2.5, for_all: [s, q], where: {}}",
		"{type: value, metric: m, op: '>=', value: -3}",
		"{type: best, metric: m, winner: A, sense: max, for_all: s, among: method, where: {q: 1}}",
		"{type: ratio, metric: m, left: {c: 1}, right: {c: 2}, op: '<', summary: mean, factor: 0.5}",
	} {
		if err := claims.Check(claim(t, check)); err != nil {
			t.Errorf("Check(%s): %v", check, err)
		}
	}
}

// TestRealConfigClaims checks every claim in the shipped configs.
func TestRealConfigClaims(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "configs", "*.yaml"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no configs found: %v", err)
	}
	for _, p := range paths {
		if config.IsCollection(p) {
			continue // lists configs, states no claim
		}
		c, err := config.Load(p)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		for _, cl := range c.Claims {
			if err := claims.Check(cl); err != nil {
				t.Errorf("%s: claim %s: %v", p, cl.ID, err)
			}
		}
	}
}

// TestMatchesAnyOf: a list in a selector matches any of its values.
func TestMatchesAnyOf(t *testing.T) {
	r := &report.Record{Params: map[string]any{"method": "Mika", "c": 0.5}}
	if !claims.Matches(r, map[string]any{"method": []any{"Tikhonov", "Mika"}, "c": []any{5e-1}}) {
		t.Error("a list selector must match any of its values")
	}
	if claims.Matches(r, map[string]any{"method": []any{"Tikhonov", "Lasso"}}) {
		t.Error("a list selector matched none of its values")
	}
}

// TestRatioMixedSummaries: the worst of one selection against the best of
// another, Zheng & Lai's "D-C(n ≥ 15) beats least squares" shape. Left
// values 86, 88, 91 (max 91) against right values 112, 120 (min 112):
// 91 < 112 passes.
func TestRatioMixedSummaries(t *testing.T) {
	var recs []report.Record
	for i, v := range []float64{86, 88, 91, 112, 120} {
		m := "D-C"
		if i >= 3 {
			m = "LSM"
		}
		recs = append(recs, report.Record{Key: fmt.Sprint(i), Status: "ok", Params: map[string]any{"method": m, "n": i}, Metrics: map[string]float64{"mse": v}})
	}
	cl := claim(t, "{type: ratio, metric: mse, left: {method: D-C}, left_summary: max, op: \"<\", right: {method: LSM}, right_summary: min}")
	res := claims.Evaluate(cl, recs)
	if res.Status != claims.Pass || !strings.Contains(res.Evidence, "max 91 (3 cells) < 1×min 112 (2 cells)") {
		t.Errorf("%s: %s", res.Status, res.Evidence)
	}
}
