package paperreport

import (
	"strings"
	"testing"
)

// TestTableLayouts checks how a report's tables read on a phone
// (report.PageCSS): a table of records (the scope table) is laid out a
// record a block, each cell named by its column and the outcome coloured
// and marked key; a table in the paper's layout with methods as columns
// scrolls with its last column, the paper's own method, pinned; a table
// of numbers (the compute table) scrolls as a grid.
func TestTableLayouts(t *testing.T) {
	var d doc
	d.table([]string{"claim", "outcome", "whose failure", "rows"}, [][]string{
		{"c1", "not reproduced (undetermined)", "undetermined", "12"},
		{"c2", "as stated", "", "1"},
		{"c3", "inconclusive (our test)", "fails here: our test", "3"},
		{"c4", "not run", "", "2"},
	})
	d.paperTable("Table 1: APE per expression: runexp (paper)", []string{"Expression", "Noisy input", "Mika et al.", "local Gram (Huang et al.)"},
		[][]string{{"Neutral", "12.25 (paper 12.14)", "10.14 (paper 9.28)", "9.867 (paper 7.51)"}})
	d.table([]string{"config", "cells", "wall (s)"}, [][]string{{"huang-table1", "7", "11.4"}, {"matrix", "15", "—"}})
	page := d.html("t", "", nil)
	tables := strings.Split(page, "<table")[1:]
	if len(tables) != 3 {
		t.Fatalf("%d tables, want 3", len(tables))
	}
	for _, want := range []string{` class="stack">`, `<td class="fail key" data-label="outcome">not reproduced (undetermined)</td>`,
		`<td class="pass key" data-label="outcome">as stated</td>`, `<td class="inc key" data-label="outcome">inconclusive (our test)</td>`,
		`<td class="ne key" data-label="outcome">not run</td>`, `<td data-label="whose failure">undetermined</td>`, `<td>c1</td>`} {
		if !strings.Contains(tables[0], want) {
			t.Errorf("the scope table lacks %s:\n%s", want, tables[0])
		}
	}
	for _, want := range []string{`<th class="pin">local Gram (Huang et al.)</th>`, `<td class="pin">9.867 (paper 7.51)</td>`} {
		if !strings.Contains(tables[1], want) {
			t.Errorf("the paper's table lacks %s:\n%s", want, tables[1])
		}
	}
	for i, tb := range tables[1:] {
		if strings.Contains(tb, "stack") || strings.Contains(tb, "data-label") {
			t.Errorf("table %d, a grid, is laid out as records:\n%s", i+2, tb)
		}
	}
}

// TestFigureNote checks a report's figure: one whose labels read only
// above a window width says so below it (class tn-N and the note), one
// never legible in place is a thumbnail that always says so, and one
// legible everywhere has no note.
func TestFigureNote(t *testing.T) {
	for _, tc := range []struct {
		w      int
		textPx float64
		want   []string
		not    string
	}{
		{1200, 12, []string{`<figure class="tn-960">`, `<span class="thumb-note"><b>A thumbnail</b> of a 1200×400 px figure`}, `class="thumb"`},
		{2893, 16.7, []string{`<figure class="thumb">`, `class="thumb" /></a>`, `<span class="thumb-note">`}, ""},
		{300, 12, []string{`<figure class="tn-280">`}, ""},
		{300, 0, []string{`<figure><a href=`}, "thumb-note"},
	} {
		h := figureHTML(figBlock{src: "../../run/fig.png", name: "fig", caption: "A figure.", textPx: tc.textPx, w: tc.w, h: 400})
		for _, w := range tc.want {
			if !strings.Contains(h, w) {
				t.Errorf("%d px, labels %g: lacks %s:\n%s", tc.w, tc.textPx, w, h)
			}
		}
		if tc.not != "" && strings.Contains(h, tc.not) {
			t.Errorf("%d px, labels %g: holds %s:\n%s", tc.w, tc.textPx, tc.not, h)
		}
	}
}
