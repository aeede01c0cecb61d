package scoreboard

import (
	"strings"
	"testing"
)

// cellOf is a run, stated cell with verdict v ("" for a config that does
// not state the row).
func cellOf(v string) Cell {
	if v == "" {
		return Cell{Run: true}
	}
	return Cell{Run: true, Present: true, Verdict: v}
}

// TestDeriveRules: each rule of Derivation, with the control that must
// not give it. The table's base lists ambiguities a1 and a2; columns: a
// reading of a1 (r1), a reading of a2 (r2), a post-hoc variant (ph), a
// diagnostic that moves a property toward the paper's data (dm) and one
// that does not (dl, a label graph).
func TestDeriveRules(t *testing.T) {
	cols := []Column{
		{Name: "b-r1", Label: "r1", Reads: []string{"a1"}},
		{Name: "b-r2", Label: "r2", Reads: []string{"a2"}},
		{Name: "b-ph", Label: "ph", PostHoc: "tried after the results"},
		{Name: "b-dm", Label: "dm", Diagnostic: true, Probe: "the graph's purity", Moves: "the graph's same-subject rate up to the paper's"},
		{Name: "b-dl", Label: "dl", Diagnostic: true, Probe: "a graph from the labels"},
	}
	own := Table{Variants: cols, Ambiguities: map[string]string{"a1": "x", "a2": "y"}}
	standIn := own
	standIn.StandIn = "faces of another database"
	items := 40
	for _, tc := range []struct {
		name     string
		t        Table
		base     string
		variants [5]string // r1, r2, ph, dm, dl
		defect   string
		cannot   string
		want     string
		whyHas   string
	}{
		{"a reading passes", own, Fail, [5]string{Pass, Fail, Fail, Fail, Fail}, "", "", "reading", "b-r1"},
		{"a reading only undecides: not reading", own, Fail, [5]string{Inconc, Fail, Fail, Fail, Fail}, "", "", "undetermined", "not confirmed"},
		{"a post-hoc PASS is no reading, nor the paper's", own, Fail, [5]string{Fail, Fail, Pass, Fail, Fail}, "", "", "undetermined", "b-ph"},
		{"cannot discriminate", own, Inconc, [5]string{Inconc, Inconc, Inconc, Inconc, Inconc}, "", "m 1 and 1", "test", "degenerate"},
		{"a named defect", own, Fail, [5]string{Fail, Fail, Fail, Fail, Fail}, "quantifier", "", "test", "quantifier"},
		{"a diagnostic that moves the data passes", standIn, Fail, [5]string{Fail, Fail, Fail, Pass, Fail}, "", "", "data", "b-dm"},
		{"a label graph passing is no data evidence", standIn, Fail, [5]string{Fail, Fail, Fail, Fail, Pass}, "", "", "undetermined", "stand-in"},
		{"every reading fails on the paper's own data", own, Fail, [5]string{Fail, Fail, Fail, Fail, Fail}, "", "", "paper", "a1"},
		{"an ambiguity not read", own, Fail, [5]string{Fail, "", Fail, Fail, Fail}, "", "", "undetermined", "a2"},
		{"a stand-in", standIn, Fail, [5]string{Fail, Fail, Fail, Fail, Fail}, "", "", "undetermined", "stand-in"},
		{"inconclusive blames no one", own, Inconc, [5]string{Inconc, Inconc, Fail, Fail, Fail}, "", "", "undetermined", "covers the claim"},
		{"a PASS has none", own, Pass, [5]string{Fail, Fail, Fail, Fail, Fail}, "", "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Row{ID: "c1", Base: cellOf(tc.base), Defect: tc.defect}
			r.Base.CannotDiscriminate = tc.cannot
			if tc.base == Inconc {
				r.Base.ItemsNeeded = &items
			}
			for _, v := range tc.variants {
				r.Variants = append(r.Variants, cellOf(v))
			}
			d := derive(r, tc.t, nil)
			if d.Kind != tc.want || !strings.Contains(d.Why+" "+d.Decide, tc.whyHas) {
				t.Errorf("derived %q (%s; decide %s), want %q with %q", d.Kind, d.Why, d.Decide, tc.want, tc.whyHas)
			}
			if d.Kind == "undetermined" && d.Decide == "" {
				t.Errorf("undetermined without the experiment that would decide it: %+v", d)
			}
		})
	}
}

// TestClaimOutcome: a paper claim's outcome from its rows by the stated
// rule, with the controls: one reading passing every row reproduces it;
// two readings each passing some rows do not (undetermined); a post-hoc
// reading is shown apart; a row failing as the paper states it makes the
// claim the paper's; an aggregate takes the worst of its claims.
func TestClaimOutcome(t *testing.T) {
	ref := func(v, attr string, under map[string]string, postHoc ...string) RowRef {
		ph := map[string]bool{}
		for _, l := range postHoc {
			ph[l] = true
		}
		return RowRef{Table: "b", Row: v + attr, Verdict: v, Attribution: attr, Under: under, PostHoc: ph}
	}
	for _, tc := range []struct {
		name      string
		rows      []RowRef
		cat       Category
		attr      string
		under     string
		whyOrDecH string
	}{
		{"all pass", []RowRef{ref(Pass, "", nil), ref(Pass, "", nil)}, AsStated, "", "", ""},
		{"one reading passes all", []RowRef{ref(Fail, "reading", map[string]string{"r": Pass}), ref(Pass, "", map[string]string{"r": Pass})}, OtherReading, "reading", "r", "every row passes"},
		{"a row without the reading keeps its verdict", []RowRef{ref(Fail, "reading", map[string]string{"r": Pass}), ref(Pass, "", nil)}, OtherReading, "reading", "r", ""},
		{"readings split the rows", []RowRef{ref(Fail, "reading", map[string]string{"r": Pass, "s": Fail}), ref(Fail, "reading", map[string]string{"r": Fail, "s": Pass})}, NotReproduced, "undetermined", "", "no one reading"},
		{"post hoc only", []RowRef{ref(Fail, "undetermined", map[string]string{"ph": Pass}, "ph")}, PostHocOnly, "undetermined", "ph", ""},
		{"the paper's row decides", []RowRef{ref(Fail, "paper", nil), ref(Inconc, "undetermined", nil), ref(Fail, "test", nil)}, NotReproduced, "paper", "", "paper states"},
		{"undetermined before ours", []RowRef{ref(Fail, "test", nil), ref(Inconc, "undetermined", nil)}, NotReproduced, "undetermined", "", ""},
		{"our test alone", []RowRef{ref(Fail, "test", nil), ref(Pass, "", nil)}, NotReproduced, "test", "", "1 test"},
		{"inconclusive", []RowRef{ref(Inconc, "undetermined", nil), ref(Pass, "", nil)}, Inconclusive, "undetermined", "", ""},
		{"a row not run", []RowRef{ref("not run", "", nil), ref(Pass, "", nil)}, NotRun, "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := &Account{Rows: tc.rows}
			a.judge(nil)
			if a.Category != tc.cat || a.Attribution != tc.attr || strings.Join(a.Under, ",") != tc.under || !strings.Contains(a.Why+" "+a.Decide, tc.whyOrDecH) {
				t.Errorf("got %v %q under %v (%s; %s), want %v %q under %q with %q", a.Category, a.Attribution, a.Under, a.Why, a.Decide, tc.cat, tc.attr, tc.under, tc.whyOrDecH)
			}
		})
	}
	parts := map[string]*Account{
		"c1": {Category: AsStated},
		"c2": {Category: NotReproduced, Attribution: "test"},
		"c3": {Category: Inconclusive, Attribution: "undetermined"},
	}
	agg := &Account{Aggregate: []string{"c1", "c2", "c3"}}
	agg.combine(parts)
	if agg.Category != NotReproduced || agg.Attribution != "test" {
		t.Errorf("aggregate %v %q, want not reproduced by our test", agg.Category, agg.Attribution)
	}
}

// TestHeadline: [Re] only when every claim reproduces; [¬Re] only for a
// claim that fails as the paper states it; [Re?] when a claim fails only
// through our test or is undetermined or inconclusive.
func TestHeadline(t *testing.T) {
	acc := func(c Category, attr string) Account {
		return Account{Rows: []RowRef{{}}, Category: c, Attribution: attr}
	}
	for _, tc := range []struct {
		accs []Account
		want string
	}{
		{[]Account{acc(AsStated, ""), acc(OtherReading, "reading"), {NotTestable: "x", Category: NotTestable}}, MarkRe},
		{[]Account{acc(AsStated, ""), acc(NotReproduced, "paper")}, MarkNotRe},
		{[]Account{acc(AsStated, ""), acc(NotReproduced, "test")}, MarkUndecided},
		{[]Account{acc(AsStated, ""), acc(Inconclusive, "undetermined")}, MarkUndecided},
		{[]Account{acc(AsStated, ""), acc(PostHocOnly, "undetermined")}, MarkUndecided},
		{[]Account{acc(NotRun, "")}, MarkNotRun},
	} {
		if got, why := Headline(Paper{Accounts: tc.accs}); got != tc.want {
			t.Errorf("%+v: %s (%s), want %s", tc.accs, got, why, tc.want)
		}
	}
	// The count agrees with its verb: "1 fails", "2 fail".
	for n, want := range map[int]string{1: "; 1 fails as the paper states it", 2: "; 2 fail as the paper states it"} {
		accs := []Account{acc(AsStated, "")}
		for range n {
			accs = append(accs, acc(NotReproduced, "paper"))
		}
		if _, why := Headline(Paper{Accounts: accs}); !strings.Contains(why, want) {
			t.Errorf("%d failing as stated: %q lacks %q", n, why, want)
		}
	}
}
