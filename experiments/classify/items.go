package classify

import (
	"fmt"
	"sort"
	"strings"

	"gonum.org/v1/gonum/stat"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/stats"
)

// items declares the gains as paired statistics over splits, so that a
// claim on them (gain_min > 0: "LPKPCA beats KPCA at every λ") is judged
// on an interval over splits, not on the single mean. The items are the
// splits: rec.Arrays["kpca"][s] and rec.Arrays["lpkpca_l<λ>_k<k>"][s]
// are both accuracies on split s, so gain_l<λ>_k<k> is the mean over
// splits of LPKPCA − KPCA, gain_mean the mean over splits of the mean over
// (λ, k) of that difference, and gain_min / gain_max the min / max over
// (λ, k) of the paired means (claims.Paired: a t-interval, Bonferroni-
// simultaneous for min and max, since 5–20 splits are too few for a
// bootstrap). The (λ, k) points are read from the record's arrays, in
// sorted name order: the record holds every point of its config.
//
// kbest_l<λ>_k<k> (k is the best k of the sweep at λ) is the min over the
// other k' of the paired means of LPKPCA(k) − LPKPCA(k'): declared the
// same way, with Bonferroni-simultaneous t-intervals over the splits.
//
// kpca and lpkpca_l<λ>_k<k>, the mean accuracies, are declared means
// over few items (claims.ItemStat.MeanT): a trend of one along the
// number of components compares its endpoints on Student's t over the
// paired per-split differences.
//
// win_fraction is not declared: "LPKPCA wins on every split" (win_fraction
// ≥ 1) is a statement about the recorded splits, and its population
// version (a win probability of 1) can be refuted but never established by
// finitely many splits; its point verdict stands (pointReason).
func items(rec *report.Record, metric string) (claims.ItemStat, bool) {
	if s, ok := strings.CutPrefix(metric, "kbest_"); ok {
		return kbestItems(rec, s)
	}
	if _, ok := rec.Arrays[metric]; ok && (metric == "kpca" || strings.HasPrefix(metric, "lpkpca_")) {
		// A mean accuracy over the splits: two cells' (a trend's
		// endpoints, a comparison) are compared on Student's t over the
		// paired per-split differences (claims.ItemStat.MeanT).
		return claims.ItemStat{Array: metric, Stat: func(_ *report.Record, x []float64) float64 { return stat.Mean(x, nil) }, Unit: "splits", MeanT: true}, true
	}
	name, ok := strings.CutPrefix(metric, "gain_")
	if !ok {
		return claims.ItemStat{}, false
	}
	arrays := []string{"kpca"}
	fold := "mean"
	switch name {
	case "min", "max", "mean":
		arrays = append(arrays, lpkpcaArrays(rec)...)
		fold = name
	default:
		if _, ok := rec.Arrays["lpkpca_"+name]; !ok {
			return claims.ItemStat{}, false
		}
		arrays = append(arrays, "lpkpca_"+name)
	}
	if len(arrays) < 2 {
		return claims.ItemStat{}, false
	}
	return claims.ItemStat{Paired: &claims.Paired{Arrays: arrays, Terms: gainTerms, Fold: fold, Unit: "splits"}}, true
}

// gainTerms maps one split's accuracies (KPCA first, then LPKPCA at each
// point) to LPKPCA − KPCA at each point.
func gainTerms(row []float64) []float64 {
	t := make([]float64, len(row)-1)
	for j := range t {
		t[j] = row[j+1] - row[0]
	}
	return t
}

// lpkpcaArrays returns the names of the record's LPKPCA arrays, sorted.
func lpkpcaArrays(rec *report.Record) []string {
	var out []string
	for k := range rec.Arrays {
		if strings.HasPrefix(k, "lpkpca_") {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// ciLevel is the level of the table's intervals.
const ciLevel = 0.95

// meanPM renders the mean of per-split values with the half-width of its
// 95% t-interval over splits (stats.TMean): with 5–20 splits a bootstrap
// interval under-covers (claims.Paired), and the t-interval is exact for
// normal per-split values. One split has no interval.
func meanPM(x []float64, digits int) string {
	e, err := stats.TMean(x, ciLevel)
	if err != nil {
		if len(x) == 1 {
			return report.FormatFloat(x[0], digits)
		}
		return "—"
	}
	return report.FormatFloat(e.Mean, digits) + " ± " + report.FormatFloat((e.CI.Hi-e.CI.Lo)/2, 2)
}

// pairedPM renders the mean over splits of lp − kp with the half-width of
// the t-interval of the paired differences: the split effect (every
// method does better on an easy split) cancels, so this interval, not the
// two columns' intervals, says whether LPKPCA beats KPCA.
func pairedPM(lp, kp []float64) string {
	d := make([]float64, len(lp))
	for s := range d {
		d[s] = lp[s] - kp[s]
	}
	return meanPM(d, 3)
}

// wins renders how many splits LPKPCA is above KPCA on, "w/n", and how
// many it ties (tied: equal to tieTol), "w/n, t tied": a tie is not a
// win.
func wins(lp, kp []float64) string {
	w, t := 0, 0
	for s := range lp {
		switch {
		case tied(lp[s], kp[s]):
			t++
		case lp[s] > kp[s]:
			w++
		}
	}
	if t > 0 {
		return fmt.Sprintf("%d/%d, %d tied", w, len(lp), t)
	}
	return fmt.Sprintf("%d/%d", w, len(lp))
}

// ciCaption is the table caption's sentence on the intervals.
func ciCaption(n int) string {
	if n < 2 {
		return "One split: no interval over splits."
	}
	return fmt.Sprintf("± is the half-width of the %g%% Student t-interval over the %d splits (t_{%d} = %s): of each mean accuracy, and for gain of the paired per-split differences LPKPCA − KPCA, which cancel the split-to-split spread both methods share; %d splits are too few for a bootstrap interval, which under-covers at so few items. wins = splits on which LPKPCA is above KPCA, ties (equal to 1e-9 points) counted apart.",
		100*ciLevel, n, n-1, report.FormatFloat(stats.TQuantile(n-1, 1-(1-ciLevel)/2), 4), n)
}

// kbestItems declares kbest_<suffix>: the arrays of the point and of every
// other k at its λ (the record's lpkpca_l<λ>_k<k'> arrays), the terms
// LPKPCA(k) − LPKPCA(k') per split, folded by min.
func kbestItems(rec *report.Record, suffix string) (claims.ItemStat, bool) {
	own := "lpkpca_" + suffix
	if _, ok := rec.Arrays[own]; !ok {
		return claims.ItemStat{}, false
	}
	lam, _, ok := strings.Cut(suffix, "_k")
	if !ok {
		return claims.ItemStat{}, false
	}
	arrays := []string{own}
	for _, a := range lpkpcaArrays(rec) {
		if a != own && strings.HasPrefix(a, "lpkpca_"+lam+"_k") {
			arrays = append(arrays, a)
		}
	}
	if len(arrays) < 2 {
		return claims.ItemStat{}, false
	}
	return claims.ItemStat{Paired: &claims.Paired{Arrays: arrays, Terms: leadTerms, Fold: "min", Unit: "splits"}}, true
}

// leadTerms maps one split's accuracies (the point's first, then the
// other k's) to the point's lead over each: LPKPCA(k) − LPKPCA(k').
func leadTerms(row []float64) []float64 {
	t := make([]float64, len(row)-1)
	for j := range t {
		t[j] = row[0] - row[j+1]
	}
	return t
}

// pointReason says why a classify metric has no interval.
func pointReason(metric string) string {
	switch {
	case metric == "win_fraction" || metric == "tie_fraction":
		return "\"LPKPCA wins on every split\" is a statement about the recorded splits: a finite sample of splits can refute it but never establish a win probability of 1, so it has no interval"
	case strings.HasPrefix(metric, "flops_") || strings.HasPrefix(metric, "cost_"):
		return "an operation count from the sizes of the data and fits (cost.go): deterministic, nothing is sampled"
	}
	return ""
}
