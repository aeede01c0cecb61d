package paperreport

import (
	"html"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/runexp/runexp/internal/report"
)

// A report is a list of blocks, written once and rendered twice: as
// Markdown (REPORT.md) and as HTML (report.html).
type block struct {
	kind blockKind
	// fig is a figure block's image.
	fig    figBlock
	level  int      // heading level
	id     string   // a heading's own anchor ("" for one from its text)
	text   string   // heading or paragraph text (Markdown inline: `code`, **bold**, [links](appendix:ID))
	items  []string // list items
	header []string // table
	rows   [][]string
	// grid marks a table of tables.md (the paper's layout: read across,
	// scrolling on a narrow window); pin is the column that stays in view
	// as it scrolls, the paper's own method (report.OwnMethodColumn), -1
	// for none.
	grid bool
	pin  int
}

type blockKind int

const (
	heading blockKind = iota
	para
	list
	table
	figureBlock
	// foldOpen and foldClose bracket blocks a reader opens on demand
	// (<details>): long evidence, per-claim checks, notes.
	foldOpen
	foldClose
	// refList is the References: items with their keys (block.rows[i][0]
	// the key, [1] the entry as printed).
	refList
)

// figBlock is an embedded figure: its source relative to the report, its
// name, caption, smallest label height in its own pixels and size.
type figBlock struct {
	src, name, caption string
	textPx             float64
	w, h               int
}

// fig appends a figure.
func (d *doc) fig(src, name, caption string, textPx float64, w, h int) {
	d.blocks = append(d.blocks, block{kind: figureBlock, fig: figBlock{src, name, caption, textPx, w, h}})
}

type doc struct{ blocks []block }

// refs appends the References list: each entry's key and text.
func (d *doc) refs(entries [][]string) {
	d.blocks = append(d.blocks, block{kind: refList, rows: entries})
}

// fold appends the blocks fill writes inside a fold headed summary,
// which a reader opens on demand (<details> in both renderings).
func (d *doc) fold(summary string, fill func()) {
	d.blocks = append(d.blocks, block{kind: foldOpen, text: summary})
	fill()
	d.blocks = append(d.blocks, block{kind: foldClose})
}

func (d *doc) h(level int, text string) {
	d.blocks = append(d.blocks, block{kind: heading, level: level, text: text})
}

// hid appends a heading with its own anchor id, which links from the
// other page of the report name (appendixLink).
func (d *doc) hid(level int, text, id string) {
	d.blocks = append(d.blocks, block{kind: heading, level: level, text: text, id: id})
}

// The report's two pages: the article and its appendix (the long
// tables), each as Markdown and HTML, in the report's folder.
const (
	articleMD, articleHTML   = "REPORT.md", "report.html"
	appendixMD, appendixHTML = "APPENDIX.md", "appendix.html"
)

// pageLink matches a link to the report's other page in a block's text:
// [text](appendix:ID) or [text](article:ID).
var pageLink = regexp.MustCompile(`\[([^\]]+)\]\((appendix|article):([a-z0-9-]+)\)`)

// appendixLink is a link to the anchor id of the appendix, as block text.
func appendixLink(text, id string) string { return "[" + text + "](appendix:" + id + ")" }

// mdLinks renders the page links of Markdown text for REPORT.md and
// APPENDIX.md.
func mdLinks(s string) string {
	return pageLink.ReplaceAllStringFunc(s, func(m string) string {
		g := pageLink.FindStringSubmatch(m)
		file := articleMD
		if g[2] == "appendix" {
			file = appendixMD
		}
		return "[" + g[1] + "](" + file + "#" + g[3] + ")"
	})
}
func (d *doc) p(text string) { d.blocks = append(d.blocks, block{kind: para, text: text}) }
func (d *doc) ul(items []string) {
	if len(items) > 0 {
		d.blocks = append(d.blocks, block{kind: list, items: items})
	}
}
func (d *doc) table(header []string, rows [][]string) {
	d.blocks = append(d.blocks, block{kind: table, header: header, rows: rows, pin: -1})
}

// paperTable appends a table of tables.md titled title, in the paper's
// layout where the title says so.
func (d *doc) paperTable(title string, header []string, rows [][]string) {
	d.blocks = append(d.blocks, block{kind: table, header: header, rows: rows, grid: true, pin: report.OwnMethodColumn(title, header)})
}

// mdCell is a table cell as REPORT.md holds it (markdownOf): the
// project's pipes escaped, its line breaks <br>.
func mdCell(s string) string { return markdownOf(s, true) }

// mdText is a block's text as REPORT.md holds it (markdownOf): the
// project's markup live, its "<" escaped (report.MarkdownText) so that a
// value quoted into it opens no HTML tag in a viewer, and the words of a
// config or of the paper values shown as written.
func mdText(s string) string { return markdownOf(s, false) }

// markdown renders the document.
func (d *doc) markdown() string {
	var b strings.Builder
	for i, bl := range d.blocks {
		if i > 0 {
			b.WriteString("\n")
		}
		switch bl.kind {
		case heading:
			if bl.id != "" {
				b.WriteString(`<a id="` + bl.id + `"></a>` + "\n\n")
			}
			b.WriteString(strings.Repeat("#", bl.level) + " " + mdText(bl.text) + "\n")
		case para:
			b.WriteString(mdText(bl.text) + "\n")
		case list:
			for _, it := range bl.items {
				b.WriteString("- " + strings.ReplaceAll(mdText(it), "\n", "\n  ") + "\n")
			}
		case figureBlock:
			f := bl.fig
			b.WriteString("[![" + mdCell(f.name) + "](" + f.src + ")](" + f.src + ")\n\n*" + mdText(f.caption) + "*\n")
		case refList:
			for _, r := range bl.rows {
				b.WriteString("- [" + r[0] + "] " + mdText(r[1]) + "\n")
			}
		case foldOpen:
			b.WriteString("<details><summary>" + mdText(bl.text) + "</summary>\n")
		case foldClose:
			b.WriteString("</details>\n")
		case table:
			cells := func(cs []string) {
				b.WriteString("|")
				for _, c := range cs {
					b.WriteString(" " + mdCell(c) + " |")
				}
				b.WriteString("\n")
			}
			cells(bl.header)
			b.WriteString("|" + strings.Repeat(" --- |", len(bl.header)) + "\n")
			for _, r := range bl.rows {
				cells(r)
			}
		}
	}
	return b.String()
}

var (
	codeSpan   = regexp.MustCompile("`([^`]*)`")
	boldSpan   = regexp.MustCompile(`\*\*([^*]+)\*\*`)
	italicSpan = regexp.MustCompile(`(^|[^*\w])\*([^*\s][^*]*)\*([^*\w]|$)`)
)

// inlineMarkup renders the project's Markdown inline text as HTML:
// escaped, `code` as <code>, page links, **bold**, *italic*, and the <br>
// of tables.md's cells kept as line breaks.
func inlineMarkup(s string) string {
	// The text is Markdown, whose writers escape "<" as "&lt;" (one
	// escaping); decoding first keeps the page at one escaping too.
	s = html.EscapeString(html.UnescapeString(s))
	s = strings.ReplaceAll(s, "&lt;br&gt;", "<br />")
	s = codeSpan.ReplaceAllString(s, "<code>$1</code>")
	s = pageLink.ReplaceAllStringFunc(s, func(m string) string {
		g := pageLink.FindStringSubmatch(m)
		file := articleHTML
		if g[2] == "appendix" {
			file = appendixHTML
		}
		return `<a href="` + file + "#" + g[3] + `">` + g[1] + "</a>"
	})
	s = boldSpan.ReplaceAllString(s, "<b>$1</b>")
	return italicSpan.ReplaceAllString(s, "$1<i>$2</i>$3")
}

// slug is the id of a heading.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

// figureHTML renders a figure: the image linking to itself, its labels'
// height for internal/pagecheck, and, where its labels would shrink under
// 9 CSS pixels (report.FigureFit: at any width, or in windows narrower
// than a width), a note that it is a thumbnail to open, as the run pages
// have; then the caption.
func figureHTML(f figBlock) string {
	thumb, _ := report.FigureFit(f.w, f.textPx)
	class := report.FigureClass(f.w, f.textPx)
	var b strings.Builder
	b.WriteString("<figure")
	if class != "" {
		b.WriteString(` class="` + class + `"`)
	}
	b.WriteString(`><a href="` + html.EscapeString(f.src) + `"><img src="` + html.EscapeString(f.src) + `" alt="` + html.EscapeString(plain(f.name)) + `" loading="lazy"`)
	if f.textPx > 0 {
		b.WriteString(` data-text-px="` + strconv.FormatFloat(f.textPx, 'f', 1, 64) + `"`)
	}
	if thumb {
		b.WriteString(` class="thumb"`)
	}
	b.WriteString(" /></a>\n<figcaption>")
	if class != "" {
		b.WriteString(`<span class="thumb-note"><b>A thumbnail</b> of a ` + strconv.Itoa(f.w) + "×" + strconv.Itoa(f.h) + ` px figure whose labels are too small to read at this width: open it (<a href="` + html.EscapeString(f.src) + `">PNG</a>) to read them.</span>`)
	}
	b.WriteString(inline(f.caption) + ` <span class="muted">` + html.EscapeString(plain(f.name)) + "</span></figcaption></figure>\n")
	return b.String()
}

// pageCSS is the report page's style on top of report.PageCSS.
const pageCSS = `.muted { color: #555; }
h1 { font-size: 1.5em; } nav { font-size: 0.95em; }
details { margin: 0.6em 0; } summary { cursor: pointer; color: #1a4d80; }
details[open] > summary { margin-bottom: 0.4em; }
ul.refs { padding-left: 1.2em; } ul.refs li { margin: 0.3em 0; }
`

// outcomeClass colours a verdict, an outcome or a headline of a report's
// table as every page does (report.PageCSS): reproduced or PASS green, not
// reproduced or FAIL red, inconclusive or undecided amber, not run grey;
// "" for any other cell.
func outcomeClass(c string) string {
	switch {
	case strings.HasPrefix(c, "[Re]"), c == "PASS", strings.HasPrefix(c, "reproduced"), strings.HasPrefix(c, "as stated"), strings.HasPrefix(c, "other reading"):
		return "pass"
	case strings.HasPrefix(c, "[¬Re]"), c == "FAIL", strings.HasPrefix(c, "not reproduced"), strings.HasPrefix(c, "post-hoc only"):
		return "fail"
	case strings.HasPrefix(c, "[Re?]"), c == "INCONCLUSIVE", strings.HasPrefix(c, "inconclusive"):
		return "inc"
	case strings.HasPrefix(c, "[not run]"), c == "NOT-EVALUATED", strings.HasPrefix(c, "not run"), strings.HasPrefix(c, "not evaluated"), strings.HasPrefix(c, "not testable"):
		return "ne"
	}
	return ""
}

// keyColumns name the verdict column of a table of records, shown first
// after the record's name on a phone (report.PageCSS's stack).
var keyColumns = []string{"outcome", "verdict", "headline"}

// tableHTML renders a table: a grid of numbers, or one in the paper's
// layout, scrolls in its own box on a narrow window (its first column
// and, in the paper's layout, its last sticky); any other, a list of
// records, is laid out a record a block there (class stack), each cell
// named by its column (data-label) and the verdict beside the name.
func tableHTML(bl block) string {
	stack := !bl.grid && !numericGrid(bl.rows)
	var b strings.Builder
	b.WriteString("<table")
	if stack {
		b.WriteString(` class="stack"`)
	}
	b.WriteString(">\n<thead><tr>")
	for j, c := range bl.header {
		if j == bl.pin {
			b.WriteString(`<th class="pin">` + inline(c) + "</th>")
			continue
		}
		b.WriteString("<th>" + inline(c) + "</th>")
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for _, r := range bl.rows {
		b.WriteString("<tr>")
		for j, c := range r {
			var cls []string
			if o := outcomeClass(c); o != "" {
				cls = append(cls, o)
			}
			var label string
			if j < len(bl.header) {
				label = bl.header[j]
			}
			switch {
			case j == bl.pin && len(r) == len(bl.header):
				cls = append(cls, "pin")
			case stack && slices.Contains(keyColumns, label):
				cls = append(cls, "key")
			}
			b.WriteString("<td")
			if len(cls) > 0 {
				b.WriteString(` class="` + strings.Join(cls, " ") + `"`)
			}
			if stack && j > 0 && label != "" {
				b.WriteString(` data-label="` + html.EscapeString(report.MarkdownUnescape(plain(label))) + `"`)
			}
			b.WriteString(">" + strings.ReplaceAll(inline(c), "\n", "<br />") + "</td>")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table>\n")
	return b.String()
}

// numericGrid reports whether every cell of rows but the first of each
// is a number or empty: a table read across, not a list of records.
func numericGrid(rows [][]string) bool {
	for _, r := range rows {
		for _, c := range r[min(1, len(r)):] {
			c = strings.TrimSpace(c)
			if c == "" || c == report.Dash {
				continue
			}
			if _, err := strconv.ParseFloat(c, 64); err != nil {
				return false
			}
		}
	}
	return true
}

// citation finds a citation of the Markdown, [@key] or [@a; @b].
var citation = regexp.MustCompile(`\[(@[A-Za-z0-9_-]+(?:; @[A-Za-z0-9_-]+)*)\]`)

// citeHTML renders the citations of an HTML text as links to their
// entries in the References (id ref-KEY), each by its label in running
// text ("Mika et al. 1999").
func citeHTML(s string, labels map[string]string) string {
	return citation.ReplaceAllStringFunc(s, func(m string) string {
		var parts []string
		for _, k := range strings.Split(m[1:len(m)-1], "; ") {
			k = strings.TrimPrefix(k, "@")
			l := labels[k]
			if l == "" {
				l = k
			}
			parts = append(parts, `<a href="#ref-`+k+`">`+html.EscapeString(l)+`</a>`)
		}
		return "[" + strings.Join(parts, "; ") + "]"
	})
}

// html renders the document as a page titled title, with a table of
// contents of its second-level headings; labels are the cited entries'
// labels in running text, by key.
func (d *doc) html(title, baseCSS string, labels map[string]string) string {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\" />\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\" />\n<title>" + html.EscapeString(title) + "</title>\n<style>\n" + baseCSS + pageCSS + "</style>\n</head>\n<body>\n")
	var toc []string
	ids := map[string]int{}
	id := func(text string) string {
		s := slug(text)
		ids[s]++
		if n := ids[s]; n > 1 {
			s += "-" + strings.Repeat("x", n-1)
		}
		return s
	}
	var body strings.Builder
	for _, bl := range d.blocks {
		switch bl.kind {
		case heading:
			hid := bl.id
			if hid == "" {
				hid = id(bl.text)
			}
			if bl.level == 2 {
				toc = append(toc, `<a href="#`+hid+`">`+inline(bl.text)+`</a>`)
			}
			lv := string(rune('0' + bl.level))
			body.WriteString("<h" + lv + ` id="` + hid + `">` + inline(bl.text) + "</h" + lv + ">\n")
		case para:
			body.WriteString("<p>" + inline(bl.text) + "</p>\n")
		case list:
			body.WriteString("<ul>\n")
			for _, it := range bl.items {
				body.WriteString("<li>" + strings.ReplaceAll(inline(it), "\n", "<br />") + "</li>\n")
			}
			body.WriteString("</ul>\n")
		case figureBlock:
			body.WriteString(figureHTML(bl.fig))
		case table:
			body.WriteString(tableHTML(bl))
		case refList:
			body.WriteString("<ul class=\"refs\">\n")
			for _, r := range bl.rows {
				body.WriteString(`<li id="ref-` + html.EscapeString(r[0]) + `"><b>[` + html.EscapeString(r[0]) + "]</b> " + inline(r[1]) + "</li>\n")
			}
			body.WriteString("</ul>\n")
		case foldOpen:
			body.WriteString("<details><summary>" + inline(bl.text) + "</summary>\n")
		case foldClose:
			body.WriteString("</details>\n")
		}
	}
	out := citeHTML(body.String(), labels)
	// The table of contents follows the title (the first block).
	if i := strings.Index(out, "</h1>\n"); i >= 0 && len(toc) > 0 {
		out = out[:i+6] + "<nav>Sections: " + strings.Join(toc, " · ") + "</nav>\n" + out[i+6:]
	}
	b.WriteString(out)
	b.WriteString("</body>\n</html>\n")
	return b.String()
}
