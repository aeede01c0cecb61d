package claims

import (
	"fmt"
	"math"
	"strings"
)

// relTol is the default tolerance within which the two sides of a
// comparison are equal to rounding: |l − r| ≤ relTol·max(1, |l|, |r|).
// The metrics are sums and means of float64 arithmetic over at most a
// few million terms; 1e-9 is far above their rounding (about 1e-16 per
// operation) and far below any effect a paper states.
const relTol = 1e-9

// sidePair is one comparison a check made, for the "cannot discriminate"
// test: its two sides l and r (the left and factor × right of a compare or
// ratio check, a best check's winner and one rival, a value check's cell
// and its against: cell, a trend's first and last values), what names
// them, whether the comparison satisfied the claim on its numbers, and
// the label of its interval, if it gets one.
type sidePair struct {
	metric       string
	lname, rname string
	l, r         float64
	ok           bool
	group        string
}

// tolerance is the tolerance for two values of metric being equal: the
// kind's, when it declares one (Options.Tolerance: a resolution of the
// metric's unit), else relTol·max(1, |l|, |r|), and the words that say
// which.
func (o Options) tolerance(metric string, l, r float64) (float64, string) {
	rel := relTol * math.Max(1, math.Max(math.Abs(l), math.Abs(r)))
	if o.Tolerance != nil {
		if t, why := o.Tolerance(metric); t > 0 {
			if t >= rel {
				return t, why
			}
		}
	}
	return rel, "1e-9·max(1, |l|, |r|): equal to rounding"
}

// noteFailed records the groups whose interval refutes the claim, for
// discriminate.
func (sp *spec) noteFailed(ev []pairEvidence) {
	for _, e := range ev {
		if e.verdict.String() == Fail {
			if sp.failed == nil {
				sp.failed = map[string]bool{}
			}
			sp.failed[e.group] = true
		}
	}
}

// discriminate turns res into INCONCLUSIVE, with CannotDiscriminate
// saying why, when the verdict rests on comparisons whose two sides lie
// within the tolerance (equal by construction or to rounding on this
// run), which the check cannot tell apart here:
//
//   - a comparison whose sides are apart and which refutes the claim (on
//     its numbers or its interval) decides it: the FAIL stands;
//   - otherwise, when an equal comparison fails the claim (a strict op,
//     a best check's tie, a trend's equal endpoints), or every comparison
//     is equal, the claim cannot be discriminated: INCONCLUSIVE;
//   - otherwise the equal comparisons satisfy a non-strict op (<=, >=)
//     beside others, apart, that pass: the verdict stands on those, and
//     the evidence names the equal ones.
func (sp *spec) discriminate(o Options, res *Result) {
	if res.Status == NotEvaluated {
		return
	}
	var equal []string
	refuted := ""
	equalFails, allEqual := false, true
	for _, s := range sp.sides {
		tol, why := o.tolerance(s.metric, s.l, s.r)
		d := math.Abs(s.l - s.r)
		fails := !s.ok || sp.failed[s.group]
		if d <= tol {
			equal = append(equal, fmt.Sprintf("%s %s (%s) and %s (%s) differ by %s, within the tolerance %s (%s)",
				s.metric, g(s.l), s.lname, g(s.r), s.rname, g(d), g(tol), why))
			equalFails = equalFails || fails
			continue
		}
		allEqual = false
		if refuted == "" && fails {
			refuted = fmt.Sprintf("%s %s (%s) against %s (%s)", s.metric, g(s.l), s.lname, g(s.r), s.rname)
		}
	}
	switch {
	case len(equal) == 0:
		return
	case refuted != "":
		res.Evidence += " | cannot discriminate on " + strings.Join(equal, "; ") + "; the FAIL stands on " + refuted + ", whose sides are apart"
		return
	case !equalFails && !allEqual:
		res.Evidence += " | equal within the tolerance, which the claim's op admits: " + strings.Join(equal, "; ") + "; the verdict stands on the comparisons whose sides are apart"
		return
	}
	res.CannotDiscriminate = "cannot discriminate here: " + strings.Join(equal, "; ")
	res.Evidence += " | " + res.CannotDiscriminate + " → INCONCLUSIVE"
	res.Status, res.Verdict, res.PointVerdict = Inconclusive, Inconclusive, Inconclusive
	res.Detectable, res.ItemsNeeded = nil, nil
}
