package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

func TestWrap(t *testing.T) {
	for _, tc := range []struct {
		s     string
		width int
		want  string
	}{
		{"short", 10, "short"},
		{"one two three four", 9, "one two\nthree\nfour"},
		// A word longer than the line breaks after its last comma that
		// fits, else at the width.
		{"a=1,b=2,c=3", 6, "a=1,\nb=2,\nc=3"},
		{"abcdefghij", 4, "abcd\nefgh\nij"},
		// Line breaks are kept, runs of spaces at a break dropped.
		{"ab\ncd   ef", 4, "ab\ncd\nef"},
		{"", 5, ""},
	} {
		if got := Wrap(tc.s, tc.width); got != tc.want {
			t.Errorf("Wrap(%q, %d) = %q, want %q", tc.s, tc.width, got, tc.want)
		}
	}
}

// wideTable has a key column and twelve numeric columns of 14 runes: one
// box would be 1 + 9 + 12·17 = 214 columns wide.
func wideTable() *Table {
	t := &Table{Title: "wide", Header: []string{"method"}}
	for j := range 12 {
		t.Header = append(t.Header, fmt.Sprintf("metric %02d", j))
	}
	for i := range 3 {
		row := []string{fmt.Sprintf("m%d", i)}
		for j := range 12 {
			row = append(row, fmt.Sprintf("%014d", 100*i+j))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// TestRenderTextSplits: a table too wide for TextWidth is split into
// parts of even size that each repeat the key column, no line is wider
// than TextWidth, and every cell is printed once.
func TestRenderTextSplits(t *testing.T) {
	tb := wideTable()
	if w := tb.NaturalWidth(); w != 1+9+12*17 {
		t.Fatalf("natural width %d, want %d", w, 1+9+12*17)
	}
	var b bytes.Buffer
	if err := tb.RenderText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, l := range strings.Split(out, "\n") {
		if Width(l) > TextWidth {
			t.Errorf("line of %d columns: %s", Width(l), l)
		}
	}
	// 12 columns of 17 beside a key of 9 + 1: six fit in 120, so two
	// parts of six.
	if n := strings.Count(out, "(continued)"); n != 1 {
		t.Errorf("%d continuations, want 1:\n%s", n, out)
	}
	if n := strings.Count(out, "│ m1 "); n != 2 {
		t.Errorf("key m1 printed %d times, want once per part:\n%s", n, out)
	}
	for _, row := range tb.Rows {
		for _, c := range row[1:] {
			if strings.Count(out, c) != 1 {
				t.Errorf("cell %s printed %d times, want once", c, strings.Count(out, c))
			}
		}
	}
	checkGolden(t, "table-wide.txt.golden", b.Bytes())
}

// A row's name is never broken mid-word to make room: the suite's
// wall-time table of 2026-11-27 wrapped the 41-column name
// "zheng-lpkpca-table3-subsets123-labelgraph" to 40, leaving "h" alone on
// a line that read as a row. The constant Status column goes to "In every
// row" instead, and the names print whole.
func TestRenderTextKeepsNamesWhole(t *testing.T) {
	name := "zheng-lpkpca-table3-subsets123-labelgraph"
	tb := &Table{
		Header: []string{"Config", "Cells", "Computed", "From s", "To s", "Seconds", "CPU seconds", "Longest cell s", "Status"},
		Rows: [][]string{
			{name, "1", "1", "3885.5", "3888.8", "3.3", "2.9", "2.7", "0"},
			{"zheng-lpkpca-table4", "15", "15", "3888.8", "3913.8", "25.0", "23.7", "23.6", "0"},
		},
	}
	var b bytes.Buffer
	if err := tb.RenderText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "│ "+name+" ") {
		t.Errorf("the name is not on one line:\n%s", out)
	}
	if !strings.Contains(out, "In every row: Status = 0.") {
		t.Errorf("want the constant Status column set apart:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if Width(l) > TextWidth {
			t.Errorf("line of %d columns: %s", Width(l), l)
		}
	}
}

// TestRenderTextWrapsText: a text column too wide is wrapped (not
// split, not cut) to fit, down to TextColumnMin; the Markdown keeps it
// whole.
func TestRenderTextWrapsText(t *testing.T) {
	long := strings.Repeat("the paper's claim holds ", 10)
	tb := &Table{Header: []string{"claim", "verdict", "statement"}, Rows: [][]string{{"c1", "PASS", long}}}
	var b, md bytes.Buffer
	if err := tb.RenderText(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "(continued)") {
		t.Errorf("split, want wrapped:\n%s", b.String())
	}
	words := 0
	for _, l := range strings.Split(b.String(), "\n") {
		if Width(l) > TextWidth {
			t.Errorf("line of %d columns: %s", Width(l), l)
		}
		words += strings.Count(l, "claim holds")
	}
	if words != 10 {
		t.Errorf("%d of the statement's 10 phrases printed whole:\n%s", words, b.String())
	}
	if err := tb.RenderMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), strings.TrimSpace(long)) {
		t.Errorf("Markdown does not hold the statement whole:\n%s", md.String())
	}
}

// TestNotes: the same text gets one note; notes follow the caption in
// both renderings, wrapped with a hanging indent in the terminal's.
func TestNotes(t *testing.T) {
	tb := &Table{Header: []string{"a", "b"}, Caption: "caption"}
	long := strings.Repeat("word ", 40)
	m1, m2, m3 := tb.Note(long), tb.Note("short note"), tb.Note(long)
	if m1 != "[1]" || m2 != "[2]" || m3 != "[1]" || len(tb.Notes) != 2 {
		t.Fatalf("markers %s %s %s, %d notes; want [1] [2] [1], 2", m1, m2, m3, len(tb.Notes))
	}
	tb.Rows = [][]string{{"x " + m1, "y " + m2}}
	var b, md bytes.Buffer
	if err := tb.RenderText(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	i := 0
	for i < len(lines) && lines[i] != "caption" {
		i++
	}
	if i+3 >= len(lines) || !strings.HasPrefix(lines[i+1], "[1] word") || !strings.HasPrefix(lines[i+2], "    word") || lines[len(lines)-1] != "[2] short note" {
		t.Errorf("notes not under the caption with a hanging indent:\n%s", b.String())
	}
	if err := tb.RenderMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "\ncaption\n\n[1] "+strings.TrimSpace(long)+"\n\n[2] short note\n") {
		t.Errorf("Markdown notes:\n%s", md.String())
	}
}

// TestRenderTextSameColumns: a table too wide prints a column that holds
// one value in every row once, above the table, and leaves an empty one
// out; a table that fits keeps them.
func TestRenderTextSameColumns(t *testing.T) {
	tb := wideTable()
	tb.Header = append(tb.Header, "status", "params")
	for i := range tb.Rows {
		tb.Rows[i] = append(tb.Rows[i], "ok", "")
	}
	var b bytes.Buffer
	if err := tb.RenderText(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if lines[1] != "In every row: status = ok." || strings.Contains(b.String(), "params") || strings.Contains(b.String(), "│ ok") {
		t.Errorf("constant columns not folded:\n%s", b.String())
	}
	small := &Table{Header: []string{"a", "status"}, Rows: [][]string{{"1", "ok"}, {"2", "ok"}}}
	b.Reset()
	if err := small.RenderText(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "In every row") || !strings.Contains(b.String(), "│ ok") {
		t.Errorf("a table that fits lost its column:\n%s", b.String())
	}
}

// TestRenderTextLines: a table marked Lines keeps each row on one line,
// however wide: runexp compare's changes are grepped a line at a time.
func TestRenderTextLines(t *testing.T) {
	tb := wideTable()
	tb.Lines = true
	var b bytes.Buffer
	if err := tb.RenderText(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "(continued)") || !strings.Contains(b.String(), "│ m1     │ 00000000000100 │") ||
		!strings.Contains(b.String(), "00000000000111 │\n") {
		t.Errorf("rows split or wrapped:\n%s", b.String())
	}
}
