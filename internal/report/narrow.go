package report

import (
	"bytes"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter/tw"
)

// FileWidth is the widest line of a run's tables.txt: the narrowest
// terminal in common use, 80 columns, shows the file without wrapping a
// line (RenderNarrow).
const FileWidth = 80

// maxParts is the most boxes a table split for width is printed in
// before it is laid out a row at a time instead: two boxes read side by
// side in the mind, more do not.
const maxParts = 2

// RenderNarrow writes t within width columns. A table that fits, or fits
// once split into at most two boxes that repeat its key columns, without
// breaking a number, is written by RenderText at that width. A wider one (a paper's table of
// six methods at 80 columns, a long-form table of ten parameters) is laid
// out one block per row instead: the row's key columns on a line of their
// own, then one line per other column, "column: value", wrapped under its
// name, with the columns that hold one value in every row said once above
// the rows ("In every row: …"); the caption and the notes follow as in
// RenderText. Every cell is printed, and no line is wider than width.
func (t *Table) RenderNarrow(w io.Writer, width int) error {
	c := *t
	c.Width = width
	if t.Lines || len(t.Rows) == 0 {
		return c.RenderText(w)
	}
	al := t.alignments()
	right := make([]bool, len(al))
	for j, a := range al {
		right[j] = a == tw.AlignRight
	}
	rows := t.paddedRows(nil)
	_, body, parts, _ := t.fit(width, rows, right)
	if len(parts) <= maxParts && !numberBroken(rows, body, right) {
		return c.RenderText(w)
	}
	return t.renderBlocks(w, width)
}

// numberBroken reports whether fitting wrapped a cell of a numeric column
// (right-aligned): boxes that must break a number to fit the width are
// no layout for it.
func numberBroken(rows, body [][]string, right []bool) bool {
	for i, r := range rows {
		for j, c := range r {
			if right[j] && body[i][j] != c {
				return true
			}
		}
	}
	return false
}

// renderBlocks writes t a row at a time (RenderNarrow).
func (t *Table) renderBlocks(w io.Writer, width int) error {
	var buf bytes.Buffer
	oneLine := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	if t.Title != "" {
		buf.WriteString(Wrap(t.Title, width) + "\n")
	}
	rows := t.paddedRows(nil)
	k := t.keyColumns()
	f := &fitter{key: k}
	f.reset(t.Header, rows)
	kept, same := f.dropConstant(k)
	if len(rows) < 2 {
		kept, same = kept[:0], nil
		for j := range t.Header {
			kept = append(kept, j)
		}
	}
	if len(same) > 0 {
		buf.WriteString(hanging("In every row: ", oneLine(strings.Join(same, "; "))+".", width) + "\n")
	}
	for _, r := range rows {
		buf.WriteByte('\n')
		var key []string
		for _, j := range kept[:min(k, len(kept))] {
			if s := oneLine(r[j]); s != "" {
				key = append(key, s)
			}
		}
		buf.WriteString(hanging("▸ ", strings.Join(key, " · "), width) + "\n")
		for _, j := range kept[min(k, len(kept)):] {
			s := oneLine(r[j])
			if s == "" {
				continue
			}
			lead := "    " + oneLine(t.Header[j]) + ": "
			if Width(lead) > width/2 {
				// A long column name on its own line, the value under it.
				buf.WriteString(hanging("    ", strings.TrimSpace(lead), width) + "\n")
				lead = "      "
			}
			buf.WriteString(hanging(lead, s, width) + "\n")
		}
	}
	if t.Caption != "" {
		buf.WriteString("\n" + Wrap(t.Caption, width) + "\n")
	}
	for i, n := range t.Notes {
		buf.WriteString(hanging(noteMark(i)+" ", strings.ReplaceAll(n, "\n", " "), width) + "\n")
	}
	_, err := w.Write(buf.Bytes())
	return err
}
