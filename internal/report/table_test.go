package report

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// testTable is a small comparison table; the paper values are made up for
// the test, not quoted.
func testTable() *Table {
	t := &Table{
		Title:   "Denoising MSE (test)",
		Caption: "Paper: made-up values for the golden test. Ours: one seed.",
		Header:  []string{"method", "λ", "ours", "paper", "ours − paper"},
	}
	add := func(method, lambda string, ours, paper float64, has bool) {
		o, p, d := FormatCompare(ours, paper, has, 3)
		t.Rows = append(t.Rows, []string{method, lambda, o, p, d})
	}
	add("Mika", "0.001", 0.012345, 0.0121, true)
	add("Kwok|Tsang", "0.01", math.NaN(), 0.02, true)
	add("PCA", "0", 0.5, 0, false)
	t.Rows = append(t.Rows, []string{"short row"})
	return t
}

func TestTableGolden(t *testing.T) {
	tb := testTable()
	var txt, md bytes.Buffer
	if err := tb.RenderText(&txt); err != nil {
		t.Fatal(err)
	}
	if err := tb.RenderMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "table.txt.golden", txt.Bytes())
	checkGolden(t, "table.md.golden", md.Bytes())
}

func TestTableNoRows(t *testing.T) {
	tb := &Table{Header: []string{"a", "b"}}
	var md bytes.Buffer
	if err := tb.RenderMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	// A header-only Markdown table still needs its delimiter row (":-:" is
	// valid GFM).
	if want := "| a | b |\n|:-:|:-:|\n"; md.String() != want {
		t.Errorf("got\n%q\nwant\n%q", md.String(), want)
	}
}

func TestTableLongRowPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic for a row longer than the header")
		}
	}()
	tb := &Table{Header: []string{"a"}, Rows: [][]string{{"1", "2"}}}
	tb.RenderText(new(bytes.Buffer))
}

func TestWriteTables(t *testing.T) {
	dir := t.TempDir()
	names, err := WriteTables(dir, testTable())
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 2 || names[0] != "table.md" || names[1] != "table.txt" {
		t.Errorf("names = %q", names)
	}
}

func TestFormatFloat(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		prec int
		want string
	}{
		{0.0123456, 3, "0.0123"},
		{123456, 3, "1.23e+05"},
		{1, 3, "1"},
		{float64(float32(0.1)), -1, "0.10000000149011612"},
		{math.NaN(), 3, "NaN"},
		{math.Inf(1), 3, "+Inf"},
		{math.Inf(-1), 3, "-Inf"},
	} {
		if got := FormatFloat(tc.v, tc.prec); got != tc.want {
			t.Errorf("FormatFloat(%v, %d) = %q, want %q", tc.v, tc.prec, got, tc.want)
		}
	}
}

func TestFormatCompare(t *testing.T) {
	for _, tc := range []struct {
		ours, paper float64
		has         bool
		o, p, d     string
	}{
		// Differences derived by hand: 0.0125 − 0.0121 = 0.0004.
		{0.0125, 0.0121, true, "0.0125", "0.0121", "+0.0004"},
		{0.0121, 0.0125, true, "0.0121", "0.0125", "-0.0004"},
		{2, 2, true, "2", "2", "0"},
		{2, 0, false, "2", Dash, Dash},
		{2, math.NaN(), true, "2", Dash, Dash},
		{math.NaN(), 1, true, Failed, "1", Dash},
		{math.Inf(1), 1, true, "+Inf", "1", "+Inf"},
	} {
		o, p, d := FormatCompare(tc.ours, tc.paper, tc.has, 3)
		if o != tc.o || p != tc.p || d != tc.d {
			t.Errorf("FormatCompare(%v, %v, %v, 3) = %q, %q, %q; want %q, %q, %q",
				tc.ours, tc.paper, tc.has, o, p, d, tc.o, tc.p, tc.d)
		}
	}
}

// An empty table with a caption prints its title and caption only: the
// suite's "Changes against the baseline" used to print a box of column
// names around no rows before "No changes.".
func TestEmptyTableCaptionOnly(t *testing.T) {
	var buf bytes.Buffer
	if err := ChangesTable(nil).RenderText(&buf); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.String(), "Changes\nNo changes.\n"; got != want {
		t.Errorf("empty changes table:\n%q\nwant\n%q", got, want)
	}
	buf.Reset()
	if err := ChangesTable([]Change{{Config: "c", Key: "k", What: "metric m", Old: "1", New: "2"}}).RenderText(&buf); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(buf.Bytes(), []byte("│ c ")) || !bytes.HasSuffix(buf.Bytes(), []byte("1 change.\n")) {
		t.Errorf("one change lost its row:\n%s", buf.String())
	}
}

// A table given a terminal's Width keeps every line within it, caption
// included: the suite's wall-time table was 101 columns in a 100-column
// terminal, which wrapped its header mid-word.
func TestTableWidth(t *testing.T) {
	tb := &Table{
		Title:   "Suite wall time",
		Header:  []string{"Config", "Cells", "Computed", "From s", "To s", "Seconds", "CPU seconds", "Longest cell s", "Status"},
		Caption: "utilisation and the critical path are printed under the table, wrapped to the same width as the table itself",
	}
	for _, name := range []string{"abrahamsen-hansen-fig4-gamma-weights", "huang-table1-pie-pergroup-hr-uncentred"} {
		tb.Rows = append(tb.Rows, []string{name, "270", "90", "1344.9", "1981.7", "636.8", "564.0", "377.5", "0"})
	}
	for _, width := range []int{80, 100, 0} {
		tb.Width = width
		var buf bytes.Buffer
		if err := tb.RenderText(&buf); err != nil {
			t.Fatal(err)
		}
		limit := width
		if limit == 0 {
			limit = TextWidth
		}
		for i, line := range strings.Split(buf.String(), "\n") {
			if Width(line) > limit {
				t.Errorf("width %d: line %d is %d columns: %q", width, i+1, Width(line), line)
			}
		}
		if width == 80 && !strings.Contains(buf.String(), "abrahamsen-hansen-fig4-gamma-weights") && !strings.Contains(buf.String(), "abrahamsen-hansen-fig4-gamma") {
			t.Errorf("width 80 lost the config name:\n%s", buf.String())
		}
	}
}
