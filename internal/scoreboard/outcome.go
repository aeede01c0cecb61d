package scoreboard

import (
	"fmt"
	"slices"
	"strings"

	"github.com/runexp/runexp/internal/config"
)

// The outcome of a paper claim from the rows that test it (the rule every
// page states, OutcomeRule):
//
//   - reproduced as stated: every row passes under the stated protocol;
//   - reproduced only under another documented reading: under one reading
//     of a listed ambiguity (a column label: the same reading of every
//     base that has it), every row passes; a row whose table lacks that
//     reading keeps its stated verdict, since a reading changes only what
//     it reads;
//   - reproduced only under a post-hoc reading: likewise, only under a
//     post-hoc variant (shown apart, never a reproduction);
//   - not reproduced: a row fails under the stated protocol and no
//     reading passes every row;
//   - inconclusive: no row fails, one is inconclusive, and no reading
//     passes every row;
//   - not evaluated or not run: a row was not evaluated or not run.
//
// Whose failure a claim not reproduced or inconclusive is follows from its
// rows' derived attributions (derive.go): the paper's when a row fails as
// the paper states it; undetermined when a row is undetermined, or when
// rows pass under different readings but no one reading passes them all;
// else our data when a row is, else our test.

// OutcomeRule states the rule above in one paragraph, for the pages.
const OutcomeRule = "A paper claim is the unit. Its outcome follows from the rows that test it (rows that go beyond it, " +
	"such as a stand-in's extra groups, are shown and never counted): reproduced as stated when every row passes under " +
	"the stated protocol; reproduced only under another documented reading when, under one reading of one of the " +
	"paper's listed ambiguities, every row passes (a row whose config lacks that reading keeps its stated verdict); " +
	"reproduced only under a post-hoc reading when only a variant that reads no listed ambiguity does so (shown apart, " +
	"never a reproduction); otherwise not reproduced when a row fails, inconclusive when none fails and one is " +
	"inconclusive. Whose failure it is comes from its rows: the paper's when a row fails as the paper states it, " +
	"undetermined when a row is undetermined or different readings pass different rows, else our data, else our test."

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

// judge sets a tested claim's outcome from its rows; ambs are the paper's
// ambiguities, for the topics of those not read.
func (a *Account) judge(ambs map[string]config.Ambiguity) {
	stated := make([]string, len(a.Rows))
	labels := map[string]bool{}
	postHoc := map[string]bool{}
	for i, r := range a.Rows {
		stated[i] = r.Verdict
		for l := range r.Under {
			labels[l] = true
			postHoc[l] = postHoc[l] || r.PostHoc[l]
		}
	}
	a.Stated = combineVerdicts(stated)
	var readingPass, postHocPass []string
	for _, l := range sortedKeys(labels) {
		vs := make([]string, len(a.Rows))
		for i, r := range a.Rows {
			vs[i] = r.Verdict
			if v, ok := r.Under[l]; ok {
				vs[i] = v
			}
		}
		if combineVerdicts(vs) != Pass {
			continue
		}
		if postHoc[l] {
			postHocPass = append(postHocPass, l)
		} else {
			readingPass = append(readingPass, l)
		}
	}
	switch {
	case a.Stated == Pass:
		a.Category = AsStated
		return
	case len(readingPass) > 0:
		a.Category, a.Under, a.Attribution = OtherReading, readingPass, "reading"
		a.Why = "every row passes under the reading " + codeList(readingPass)
		return
	case len(postHocPass) > 0:
		a.Category, a.Under = PostHocOnly, postHocPass
	case a.Stated == Fail:
		a.Category = NotReproduced
	case a.Stated == "not run":
		a.Category = NotRun
		return
	case a.Stated == NotEvaluatedV:
		a.Category = NotEvaluated
		return
	default:
		a.Category = Inconclusive
	}
	a.attribute(ambs)
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
	case t.count["undetermined"] > 0 || t.count["reading"] > 0:
		a.Attribution = "undetermined"
	case t.count["data"] > 0:
		a.Attribution = "data"
		return
	default:
		a.Attribution = "test"
		return
	}
	if t.count["reading"] > 0 {
		a.Why += "; readings pass some rows, but no one reading passes every row"
	}
	a.Decide = strings.Join(t.decide(ambs), "; ")
}

// rowTally is what the rows of a claim that do not pass say together:
// their attributions counted, the rows the paper fails, and the
// experiments their derivations name as deciding.
type rowTally struct {
	count                          map[string]int
	failing                        int
	paperRows                      []string
	untried, notConfirmed, postHoc []string
	more, standIn                  bool
	most                           int
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
		if r.Verdict == Pass {
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
		t.more = t.more || d.MoreItems
		t.most = max(t.most, d.ItemsNeeded)
		t.standIn = t.standIn || d.StandIn
	}
	return t
}

// decide lists the experiments that would decide an undetermined claim.
func (t rowTally) decide(ambs map[string]config.Ambiguity) []string {
	var decide []string
	if t.count["reading"] > 0 {
		decide = append(decide, "one config taking together the readings that pass those rows")
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
	a.Category = AsStated
	for _, c := range []Category{NotRun, NotEvaluated, NotReproduced, Inconclusive, PostHocOnly, OtherReading} {
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
