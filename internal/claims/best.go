package claims

import (
	"fmt"

	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/stats"
)

// bestInterval gives a best check the interval verdict where every
// candidate's metric has per-item evidence (Options.Items): for each
// group and each other candidate (rival), the paired BCa bootstrap of
// winner − rival on the claimed statistic over the test items they share
// (pairedInterval). Every rival of a group is bootstrapped from the same
// stream, seeded by the claim id and group like a compare check's, and so
// on the same resampled items: the rivals' intervals are paired with one
// another as well as with the winner.
//
// The claim "the winner is the best" is PASS when every rival's interval
// lies strictly on the claimed side of zero (below for sense: min, above
// for max), FAIL when some rival's interval lies strictly on the other
// side (the winner is beaten, by an interval excluding zero), and
// INCONCLUSIVE otherwise (decideBest). A winner tied with a rival on
// every item has the interval [0, 0]: neither beaten nor beating, it is
// INCONCLUSIVE, where the point verdict passes a tie. A best check whose
// point winner is another candidate is judged the same way: it FAILs
// only when the named candidate is beaten with an interval excluding
// zero.
//
// Under the null (every candidate's per-item scores from one
// distribution) a single rival's interval covers zero about 95% of the
// time, so the claim is INCONCLUSIVE at about the interval's level, and
// with m rivals at about 1 − P(some interval excludes zero on the wrong
// side) − P(all on the claimed side): TestBestNullRate measures it.
func (sp *spec) bestInterval(id string, o Options, res *Result) {
	sd := stats.Below
	if sp.sense == "max" {
		sd = stats.Above
	}
	var ev []pairEvidence
	for _, rg := range sp.rivals {
		key := "claim:" + id
		if rg.group != "" {
			key += "/" + rg.group
		}
		for j, r := range rg.others {
			label := "vs " + rg.names[j]
			if rg.group != "" {
				label = rg.group + " " + label
			}
			if est, method, why, ok := tDiff(o, rg.metric, rg.win, r, 1, 1); ok {
				if why != "" {
					res.Basis = "point: " + why
					return
				}
				ev = append(ev, pairEvidence{group: label, est: est, verdict: decideBest(est.CI, sd), method: method})
				continue
			}
			est, unit, why := pairedInterval(o, key, rg.metric, []*report.Record{rg.win}, "", []*report.Record{r}, "", 1)
			if why != "" {
				res.Basis = "point: " + why
				return
			}
			ev = append(ev, pairEvidence{group: label, est: est, verdict: decideBest(est.CI, sd), method: ciMethod(est.Repeats, unit)})
		}
	}
	if len(ev) == 0 {
		res.Basis = "point: a best check with no rival to the winner has no difference to bound"
		return
	}
	sp.noteFailed(ev)
	v, d := combineBest(ev, sd)
	decide(res, o, v, d, d.method+"; deciding rival: "+d.group,
		fmt.Sprintf("%g%% intervals of %s − rival: %s → %s", 100*d.est.CI.Level, sp.winner, intervalsText(ev), v))
}

// decideBest judges winner − rival on side sd of zero, strictly on both
// sides: an interval touching zero neither shows the winner better nor
// shows it beaten.
func decideBest(iv stats.Interval, sd stats.Side) stats.Verdict {
	better, worse := iv.Hi < 0, iv.Lo > 0
	if sd == stats.Above {
		better, worse = iv.Lo > 0, iv.Hi < 0
	}
	switch {
	case better:
		return stats.Pass
	case worse:
		return stats.Fail
	}
	return stats.Inconclusive
}

// combineBest reduces the rivals' verdicts to the claim's (FAIL if any
// rival fails, else INCONCLUSIVE if any is, else PASS) and returns the
// deciding interval: among the rivals with the claim's verdict, the
// closest one, whose interval reaches furthest to the unclaimed side
// (the largest upper end for sense: min, the smallest lower end for
// max), in order of appearance on ties.
func combineBest(ev []pairEvidence, sd stats.Side) (string, pairEvidence) {
	want := stats.Pass
	for _, e := range ev {
		switch {
		case e.verdict == stats.Fail:
			want = stats.Fail
		case e.verdict == stats.Inconclusive && want == stats.Pass:
			want = stats.Inconclusive
		}
	}
	reach := func(e pairEvidence) float64 {
		if sd == stats.Above {
			return -e.est.CI.Lo
		}
		return e.est.CI.Hi
	}
	var d *pairEvidence
	for i := range ev {
		if ev[i].verdict == want && (d == nil || reach(ev[i]) > reach(*d)) {
			d = &ev[i]
		}
	}
	return want.String(), *d
}
