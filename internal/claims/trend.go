package claims

import (
	"fmt"

	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/stats"
)

// trendInterval gives a trend check the interval verdict where every cell
// of every group has per-item scores for the metric, the items shared by
// the cells (the same corrupted test images at every c, the same
// repetitions at every energy): each resample of items recomputes every
// cell's statistic, so the trend's statistic is bootstrapped with the
// cells paired.
//
//   - endpoints: the interval of sign·(last − first) against 0;
//   - monotone: one interval of sign·(y_i − y_{i−1}) per step, each against
//     0; the claim passes when every step's interval lies above 0, fails
//     when one lies below (a step significantly the wrong way), as a best
//     check's rivals do;
//   - spearman: the interval of sign·ρ against min_rho.
//
// sign is −1 for a decreasing trend. PASS, FAIL and INCONCLUSIVE then
// combine over groups as a compare check's do.
func (sp *spec) trendInterval(id string, o Options, res *Result) {
	sign, op := sp.trendSignOp()
	var ev []pairEvidence
	add := func(key, label string, groups [][]*report.Record, bound float64, f func(v [][]float64) float64) bool {
		if len(groups) == 2 {
			// Two cells: last (second) minus first, which a mean over few
			// items judges on Student's t of the item-by-item differences.
			if est, method, why, ok := tDiff(o, sp.metric, groups[1][0], groups[0][0], 1, sign); ok {
				if why != "" {
					res.Basis = "point: " + why
					return false
				}
				ev = append(ev, pairEvidence{group: label, est: est, verdict: decideOp(est.CI, op, bound), bound: bound, method: method})
				return true
			}
		}
		est, unit, why := bootCells(o, key, sp.metric, groups, nil, f)
		if why != "" {
			res.Basis = "point: " + why
			return false
		}
		ev = append(ev, pairEvidence{group: label, est: est, verdict: decideOp(est.CI, op, bound), bound: bound, method: ciMethod(est.Repeats, unit)})
		return true
	}
	for _, tg := range sp.trends {
		key := "claim:" + id
		prefix := ""
		if tg.group != "" {
			key += "/" + tg.group
			prefix = tg.group + " "
		}
		n := len(tg.recs)
		switch sp.test {
		case "endpoints":
			label := fmt.Sprintf("%s%s=%s→%s", prefix, sp.along, g(tg.xs[0]), g(tg.xs[n-1]))
			if !add(key, label, [][]*report.Record{{tg.recs[0]}, {tg.recs[n-1]}}, 0, func(v [][]float64) float64 { return sign * (v[1][0] - v[0][0]) }) {
				return
			}
		case "monotone":
			from := len(ev)
			for i := 1; i < n; i++ {
				label := fmt.Sprintf("%s%s=%s→%s", prefix, sp.along, g(tg.xs[i-1]), g(tg.xs[i]))
				if !add(key+"/"+label, label, [][]*report.Record{{tg.recs[i-1]}, {tg.recs[i]}}, 0, func(v [][]float64) float64 { return sign * (v[1][0] - v[0][0]) }) {
					return
				}
			}
			// A step refuting the claim refutes its group's series,
			// which trendSides names monotone:GROUP.
			for _, e := range ev[from:] {
				if e.verdict == stats.Fail {
					sp.noteFailed([]pairEvidence{{group: "monotone:" + tg.group, verdict: stats.Fail}})
				}
			}
		default: // spearman
			xs := tg.xs
			if !add(key, prefix+"ρ", [][]*report.Record{tg.recs}, sp.minRho, func(v [][]float64) float64 { return sign * metrics.Spearman(xs, v[0]) }) {
				return
			}
		}
	}
	if len(ev) == 0 {
		res.Basis = "point: a trend with no group has nothing to bound"
		return
	}
	sp.noteFailed(ev)
	v, d := combine(ev, stats.Above)
	decide(res, o, v, d, d.method, fmt.Sprintf("%g%% intervals of %s (sign %+g for %s): %s → %s", 100*d.est.CI.Level, sp.trendWhat(), sign, sp.direction, intervalsText(ev), v))
}

// trendSignOp returns the trend's sign (−1 for a decreasing trend) and
// the side its interval is judged on: endpoints and steps claim a strict
// rise (or fall); Spearman's point test is sign·ρ ≥ min_rho, so its
// interval is judged inclusively.
func (sp *spec) trendSignOp() (sign float64, op string) {
	sign, op = 1, ">"
	if sp.direction == "decreasing" {
		sign = -1
	}
	if sp.test == "spearman" {
		op = ">="
	}
	return sign, op
}

// trendWhat names the quantity a trend's interval bounds.
func (sp *spec) trendWhat() string {
	switch sp.test {
	case "monotone":
		return "each step sign·(y_i − y_(i−1))"
	case "spearman", "":
		return "sign·Spearman ρ against min_rho " + g(sp.minRho)
	}
	return "sign·(last − first)"
}
