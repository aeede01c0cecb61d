package tables_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/tables"
)

// addedSrc lays a paper table out with a method per column (cols) or per
// row (rows).
const addedCols = `title: t
paper: p
kind: k
dataset: {name: d}
methods: [{name: identity, label: a}, {name: identity, label: b}]
paper_table: {title: "Table 1", corner: Group, rows: [g1, g2], columns: [Noisy, A, B]}
reference:
  - {source: s, row: g1, column: Noisy, metric: noisy_ape, cell: {method: a, group: 1}, value: 9}
  - {source: s, row: g2, column: Noisy, metric: noisy_ape, cell: {method: a, group: 2}, value: 9}
  - {source: s, row: g1, column: A, metric: ape, cell: {method: a, group: 1}, value: 1}
  - {source: s, row: g2, column: A, metric: ape, cell: {method: a, group: 2}, value: 2}
  - {source: s, row: g1, column: B, metric: ape, cell: {method: b, group: 1}, value: 3}
  - {source: s, row: g2, column: B, metric: ape, cell: {method: b, group: 2}, value: 4}
`

const addedRows = `title: t
paper: p
kind: k
dataset: {name: d}
methods: [{name: identity, label: a}, {name: identity, label: b}]
paper_table: {title: "Table 2", corner: Method, rows: [A, B], columns: [g1, g2]}
reference:
  - {source: s, row: A, column: g1, metric: ape, cell: {method: a, group: 1}, value: 1}
  - {source: s, row: A, column: g2, metric: ape, cell: {method: a, group: 2}, value: 2}
  - {source: s, row: B, column: g1, metric: ape, cell: {method: b, group: 1}, value: 3}
  - {source: s, row: B, column: g2, metric: ape, cell: {method: b, group: 2}, value: 4}
`

func addedRec(m string, g int, ape float64) report.Record {
	p := map[string]any{"method": m, "group": g}
	// Every record holds the corrupted input's error, as Huang et al.'s
	// do; the added column must show the estimator's, not repeat it.
	return report.Record{Key: config.CanonicalKey(p), Params: p, Status: report.StatusOK, Metrics: map[string]float64{"ape": ape, "noisy_ape": 9.5}}
}

// TestPaperTableShowsAdded: a method added with --with is a column of the
// paper's table where its columns are methods and a row where its rows
// are, marked as not the paper's, with its values at the cells the
// references name; without --with the table is the paper's alone.
func TestPaperTableShowsAdded(t *testing.T) {
	own := []report.Record{addedRec("a", 1, 1.1), addedRec("a", 2, 2.1), addedRec("b", 1, 3.1), addedRec("b", 2, 4.1)}
	mine := []report.Record{addedRec("Mine", 1, 0.5), addedRec("Mine", 2, 0.7)}
	for _, tc := range []struct {
		src    string
		header []string
		rows   [][]string
	}{
		{addedCols, []string{"Group", "Noisy", "A", "B", "Mine (added, not the paper's)"},
			[][]string{{"g1", "9.5 (paper 9)", "1.1 (paper 1)", "3.1 (paper 3)", "0.5"}, {"g2", "9.5 (paper 9)", "2.1 (paper 2)", "4.1 (paper 4)", "0.7"}}},
		{addedRows, []string{"Method", "g1", "g2"},
			[][]string{{"A", "1.1 (paper 1)", "2.1 (paper 2)"}, {"B", "3.1 (paper 3)", "4.1 (paper 4)"}, {"Mine (added, not the paper's)", "0.5", "0.7"}}},
	} {
		c, err := config.Parse("added.yaml", []byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		plain := tables.Build(tables.Input{Config: c, Records: own, Scoped: own})[0]
		c.Methods = append(c.Methods, config.Method{Name: "identity", Label: "Mine", Added: true})
		all := append(slices.Clone(own), mine...)
		got := tables.Build(tables.Input{Config: c, Records: all, Scoped: own, Intervals: claims.Options{}})[0]
		if !slices.Equal(got.Header, tc.header) {
			t.Errorf("%s: header %q, want %q", c.PaperTable.Title, got.Header, tc.header)
		}
		if len(got.Rows) != len(tc.rows) {
			t.Fatalf("%s: rows %q, want %q", c.PaperTable.Title, got.Rows, tc.rows)
		}
		for i := range tc.rows {
			if !slices.Equal(got.Rows[i], tc.rows[i]) {
				t.Errorf("%s: row %d %q, want %q", c.PaperTable.Title, i, got.Rows[i], tc.rows[i])
			}
		}
		if !strings.Contains(got.Caption, "not the paper's") || strings.Contains(plain.Caption, "not the paper's") || len(plain.Header) != len(tc.header)-btoi(len(tc.header) == 5) {
			t.Errorf("%s: caption %q (without --with %q, header %q)", c.PaperTable.Title, got.Caption, plain.Caption, plain.Header)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestPaperIntervalsShowAdded (issue 47): the table of intervals under
// the paper's table has the added method's row too (huang-table1's left
// it out while the values table and the long form had it), its interval
// built as the config's own methods' are.
func TestPaperIntervalsShowAdded(t *testing.T) {
	c, err := config.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	own := records()
	mine := records()[0]
	mine.Key, mine.Params = "method=Mine", map[string]any{"method": "Mine"}
	c.Methods = append(c.Methods, config.Method{Name: "identity", Label: "Mine", Added: true})
	tbl := tables.Build(tables.Input{Config: c, Records: append(slices.Clone(own), mine), Scoped: own, Intervals: options()})
	vals, ivs := tbl[0], tbl[1]
	if last := vals.Rows[len(vals.Rows)-1]; last[0] != "Mine (added, not the paper's)" || last[1] != "254.5" {
		t.Fatalf("values: last row %q", last)
	}
	last := ivs.Rows[len(ivs.Rows)-1]
	var lo, hi float64
	if _, err := fmt.Sscanf(last[1], "[%g, %g]", &lo, &hi); err != nil || len(ivs.Rows) != len(vals.Rows) ||
		last[0] != "Mine (added, not the paper's)" || !(lo < 254.5 && 254.5 < hi) || last[2] != "—" {
		t.Errorf("intervals: rows %q; want the added row, its err interval holding its mean 254.5, no err255 interval", ivs.Rows)
	}
}
