package config_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/config"
)

// layout is a paper table of two rows and two columns in two parts
// (paper_table's mapping begins on line 6), with three of its eight places
// filled by the values on lines 12–14.
const layout = head + `paper_table:
  title: "Table 1: APE and SNR"
  corner: Expression
  parts: [APE, SNR]
  rows: [Neutral, Smile]
  columns: [Mika, Ours]
reference:
  - {source: s1, row: Neutral, column: Mika, part: APE, printed: "9.28 ± 2.77", metric: ape, std: ape_std, cell: {method: m}, value: 9.28}
  - {source: s2, row: Smile, column: Ours, part: APE, metric: ape, cell: {method: o}, value: 7.7}
  - {source: s3, row: Neutral, column: Mika, part: SNR, metric: snr, cell: {method: m}, value: 3.06}
`

func TestPaperTable(t *testing.T) {
	c := mustParse(t, layout)
	want := &config.PaperTable{Title: "Table 1: APE and SNR", Corner: "Expression", Parts: []string{"APE", "SNR"},
		Rows: []string{"Neutral", "Smile"}, Columns: []string{"Mika", "Ours"}, Line: 6}
	if !reflect.DeepEqual(c.PaperTable, want) {
		t.Errorf("paper table %+v, want %+v", c.PaperTable, want)
	}
	r := c.Reference[0]
	if r.Row != "Neutral" || r.Column != "Mika" || r.Part != "APE" || r.Printed != "9.28 ± 2.77" || r.Std != "ape_std" || r.Line != 12 {
		t.Errorf("reference[0] = %+v", r)
	}
	if c := mustParse(t, head); c.PaperTable != nil {
		t.Errorf("no paper_table: got %+v", c.PaperTable)
	}
}

// TestPaperTableErrors: a layout that leaves a value without a place,
// puts two in one, or names a row, column or part it does not list is an
// error at the line of the value (or of paper_table).
func TestPaperTableErrors(t *testing.T) {
	for _, tc := range []struct {
		name, old, new string
		line           int
		want           string
	}{
		{"no row", "row: Smile, ", "", 13, "reference[1]: missing row or column"},
		{"same place", "row: Smile, column: Ours", "row: Neutral, column: Mika", 13, `row "Neutral", column "Mika" of part "APE" is already reference[0]'s (line 12)`},
		{"row not listed", "row: Smile, ", "row: Squint, ", 13, `reference[1].row: "Squint" is not in paper_table's rows ["Neutral", "Smile"]`},
		{"column not listed", "column: Ours, ", "column: Theirs, ", 13, `reference[1].column: "Theirs" is not in paper_table's columns`},
		{"part missing", "part: SNR, ", "", 14, "reference[2]: missing part"},
		{"part not listed", "part: SNR, ", "part: PSNR, ", 14, `reference[2].part: "PSNR" is not in paper_table's parts`},
		{"no title", `  title: "Table 1: APE and SNR"` + "\n", "", 6, "paper_table: missing title"},
		{"no rows", "  rows: [Neutral, Smile]\n", "", 6, "paper_table: missing rows"},
		{"row twice", "rows: [Neutral, Smile]", "rows: [Neutral, Neutral]", 9, `paper_table.rows[1]: "Neutral" is listed twice`},
		{"label too long", "corner: Expression", "corner: " + strings.Repeat("x", config.MaxLabel+1), 7, "at most 48"},
		{"empty label", "column: Ours, ", `column: " ", `, 13, "reference[1].column: empty"},
		{"no values", layout[strings.Index(layout, "reference:"):], "", 6, "paper_table: no reference values to lay out"},
		{"place without table", "paper_table:\n  title: \"Table 1: APE and SNR\"\n  corner: Expression\n  parts: [APE, SNR]\n  rows: [Neutral, Smile]\n  columns: [Mika, Ours]\n", "", 6, "reference[0].row: places the value in a paper table, but the config has no paper_table"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(layout, tc.old, tc.new, 1)
			if src == layout {
				t.Fatalf("the edit %q → %q does not apply", tc.old, tc.new)
			}
			_, err := config.Parse("f.yaml", []byte(src))
			var ce *config.Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %v, want a config.Error", err)
			}
			if ce.Line != tc.line || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q at line %d, want %q at line %d", err, ce.Line, tc.want, tc.line)
			}
		})
	}
}
