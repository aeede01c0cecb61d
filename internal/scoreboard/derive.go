package scoreboard

import (
	"fmt"
	"github.com/runexp/runexp/internal/report"
	"slices"
	"strings"

	"github.com/runexp/runexp/internal/config"
)

// Derivation is whose failure a row's verdict other than PASS is, as the
// verdicts of its base and variants under the paper's assignment of
// readings and the configs' declarations give it (docs/readings.md,
// "Attribution"); the verdict it explains is the row's under the
// assignment (the stated protocol's where the assignment reads nothing
// bearing on the row):
//
//  1. reading: the row fails or is inconclusive under the stated
//     protocol and passes under the assigned reading;
//  2. undetermined: the row passes under another documented reading (the
//     stated protocol when the assigned reading does not pass it, another
//     reading of a listed ambiguity, or a post-hoc variant): which reading
//     the paper meant decides it, so no defect, data or paper is blamed;
//  3. test: the check could not tell its two sides apart here
//     (cannot_discriminate), or the config names a defect of our check
//     (defect: visual-metric, degenerate);
//  4. data: a diagnostic that moves a named property of the data toward
//     the paper's, everything else kept (moves:), gives PASS;
//  5. paper: the verdict is FAIL under the stated protocol, under the
//     assignment and under every reading of every ambiguity the base
//     lists as bearing on its verdicts (ambiguities:), each of which a
//     reading variant ran, and the base runs on the paper's own data (no
//     stand_in:);
//  6. undetermined: none of these; Decide names the experiment that would
//     decide it (the ambiguities not read, the paper's data, more items).
//
// A reading that turns FAIL into INCONCLUSIVE is no PASS; but it does not
// confirm the failure either, so the row is then not the paper's: it
// stays undetermined.
type Derivation struct {
	// Kind is paper, data, reading, test or undetermined; "" for a row
	// that passes under the stated protocol and the assignment, or was not
	// run or not evaluated.
	Kind string
	// Why says which rule gave Kind, and on what.
	Why string
	// Decide names, for undetermined, the experiment that would decide
	// it; Untried, NotConfirmed, PassesUnder, MoreItems and StandIn are
	// its parts, for a claim to gather over its rows: the ambiguities not
	// read, the variants that leave the failure unconfirmed, the other
	// readings that pass it (Sensitive: the ambiguities whose reading
	// decides it), whether more items would decide an interval
	// (ItemsNeeded when known), whether the data are a stand-in.
	Decide       string
	Untried      []string
	NotConfirmed []string
	// PassesUnder lists the other readings that pass the row (as
	// "`config` (what it reads)"), PostHocPass those of them that are
	// post hoc.
	PassesUnder []string
	PostHocPass []string
	Sensitive   []string
	MoreItems   bool
	ItemsNeeded int
	StandIn     bool
}

// derive is row r's derivation in table t whose rows the paper's
// assignment reads at column at (columnFor); ambs are the paper's
// ambiguities by id (for their topics; nil when unknown).
func derive(r Row, t Table, ambs map[string]config.Ambiguity, at int) Derivation {
	b, a := r.Base, r.cellUnder(at)
	if !b.Run || !b.Present || !a.Run || !a.Present {
		return Derivation{}
	}
	judged := func(v string) bool { return v == Fail || v == Inconc }
	switch {
	case a.Verdict == Pass && b.Verdict == Pass, !judged(a.Verdict) && a.Verdict != Pass, a.Verdict == Pass && !judged(b.Verdict):
		return Derivation{}
	case a.Verdict == Pass && at >= 0:
		return Derivation{Kind: "reading", Why: "FAIL or INCONCLUSIVE under the stated protocol, PASS under the assigned reading `" + t.Variants[at].Name + "` (" + t.Variants[at].Readings.String() + ")"}
	}
	var others, postHoc, sensitive, diags []string
	if b.Verdict == Pass && at >= 0 {
		others = append(others, "the stated protocol `"+t.Base.Name+"`")
		for id := range t.Variants[at].Readings {
			sensitive = append(sensitive, id)
		}
	}
	for i, c := range t.Variants {
		v := r.Variants[i]
		if i == at || !v.Run || !v.Present || v.Verdict != Pass {
			continue
		}
		switch {
		case c.Diagnostic && c.Moves != "":
			diags = append(diags, fmt.Sprintf("`%s` (moves %s)", c.Name, report.NoCode(c.Moves)))
		case c.Diagnostic:
		case c.PostHoc != "":
			postHoc = append(postHoc, "`"+c.Name+"`")
			others = append(others, fmt.Sprintf("`%s` (post hoc)", c.Name))
		default:
			others = append(others, fmt.Sprintf("`%s` (%s)", c.Name, ambiguityList(c.Reads, ambs)))
			for id := range c.Readings {
				if !slices.Contains(sensitive, id) {
					sensitive = append(sensitive, id)
				}
			}
		}
	}
	slices.SortFunc(sensitive, config.CompareAmbiguityIDs)
	switch {
	case len(others) > 0:
		return passesElsewhere(others, postHoc, sensitive, ambs)
	case a.CannotDiscriminate != "":
		return Derivation{Kind: "test", Why: "our check cannot tell its two sides apart here (degenerate): " + a.CannotDiscriminate}
	case r.Defect != "":
		return Derivation{Kind: "test", Why: "the config names a defect of our check: " + defectText[r.Defect]}
	case len(diags) > 0:
		return Derivation{Kind: "data", Why: "a diagnostic that moves a property of the data toward the paper's gives PASS: " + strings.Join(diags, ", ")}
	}
	untried, notFail := readingsTried(r, t)
	if b.Verdict == Fail && a.Verdict == Fail && len(untried) == 0 && len(notFail) == 0 && t.StandIn == "" {
		why := "FAIL on the paper's own data under the stated protocol"
		if ids := t.ambiguityIDs(); len(ids) > 0 {
			why += " and under a reading of each ambiguity bearing on it (" + strings.Join(ids, ", ") + ")"
		} else {
			why += "; the config lists no ambiguity bearing on its verdicts"
		}
		return Derivation{Kind: "paper", Why: why}
	}
	d := undetermined(a, t, untried, notFail, ambs)
	d.Untried, d.NotConfirmed, d.StandIn = untried, notFail, t.StandIn != ""
	if a.Verdict == Inconc {
		d.MoreItems = true
		if a.ItemsNeeded != nil {
			d.ItemsNeeded = *a.ItemsNeeded
		}
	}
	return d
}

// passesElsewhere is the derivation of a row that fails under the
// assignment and passes under others, readings or post-hoc variants: it
// is undetermined until the paper's text settles the ambiguities
// sensitive (or the choices postHoc make).
func passesElsewhere(others, postHoc, sensitive []string, ambs map[string]config.Ambiguity) Derivation {
	d := Derivation{Kind: "undetermined", PassesUnder: others, PostHocPass: postHoc, Sensitive: sensitive,
		Why: "passes under another documented reading, not the assigned one (sensitivity, not counted): " + strings.Join(others, ", ")}
	var decide []string
	if len(sensitive) > 0 {
		decide = append(decide, "which reading of "+ambiguityList(sensitive, ambs)+" the paper used")
	}
	if len(postHoc) > 0 {
		decide = append(decide, "a reading of the paper's text that settles the choice "+strings.Join(postHoc, ", ")+" makes")
	}
	d.Decide = strings.Join(decide, "; ")
	return d
}

// undetermined is the derivation of a row none of the rules decides, b
// its cell under the assignment, with the experiments that would: more
// items for an undecided interval, the readings not run, the variants
// that leave the failure unconfirmed, the paper's data.
func undetermined(b Cell, t Table, untried, notFail []string, ambs map[string]config.Ambiguity) Derivation {
	var why, decide []string
	if b.Verdict == Inconc {
		why = append(why, "the interval covers the claim's boundary")
		more := "more test items (or repetitions)"
		if b.ItemsNeeded != nil {
			more += fmt.Sprintf(": about %d would decide the observed departure", *b.ItemsNeeded)
		} else if b.Detectable != nil {
			more += fmt.Sprintf(": these items decide a departure of %s or more", num3(*b.Detectable))
		}
		decide = append(decide, more)
	}
	if len(untried) > 0 {
		why = append(why, "not read otherwise: "+strings.Join(untried, ", "))
		decide = append(decide, "a reading variant of "+ambiguityList(untried, ambs))
	}
	if len(notFail) > 0 {
		why = append(why, "not confirmed under "+strings.Join(notFail, ", "))
		decide = append(decide, "more items under "+strings.Join(notFail, ", "))
	}
	if t.StandIn != "" {
		why = append(why, "on a stand-in for the paper's data")
		decide = append(decide, "the paper's data, or a diagnostic that moves our data toward them and shows the verdict does not depend on the difference")
	}
	if len(why) == 0 {
		why = append(why, "no rule decides it")
	}
	return Derivation{Kind: "undetermined", Why: strings.Join(why, "; "), Decide: strings.Join(decide, "; ")}
}

// readingsTried lists the ambiguities of t's base (its ambiguities:)
// that no reading variant stating row r ran (untried), and the reading
// variants whose verdict on r is neither FAIL nor PASS (notFail: a
// failure they do not confirm).
func readingsTried(r Row, t Table) (untried, notFail []string) {
	tried := map[string]bool{}
	for i, c := range t.Variants {
		v := r.Variants[i]
		if !c.isReading() || !v.Run || !v.Present {
			continue
		}
		for _, id := range c.Reads {
			tried[id] = true
		}
		if v.Verdict != Fail {
			notFail = append(notFail, fmt.Sprintf("`%s` (%s)", c.Name, v.Verdict))
		}
	}
	for _, id := range t.ambiguityIDs() {
		if !tried[id] {
			untried = append(untried, id)
		}
	}
	return untried, notFail
}

// ambiguityIDs are the ids of t's base's ambiguities, in order.
func (t Table) ambiguityIDs() []string {
	ids := make([]string, 0, len(t.Ambiguities))
	for id := range t.Ambiguities {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, config.CompareAmbiguityIDs)
	return ids
}

// ambiguityList names ambiguities with their topics: "a1 (noise scale),
// a3 (…)".
func ambiguityList(ids []string, ambs map[string]config.Ambiguity) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = id
		if a, ok := ambs[id]; ok && a.Topic != "" {
			// The topic is the paper values' words inside a sentence
			// whose code spans are ours.
			parts[i] += " (" + report.NoCode(a.Topic) + ")"
		}
	}
	return strings.Join(parts, ", ")
}

// defectBeyond says why a row whose config names a quantifier or a
// threshold of ours goes beyond the paper's sentence: it is shown, never
// counted, and never decides its claim.
var defectBeyond = map[string]string{
	"quantifier": "a quantifier of ours the paper's sentence does not have",
	"threshold":  "a threshold of ours; the paper gives none",
}

// defectText says what each defect of our check is.
var defectText = map[string]string{
	"degenerate":    "the check compares quantities equal by construction on this data",
	"quantifier":    "the check adds a quantifier the paper's sentence does not have",
	"threshold":     "the check's threshold or margin is ours; the paper gives none",
	"visual-metric": "the paper's claim is visual, and the number we check it by is ours",
}

// checkAmbiguities checks every config's reads: and ambiguities: ids
// against its paper's ambiguities (Inputs.Ambiguities) and returns those
// ambiguities by paper and id; a paper whose ambiguities are not known is
// left unchecked.
func checkAmbiguities(cfgs []*config.Config, in Inputs) (map[string]map[string]config.Ambiguity, error) {
	out := map[string]map[string]config.Ambiguity{}
	if in.Ambiguities == nil {
		return out, nil
	}
	for _, c := range cfgs {
		m, seen := out[c.Paper]
		if !seen {
			as, ok := in.Ambiguities(c.Paper)
			if ok {
				m = map[string]config.Ambiguity{}
				for _, a := range as {
					m[a.ID] = a
				}
			}
			out[c.Paper] = m
		}
		if m == nil {
			continue
		}
		known := make([]string, 0, len(m))
		for id := range m {
			known = append(known, id)
		}
		slices.SortFunc(known, config.CompareAmbiguityIDs)
		if err := c.CheckAmbiguities(known); err != nil {
			return nil, err
		}
	}
	return out, nil
}
