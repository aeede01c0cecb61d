package report

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestRenderNarrowFitsProperty: for 300 seeded random tables, no line
// RenderNarrow writes at 80 columns (tables.txt) or 60 is wider than that,
// and every word and number of the table is printed unbroken at least
// once, whichever layout it chose.
func TestRenderNarrowFitsProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 5))
	for i := range 300 {
		tb, tokens := randomTable(rng)
		for _, width := range []int{FileWidth, 60} {
			var b bytes.Buffer
			if err := tb.RenderNarrow(&b, width); err != nil {
				t.Fatalf("table %d: %v", i, err)
			}
			out := b.String()
			for _, l := range strings.Split(out, "\n") {
				if Width(l) > width {
					t.Fatalf("table %d at %d: line of %d columns:\n%s", i, width, Width(l), out)
				}
			}
			for _, tok := range tokens {
				if !containsToken(out, tok) {
					t.Fatalf("table %d at %d: %q not printed whole:\n%s", i, width, tok, out)
				}
			}
		}
	}
}

// TestRenderNarrowLayouts checks the choice of layout at 80 columns: a
// table that fits stays one box; one that fits in two boxes is split in
// two (RenderText); one that would need three or more (a paper's table of
// six methods, each cell "ours (paper …)") is laid out a row at a time,
// the row's name on its own line, each cell under it as "column: value",
// the constant column said once, the caption and notes after.
func TestRenderNarrowLayouts(t *testing.T) {
	render := func(tb *Table) string {
		var b bytes.Buffer
		if err := tb.RenderNarrow(&b, FileWidth); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	small := &Table{Title: "small", Header: []string{"method", "MSE"}, Rows: [][]string{{"Mika", "0.5"}, {"Tikhonov", "0.4"}}}
	if out := render(small); strings.Count(out, "┌") != 1 || strings.Contains(out, "▸") {
		t.Errorf("a table that fits is not one box:\n%s", out)
	}
	two := &Table{Title: "two", Header: []string{"method", "column one", "column two", "column three", "column four", "column five"},
		Rows: [][]string{{"Mika", "0.123456789012", "0.223456789012", "0.323456789012", "0.423456789012", "0.523456789012"}, {"Tikhonov", "0.4", "0.5", "0.6", "0.7", "0.8"}}}
	if out := render(two); strings.Count(out, "┌") != 2 || !strings.Contains(out, "(continued)") {
		t.Errorf("a table of two boxes at 80 columns:\n%s", out)
	}
	methods := []string{"Noisy input", "Mika et al.", "Kwok & Tsang", "Nguyen & De la Torre", "Honeine & Richard", "local Gram (Huang et al.)"}
	paper := &Table{Title: "Table 1: APE per expression: runexp (paper)", Header: append([]string{"Expression"}, methods...),
		Caption: "Each cell: runexp's value, then the paper's as printed."}
	for i, row := range []string{"Neutral (normal)", "Smile (happy)"} {
		r := []string{row + " " + paper.Note("A claim on this row.")}
		for j := range methods {
			r = append(r, fmt.Sprintf("1%d.%d4 ± 4.5\n(paper 9.28 ± 2.77)", i, j))
		}
		r[1] = "12.25 (paper 12.14)"
		paper.Rows = append(paper.Rows, r)
	}
	paper.Header = append(paper.Header, "status")
	for i := range paper.Rows {
		paper.Rows[i] = append(paper.Rows[i], "ok")
	}
	want := "Table 1: APE per expression: runexp (paper)\n" +
		"In every row: Noisy input = 12.25 (paper 12.14); status = ok.\n" +
		"\n▸ Neutral (normal) [1]\n" +
		"    Mika et al.: 10.14 ± 4.5 (paper 9.28 ± 2.77)\n" +
		"    Kwok & Tsang: 10.24 ± 4.5 (paper 9.28 ± 2.77)\n" +
		"    Nguyen & De la Torre: 10.34 ± 4.5 (paper 9.28 ± 2.77)\n" +
		"    Honeine & Richard: 10.44 ± 4.5 (paper 9.28 ± 2.77)\n" +
		"    local Gram (Huang et al.): 10.54 ± 4.5 (paper 9.28 ± 2.77)\n" +
		"\n▸ Smile (happy) [1]\n" +
		"    Mika et al.: 11.14 ± 4.5 (paper 9.28 ± 2.77)\n" +
		"    Kwok & Tsang: 11.24 ± 4.5 (paper 9.28 ± 2.77)\n" +
		"    Nguyen & De la Torre: 11.34 ± 4.5 (paper 9.28 ± 2.77)\n" +
		"    Honeine & Richard: 11.44 ± 4.5 (paper 9.28 ± 2.77)\n" +
		"    local Gram (Huang et al.): 11.54 ± 4.5 (paper 9.28 ± 2.77)\n" +
		"\nEach cell: runexp's value, then the paper's as printed.\n" +
		"[1] A claim on this row.\n"
	if out := render(paper); out != want {
		t.Errorf("the paper's table at 80 columns:\n%s\nwant\n%s", out, want)
	}
}
