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
// that does not (dl, a label graph). at is where the paper's assignment
// reads the table: the base (atBase) or r1 (0).
func TestDeriveRules(t *testing.T) {
	cols := []Column{
		{Name: "b-r1", Label: "r1", Reads: []string{"a1"}, Readings: ReadingSet{"a1": "r1"}},
		{Name: "b-r2", Label: "r2", Reads: []string{"a2"}, Readings: ReadingSet{"a2": "r2"}},
		{Name: "b-ph", Label: "ph", PostHoc: "tried after the results", PostHocName: "ph"},
		{Name: "b-dm", Label: "dm", Diagnostic: true, Probe: "the graph's purity", Moves: "the graph's same-subject rate up to the paper's"},
		{Name: "b-dl", Label: "dl", Diagnostic: true, Probe: "a graph from the labels"},
	}
	own := Table{Base: Column{Name: "b"}, Variants: cols, Ambiguities: map[string]string{"a1": "x", "a2": "y"}}
	standIn := own
	standIn.StandIn = "faces of another database"
	items := 40
	for _, tc := range []struct {
		name     string
		t        Table
		at       int
		base     string
		variants [5]string // r1, r2, ph, dm, dl
		defect   string
		cannot   string
		want     string
		whyHas   string
	}{
		{"the assigned reading passes", own, 0, Fail, [5]string{Pass, Fail, Fail, Fail, Fail}, "", "", "reading", "b-r1"},
		{"a reading not assigned passes: sensitivity, undetermined", own, atBase, Fail, [5]string{Pass, Fail, Fail, Fail, Fail}, "", "", "undetermined", "which reading of a1"},
		{"the stated protocol passes, the assigned reading not", own, 0, Pass, [5]string{Fail, Fail, Fail, Fail, Fail}, "", "", "undetermined", "the stated protocol"},
		{"a reading only undecides: not reading", own, atBase, Fail, [5]string{Inconc, Fail, Fail, Fail, Fail}, "", "", "undetermined", "not confirmed"},
		{"a post-hoc PASS is no reading, nor the paper's", own, atBase, Fail, [5]string{Fail, Fail, Pass, Fail, Fail}, "", "", "undetermined", "b-ph"},
		{"cannot discriminate", own, atBase, Inconc, [5]string{Inconc, Inconc, Inconc, Inconc, Inconc}, "", "m 1 and 1", "test", "degenerate"},
		{"cannot discriminate here, but a post-hoc variant passes", own, atBase, Inconc, [5]string{Inconc, Inconc, Pass, Inconc, Inconc}, "", "m 1 and 1", "undetermined", "b-ph"},
		{"a named defect", own, atBase, Fail, [5]string{Fail, Fail, Fail, Fail, Fail}, "visual-metric", "", "test", "visual"},
		{"a diagnostic that moves the data passes", standIn, atBase, Fail, [5]string{Fail, Fail, Fail, Pass, Fail}, "", "", "data", "b-dm"},
		{"a label graph passing is no data evidence", standIn, atBase, Fail, [5]string{Fail, Fail, Fail, Fail, Pass}, "", "", "undetermined", "stand-in"},
		{"every reading fails on the paper's own data", own, atBase, Fail, [5]string{Fail, Fail, Fail, Fail, Fail}, "", "", "paper", "a1"},
		{"every reading fails, the assigned one too", own, 0, Fail, [5]string{Fail, Fail, Fail, Fail, Fail}, "", "", "paper", "a1"},
		{"an ambiguity not read", own, atBase, Fail, [5]string{Fail, "", Fail, Fail, Fail}, "", "", "undetermined", "a2"},
		{"a stand-in", standIn, atBase, Fail, [5]string{Fail, Fail, Fail, Fail, Fail}, "", "", "undetermined", "stand-in"},
		{"inconclusive blames no one", own, atBase, Inconc, [5]string{Inconc, Inconc, Fail, Fail, Fail}, "", "", "undetermined", "covers the claim"},
		{"a PASS has none", own, atBase, Pass, [5]string{Fail, Fail, Fail, Fail, Fail}, "", "", "", ""},
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
			d := derive(r, tc.t, nil, tc.at)
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
// rule, with the controls: the assigned reading passing every row
// reproduces it; another reading passing them is sensitivity, never a
// reproduction; the stated protocol passing and the assignment not is a
// flip, counted by the assignment; a row failing as the paper states it
// makes the claim the paper's; an aggregate takes the worst of its
// claims.
func TestClaimOutcome(t *testing.T) {
	ref := func(stated, assigned, attr string, under map[string]string, postHoc ...string) RowRef {
		ph := map[string]bool{}
		for _, l := range postHoc {
			ph[l] = true
		}
		cfg := ""
		if assigned != stated {
			cfg = "b-r"
		}
		return RowRef{Table: "b", Row: stated + attr, Verdict: stated, Assigned: assigned, AssignedConfig: cfg, Attribution: attr, Under: under, PostHoc: ph}
	}
	rs := []paperReading{{label: "r"}, {label: "s"}, {label: "ph", postHoc: "ph"}}
	for _, tc := range []struct {
		name      string
		rows      []RowRef
		cat       Category
		attr      string
		under     string
		flipped   bool
		whyOrDecH string
	}{
		{"all pass", []RowRef{ref(Pass, Pass, "", nil), ref(Pass, Pass, "", nil)}, AsStated, "", "", false, ""},
		{"the assigned reading passes all", []RowRef{ref(Fail, Pass, "reading", nil), ref(Pass, Pass, "", nil)}, OtherReading, "reading", "b-r", false, "assigned reading"},
		{"another reading passes all: sensitivity", []RowRef{ref(Fail, Fail, "undetermined", map[string]string{"r": Pass}), ref(Pass, Pass, "", map[string]string{"r": Pass})}, NotReproduced, "undetermined", "", false, ""},
		{"the assignment flips a claim the stated protocol passes", []RowRef{ref(Pass, Inconc, "undetermined", map[string]string{"s": Pass})}, Inconclusive, "undetermined", "", true, "passes under the stated protocol"},
		{"post hoc only", []RowRef{ref(Fail, Fail, "undetermined", map[string]string{"ph": Pass}, "ph")}, NotReproduced, "undetermined", "", false, ""},
		{"the paper's row decides", []RowRef{ref(Fail, Fail, "paper", nil), ref(Inconc, Inconc, "undetermined", nil), ref(Fail, Fail, "test", nil)}, NotReproduced, "paper", "", false, "paper states"},
		{"undetermined before ours", []RowRef{ref(Fail, Fail, "test", nil), ref(Inconc, Inconc, "undetermined", nil)}, NotReproduced, "undetermined", "", false, ""},
		{"our test alone", []RowRef{ref(Fail, Fail, "test", nil), ref(Pass, Pass, "", nil)}, NotReproduced, "test", "", false, "1 test"},
		{"inconclusive", []RowRef{ref(Inconc, Inconc, "undetermined", nil), ref(Pass, Pass, "", nil)}, Inconclusive, "undetermined", "", false, ""},
		{"a row not run", []RowRef{ref("not run", "not run", "", nil), ref(Pass, Pass, "", nil)}, NotRun, "", "", false, ""},
		{"a row not run under the assignment", []RowRef{ref(Fail, "not run", "", nil), ref(Pass, Pass, "", nil)}, NotRun, "", "", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := &Account{Rows: tc.rows}
			a.judge(nil, rs)
			if a.Category != tc.cat || a.Attribution != tc.attr || strings.Join(a.Under, ",") != tc.under || a.Flipped != tc.flipped || !strings.Contains(a.Why+" "+a.Decide, tc.whyOrDecH) {
				t.Errorf("got %v %q under %v flipped %v (%s; %s), want %v %q under %q flipped %v with %q", a.Category, a.Attribution, a.Under, a.Flipped, a.Why, a.Decide, tc.cat, tc.attr, tc.under, tc.flipped, tc.whyOrDecH)
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

// TestSensitivity: a claim's verdict under each other reading, with the
// controls: a reading that fails a claim the stated protocol passes flips
// it; one that passes a claim the assignment does not is marked so; a
// row whose table the reading does not bear on keeps the assignment's
// verdict, never PASS.
func TestSensitivity(t *testing.T) {
	rows := []RowRef{
		{Table: "b", Row: "x", Verdict: Pass, Assigned: Pass, Under: map[string]string{"r": Fail, "s": Pass, "u": Pass}, ran: map[string]bool{"r": true, "s": true, "u": true}},
		{Table: "c", Row: "y", Verdict: Fail, Assigned: Fail, Under: map[string]string{"s": Pass}, ran: map[string]bool{"s": true}},
	}
	a := &Account{Rows: rows}
	a.judge(nil, []paperReading{{label: "r", configs: map[string]string{"b": "b-r"}}, {label: "s", configs: map[string]string{"b": "b-s", "c": "c-s"}}, {label: "t"}, {label: "u"}})
	got := map[string]Sensitivity{}
	for _, s := range a.Sensitivity {
		got[s.Reading] = s
	}
	if r := got["r"]; r.Verdict != Fail || r.Flips || r.Passes || strings.Join(r.Configs, ",") != "b-r" {
		// Row y keeps the assignment's FAIL under r: the claim fails under r,
		// as under the assignment; no flip, since the stated protocol fails it.
		t.Errorf("under r: %+v", r)
	}
	if s := got["s"]; s.Verdict != Pass || !s.Passes || strings.Join(s.Configs, ",") != "b-s,c-s" {
		t.Errorf("under s: %+v", s)
	}
	// Row y's table does not run u: y keeps its FAIL under u, and the
	// claim is not reproduced under u (the control for a row without the
	// reading counting as PASS).
	if u := got["u"]; u.Verdict != Fail || u.Passes || u.RanVerdict != Pass || u.RanRows != 1 || u.Rows != 2 {
		t.Errorf("under u, which only x's table runs: %+v, want FAIL", u)
	}
	if _, ok := got["t"]; ok {
		t.Errorf("a reading bearing on no row is listed: %+v", got["t"])
	}
	flip := &Account{Rows: []RowRef{{Table: "b", Row: "x", Verdict: Pass, Assigned: Pass, Under: map[string]string{"r": Inconc}, ran: map[string]bool{"r": true}}}}
	flip.judge(nil, []paperReading{{label: "r"}})
	if len(flip.Sensitivity) != 1 || !flip.Sensitivity[0].Flips || flip.Category != AsStated {
		t.Errorf("a reading failing a claim the stated protocol passes: %+v, category %v", flip.Sensitivity, flip.Category)
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
