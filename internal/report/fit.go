package report

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// TextWidth is the widest line, in columns, that [Table.RenderText]
// writes by default: a terminal of 120 columns shows runexp's own output
// without wrapping (tables.txt is written narrower: FileWidth).
const TextWidth = 120

// TextColumnMin is the narrowest [Table.RenderText] wraps a text column
// (one not right-aligned as numeric) to, to make a table fit [TextWidth]
// before it splits the table: a statement or a reason reads well as a
// few lines of this width, a number or an interval is never broken.
const TextColumnMin = 32

// minWrap is the narrowest a column is wrapped to when a table must shrink
// to fit TextWidth.
const minWrap = 8

// Width returns the number of terminal columns s takes: its rune count, as
// runexp's tables hold no wide (East Asian) or zero-width runes and
// tablewriter measures them with East Asian rules off. For a multi-line
// s, the width of its widest line.
func Width(s string) int {
	w := 0
	for _, l := range strings.Split(s, "\n") {
		w = max(w, utf8.RuneCountInString(l))
	}
	return w
}

// Wrap breaks s into lines of at most width columns, at spaces where it
// can and after a comma or inside a word where a word is longer than
// width. Existing line breaks are kept; runs of spaces at a break are
// dropped.
func Wrap(s string, width int) string {
	width = max(width, 1)
	var out []string
	for _, para := range strings.Split(s, "\n") {
		out = append(out, wrapLine(para, width)...)
	}
	return strings.Join(out, "\n")
}

func wrapLine(s string, width int) []string {
	if utf8.RuneCountInString(s) <= width {
		return []string{s}
	}
	var lines []string
	var cur []rune
	flush := func() {
		lines = append(lines, strings.TrimRight(string(cur), " "))
		cur = cur[:0]
	}
	for _, word := range strings.Fields(s) {
		w := []rune(word)
		switch {
		case len(cur) == 0:
		case len(cur)+1+len(w) <= width:
			cur = append(cur, ' ')
		default:
			flush()
		}
		// A word longer than the line breaks after its last comma that
		// fits, else at the width.
		for len(cur)+len(w) > width {
			room := width - len(cur)
			cut := room
			for i := room - 1; i > 0; i-- {
				if w[i-1] == ',' || w[i-1] == '/' {
					cut = i
					break
				}
			}
			if room < minWrap && len(cur) > 0 {
				flush()
				continue
			}
			cur = append(cur, w[:cut]...)
			w = w[cut:]
			flush()
		}
		cur = append(cur, w...)
	}
	if len(cur) > 0 {
		flush()
	}
	return lines
}

// Note returns the marker "[n]" of the footnote text among t's Notes,
// appending text when it is not there yet, so that cells with the same
// long text share one footnote.
func (t *Table) Note(text string) string {
	for i, n := range t.Notes {
		if n == text {
			return noteMark(i)
		}
	}
	t.Notes = append(t.Notes, text)
	return noteMark(len(t.Notes) - 1)
}

func noteMark(i int) string { return fmt.Sprintf("[%d]", i+1) }

// keyColumns is the number of leading columns a part of a split table
// repeats.
func (t *Table) keyColumns() int {
	return min(max(t.Key, 1), len(t.Header))
}

// part is the columns of a table that one box of RenderText shows.
type part struct {
	cols []int
}

// fit returns the rows of t and its columns in parts that each fit
// width. A table that does not fit first wraps its headers wider than
// their cells (as little as it can), then its text columns, widest first,
// down to TextColumnMin. One still too wide with two or more rows starts
// again from its cells as given without the columns after the key that
// hold one value in every row, returned in same as "header = value" (""
// values dropped), and wraps as before. One still too wide is split into
// parts of the key columns followed by as many of the others as fit, and
// a column that does not fit even alone (or a key too wide) is wrapped to
// the room left.
func (t *Table) fit(width int, rows [][]string, al []bool) (header []string, body [][]string, parts []part, same []string) {
	f := &fitter{width: width, al: al, key: t.keyColumns()}
	f.reset(t.Header, rows)
	all := make([]int, len(f.header))
	for j := range all {
		all[j] = j
	}
	if f.fits(all) {
		return f.header, f.body, []part{{cols: all}}, nil
	}
	f.shrink(all)
	if f.fits(all) {
		return f.header, f.body, []part{{cols: all}}, nil
	}
	// Start again from the cells as given, without the columns that hold
	// one value in every row.
	if len(rows) >= 2 {
		f.reset(t.Header, rows)
		all, same = f.dropConstant(t.keyColumns())
		f.shrink(all)
		if f.fits(all) {
			return f.header, f.body, []part{{cols: all}}, same
		}
	}
	k := t.keyColumns()
	key := make([]int, k)
	for j := range key {
		key[j] = j
	}
	f.shrinkKey(key, all[k:])
	return f.header, f.body, balance(f.split(key, all[k:]), key, all[k:], width, f.boxWidth), same
}

// fitter is a table's header and body as fit wraps them to width; al
// marks the right-aligned (numeric) columns, which are never wrapped to
// make room; the first key columns name the rows.
type fitter struct {
	width  int
	al     []bool
	key    int
	header []string
	body   [][]string
}

// reset makes the header and body copies of header and rows.
func (f *fitter) reset(header []string, rows [][]string) {
	f.header = append(f.header[:0], header...)
	if f.body == nil {
		f.body = make([][]string, len(rows))
	}
	for i, r := range rows {
		f.body[i] = append(f.body[i][:0], r...)
	}
}

func (f *fitter) colWidth(j int) int {
	w := Width(f.header[j])
	for _, r := range f.body {
		w = max(w, Width(r[j]))
	}
	return w
}

func (f *fitter) wrapCol(j, w int) {
	f.header[j] = Wrap(f.header[j], w)
	for _, r := range f.body {
		r[j] = Wrap(r[j], w)
	}
}

// boxWidth is the width of a box of columns cols: 1 + Σ (w + 3), a left
// border, then per column a space, the cell, a space and a border.
func (f *fitter) boxWidth(cols []int) int {
	w := 1
	for _, j := range cols {
		w += f.colWidth(j) + 3
	}
	return w
}

func (f *fitter) fits(cols []int) bool { return f.boxWidth(cols) <= f.width }

// shrink wraps the headers of cols wider than their cells, the widest
// surplus first and only as far as needed, then the text columns, widest
// first, down to TextColumnMin.
func (f *fitter) shrink(cols []int) {
	for !f.fits(cols) {
		best, surplus, target := -1, 0, 0
		for _, j := range cols {
			cells, longest := 0, 0
			for _, r := range f.body {
				cells = max(cells, Width(r[j]))
			}
			for _, word := range strings.Fields(f.header[j]) {
				longest = max(longest, Width(word))
			}
			floor := max(cells, longest)
			if sp := Width(f.header[j]) - floor; sp > surplus {
				best, surplus, target = j, sp, max(floor, Width(f.header[j])-(f.boxWidth(cols)-f.width))
			}
		}
		if best < 0 {
			break
		}
		f.header[best] = Wrap(f.header[best], target)
	}
	// A row's name (a key column) is wrapped only between its words: a
	// config or method name broken mid-word reads as two rows. Dropping
	// the constant columns or splitting the table comes first.
	floor := make([]int, len(f.header))
	for _, j := range cols {
		floor[j] = TextColumnMin
		if j < f.key {
			for _, r := range f.body {
				for _, word := range strings.Fields(r[j]) {
					floor[j] = max(floor[j], Width(word))
				}
			}
		}
	}
	for !f.fits(cols) {
		widest := -1
		for _, j := range cols {
			if !f.al[j] && f.colWidth(j) > floor[j] && (widest < 0 || f.colWidth(j) > f.colWidth(widest)) {
				widest = j
			}
		}
		if widest < 0 {
			break
		}
		f.wrapCol(widest, max(floor[widest], f.colWidth(widest)-(f.boxWidth(cols)-f.width)))
	}
}

// dropConstant returns the columns that do not hold one value in every
// row (the first k always stay), and the others as "header = value", ""
// values dropped.
func (f *fitter) dropConstant(k int) (kept []int, same []string) {
	for j := range f.header {
		constant := j >= k
		for _, r := range f.body[1:] {
			constant = constant && r[j] == f.body[0][j]
		}
		switch {
		case !constant:
			kept = append(kept, j)
		case f.body[0][j] != "":
			same = append(same, f.header[j]+" = "+f.body[0][j])
		}
	}
	return kept, same
}

// shrinkKey wraps the key columns, widest first, until the key leaves
// room beside it for the widest numeric column of rest (which is never
// wrapped: a number or an interval must not be broken) or, without one, a
// column of minWrap; no key column is wrapped below minWrap.
func (f *fitter) shrinkKey(key, rest []int) {
	room := minWrap
	for _, j := range rest {
		if f.al[j] {
			room = max(room, f.colWidth(j))
		}
	}
	room = min(room, f.width-1-len(key)*(minWrap+3)-3)
	for f.boxWidth(key) > f.width-room-3 {
		widest := key[0]
		for _, j := range key {
			if f.colWidth(j) > f.colWidth(widest) {
				widest = j
			}
		}
		over := f.boxWidth(key) - (f.width - room - 3)
		w := f.colWidth(widest)
		if w <= minWrap {
			break
		}
		f.wrapCol(widest, max(minWrap, w-over))
	}
}

// split puts the key and as many of the other columns rest as fit in each
// part, wrapping a column that does not fit even alone to the room left.
func (f *fitter) split(key, rest []int) []part {
	var parts []part
	k := len(key)
	cur := append([]int(nil), key...)
	for _, j := range rest {
		if len(cur) > k && f.boxWidth(append(cur, j)) > f.width {
			parts = append(parts, part{cols: cur})
			cur = append([]int(nil), key...)
		}
		cur = append(cur, j)
		if over := f.boxWidth(cur) - f.width; over > 0 {
			f.wrapCol(j, max(minWrap, f.colWidth(j)-over))
		}
	}
	if len(cur) > k || len(parts) == 0 {
		parts = append(parts, part{cols: cur})
	}
	return parts
}

// balance spreads the non-key columns over the same number of parts as
// evenly as their count allows, when every part still fits width: a table
// of six columns split 4 + 2 reads better as 3 + 3.
func balance(parts []part, key, rest []int, width int, boxWidth func([]int) int) []part {
	p := len(parts)
	if p < 2 || len(rest) < p {
		return parts
	}
	out := make([]part, p)
	next := 0
	for i := range out {
		size := len(rest) / p
		if i < len(rest)%p {
			size++
		}
		cols := append(append([]int(nil), key...), rest[next:next+size]...)
		next += size
		if boxWidth(cols) > width {
			return parts
		}
		out[i] = part{cols: cols}
	}
	return out
}

// NaturalWidth returns the width of t's widest line as RenderText would
// draw it in one box, before any wrapping or splitting: a caller can
// choose a narrower layout for a table that would not fit TextWidth.
func (t *Table) NaturalWidth() int {
	w := 1
	for j, h := range t.Header {
		cw := Width(h)
		for _, r := range t.Rows {
			if j < len(r) {
				cw = max(cw, Width(r[j]))
			}
		}
		w += cw + 3
	}
	return w
}
