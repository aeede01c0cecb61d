package paperreport

import (
	"html"
	"strings"
	"unicode"

	"github.com/runexp/runexp/internal/report"
)

// A block's text is the project's Markdown (`code` spans, **bold**,
// *italic*, page links, <br>) with the words a config or a paper-values
// file supplies marked where they enter it, so that each rendering shows
// those words as written and never reads them as markup. The marks are
// private-use runes that no rendering writes out.
const (
	// litOpen and litClose bracket words shown as written (lit): a
	// title, a statement, a label, notes, an ambiguity's text.
	litOpen, litClose = '\uE000', '\uE001'
	// proseOpen and proseClose bracket a sentence the scoreboard
	// composed (prose): its `code` spans are the project's, its other
	// words may be a config's and are shown as written.
	proseOpen, proseClose = '\uE002', '\uE003'
)

// lit marks s, a config's or the paper values' words, to be shown as
// written in every rendering of the block it enters.
func lit(s string) string { return string(litOpen) + plain(s) + string(litClose) }

// prose marks s, a sentence the scoreboard composed around a config's
// words, whose `code` spans stay code (report.MarkdownWithCode).
func prose(s string) string { return string(proseOpen) + plain(s) + string(proseClose) }

// plain is s without the marks of lit and prose: the text as it leaves
// the document (a page's title, an attribute, metadata.yaml).
func plain(s string) string {
	if !strings.ContainsFunc(s, isMark) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isMark(r) {
			return -1
		}
		return r
	}, s)
}

func isMark(r rune) bool { return r >= litOpen && r <= proseClose }

type segKind int

const (
	rawSeg   segKind = iota // the project's Markdown
	litSeg                  // words shown as written
	proseSeg                // a composed sentence: code spans and words
)

// segment is a run of a block's text of one kind.
type segment struct {
	kind segKind
	text string
}

// segments splits a block's text at its marks. An opening mark runs to
// its closing one, or to the end of the text when there is none (the
// rest is then shown as written); a mark of another kind inside it and a
// closing mark outside one are dropped. A text whose marks were forged
// (a config's words carrying the runes through a file the project wrote)
// can so only show more of itself as written, never less.
func segments(s string) []segment {
	var out []segment
	kind := rawSeg
	var cur strings.Builder
	flush := func(next segKind) {
		if cur.Len() > 0 || kind != rawSeg {
			out = append(out, segment{kind, cur.String()})
		}
		cur.Reset()
		kind = next
	}
	for _, r := range s {
		switch {
		case kind == rawSeg && r == litOpen:
			flush(litSeg)
		case kind == rawSeg && r == proseOpen:
			flush(proseSeg)
		case kind == litSeg && r == litClose, kind == proseSeg && r == proseClose:
			flush(rawSeg)
		case isMark(r):
		default:
			cur.WriteRune(r)
		}
	}
	if cur.Len() > 0 || kind != rawSeg {
		out = append(out, segment{kind, cur.String()})
	}
	return out
}

// markdownOf renders a block's text as Markdown: the project's markup as
// written (its "<" escaped, report.MarkdownText, and its page links made
// file links), a config's words through report.MarkdownLiteral where they
// start a line (a heading, a paragraph, a list item, a line of one) and
// report.MarkdownInline elsewhere, a composed sentence through
// report.MarkdownWithCode. In a table's cell (cell), the project's pipes
// are escaped and its line breaks are <br>.
func markdownOf(s string, cell bool) string {
	var b strings.Builder
	for _, g := range segments(s) {
		start := !cell && (b.Len() == 0 || strings.HasSuffix(b.String(), "\n"))
		var t string
		switch g.kind {
		case rawSeg:
			t = g.text
			if cell {
				t = strings.ReplaceAll(strings.ReplaceAll(t, "|", `\|`), "\n", "<br>")
			}
			t = mdLinks(report.MarkdownText(t))
		case litSeg:
			if start {
				t = report.MarkdownLiteral(g.text)
			} else {
				t = report.MarkdownInline(g.text)
			}
		case proseSeg:
			t = report.MarkdownWithCode(g.text)
		}
		if g.kind != rawSeg && strings.HasSuffix(t, "!") && !strings.HasSuffix(t, `\!`) {
			// "!" before the project's "[" of a link would make it an
			// image.
			t = strings.TrimSuffix(t, "!") + `\!`
		}
		b.WriteString(t)
	}
	return b.String()
}

// Placeholders stand, while inline renders the project's markup, for
// what must come out as written (a config's words, a character the
// Markdown escaped with a backslash): one rune of Unicode's plane 15,
// private use, each, so that no pattern of the markup matches across
// or inside one.
const placeholderBase = 0xF0000

func isPlaceholder(r rune) bool { return r >= placeholderBase && r < placeholderBase+0xFFFE }

// inline renders a block's text as HTML: the project's Markdown with its
// `code` spans as <code>, **bold**, *italic*, page links and the <br> of
// tables.md's cells, a character escaped with a backslash as that
// character; a config's words (lit) HTML-escaped only, a composed
// sentence (prose) escaped with its code spans as <code>.
func inline(s string) string {
	var subs []string
	hold := func(b *strings.Builder, h string) {
		b.WriteRune(rune(placeholderBase + len(subs)))
		subs = append(subs, h)
	}
	var b strings.Builder
	for _, g := range segments(s) {
		switch g.kind {
		case rawSeg:
			rs := []rune(g.text)
			for i := 0; i < len(rs); i++ {
				switch r := rs[i]; {
				case r == '\\' && i+1 < len(rs) && rs[i+1] < 128 && (unicode.IsPunct(rs[i+1]) || unicode.IsSymbol(rs[i+1])):
					i++
					hold(&b, html.EscapeString(string(rs[i])))
				case isPlaceholder(r):
					b.WriteRune(unicode.ReplacementChar)
				default:
					b.WriteRune(r)
				}
			}
		case litSeg:
			hold(&b, html.EscapeString(strings.TrimSpace(strings.Map(noControl, g.text))))
		case proseSeg:
			hold(&b, proseHTML(g.text))
		}
	}
	out := inlineMarkup(b.String())
	if len(subs) == 0 {
		return out
	}
	return replacePlaceholders(out, subs)
}

// replacePlaceholders puts each placeholder's HTML in its place.
func replacePlaceholders(s string, subs []string) string {
	var b strings.Builder
	for _, r := range s {
		if i := int(r - placeholderBase); isPlaceholder(r) && i < len(subs) {
			b.WriteString(subs[i])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// proseHTML is a composed sentence as HTML: its paired, non-empty
// `code` spans as <code>, everything else escaped, as
// report.MarkdownWithCode shows it.
func proseHTML(s string) string {
	s = strings.TrimSpace(strings.Map(noControl, s))
	parts := strings.Split(s, "`")
	var b strings.Builder
	for i, p := range parts {
		switch {
		case i%2 == 1 && i < len(parts)-1 && strings.TrimSpace(p) != "" && !strings.Contains(p, "|"):
			b.WriteString("<code>" + html.EscapeString(p) + "</code>")
		case i%2 == 1:
			b.WriteString(html.EscapeString("`" + p))
			if i < len(parts)-1 {
				b.WriteString("`")
			}
		default:
			b.WriteString(html.EscapeString(p))
		}
	}
	return b.String()
}

func noControl(r rune) rune {
	if unicode.IsControl(r) {
		return ' '
	}
	return r
}
