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
	"[x] task", "a [x] b [y]: c", "![i][r] [r]: http://e.example", "[a]\n[a]: http://e.example", "a[^1] b\n[^1]: note",
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
func literalHTML(s string) string { return string(util.EscapeHTML([]byte(literalText(s)))) }

// literalText is s as a viewer shows it: control characters as spaces,
// trimmed.
func literalText(s string) string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s))
}

// checkLiteral checks that MarkdownLiteral(s), inserted where the
// project inserts such text (a paragraph's start, a heading, a table
// cell, a list item), shows exactly s's characters and opens nothing.
func checkLiteral(t testing.TB, s string) {
	t.Helper()
	lit, want := MarkdownLiteral(s), literalHTML(s)
	if back := MarkdownUnescape(lit); back != literalText(s) {
		t.Errorf("MarkdownUnescape(MarkdownLiteral(%q)) = %q", s, back)
	}
	if back := MarkdownUnescape(MarkdownInline(s)); back != literalText(s) {
		t.Errorf("MarkdownUnescape(MarkdownInline(%q)) = %q", s, back)
	}
	if want == "" {
		return
	}
	in := MarkdownInline(s)
	for _, c := range []struct{ md, open, close string }{
		{"| h |\n| --- |\n| " + in + " |\n", "<table>\n<thead>\n<tr>\n<th>h</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>", "</td>\n</tr>\n</tbody>\n</table>\n"},
		{"Before " + in + " after.\n", "<p>Before ", " after.</p>\n"},
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

func TestMarkdownParagraphs(t *testing.T) {
	got := MarkdownParagraphs("First *one*.\n\n# Second\r\n\r\n\n\nthird")
	if want := "First \\*one\\*.\n\n\\# Second\n\nthird"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestMarkdownLiteralReadable(t *testing.T) {
	for _, w := range []string{"0.061", "-0.57", "+5.0", "#3", "1.5", "*x", "=x", "_x", "[0, 1]:"} {
		if got := MarkdownLineStart(w); got != w {
			t.Errorf("MarkdownLineStart(%q) = %q: it opens no block there", w, got)
		}
	}
	if got := MarkdownInline("-0.57 # of"); got != "-0.57 # of" {
		t.Errorf("MarkdownInline escapes block markers: %q", got)
	}
	for s, want := range map[string]string{
		"Abrahamsen & Hansen":      "Abrahamsen & Hansen",
		"Kernel PCA: σ = 0.3 × d̄": "Kernel PCA: σ = 0.3 × d̄",
		"fig_7 [a]":                `fig\_7 [a]`,
		"[x] done":                 `\[x] done`,
		"see [a](b) and [c][d]":    `see [a\](b) and [c\][d]`,
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

func utf8Valid(s string) bool {
	return strings.ToValidUTF8(s, "\uFFFD") == s && !strings.ContainsRune(s, '\uFFFD')
}

// TestTableMarkdownInert renders a table whose title, header, cells,
// caption and notes hold hostile text (a method's label and a config's
// title reach a table so) and checks that a CommonMark parser reads the
// same structure as from the table with the text's markup-free twin, and
// that the page built from tables.md reads the text back as written.
func TestTableMarkdownInert(t *testing.T) {
	render := func(s string) string {
		tb := &Table{Title: s, Header: []string{"method", s}, Rows: [][]string{{s, "1.5"}, {"PCA", s + "\n" + s}}, Caption: s + "\n\n" + s}
		tb.Note(s)
		var b bytes.Buffer
		if err := tb.RenderMarkdown(&b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	plain := func(s string) string {
		return strings.Map(func(r rune) rune {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == ' ' || r == '\n':
				return r // a cell's line break is the table's own <br>
			case unicode.IsControl(r):
				return ' '
			}
			return 'x'
		}, s)
	}
	for _, s := range hostileText {
		md := render(s)
		twin := render(plain(s))
		if got, want := stripText(markdownShows(t, md)), stripText(markdownShows(t, twin)); got != want {
			t.Errorf("%q: the table reads as\n%s\nits plain twin as\n%s", s, got, want)
		}
		if strings.ContainsFunc(s, unicode.IsControl) {
			continue
		}
		doc := parseTablesMarkdown(md)
		if len(doc.Tables) != 1 || doc.Tables[0].Title != literalText(s) || doc.Tables[0].Rows[0][0] != literalText(s) || doc.Tables[0].Header[1] != literalText(s) {
			t.Errorf("%q: read back as %+v", s, doc.Tables)
		}
	}
}

// stripText keeps the tags of rendered HTML and drops the text between
// them.
func stripText(h string) string {
	var b strings.Builder
	in := false
	for _, r := range h {
		switch {
		case r == '<':
			in = true
		case r == '>':
			b.WriteRune(r)
			in = false
			continue
		}
		if in {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestMarkdownLineStart: a paragraph wrapped before a word that opens a
// block (a list item, a quote, a setext underline, a thematic break)
// stays one paragraph when the word goes through MarkdownLineStart.
func TestMarkdownLineStart(t *testing.T) {
	for _, w := range []string{"-", "+", ">", "=", "===", "---", "1.", "12)", "#", "*", "***", "___", "######"} {
		live := false
		for _, rest := range []string{"", " more"} {
			para := "<p>Some text\n" + literalHTML(w+rest) + "</p>\n"
			if got := markdownShows(t, "Some text\n"+MarkdownLineStart(w)+rest+"\n"); got != para {
				t.Errorf("%q: shows %q, want %q", w+rest, got, para)
			}
			live = live || markdownShows(t, "Some text\n"+w+rest+"\n") != para
		}
		if !live && w != "12)" {
			t.Errorf("the control: %q at a line's start opens nothing unescaped", w)
		}
	}
}

// TestMarkdownWithCode: the project's code spans stay code, a config's
// words between them (through NoCode) show as written.
func TestMarkdownWithCode(t *testing.T) {
	for _, s := range hostileText {
		text := "passes under `b-r` (" + NoCode(s) + ") and `c|d`"
		want := "<p>passes under <code>b-r</code> (" + string(util.EscapeHTML([]byte(NoCode(s)))) + ") and `c|d`</p>\n"
		if strings.ContainsFunc(s, unicode.IsControl) {
			continue // literalHTML trims; a line break inside is a space
		}
		if got := markdownShows(t, "| h |\n| --- |\n| "+MarkdownWithCode(text)+" |\n"); !strings.Contains(got, "<td>"+strings.TrimSuffix(strings.TrimPrefix(want, "<p>"), "</p>\n")+"</td>") {
			t.Errorf("%q in a cell shows\n%s\nwant the cell %s", text, got, want)
		}
		if got := markdownShows(t, MarkdownWithCode(text)+"\n"); got != want {
			t.Errorf("%q shows\n%s\nwant\n%s", text, got, want)
		}
	}
}

// TestMarkdownLiteralControlEnds checks that a control character at an
// end of the text leaves no space there: the text between the project's
// asterisks stays emphasis, as its markup-free twin does. Before, the trim
// came before the control characters became spaces, and "*x *" was no
// emphasis.
func TestMarkdownLiteralControlEnds(t *testing.T) {
	for _, s := range []string{"x\x00", "\x10x\x00\x10", "x\x7f"} {
		if got := markdownShows(t, "*"+MarkdownInline(s)+"*"); got != "<p><em>x</em></p>\n" {
			t.Errorf("*%q* shows %q, want the emphasis of x", s, got)
		}
		if got := markdownShows(t, "**"+MarkdownWithCode(s)+"**"); got != "<p><strong>x</strong></p>\n" {
			t.Errorf("**%q** (with code) shows %q, want the bold x", s, got)
		}
	}
}
