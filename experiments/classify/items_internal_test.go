package classify

import (
	"math"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
)

// TestTableCells: per-split accuracies 90, 91, 92, 93, 94 have mean 92 and
// sample variance 2.5, so the 95% t half-width is t_{4, 0.975}·√(2.5/5) =
// 2.776·0.7071 = 1.963 (t_{4, 0.975} = 2.776, NIST/SEMATECH e-Handbook
// §1.3.6.7.2), printed to 2 significant digits: "92 ± 2". The paired
// differences LPKPCA − KPCA = 1, 1, 1, 1, 1 have zero spread: "1 ± 0",
// though each column alone spreads by ±2; LPKPCA wins on all 5 splits.
func TestTableCells(t *testing.T) {
	kp := []float64{90, 91, 92, 93, 94}
	lp := []float64{91, 92, 93, 94, 95}
	if got := meanPM(kp, 4); got != "92 ± 2" {
		t.Errorf("meanPM = %q, want %q", got, "92 ± 2")
	}
	if got := pairedPM(lp, kp); got != "1 ± 0" {
		t.Errorf("pairedPM = %q, want %q", got, "1 ± 0")
	}
	if got := wins(lp, kp); got != "5/5" {
		t.Errorf("wins = %q, want 5/5", got)
	}
	// A tie is no win, and is counted apart, also when the sums of the
	// per-class ratios differ in the last bit (92.00000000000001 is the
	// mean accuracy of zheng-lpkpca-table1 that used to win against 92);
	// one split has no interval, only its value.
	if got := wins([]float64{1, 2}, []float64{1, 1}); got != "1/2, 1 tied" {
		t.Errorf("wins with a tie = %q, want 1/2, 1 tied", got)
	}
	if got := wins([]float64{92.00000000000001, 93}, []float64{92, 92.5}); got != "1/2, 1 tied" {
		t.Errorf("wins with a last-bit tie = %q, want 1/2, 1 tied", got)
	}
	if got := meanPM([]float64{87.5}, 4); got != "87.5" {
		t.Errorf("one split: %q, want the value alone", got)
	}
	if c := ciCaption(5); !strings.Contains(c, "t_{4} = 2.776") {
		t.Errorf("caption %q does not give t_{4} = 2.776", c)
	}
}

// TestItems: the gains of a record shaped as the kind writes it (two
// points, three splits) are paired statistics over its arrays, and the
// claims' t-interval of each reproduces the recorded gain; the mean
// accuracies are declared means over few items; win_fraction has none.
func TestItems(t *testing.T) {
	kp := []float64{60, 62, 61}
	a := []float64{61, 63.5, 61}  // differences 1, 1.5, 0: mean 5/6
	b := []float64{59, 62, 60.25} // differences −1, 0, −0.75: mean −7/12
	rec := &report.Record{Key: "components=60", Status: report.StatusOK,
		Metrics: map[string]float64{"gain_l0.1_k3": 5.0 / 6, "gain_l0.2_k3": -7.0 / 12, "gain_min": -7.0 / 12, "gain_max": 5.0 / 6, "gain_mean": (5.0/6 - 7.0/12) / 2, "win_fraction": 2.0 / 6},
		Arrays:  map[string][]float64{"kpca": kp, "lpkpca_l0.1_k3": a, "lpkpca_l0.2_k3": b}}
	for _, m := range []string{"win_fraction", "gain_l9_k3", "lpkpca_l9_k3"} {
		if _, ok := items(rec, m); ok {
			t.Errorf("%s declared", m)
		}
	}
	// The mean accuracies are means over few items: Student's t.
	for _, m := range []string{"kpca", "lpkpca_l0.1_k3"} {
		if st, ok := items(rec, m); !ok || !st.MeanT || st.Paired != nil || st.Array != m {
			t.Errorf("%s: %+v, %v; want a mean over splits (MeanT)", m, st, ok)
		}
	}
	for m, want := range map[string]string{"gain_l0.1_k3": "mean", "gain_min": "min", "gain_max": "max", "gain_mean": "mean"} {
		st, ok := items(rec, m)
		if !ok || st.Paired == nil || st.Paired.Fold != want || st.Paired.Arrays[0] != "kpca" {
			t.Fatalf("%s: %+v, %v; want a paired %s with kpca first", m, st, ok, want)
		}
	}
	st, _ := items(rec, "gain_min")
	if got := strings.Join(st.Paired.Arrays, ","); got != "kpca,lpkpca_l0.1_k3,lpkpca_l0.2_k3" {
		t.Errorf("gain_min arrays %s", got)
	}
	// Through claims: gain_l0.1_k3 > 0 over 3 splits with differences 1,
	// 1.5, 0 (mean 5/6, s = √(7/12), t_{2, 0.975} = 4.303, same table):
	// half-width 4.303·√(7/36) = 1.897, so the interval covers 0.
	o := claims.Options{Items: items, Counts: true}
	res := claims.EvaluateWith(claimOf(t, "gain_l0.1_k3"), []report.Record{*rec}, o)
	h := 4.303 * math.Sqrt(7.0/36)
	if res.Basis != "interval" || res.Status != claims.Inconclusive || res.PointVerdict != claims.Pass ||
		math.Abs(*res.CILo-(5.0/6-h)) > 1e-3 || math.Abs(*res.CIHi-(5.0/6+h)) > 1e-3 {
		t.Errorf("gain_l0.1_k3 > 0: %s (point %s, basis %q) [%v, %v]; want INCONCLUSIVE on [%.3f, %.3f]", res.Status, res.PointVerdict, res.Basis, deref(res.CILo), deref(res.CIHi), 5.0/6-h, 5.0/6+h)
	}
}

// claimOf is the claim "metric > 0" as a value check.
func claimOf(t *testing.T, metric string) config.Claim {
	t.Helper()
	return config.Claim{ID: "x", Check: config.Section{Values: map[string]any{"type": "value", "metric": metric, "op": ">", "value": 0.0}}}
}

func deref(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

// TestKBestItems: kbest_l0.1_k3 is declared as the min over the other k at
// λ = 0.1 of the paired differences LPKPCA(k = 3) − LPKPCA(k'), and k = 5
// at λ = 0.2 is not one of them. With k = 3 at 61, 63.5, 61 against k = 4
// at 60, 62, 61 (differences 1, 1.5, 0: mean 5/6) and k = 5 at 59, 62,
// 60.25 (2, 1.5, 0.75: mean 17/12), the statistic is min(5/6, 17/12) =
// 5/6, and the claims' fold of two Bonferroni t-intervals reproduces it.
func TestKBestItems(t *testing.T) {
	rec := &report.Record{Key: "components=60", Status: report.StatusOK,
		Metrics: map[string]float64{"kbest_l0.1_k3": 5.0 / 6},
		Arrays: map[string][]float64{"kpca": {60, 60, 60}, "lpkpca_l0.1_k3": {61, 63.5, 61}, "lpkpca_l0.1_k4": {60, 62, 61},
			"lpkpca_l0.1_k5": {59, 62, 60.25}, "lpkpca_l0.2_k5": {0, 0, 0}}}
	st, ok := items(rec, "kbest_l0.1_k3")
	if !ok || st.Paired == nil || st.Paired.Fold != "min" || strings.Join(st.Paired.Arrays, ",") != "lpkpca_l0.1_k3,lpkpca_l0.1_k4,lpkpca_l0.1_k5" {
		t.Fatalf("kbest: %+v, %v", st.Paired, ok)
	}
	res := claims.EvaluateWith(claimOf(t, "kbest_l0.1_k3"), []report.Record{*rec}, claims.Options{Items: items, Counts: true})
	if res.Basis != "interval" || res.PointVerdict != claims.Pass || !strings.Contains(res.CIMethod, "min of 2 simultaneous") {
		t.Errorf("kbest > 0: %s (%s, %q); %s", res.Verdict, res.Basis, res.CIMethod, res.Evidence)
	}
	if _, ok := items(rec, "kbest_l0.3_k3"); ok {
		t.Error("kbest of a point the record lacks declared")
	}
}
