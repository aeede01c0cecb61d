package scoreboard

import (
	"fmt"
	"slices"
	"strings"

	"github.com/runexp/runexp/internal/config"
)

// The outcome of a paper claim from the rows that test it (the rule every
// page states, OutcomeRule), under the paper's assignment of readings
// (one reading per listed ambiguity for the whole paper, AssignmentRule):
//
//   - reproduced as stated: every row passes under the stated protocol and
//     under the assignment;
//   - reproduced only under another documented reading: under the
//     assignment every row passes, and under the stated protocol not;
//   - not reproduced: a row fails under the assignment;
//   - inconclusive: no row fails under the assignment, one is
//     inconclusive;
//   - not evaluated or not run: a row was not evaluated or not run.
//
// A row whose table the assignment's readings do not bear on, or whose
// reading config does not restate it, keeps its stated verdict; a row
// whose table lists an ambiguity the assignment reads otherwise, with no
// config reading it so, was not run under the assignment. Every other
// reading (another reading of a listed ambiguity, a post-hoc variant, the
// stated protocol where the assignment differs) is sensitivity: the
// claim's verdict under it is shown, never counted, and a reading that
// fails a claim the stated protocol passes is marked as flipping it.
//
// Whose failure a claim not reproduced or inconclusive is follows from its
// rows' derived attributions (derive.go): the paper's when a row fails as
// the paper states it; undetermined when a row is undetermined; else our
// data when a row is, else our test.

// OutcomeRule states the rule above in one paragraph, for the pages.
const OutcomeRule = "A paper claim is the unit, counted under one reading of each of the paper's listed ambiguities " +
	"(the assignment, chosen by the printed values, never by verdicts). Its outcome follows from the rows that test it " +
	"(rows that go beyond its sentence, such as a stand-in's extra groups or a quantifier or threshold of ours, are shown " +
	"and never counted): reproduced as stated when every row passes under the stated protocol and under the assignment; " +
	"reproduced only under another documented reading when every row passes under the assignment and not under the " +
	"stated protocol (a row whose config the assignment's readings do not bear on keeps its stated verdict); otherwise " +
	"not reproduced when a row fails under the assignment, inconclusive when none fails and one is inconclusive. Every " +
	"other reading is sensitivity: shown beside the claim, never counted; one that fails a claim the stated protocol " +
	"passes is marked as flipping it. Whose failure it is comes from its rows: the paper's when a row fails as the paper " +
	"states it, undetermined when a row is undetermined (another reading passes it, or no rule decides it), else our " +
	"data, else our test."

// combineVerdicts is the verdict of rows taken together: FAIL when one
// fails, else not run, NOT-EVALUATED or INCONCLUSIVE when one is (in
// that order), else PASS; "not run" for no rows.
func combineVerdicts(vs []string) string {
	if len(vs) == 0 {
		return "not run"
	}
	for _, want := range []string{Fail, "not run", NotEvaluatedV, Inconc} {
		if slices.Contains(vs, want) {
			return want
		}
	}
	return Pass
}

// judge sets a tested claim's outcome from its rows under the stated
// protocol and the assignment, and its sensitivity under the paper's
// other readings; ambs are the paper's ambiguities, for the topics of
// those not read.
func (a *Account) judge(ambs map[string]config.Ambiguity, readings []paperReading) {
	stated := make([]string, len(a.Rows))
	assigned := make([]string, len(a.Rows))
	var under []string
	for i, r := range a.Rows {
		stated[i], assigned[i] = r.Verdict, r.Assigned
		if r.AssignedConfig != "" && r.AssignedConfig != r.Table && !slices.Contains(under, r.AssignedConfig) {
			under = append(under, r.AssignedConfig)
		}
	}
	a.Stated, a.Assigned = combineVerdicts(stated), combineVerdicts(assigned)
	a.Flipped = a.Stated == Pass && (a.Assigned == Fail || a.Assigned == Inconc)
	a.Sensitivity = a.sensitivity(readings)
	switch {
	case a.Assigned == Pass && a.Stated == Pass:
		a.Category = AsStated
		return
	case a.Assigned == Pass:
		a.Category, a.Under, a.Attribution = OtherReading, under, "reading"
		a.Why = "every row passes under the assigned reading " + codeList(under)
		return
	case a.Assigned == Fail:
		a.Category = NotReproduced
	case a.Assigned == "not run":
		a.Category = NotRun
		return
	case a.Assigned == NotEvaluatedV:
		a.Category = NotEvaluated
		return
	default:
		a.Category = Inconclusive
	}
	a.attribute(ambs)
	if a.Flipped {
		a.Why = "passes under the stated protocol, not under the assigned reading " + codeList(under) + "; " + a.Why
	}
}

// attribute sets whose failure a claim not reproduced or inconclusive is
// from its rows that do not pass, and gathers what would decide it: each
// experiment once, over all its rows.
func (a *Account) attribute(ambs map[string]config.Ambiguity) {
	t := tallyRows(a.Rows)
	var kinds []string
	for _, k := range []string{"paper", "undetermined", "reading", "data", "test"} {
		if t.count[k] > 0 {
			kinds = append(kinds, fmt.Sprintf("%d %s", t.count[k], k))
		}
	}
	a.Why = fmt.Sprintf("%d of %d rows do not pass (%s)", t.failing, len(a.Rows), strings.Join(kinds, ", "))
	switch {
	case t.count["paper"] > 0:
		a.Attribution = "paper"
		a.Why += "; fails as the paper states it in " + strings.Join(t.paperRows, ", ")
		return
	case t.count["undetermined"] > 0:
		a.Attribution = "undetermined"
	case t.count["data"] > 0:
		a.Attribution = "data"
		return
	default:
		a.Attribution = "test"
		return
	}
	a.Decide = strings.Join(t.decide(ambs), "; ")
}

// rowTally is what the rows of a claim that do not pass say together:
// their attributions counted, the rows the paper fails, and the
// experiments their derivations name as deciding.
type rowTally struct {
	count                                     map[string]int
	failing                                   int
	paperRows                                 []string
	untried, notConfirmed, postHoc, sensitive []string
	more, standIn                             bool
	most                                      int
}

func tallyRows(rows []RowRef) rowTally {
	t := rowTally{count: map[string]int{}}
	add := func(to *[]string, vs []string) {
		for _, v := range vs {
			if !slices.Contains(*to, v) {
				*to = append(*to, v)
			}
		}
	}
	for _, r := range rows {
		if r.Assigned == Pass {
			continue
		}
		t.failing++
		k := r.Attribution
		if k == "" {
			k = "undetermined"
		}
		t.count[k]++
		if k == "paper" {
			t.paperRows = append(t.paperRows, fmt.Sprintf("`%s#%s`", r.Table, r.Row))
		}
		d := r.Derived
		add(&t.untried, d.Untried)
		add(&t.notConfirmed, d.NotConfirmed)
		add(&t.postHoc, d.PostHocPass)
		add(&t.sensitive, d.Sensitive)
		t.more = t.more || d.MoreItems
		t.most = max(t.most, d.ItemsNeeded)
		t.standIn = t.standIn || d.StandIn
	}
	return t
}

// decide lists the experiments that would decide an undetermined claim.
func (t rowTally) decide(ambs map[string]config.Ambiguity) []string {
	var decide []string
	if len(t.sensitive) > 0 {
		slices.SortFunc(t.sensitive, config.CompareAmbiguityIDs)
		decide = append(decide, "which reading of "+ambiguityList(t.sensitive, ambs)+" the paper used (another documented reading passes rows the assignment does not)")
	}
	if t.more {
		s := "more test items (or repetitions) for the undecided intervals"
		if t.most > 0 {
			s += fmt.Sprintf(" (up to about %d)", t.most)
		}
		decide = append(decide, s)
	}
	if len(t.untried) > 0 {
		slices.SortFunc(t.untried, config.CompareAmbiguityIDs)
		decide = append(decide, "a reading of "+ambiguityList(t.untried, ambs))
	}
	if len(t.notConfirmed) > 0 {
		decide = append(decide, "more items under "+strings.Join(t.notConfirmed, ", "))
	}
	if len(t.postHoc) > 0 {
		decide = append(decide, "a reading of the paper's text that settles the choices of the post-hoc "+strings.Join(t.postHoc, ", "))
	}
	if t.standIn {
		decide = append(decide, "the paper's data, or a diagnostic showing the stand-in does not decide the verdict")
	}
	return decide
}

// combine sets an aggregate claim's outcome from the claims it names
// (judged before it): reproduced as stated only when every one is, else
// the first of not run, not evaluated, not reproduced, inconclusive,
// post-hoc only and other reading that one of them has; whose failure by
// the same precedence as a claim's rows.
func (a *Account) combine(byID map[string]*Account) {
	var parts []*Account
	for _, id := range a.Aggregate {
		if p := byID[id]; p != nil {
			parts = append(parts, p)
		}
	}
	a.Category = NotEvaluated
	if len(parts) == 0 {
		return
	}
	var stated, assigned []string
	for _, p := range parts {
		stated, assigned = append(stated, p.Stated), append(assigned, p.Assigned)
	}
	a.Stated, a.Assigned = combineVerdicts(stated), combineVerdicts(assigned)
	a.Flipped = a.Stated == Pass && (a.Assigned == Fail || a.Assigned == Inconc)
	a.Category = AsStated
	for _, c := range []Category{NotRun, NotEvaluated, NotReproduced, Inconclusive, OtherReading} {
		if slices.ContainsFunc(parts, func(p *Account) bool { return p.Category == c }) {
			a.Category = c
			break
		}
	}
	var why []string
	kinds := map[string]bool{}
	for _, p := range parts {
		if p.Category == a.Category && p.Attribution != "" {
			kinds[p.Attribution] = true
			why = append(why, p.Claim.ID+" "+p.Attribution)
		}
	}
	for _, k := range []string{"paper", "undetermined", "data", "reading", "test"} {
		if kinds[k] {
			a.Attribution = k
			break
		}
	}
	if len(why) > 0 {
		a.Why = "from its claims: " + strings.Join(why, ", ")
	}
}

// sortedKeys returns m's keys, sorted.
func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
