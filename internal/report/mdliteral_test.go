package report

import (
	"bytes"
	"strings"
	"testing"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// hostileText is what a config's title, notes or label, or a paper-values
// title, could carry to make a Markdown file do something: an image
// beacon, a javascript: link, raw HTML, an autolink, emphasis, a code
// span, a new heading or table row after a line break, a block marker at
// the start of a line, an entity.
var hostileText = []string{
	"![beacon](http://evil.example/b.png)",
	"[click](javascript:alert(1))",
	"<img src=x onerror=alert(1)>",
	"\"><img src=x onerror=alert(1)>",
	"<script>alert(1)</script> & co",
	"<http://evil.example>",
	"see www.evil.example or https://evil.example/x and mail a@evil.example",
	"*bold* _it_ **b** ~~s~~ `code` $x$",
	"title\n# a heading\n| a | row |\n---",
	"# heading", "> quote", "- item", "+ item", "= setext", "1. item", "12) item", "---",
	"    indented code", "\ttab",
	"&lt;img&gt; &#60;b&#62; &amp; Abrahamsen & Hansen",
	"a | b \\| c \\",
	"[ref]: http://evil.example",
	"title #",
	"Abrahamsen & Hansen, 0.49 > 2×0.38, σ = 1",
}

// markdownShows renders md as a CommonMark viewer with GitHub's
// extensions would (goldmark: a CommonMark-conformant parser with the
// GFM tables, strikethrough and autolinks) and with raw HTML passed
// through, as a viewer that renders HTML shows it.
func markdownShows(t testing.TB, md string) string {
	t.Helper()
	var b bytes.Buffer
	m := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))
	if err := m.Convert([]byte(md), &b); err != nil {
		t.Fatalf("goldmark: %v", err)
	}
	return b.String()
}

// literalHTML is how a viewer shows s as plain text: its control
// characters as spaces, trimmed, and HTML-escaped as goldmark escapes
// text.
func literalHTML(s string) string {
	s = strings.TrimSpace(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s))
	return string(util.EscapeHTML([]byte(s)))
}

// checkLiteral checks that MarkdownLiteral(s), inserted where the
// project inserts such text (a paragraph's start, a heading, a table
// cell, a list item), shows exactly s's characters and opens nothing.
func checkLiteral(t testing.TB, s string) {
	t.Helper()
	lit, want := MarkdownLiteral(s), literalHTML(s)
	if want == "" {
		return
	}
	for _, c := range []struct{ md, open, close string }{
		{lit + "\n", "<p>", "</p>\n"},
		{"# " + lit + "\n", "<h1>", "</h1>\n"},
		{"- " + lit + "\n", "<ul>\n<li>", "</li>\n</ul>\n"},
		{"| h |\n| --- |\n| " + lit + " |\n", "<table>\n<thead>\n<tr>\n<th>h</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>", "</td>\n</tr>\n</tbody>\n</table>\n"},
		{"Before " + lit + " after.\n", "<p>Before ", " after.</p>\n"},
	} {
		if got := markdownShows(t, c.md); got != c.open+want+c.close {
			t.Errorf("%q as %q shows\n%s\nwant\n%s", s, c.md, got, c.open+want+c.close)
		}
	}
}

// TestMarkdownLiteral checks, through a CommonMark parser, that every
// hostile text shows as its own characters wherever it is inserted.
// The control: the same texts escaped by MarkdownText alone (which
// escapes "<" only) open links, images, headings and rows.
func TestMarkdownLiteral(t *testing.T) {
	for _, s := range hostileText {
		checkLiteral(t, s)
	}
	live := 0
	for _, s := range hostileText {
		md := MarkdownText(s) + "\n"
		if markdownShows(t, md) != "<p>"+literalHTML(s)+"</p>\n" {
			live++
		}
	}
	if live < len(hostileText)/2 {
		t.Errorf("the control: only %d of %d texts were live under MarkdownText alone; the check cannot tell escaped from live", live, len(hostileText))
	}
}

func TestMarkdownLiteralReadable(t *testing.T) {
	for s, want := range map[string]string{
		"Abrahamsen & Hansen":      "Abrahamsen & Hansen",
		"Kernel PCA: σ = 0.3 × d̄": "Kernel PCA: σ = 0.3 × d̄",
		"fig_7 [a]":                `fig\_7 \[a\]`,
		"1. item":                  `1\. item`,
		"www.x.org":                `www\.x.org`,
	} {
		if got := MarkdownLiteral(s); got != want {
			t.Errorf("MarkdownLiteral(%q) = %q, want %q", s, got, want)
		}
	}
}

func FuzzMarkdownLiteral(f *testing.F) {
	for _, s := range hostileText {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 200 || !utf8Valid(s) {
			return
		}
		checkLiteral(t, s)
	})
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s && !strings.ContainsRune(s, '\uFFFD') }
