package report

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// PageCSS is the style every runexp page opens its own with (run pages,
// the results index, the scoreboard, the paper reports): the text column
// of at most 80em, the headings, tables whose cells wrap, figures, and
// what a phone's window (under 600 px; internal/pagecheck checks every
// page at 1280 and 390 px) needs:
//
//   - A grid (a table of numbers: the paper's layout, the cross-paper
//     matrix) is its own box: one wider than the window scrolls sideways
//     inside it, never the page, with its first column (the row's name)
//     sticky, and the column marked pin (the paper's own method, its last
//     column in the paper's layout) sticky at the right edge, so that the
//     row and the number it is read for stay in view while the others
//     scroll between them.
//   - A table that scrolls shows it: a shadow at each edge beyond which
//     columns are hidden (the scroll shadows of the table's background,
//     kept as the box scrolls, and inside the sticky columns' inner edges
//     where the browser answers scroll-state queries: inset, as a
//     collapsed border's cell paints no outer shadow).
//   - A list of records (claims with their verdicts, runs, papers; class
//     stack) is laid out one record a block on a phone: its first cell and
//     the cell marked key (the verdict) on the first line, each other cell
//     under them with its column's name (data-label), numbers side by
//     side; nothing of it needs scrolling.
//   - A figure shown so small that its labels fall under 9 CSS pixels says
//     it is a thumbnail and links its full image (FigureFit): the note
//     shows below the window width its FigureClass names.
//
// Verdicts are coloured alike on every page: pass green; fail and known
// (a FAIL the config expects: still a failure of the paper's claim) red;
// unexpected (a verdict other than the config expects: the run changed)
// white on dark red; inc (inconclusive) amber; ne (not evaluated, not
// run) grey. The sticky cells are set with :where, of no weight, so that
// a verdict's colour class still wins.
var PageCSS = pageCSS + figureNoteCSS()

const pageCSS = `body { font-family: system-ui, sans-serif; color: #222; margin: 1.5em auto; max-width: 80em; padding: 0 1em; line-height: 1.4; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.8em; } h3 { font-size: 1em; margin-top: 1.5em; }
table { border-collapse: collapse; margin: 0.5em 0; font-size: 0.9em; max-width: 100%; display: block; overflow-x: auto; container-type: scroll-state;
  background: linear-gradient(to right, #fff 30%, rgba(255,255,255,0)) 0 0 / 40px 100% no-repeat local,
    linear-gradient(to left, #fff 30%, rgba(255,255,255,0)) 100% 0 / 40px 100% no-repeat local,
    radial-gradient(farthest-side at 0 50%, rgba(0,0,0,.3), rgba(0,0,0,0)) 0 0 / 14px 100% no-repeat scroll,
    radial-gradient(farthest-side at 100% 50%, rgba(0,0,0,.3), rgba(0,0,0,0)) 100% 0 / 14px 100% no-repeat scroll; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; vertical-align: top; text-align: left; overflow-wrap: break-word; }
th { background: rgba(0,0,0,.05); }
:where(th, td):first-child { position: sticky; left: 0; background: #fff; }
:where(th, td).pin { position: sticky; right: 0; background: #fff; }
th:first-child, th.pin { background: #f2f2f2; }
@container scroll-state(scrollable: left) { :where(th, td):first-child { box-shadow: inset -1px 0 #ccc, inset -8px 0 6px -5px rgba(0,0,0,.4); } }
@container scroll-state(scrollable: right) { :where(th, td).pin { box-shadow: inset 1px 0 #ccc, inset 8px 0 6px -5px rgba(0,0,0,.4); } }
.pass { background: #dcf3dc; color: #14561b; }
.fail, .known { background: #f9d6d6; color: #8a1212; }
.fail { font-weight: bold; }
.unexpected { background: #8a1212; color: #fff; font-weight: bold; }
.unexpected a { color: #fff; }
.inc { background: #fff0c2; color: #6b4e00; }
.ne { background: #ececec; color: #555; }
pre, code { overflow-wrap: anywhere; }
p, li, dd, figcaption { overflow-wrap: break-word; }
pre { white-space: pre-wrap; }
figure { margin: 1em 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #ddd; }
figure img.thumb { max-width: min(100%, 32em); }
figcaption { font-size: 0.9em; color: #333; max-width: 60em; }
.thumb-note { display: none; }
figure.thumb .thumb-note { display: block; }
@media (max-width: 600px) {
  body { margin: 0.8em auto; padding: 0 0.6em; }
  td, th { min-width: 4.5em; }
  table.stack { overflow-x: visible; background: none; }
  table.stack thead { display: none; }
  table.stack tbody { display: block; }
  table.stack tr { display: flex; flex-wrap: wrap; align-items: baseline; border: 1px solid #ccc; margin: 0 0 0.5em; }
  table.stack td { display: block; order: 2; flex: 1 1 100%; min-width: 0; border: 0; position: static; box-shadow: none; white-space: normal; }
  table.stack td:first-child { order: 0; flex: 1 1 0; overflow-wrap: anywhere; }
  table.stack td.key { order: 1; flex: 0 0 auto; max-width: 50%; }
  table.stack tr::after { content: ""; order: 1; flex: 1 1 100%; }
  table.stack td.r, table.stack td.chip { flex: 0 1 auto; max-width: 100%; text-align: left; margin-right: 0.6em; }
  table.stack td[data-label]::before { content: attr(data-label) ": "; font-weight: 600; color: #444; }
  table.stack td:first-child::before { content: none; }
  table.stack td:empty { display: none; }
}
`

// The page's column is at most 80em (1280 CSS pixels) wide less its
// padding: 1em each side above a phone's width, 0.6em on a phone; an
// image's border takes a pixel each side. figurePad is the larger, so
// that a note is shown wherever the labels might be under the minimum.
const (
	columnPx   = 80*16 - 2*16
	figurePad  = 2*16 + 2
	minLabelPx = 9
	// noteStep is the step of the window widths below which a
	// figure's thumbnail note shows (one rule of PageCSS each).
	noteStep = 40
)

// FigureFit says how a PNG w pixels wide whose smallest label is textPx of
// its own pixels tall reads on a page whose images shrink to the column.
// thumb: its labels are under 9 CSS pixels even at the widest column
// (1248 px) or at its own size; it is shown as a thumbnail that says so at
// any width. Otherwise below is the window width, a multiple of 40 px, at
// and under which its labels may fall under 9 pixels and its note says it
// is a thumbnail (0 when the labels read at any width: the image is not
// shrunk below its labels' size, or it has none).
func FigureFit(w int, textPx float64) (thumb bool, below int) {
	if w <= 0 || textPx <= 0 {
		return false, 0
	}
	if textPx < minLabelPx {
		return true, 0
	}
	need := minLabelPx * float64(w) / textPx // the narrowest it may be shown
	if need > columnPx {
		return true, 0
	}
	t := int(math.Ceil((need + figurePad) / noteStep))
	return false, t * noteStep
}

// FigureClass is the class of a figure's <figure> element: "thumb" for a
// thumbnail, "tn-N" when its note shows in windows of N pixels and
// narrower (FigureFit), "" otherwise.
func FigureClass(w int, textPx float64) string {
	thumb, below := FigureFit(w, textPx)
	switch {
	case thumb:
		return "thumb"
	case below > 0:
		return fmt.Sprintf("tn-%d", below)
	}
	return ""
}

// figureNoteCSS shows each figure's thumbnail note below its width: one
// rule per step up to the widest column.
func figureNoteCSS() string {
	var b strings.Builder
	for w := noteStep; w <= columnPx+figurePad+noteStep; w += noteStep {
		fmt.Fprintf(&b, "@media (max-width: %dpx) { figure.tn-%d .thumb-note { display: block; } }\n", w, w)
	}
	return b.String()
}

// fitFigure sets a run page's figure's class and thumbnail mark from its
// size and labels (FigureFit).
func fitFigure(f *htmlFigure) {
	px, err := strconv.ParseFloat(f.TextPx, 64)
	if err != nil {
		return
	}
	f.Thumb, _ = FigureFit(f.W, px)
	f.Class = FigureClass(f.W, px)
}

// paperLayout and paperIntervals end the titles of the tables in the
// paper's layout, ours beside the paper's values and their intervals
// (internal/tables).
const (
	paperLayout    = ": runexp (paper)"
	paperIntervals = ": 95% intervals of runexp's values"
)

// noteMarks are the footnote markers after a header ("0.06 [3][4]").
var noteMarks = regexp.MustCompile(`(\s*\[\d+\])+$`)

// pinOwnMethod marks the paper's own method's column of a run page's
// table to stay in view as it scrolls when the table is in the paper's
// layout with methods as columns (OwnMethodColumn).
func pinOwnMethod(h *htmlTable, title string) {
	hs := make([]string, len(h.Header))
	for i, c := range h.Header {
		hs[i] = strings.Join(c.Lines, " ")
	}
	j := OwnMethodColumn(title, hs)
	if j < 0 {
		return
	}
	pin := func(c *htmlCell) { c.Class = strings.TrimSpace(c.Class + " pin") }
	pin(&h.Header[j])
	for _, r := range h.Rows {
		if len(r) == len(hs) {
			pin(&r[j])
		}
	}
}

// The marks of a column (or row) of a table in the paper's layout that is
// not one of the paper's: a method added on the command line (--with),
// and one of the config's own that the paper's table has no place for.
const (
	AddedMark  = " (added, not the paper's)"
	BeyondMark = " (ours, not in the paper)"
)

// PinsOwnMethod reports whether a table of tables.md titled title with
// header keeps a column in view as it scrolls (OwnMethodColumn).
func PinsOwnMethod(title string, header []string) bool { return OwnMethodColumn(title, header) >= 0 }

// OwnMethodColumn is the column of a table of tables.md titled title
// with header that stays in view as the table scrolls (class pin): where
// the table is in the paper's layout (ours beside the paper's values, or
// their intervals) with methods as its columns (its last header is not a
// number, as a parameter's value would be), the paper's own method,
// which the papers print last: the last column that is the paper's, not
// one of ours appended after it (AddedMark, BeyondMark). -1 for a table
// whose columns are parameters: its methods are in its rows, in the
// first column, sticky already.
func OwnMethodColumn(title string, header []string) int {
	n := len(header)
	if n < 3 || !(strings.HasSuffix(title, paperLayout) || strings.HasSuffix(title, paperIntervals)) {
		return -1
	}
	if isNumericCell(noteMarks.ReplaceAllString(header[n-1], "")) {
		return -1
	}
	for j := n - 1; j > 0; j-- {
		h := noteMarks.ReplaceAllString(header[j], "")
		if !strings.HasSuffix(h, AddedMark) && !strings.HasSuffix(h, BeyondMark) {
			if j < 2 {
				return -1
			}
			return j
		}
	}
	return -1
}
