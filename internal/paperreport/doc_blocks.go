package paperreport

import (
	"html"
	"regexp"
	"strings"

	"github.com/runexp/runexp/internal/report"
)

// A report is a list of blocks, written once and rendered twice: as
// Markdown (REPORT.md) and as HTML (report.html).
type block struct {
	kind   blockKind
	level  int      // heading level
	text   string   // heading or paragraph text (Markdown inline: `code` only)
	items  []string // list items
	header []string // table
	rows   [][]string
}

type blockKind int

const (
	heading blockKind = iota
	para
	list
	table
)

type doc struct{ blocks []block }

func (d *doc) h(level int, text string) {
	d.blocks = append(d.blocks, block{kind: heading, level: level, text: text})
}
func (d *doc) p(text string) { d.blocks = append(d.blocks, block{kind: para, text: text}) }
func (d *doc) ul(items []string) {
	if len(items) > 0 {
		d.blocks = append(d.blocks, block{kind: list, items: items})
	}
}
func (d *doc) table(header []string, rows [][]string) {
	d.blocks = append(d.blocks, block{kind: table, header: header, rows: rows})
}

// mdCell escapes a table cell for Markdown: its pipes, its line breaks
// and, as in every block (mdText), its HTML.
func mdCell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return mdText(strings.ReplaceAll(s, "\n", "<br>"))
}

// mdText is a block's text as REPORT.md holds it: escaped by
// report.MarkdownText, the one escape of every Markdown runexp writes, so
// that a title, label, claim id, evidence or manifest value quoted into
// the report opens no HTML tag in a viewer. The blocks hold plain text
// with `code` spans only, so nothing the report means as markup is lost.
func mdText(s string) string { return report.MarkdownText(s) }

// markdown renders the document.
func (d *doc) markdown() string {
	var b strings.Builder
	for i, bl := range d.blocks {
		if i > 0 {
			b.WriteString("\n")
		}
		switch bl.kind {
		case heading:
			b.WriteString(strings.Repeat("#", bl.level) + " " + mdText(bl.text) + "\n")
		case para:
			b.WriteString(mdText(bl.text) + "\n")
		case list:
			for _, it := range bl.items {
				b.WriteString("- " + strings.ReplaceAll(mdText(it), "\n", "\n  ") + "\n")
			}
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

var codeSpan = regexp.MustCompile("`([^`]*)`")

// inline renders Markdown inline text as HTML: escaped, `code` as <code>,
// and the <br> of tables.md's cells kept as line breaks.
func inline(s string) string {
	s = html.EscapeString(s)
	s = strings.ReplaceAll(s, "&lt;br&gt;", "<br />")
	return codeSpan.ReplaceAllString(s, "<code>$1</code>")
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

// pageCSS is the report page's style on top of report.PageCSS.
const pageCSS = `.muted { color: #555; } td.re { background: #dcf3dc; } td.nre { background: #f9d6d6; }
h1 { font-size: 1.5em; } nav { font-size: 0.95em; }
`

// html renders the document as a page titled title, with a table of
// contents of its second-level headings.
func (d *doc) html(title, baseCSS string) string {
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
			hid := id(bl.text)
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
		case table:
			body.WriteString("<table>\n<thead><tr>")
			for _, c := range bl.header {
				body.WriteString("<th>" + inline(c) + "</th>")
			}
			body.WriteString("</tr></thead>\n<tbody>\n")
			for _, r := range bl.rows {
				body.WriteString("<tr>")
				for _, c := range r {
					cls := ""
					switch {
					case strings.HasPrefix(c, "[Re]") || c == "reproduced" || c == "PASS":
						cls = ` class="re"`
					case strings.HasPrefix(c, "[¬Re]") || c == "not reproduced" || c == "FAIL":
						cls = ` class="nre"`
					}
					body.WriteString("<td" + cls + ">" + strings.ReplaceAll(inline(c), "\n", "<br />") + "</td>")
				}
				body.WriteString("</tr>\n")
			}
			body.WriteString("</tbody>\n</table>\n")
		}
	}
	out := body.String()
	// The table of contents follows the title (the first block).
	if i := strings.Index(out, "</h1>\n"); i >= 0 && len(toc) > 0 {
		out = out[:i+6] + "<nav>Sections: " + strings.Join(toc, " · ") + "</nav>\n" + out[i+6:]
	}
	b.WriteString(out)
	b.WriteString("</body>\n</html>\n")
	return b.String()
}
