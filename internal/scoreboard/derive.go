package scoreboard

import (
	"fmt"
	"slices"
	"strings"

	"github.com/runexp/runexp/internal/config"
)

// Derivation is whose failure a row's verdict other than PASS is, as the
// verdicts of its base and variants and the configs' declarations give it
// (docs/readings.md, "Attribution"):
//
//  1. reading: a variant reading one of the paper's listed ambiguities
//     otherwise (reads:, not post hoc, not a diagnostic) gives PASS;
//  2. test: the check could not tell its two sides apart here
//     (cannot_discriminate), or the config names a defect of our check
//     (attribution defect: quantifier, threshold, degenerate,
//     visual-metric);
//  3. data: a diagnostic that moves a named property of the data toward
//     the paper's, everything else kept (moves:), gives PASS;
//  4. paper: the verdict is FAIL under the stated protocol and under every
//     reading of every ambiguity the base lists as bearing on its verdicts
//     (ambiguities:), each of which a reading variant ran, and the base
//     runs on the paper's own data (no stand_in:);
//  5. undetermined: none of these; Decide names the experiment that would
//     decide it (the ambiguities not read, the paper's data, more items).
//
// A post-hoc variant (post_hoc:) never makes a reading, and a reading that
// turns FAIL into INCONCLUSIVE is no PASS; but neither confirms the
// failure either, so the row is then not the paper's: it stays
// undetermined.
type Derivation struct {
	// Kind is paper, data, reading, test or undetermined; "" for a row
	// that passes, or was not run or not evaluated.
	Kind string
	// Why says which rule gave Kind, and on what.
	Why string
	// Decide names, for undetermined, the experiment that would decide
	// it; Untried, NotConfirmed, MoreItems and StandIn are its parts, for
	// a claim to gather over its rows: the ambiguities not read, the
	// variants that leave the failure unconfirmed, whether more items
	// would decide an interval (ItemsNeeded when known), whether the data
	// are a stand-in.
	Decide       string
	Untried      []string
	NotConfirmed []string
	PostHocPass  []string
	MoreItems    bool
	ItemsNeeded  int
	StandIn      bool
}

// derive is row r's derivation in table t; ambs are the paper's
// ambiguities by id (for their topics; nil when unknown).
func derive(r Row, t Table, ambs map[string]config.Ambiguity) Derivation {
	b := r.Base
	if !b.Run || !b.Present || (b.Verdict != Fail && b.Verdict != Inconc) {
		return Derivation{}
	}
	var readings, diags, postHoc []string
	for i, c := range t.Variants {
		v := r.Variants[i]
		if !v.Run || !v.Present || v.Verdict != Pass {
			continue
		}
		switch {
		case c.isReading():
			readings = append(readings, fmt.Sprintf("`%s` (%s)", c.Name, ambiguityList(c.Reads, ambs)))
		case c.Diagnostic && c.Moves != "":
			diags = append(diags, fmt.Sprintf("`%s` (moves %s)", c.Name, c.Moves))
		case c.PostHoc != "":
			postHoc = append(postHoc, "`"+c.Name+"`")
		}
	}
	switch {
	case len(readings) > 0:
		return Derivation{Kind: "reading", Why: "a reading of a listed ambiguity gives PASS: " + strings.Join(readings, ", ")}
	case b.CannotDiscriminate != "":
		return Derivation{Kind: "test", Why: "our check cannot tell its two sides apart here (degenerate): " + b.CannotDiscriminate}
	case r.Defect != "":
		return Derivation{Kind: "test", Why: "the config names a defect of our check: " + defectText[r.Defect]}
	case len(diags) > 0:
		return Derivation{Kind: "data", Why: "a diagnostic that moves a property of the data toward the paper's gives PASS: " + strings.Join(diags, ", ")}
	}
	untried, notFail := readingsTried(r, t)
	if b.Verdict == Fail && len(untried) == 0 && len(notFail) == 0 && len(postHoc) == 0 && t.StandIn == "" {
		why := "FAIL on the paper's own data under the stated protocol"
		if ids := t.ambiguityIDs(); len(ids) > 0 {
			why += " and under a reading of each ambiguity bearing on it (" + strings.Join(ids, ", ") + ")"
		} else {
			why += "; the config lists no ambiguity bearing on its verdicts"
		}
		return Derivation{Kind: "paper", Why: why}
	}
	d := undetermined(r, t, untried, notFail, postHoc, ambs)
	d.Untried, d.NotConfirmed, d.PostHocPass, d.StandIn = untried, notFail, postHoc, t.StandIn != ""
	if b.Verdict == Inconc {
		d.MoreItems = true
		if b.ItemsNeeded != nil {
			d.ItemsNeeded = *b.ItemsNeeded
		}
	}
	return d
}

// undetermined is the derivation of a row none of the rules decides, with
// the experiments that would: more items for an undecided interval, the
// readings not run, the variants that leave the failure unconfirmed, the
// paper's data.
func undetermined(r Row, t Table, untried, notFail, postHoc []string, ambs map[string]config.Ambiguity) Derivation {
	b := r.Base
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
	if len(postHoc) > 0 {
		why = append(why, "passes under the post-hoc "+strings.Join(postHoc, ", "))
		decide = append(decide, "a reading of the paper's text that settles the choice "+strings.Join(postHoc, ", ")+" makes")
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
			parts[i] += " (" + a.Topic + ")"
		}
	}
	return strings.Join(parts, ", ")
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
