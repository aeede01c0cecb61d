package paperreport

import (
	"html"
	"regexp"
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
	figureBlock
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
		case figureBlock:
			f := bl.fig
			b.WriteString("[![" + mdCell(f.name) + "](" + f.src + ")](" + f.src + ")\n\n*" + mdText(f.caption) + "*\n")
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
	codeSpan = regexp.MustCompile("`([^`]*)`")
	boldSpan = regexp.MustCompile(`\*\*([^*]+)\*\*`)
)

// inline renders Markdown inline text as HTML: escaped, `code` as <code>,
// and the <br> of tables.md's cells kept as line breaks.
func inline(s string) string {
	// The text is Markdown, whose writers escape "<" as "&lt;" (one
	// escaping); decoding first keeps the page at one escaping too.
	s = html.EscapeString(html.UnescapeString(s))
	s = strings.ReplaceAll(s, "&lt;br&gt;", "<br />")
	s = codeSpan.ReplaceAllString(s, "<code>$1</code>")
	return boldSpan.ReplaceAllString(s, "<b>$1</b>")
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

// columnPx is the widest a figure is shown, in CSS pixels (the page's
// 80em column less its padding), and minLabelPx the smallest its labels
// may be shown (internal/pagecheck's MinTextPx): a figure whose labels
// would shrink below it is shown as a thumbnail that links to the full
// image and says so, as the run pages do.
const (
	columnPx   = 80*16 - 2*16
	minLabelPx = 9
)

// figureHTML renders a figure: the image linking to itself, its labels'
// height for internal/pagecheck, a thumbnail's note, the caption.
func figureHTML(f figBlock) string {
	thumb := f.textPx > 0 && f.w > 0 && float64(min(f.w, columnPx))/float64(f.w)*f.textPx < minLabelPx
	var b strings.Builder
	b.WriteString(`<figure><a href="` + html.EscapeString(f.src) + `"><img src="` + html.EscapeString(f.src) + `" alt="` + html.EscapeString(f.name) + `" loading="lazy"`)
	if f.textPx > 0 {
		b.WriteString(` data-text-px="` + strconv.FormatFloat(f.textPx, 'f', 1, 64) + `"`)
	}
	if thumb {
		b.WriteString(` class="thumb"`)
	}
	b.WriteString(" /></a>\n<figcaption>")
	if thumb {
		b.WriteString("<b>A thumbnail</b> of a " + strconv.Itoa(f.w) + "×" + strconv.Itoa(f.h) + " px figure whose labels would be illegible at this width: open it to read them.<br />")
	}
	b.WriteString(`<span class="tap-cue">Tap the figure to open it at full size.<br /></span>`)
	b.WriteString(inline(f.caption) + ` <span class="muted">` + html.EscapeString(f.name) + "</span></figcaption></figure>\n")
	return b.String()
}

// pageCSS is the report page's style on top of report.PageCSS.
const pageCSS = `.muted { color: #555; } td.re { background: #dcf3dc; } td.nre { background: #f9d6d6; }
figure { margin: 1em 0; } figure img { max-width: 100%; height: auto; border: 1px solid #ddd; }
figure img.thumb { max-width: min(100%, 32em); } figcaption { font-size: 0.9em; color: #333; }
.tap-cue { display: none; } @media (max-width: 600px) { .tap-cue { display: inline; } }
table { background: linear-gradient(to right, #fff 30%, rgba(255,255,255,0)), linear-gradient(to right, rgba(255,255,255,0), #fff 70%) 100% 0, radial-gradient(farthest-side at 0 50%, rgba(0,0,0,.25), rgba(0,0,0,0)), radial-gradient(farthest-side at 100% 50%, rgba(0,0,0,.25), rgba(0,0,0,0)) 100% 0; background-repeat: no-repeat; background-size: 40px 100%, 40px 100%, 14px 100%, 14px 100%; background-attachment: local, local, scroll, scroll; }
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
		case figureBlock:
			body.WriteString(figureHTML(bl.fig))
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
