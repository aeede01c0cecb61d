package scoreboard

import (
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/config"
)

// fitTable is a base b with reading columns (name → reading set) and one
// printed fit per entry of dists: the base's distance first, then each
// column's, in order, all over cells cells.
func fitTable(b string, supported bool, cells int, cols []Column, dists ...float64) Table {
	t := Table{Base: Column{Name: b}, Variants: cols, Ambiguities: map[string]string{"a1": "stated"}}
	pf := PrintedFit{Table: "Table of " + b, Supported: supported, Better: -1}
	pf.Fits = append(pf.Fits, Fit{Config: b, Base: true, Run: true, Distance: dists[0], Cells: cells})
	for i, c := range cols {
		pf.Fits = append(pf.Fits, Fit{Config: c.Name, Run: true, Distance: dists[i+1], Cells: cells, Diagnostic: c.Diagnostic})
	}
	t.Fits = []PrintedFit{pf}
	return t
}

func reading(name, amb, r string) Column {
	return Column{Name: name, Label: r, Reads: []string{amb}, Readings: ReadingSet{amb: r}}
}

// TestAssignByFit: the assignment reads an ambiguity otherwise only when a
// reading fits the printed values clearly better than the stated
// protocol in more than half of the printed tables on which both ran,
// never by verdicts; the controls keep the stated protocol's reading: a
// fit in an interpretation the text does not support, a reading better in
// only half the tables, two readings tied, too few cells, a diagnostic
// fitting better, a reading of two ambiguities at once.
func TestAssignByFit(t *testing.T) {
	clip := func(b string) Column { return reading(b+"-clip", "a1", "clip") }
	n255 := func(b string) Column { return reading(b+"-noise255", "a1", "noise255") }
	ambs := map[string]config.Ambiguity{"a1": {ID: "a1", Topic: "noise"}}
	for _, tc := range []struct {
		name   string
		tables []Table
		want   string
		rule   string
	}{
		{"clip fits both tables", []Table{
			fitTable("t1", true, 15, []Column{clip("t1"), n255("t1")}, 1.1, 0.11, 1.17),
			fitTable("t2", true, 7, []Column{clip("t2")}, 1.16, 0.16)}, "clip", RuleFit},
		{"an interpretation the text does not support", []Table{
			fitTable("t1", false, 15, []Column{clip("t1"), n255("t1")}, 2.9, 1.7, 0.7)}, "", RuleStatedNoFit},
		{"better in only one of three tables", []Table{
			fitTable("t1", true, 6, []Column{clip("t1")}, 0.039, 0.016),
			fitTable("t2", true, 7, []Column{clip("t2")}, 0.061, 0.033),
			fitTable("t3", true, 6, []Column{clip("t3")}, 0.868, 0.649)}, "", RuleStatedFit},
		{"two readings tied", []Table{
			fitTable("t1", true, 6, []Column{clip("t1"), n255("t1")}, 1, 0.1, 0.9),
			fitTable("t2", true, 6, []Column{clip("t2"), n255("t2")}, 1, 0.9, 0.1)}, "", RuleStatedFit},
		{"too few cells", []Table{
			fitTable("t1", true, 2, []Column{clip("t1")}, 1, 0.1)}, "", RuleStatedFit},
		{"a diagnostic fitting better", []Table{
			fitTable("t1", true, 6, []Column{{Name: "t1-lab", Diagnostic: true, Readings: ReadingSet{}}}, 1, 0.01)}, "", RuleStatedNotRead},
		{"a reading of two ambiguities is no fit of either", []Table{
			fitTable("t1", true, 6, []Column{{Name: "t1-both", Reads: []string{"a1", "a2"}, Readings: ReadingSet{"a1": "clip", "a2": "x"}}}, 1, 0.01)}, "", RuleStatedNoFit},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := assign(tc.tables, ambs)
			var ch Choice
			for _, c := range a.Choices {
				if c.Ambiguity == "a1" {
					ch = c
				}
			}
			if ch.Reading != tc.want || ch.Rule != tc.rule || ch.Why == "" {
				t.Errorf("a1 read as %q by %q (%s), want %q by %q; fits %+v", ch.Reading, ch.Rule, ch.Why, tc.want, tc.rule, ch.Fits)
			}
			if tc.want != "" {
				if r, s, ok := ch.Fit(); !ok || !(r < s) || strings.Join(ch.Configs, ",") != "t1-clip,t2-clip" {
					t.Errorf("chosen fit %v against %v (%v), configs %v", r, s, ok, ch.Configs)
				}
			}
		})
	}
	// The rule reads no verdict: the same tables with every verdict turned
	// give the same assignment.
	tables := []Table{fitTable("t1", true, 15, []Column{clip("t1")}, 1.1, 0.11), fitTable("t2", true, 7, []Column{clip("t2")}, 1.16, 0.16)}
	for _, v := range []string{Pass, Fail} {
		for i := range tables {
			tables[i].Rows = []Row{{ID: "x", Counted: true, Base: cellOf(v), Variants: []Cell{cellOf(v)}}}
		}
		if got := assign(tables, ambs).Set().Key(); got != "a1=clip" {
			t.Errorf("verdicts %s: assignment %q, want a1=clip", v, got)
		}
	}
}

// TestMissingReadingKeepsVerdict is the control for the mutation "a row
// whose config lacks a reading counts as PASS under it": under the
// assignment a1 = clip, a row whose table runs clip takes clip's verdict;
// a row whose clip config does not restate it, or whose table the
// ambiguity does not bear on, keeps its stated verdict; a row whose table
// lists a1 and runs no clip reading was not run under it. None of them
// passes, so the claim is not reproduced under the assignment, and its
// sensitivity under another reading treats a missing row alike.
func TestMissingReadingKeepsVerdict(t *testing.T) {
	clip := reading("t1-clip", "a1", "clip")
	n255 := reading("t1-noise255", "a1", "noise255")
	t1 := Table{Base: Column{Name: "t1"}, Variants: []Column{clip, n255}, Ambiguities: map[string]string{"a1": "stretch"},
		Rows: []Row{
			{ID: "x", Paper: "c1", Counted: true, Base: cellOf(Fail), Variants: []Cell{cellOf(Pass), cellOf(Pass)}},
			{ID: "y", Paper: "c1", Counted: true, Base: cellOf(Fail), Variants: []Cell{cellOf(""), cellOf("")}}, // neither reading restates y
		}}
	t2 := Table{Base: Column{Name: "t2"}, Ambiguities: map[string]string{"a1": "stretch"}, // lists a1, runs no reading of it
		Rows: []Row{{ID: "z", Paper: "c1", Counted: true, Base: cellOf(Fail)}}}
	t3 := Table{Base: Column{Name: "t3"}, // a1 does not bear on it
		Rows: []Row{{ID: "w", Paper: "c1", Counted: true, Base: cellOf(Fail)}}}
	set := ReadingSet{"a1": "clip"}
	for _, tc := range []struct {
		t    Table
		row  int
		at   int
		want string
	}{
		{t1, 0, 0, Pass},
		{t1, 1, 0, Fail},
		{t2, 0, atMissing, "not run"},
		{t3, 0, atBase, Fail},
	} {
		at := tc.t.columnFor(set, "")
		if got := verdictOrNotRun(tc.t.Rows[tc.row].cellUnder(at)); at != tc.at || got != tc.want {
			t.Errorf("%s#%s under clip: column %d, %s; want column %d, %s", tc.t.Base.Name, tc.t.Rows[tc.row].ID, at, got, tc.at, tc.want)
		}
	}
	p := &Paper{ID: "p", Tables: []Table{t1, t2, t3}}
	p.Assignment = Assignment{Choices: []Choice{{Ambiguity: "a1", Reading: "clip", Rule: RuleFit}}}
	for i := range p.Tables {
		p.Tables[i].Assigned = p.Tables[i].columnFor(p.Assignment.Set(), "")
	}
	readings := p.readings()
	var rows []RowRef
	for _, tb := range p.Tables {
		for _, r := range tb.Rows {
			rows = append(rows, rowRef(tb, r, readings))
		}
	}
	a := &Account{Rows: rows}
	a.judge(nil, readings)
	if a.Assigned != Fail || a.Category != NotReproduced {
		t.Errorf("under the assignment: %s, %v; want FAIL, not reproduced (rows %+v)", a.Assigned, a.Category, rows)
	}
	for _, s := range a.Sensitivity {
		if s.Verdict == Pass {
			t.Errorf("under %s the claim passes, but only one of its rows does: %+v", s.Reading, s)
		}
	}
	// Without t3's failing row the claim rests on x (PASS), y (its stated
	// FAIL) and z (not run): still no reproduction.
	a = &Account{Rows: rows[:3]}
	a.judge(nil, readings)
	if a.Category == OtherReading || a.Category == AsStated {
		t.Errorf("rows x, y, z: %v under the assignment, want no reproduction", a.Category)
	}
	a = &Account{Rows: []RowRef{rows[0], rows[2]}}
	a.judge(nil, readings)
	if a.Assigned != "not run" || a.Category != NotRun {
		t.Errorf("rows x and z: %s, %v; want not run under the assignment", a.Assigned, a.Category)
	}
}
