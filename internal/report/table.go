package report

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// Dash marks an absent value in a table cell (no paper value, no
// difference).
const Dash = "—"

// Failed is shown by [FormatCompare] in place of a NaN result of ours.
const Failed = "failed"

// Table is a titled table of preformatted cells, rendered for the terminal
// by [Table.RenderText] and as GitHub Markdown by [Table.RenderMarkdown].
//
// Rows shorter than Header are padded with empty cells; a row longer than
// Header is a programmer error and makes the renderers panic. Columns whose
// every non-empty body cell is numeric (or Dash, "failed", "NaN") are
// right-aligned, the others left-aligned.
//
// [Table.RenderText] keeps every line within [TextWidth] columns (unless
// Lines is set): it wraps
// the title, the caption and the notes; a table too wide prints the
// columns that hold one value in every row as one line above it ("In
// every row: c = 50; status = ok."), wraps its headers and text columns
// (down to [TextColumnMin]), and if still too wide is split into parts
// that each repeat the first Key columns.
type Table struct {
	Title   string
	Caption string // source and notes, printed under the table
	Header  []string
	Rows    [][]string
	// Notes are footnotes printed under the caption as "[n] text"; cells
	// refer to them by the marker [Table.Note] returns, so that a long
	// text (a path, an explanation) does not widen its column.
	Notes []string
	// Key is the number of leading columns that name a row (1 when 0):
	// every part of a table split for width repeats them.
	Key int
	// Lines keeps every row on one line of RenderText, whatever its
	// width: for a table read a row at a time (runexp compare's changes,
	// which nightly logs grep), not for tables.txt.
	Lines bool
	// Width, when positive, is the widest line RenderText may write in
	// place of TextWidth: a terminal narrower than that (runexp sets it
	// from the terminal it prints to), where a wider line would wrap
	// mid-cell.
	Width int
}

// RenderText writes t for a terminal: the title on its own line, the table
// in tablewriter's default box-drawing style without colours, then the
// caption and the notes, no line wider than [TextWidth] columns (see
// [Table]). A table split for width prints "(continued)" above each part
// after the first.
func (t *Table) RenderText(w io.Writer) error {
	var buf bytes.Buffer
	width := TextWidth
	if t.Width > 0 {
		width = t.Width
	}
	prose := width // the caption and notes wrap here even with Lines
	if t.Lines {
		width = math.MaxInt
	}
	if t.Title != "" {
		buf.WriteString(Wrap(t.Title, width))
		buf.WriteByte('\n')
	}
	al := t.alignments()
	right := make([]bool, len(al))
	for j, a := range al {
		right[j] = a == tw.AlignRight
	}
	header, body, parts, same := t.fit(width, t.paddedRows(nil), right)
	if len(t.Rows) == 0 && t.Caption != "" {
		// A box of column names around nothing says less than the
		// caption ("No changes.") does alone.
		parts = nil
	}
	if len(same) > 0 {
		buf.WriteString(hanging("In every row: ", strings.Join(same, "; ")+".", prose))
		buf.WriteByte('\n')
	}
	for i, p := range parts {
		if i > 0 {
			buf.WriteString("(continued)\n")
		}
		h := make([]string, len(p.cols))
		pal := make([]tw.Align, len(p.cols))
		for c, j := range p.cols {
			h[c], pal[c] = header[j], al[j]
		}
		rows := make([][]string, len(body))
		for r, row := range body {
			rows[r] = make([]string, len(p.cols))
			for c, j := range p.cols {
				rows[r][c] = row[j]
			}
		}
		tbl := newWriter(&buf, renderer.NewBlueprint(), pal)
		tbl.Header(toAny(h)...)
		if err := tbl.Bulk(rows); err != nil {
			return fmt.Errorf("report: table %q: %w", t.Title, err)
		}
		if err := tbl.Render(); err != nil {
			return fmt.Errorf("report: table %q: %w", t.Title, err)
		}
	}
	if t.Caption != "" {
		buf.WriteString(Wrap(t.Caption, prose))
		buf.WriteByte('\n')
	}
	for i, n := range t.Notes {
		buf.WriteString(hanging(noteMark(i)+" ", strings.ReplaceAll(n, "\n", " "), prose))
		buf.WriteByte('\n')
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// hanging wraps text to width after the lead, indenting the lines after
// the first by the lead's width.
func hanging(lead, text string, width int) string {
	ind := Width(lead)
	lines := strings.Split(Wrap(text, width-ind), "\n")
	for i := range lines {
		if i == 0 {
			lines[i] = lead + lines[i]
		} else {
			lines[i] = strings.Repeat(" ", ind) + lines[i]
		}
	}
	return strings.Join(lines, "\n")
}

// RenderMarkdown writes t as a GitHub-flavoured Markdown table using
// tablewriter's Markdown renderer, with "### Title" above, the caption as
// a paragraph below and each note as a paragraph "[n] text" after it. The
// table is not split or wrapped: a browser wraps its cells. Every text is
// shown as written, never read as markup (MarkdownLiteral, MarkdownInline:
// a title or a method's label comes from a config), and a cell's
// newlines become <br>.
func (t *Table) RenderMarkdown(w io.Writer) error {
	var buf bytes.Buffer
	if t.Title != "" {
		buf.WriteString("### ")
		buf.WriteString(MarkdownLiteral(t.Title))
		buf.WriteString("\n\n")
	}
	tbl := newWriter(&buf, renderer.NewMarkdown(), t.alignments())
	tbl.Header(toAny(mapStrings(t.Header, markdownEscape))...)
	if err := tbl.Bulk(t.paddedRows(markdownEscape)); err != nil {
		return fmt.Errorf("report: table %q: %w", t.Title, err)
	}
	if err := tbl.Render(); err != nil {
		return fmt.Errorf("report: table %q: %w", t.Title, err)
	}
	if t.Caption != "" {
		buf.WriteByte('\n')
		buf.WriteString(MarkdownParagraphs(t.Caption))
		buf.WriteByte('\n')
	}
	for i, n := range t.Notes {
		buf.WriteByte('\n')
		buf.WriteString(noteMark(i) + " " + MarkdownInline(n))
		buf.WriteByte('\n')
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// newWriter configures a tablewriter for byte-stable output: headers are
// not re-cased, cells are neither wrapped nor truncated, and East Asian
// width rules are off so the layout does not depend on the locale. (That
// rule is a process-wide tablewriter setting; runexp wants it off
// everywhere.)
func newWriter(w io.Writer, r tw.Renderer, al []tw.Align) *tablewriter.Table {
	return tablewriter.NewTable(w,
		tablewriter.WithRenderer(r),
		tablewriter.WithEastAsian(tw.Off),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAutoWrap(tw.WrapNone),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithHeaderAlignment(tw.AlignCenter),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: al}),
	)
}

// alignments right-aligns numeric columns and left-aligns the others.
func (t *Table) alignments() []tw.Align {
	n := len(t.Header)
	al := make([]tw.Align, n)
	for j := range n {
		numeric, seen := true, false
		for _, row := range t.Rows {
			if j >= len(row) || row[j] == "" {
				continue
			}
			seen = true
			if !isNumericCell(row[j]) {
				numeric = false
				break
			}
		}
		if numeric && seen {
			al[j] = tw.AlignRight
		} else {
			al[j] = tw.AlignLeft
		}
	}
	return al
}

// isNumericCell reports whether s reads as a number or a numeric
// placeholder.
func isNumericCell(s string) bool {
	switch s {
	case Dash, Failed, "NaN", "+Inf", "-Inf":
		return true
	}
	s = strings.TrimSuffix(strings.TrimSpace(s), "%")
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// paddedRows returns the rows padded to the header width, each cell passed
// through esc when esc is not nil.
func (t *Table) paddedRows(esc func(string) string) [][]string {
	rows := make([][]string, len(t.Rows))
	for i, r := range t.Rows {
		if len(r) > len(t.Header) {
			panic(fmt.Sprintf("report: table %q row %d has %d cells, header has %d", t.Title, i, len(r), len(t.Header)))
		}
		row := make([]string, len(t.Header))
		copy(row, r)
		if esc != nil {
			for j := range row {
				row[j] = esc(row[j])
			}
		}
		rows[i] = row
	}
	return rows
}

// markdownEscape writes a cell's text as Markdown that shows that text
// (MarkdownInline), its lines joined by <br>, the line break of a table
// cell.
func markdownEscape(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	return strings.Join(mapStrings(lines, MarkdownInline), "<br>")
}

// MarkdownText escapes the text of a name, title, caption or note for a
// Markdown file: "<" becomes "&lt;", so that no HTML tag (a <script>
// in a config's title or a method's label) reaches a Markdown viewer
// that renders HTML. Without "<" no tag can open; "&" and ">" stay as
// written ("Abrahamsen & Hansen", "0.49 > 2×0.38"), which every viewer
// shows as text. "<br>", the line break the Markdown writers put in a
// table cell, stays as it is: it is no injection, and escaping it when
// a table is quoted again (a report quotes tables.md) would print it.
//
// It is the one escape of every Markdown runexp writes (tables.md,
// scoreboard.md and REPRODUCIBILITY.md, each paper's REPORT.md), tested
// on each with reporttest.InjectionTitle and InjectionNotes.
func MarkdownText(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "<", "&lt;"), "&lt;br>", "<br>")
}

func mapStrings(s []string, f func(string) string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = f(v)
	}
	return out
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// WriteTables renders tables into dir/table.txt (RenderText) and
// dir/table.md (RenderMarkdown), separated by blank lines, atomically, and
// returns the two file names relative to dir.
func WriteTables(dir string, tables ...*Table) ([]string, error) {
	var txt, md bytes.Buffer
	for i, t := range tables {
		if i > 0 {
			txt.WriteByte('\n')
			md.WriteByte('\n')
		}
		if err := t.RenderText(&txt); err != nil {
			return nil, err
		}
		if err := t.RenderMarkdown(&md); err != nil {
			return nil, err
		}
	}
	if err := WriteFileAtomic(filepath.Join(dir, "table.txt"), txt.Bytes()); err != nil {
		return nil, err
	}
	if err := WriteFileAtomic(filepath.Join(dir, "table.md"), md.Bytes()); err != nil {
		return nil, err
	}
	return []string{"table.md", "table.txt"}, nil
}

// FormatFloat formats v with prec significant digits, like fmt's %.*g
// (strconv 'g' format; a negative prec means the shortest representation
// that round-trips). NaN is "NaN" and infinities are "+Inf" and "-Inf".
func FormatFloat(v float64, prec int) string {
	if math.IsNaN(v) {
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', prec, 64)
}

// FormatCompare formats one of our values beside the paper's, for a
// comparison table with columns ours, paper and ours − paper.
//
// Every number is formatted by [FormatFloat] with prec significant digits;
// the difference carries an explicit sign ("+0.002", "-0.1", "0"). A NaN of
// ours is shown as "failed": in a record a NaN metric means that the method
// failed on the cell. Without a paper value (hasPaper false, or paper NaN)
// the paper and difference cells are [Dash], as is the difference when ours
// failed.
func FormatCompare(ours, paper float64, hasPaper bool, prec int) (oursS, paperS, diffS string) {
	oursS = FormatFloat(ours, prec)
	if math.IsNaN(ours) {
		oursS = Failed
	}
	if !hasPaper || math.IsNaN(paper) {
		return oursS, Dash, Dash
	}
	paperS = FormatFloat(paper, prec)
	d := ours - paper
	if math.IsNaN(d) {
		return oursS, paperS, Dash
	}
	diffS = FormatFloat(d, prec)
	if d > 0 && !math.IsInf(d, 1) {
		diffS = "+" + diffS
	}
	return oursS, paperS, diffS
}
