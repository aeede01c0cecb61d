package claims

import (
	"fmt"
	"math"
	"strings"

	"github.com/runexp/runexp/internal/report"
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
	// solverTol is the larger stopping tolerance of the iterative
	// solvers whose output the two sides measure (the cells' tol
	// parameter), 0 when neither has one.
	solverTol float64
}

// solverTolOf is the largest stopping tolerance (the tol parameter of an
// iterative estimator's cell) among recs: two values the solvers computed
// cannot be told apart below it.
func solverTolOf(recs ...*report.Record) float64 {
	var t float64
	for _, r := range recs {
		if r == nil {
			continue
		}
		if v, ok := r.Params["tol"].(float64); ok && v > t {
			t = v
		}
	}
	return t
}

// tolerance is the tolerance for two values of metric being equal: the
// largest of the kind's, when it declares one (Options.Tolerance: a
// resolution of the metric's unit), the solvers' stopping tolerance
// scaled as their convergence test is (solver·max(1, |l|, |r|): an
// iterate stops moving by less than that, so values the solvers computed
// closer than it are the same solution to their precision) and
// relTol·max(1, |l|, |r|), with the words that say which.
func (o Options) tolerance(metric string, l, r, solver float64) (float64, string) {
	scale := math.Max(1, math.Max(math.Abs(l), math.Abs(r)))
	tol, why := relTol*scale, "1e-9·max(1, |l|, |r|): equal to rounding"
	if o.Tolerance != nil {
		if t, w := o.Tolerance(metric); t > 0 && t >= tol {
			tol, why = t, w
		}
	}
	if s := solver * scale; solver > 0 && s >= tol {
		tol, why = s, fmt.Sprintf("the solvers' stopping tolerance tol = %s (the cells' parameter) × max(1, |l|, |r|): the same solution to the solvers' precision", g(solver))
	}
	return tol, why
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
// within the tolerance (equal by construction, to rounding, or to the
// solvers' stopping tolerance on this run), which the check cannot tell
// apart here:
//
//   - a comparison whose sides are apart and which refutes the claim (on
//     its numbers or its interval) decides it: the FAIL stands;
//   - otherwise, when any comparison is equal, the claim cannot be
//     discriminated: INCONCLUSIVE. A non-strict op (<=, >=) does not save
//     it: values within the tolerance are not known to be equal, only
//     not to differ, so their order, which the claim needs, is unknown
//     (A&H Fig. 5's spreads of 1.9e-9 and 2.0e-9 at tol = 1e-9).
func (sp *spec) discriminate(o Options, res *Result) {
	if res.Status == NotEvaluated {
		return
	}
	var equal []string
	refuted := ""
	for _, s := range sp.sides {
		tol, why := o.tolerance(s.metric, s.l, s.r, s.solverTol)
		d := math.Abs(s.l - s.r)
		fails := !s.ok || sp.failed[s.group]
		if d <= tol {
			equal = append(equal, fmt.Sprintf("%s %s (%s) and %s (%s) differ by %s, within the tolerance %s (%s)",
				s.metric, g(s.l), s.lname, g(s.r), s.rname, g(d), g(tol), why))
			continue
		}
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
	}
	res.CannotDiscriminate = "cannot discriminate here: " + strings.Join(equal, "; ")
	res.Evidence += " | " + res.CannotDiscriminate + " → INCONCLUSIVE"
	res.Status, res.Verdict, res.PointVerdict = Inconclusive, Inconclusive, Inconclusive
	res.Detectable, res.ItemsNeeded = nil, nil
}
