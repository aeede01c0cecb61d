package paperreport

import (
	"bytes"
	"html"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	ghtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"

	"github.com/runexp/runexp/internal/report"
)

// hostileWords is what a config's or the paper values' words could carry
// to make a report do something: an image beacon, a javascript: link, raw
// HTML, autolinks, emphasis, a code span, a heading or table row after a
// line break, a block marker where the words start a line, a forged mark.
var hostileWords = []string{
	"![beacon](http://evil.example/b.png) [j](javascript:alert(1))",
	"<img src=x onerror=alert(1)> \"><script>alert(1)</script>",
	"<http://evil.example> www.evil.example a@evil.example",
	"*e* _i_ **b** ~~s~~ `c` $x$ [x](appendix:introduction)",
	"title\n# heading\n| a | row |\n\n- item",
	"# h", "1. x", "> q", "- i", "    indented", "wow!",
	"forged \uE001 close \uE000 open",
}

// benignWords is s with every character that could be markup an "x":
// the same length and the same words, no markup.
func benignWords(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == ' ':
			return r
		case unicode.IsControl(r):
			return ' '
		}
		return 'x'
	}, s)
}

// wordsDoc is a document with w wherever a config's words enter a report:
// a heading, the start of a paragraph and of a list item, the middle of
// a sentence with the project's markup around it, a table's cell, and a
// composed sentence whose code span is the project's.
func wordsDoc(w string) *doc {
	d := &doc{}
	d.h(3, w)
	d.p(w + " starts this paragraph.")
	d.p("The paper: \"" + w + "\", **bold**, `code`, *" + w + "*, in the " + appendixLink("appendix", "evidence-c1") + ".")
	d.ul([]string{w, "`c1`: " + w + "\nCheck: " + w + "."})
	d.table([]string{"claim", "statement"}, [][]string{{"c1", w}, {"c2", "`x` " + w}})
	return d
}

// proseDoc is a document with a composed sentence around w.
func proseDoc(w string) *doc {
	d := &doc{}
	d.p("What would decide it: " + prose("a check of `mse` under "+report.NoCode(w)) + ".")
	return d
}

var anyTag = regexp.MustCompile(`<([a-zA-Z][a-zA-Z0-9]*)`)

// tags are the elements of an HTML page, sorted.
func tags(page string) []string {
	var out []string
	for _, m := range anyTag.FindAllStringSubmatch(page, -1) {
		out = append(out, strings.ToLower(m[1]))
	}
	slices.Sort(out)
	return out
}

// viewerHTML is what a CommonMark viewer with GitHub's extensions
// (goldmark, raw HTML passed through) makes of md.
func viewerHTML(t *testing.T, md string) string {
	t.Helper()
	var b bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(ghtml.WithUnsafe())).Convert([]byte(md), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// asWritten is s as a page shows words shown as written: one line,
// trimmed, without forged marks.
func asWritten(s string) string {
	return strings.TrimSpace(strings.Map(noControl, plain(s)))
}

// TestLiteralWords checks that a config's words marked lit, and the
// words of a composed sentence marked prose, are shown as written by a
// CommonMark viewer reading REPORT.md (goldmark) and in report.html: the
// elements are those of the same document with the words' markup-free
// twin, and a heading shows the words themselves. The control renders
// the words unmarked, as the report did before: the beacon becomes an
// image and the code span code, and the check sees it.
func TestLiteralWords(t *testing.T) {
	for _, s := range hostileWords {
		for name, mk := range map[string]func(string) *doc{"lit": func(w string) *doc { return wordsDoc(lit(w)) }, "prose": proseDoc} {
			d, twin := mk(s), mk(benignWords(s))
			md, mdTwin := d.markdown(), twin.markdown()
			if got, want := tags(viewerHTML(t, md)), tags(viewerHTML(t, mdTwin)); !slices.Equal(got, want) {
				t.Errorf("%s %q: a viewer of the Markdown builds %v, its plain twin %v\n%s", name, s, got, want, md)
			}
			page, pageTwin := d.html("t", "", nil), twin.html("t", "", nil)
			if got, want := tags(page), tags(pageTwin); !slices.Equal(got, want) {
				t.Errorf("%s %q: the page has %v, its plain twin %v", name, s, got, want)
			}
			if strings.ContainsFunc(md+page, func(r rune) bool { return isMark(r) || isPlaceholder(r) }) {
				t.Errorf("%s %q: a mark or placeholder reaches the output", name, s)
			}
		}
		// A heading shows the words as written, in both renderings.
		d := &doc{}
		d.h(3, lit(s))
		want := string(util.EscapeHTML([]byte(asWritten(s))))
		if got := viewerHTML(t, d.markdown()); got != "<h3>"+want+"</h3>\n" {
			t.Errorf("%q: a viewer shows the heading %q, want <h3>%s</h3>", s, got, want)
		}
		if got, want := inline(lit(s)), html.EscapeString(asWritten(s)); got != want {
			t.Errorf("%q: the page shows %q, want %q", s, got, want)
		}
	}
	// The code span of a composed sentence stays code.
	if got := inline(prose("a check of `mse` under " + report.NoCode("`x` *y*"))); got != "a check of <code>mse</code> under &#39;x&#39; *y*" {
		t.Errorf("prose: %q", got)
	}
	// The control: the words unmarked, as the report wrote them before.
	unmarked := func(w string) *doc { return wordsDoc(w) }
	for _, s := range []string{hostileWords[0], hostileWords[3]} {
		md, twin := unmarked(s).markdown(), unmarked(benignWords(s)).markdown()
		if slices.Equal(tags(viewerHTML(t, md)), tags(viewerHTML(t, twin))) {
			t.Errorf("control %q: unmarked words made no element in the Markdown; the check cannot fail", s)
		}
	}
	// The page escaped its text before, but read a config's backticks
	// and asterisks as code and emphasis.
	s := hostileWords[3]
	if slices.Equal(tags(unmarked(s).html("t", "", nil)), tags(unmarked(benignWords(s)).html("t", "", nil))) {
		t.Errorf("control %q: unmarked words made no element in the page; the check cannot fail", s)
	}
}

// TestSegments checks how a block's text splits at its marks: a forged
// closing mark is dropped, an unclosed opening one runs to the end.
func TestSegments(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []segment
	}{
		{"a " + lit("b") + " c", []segment{{rawSeg, "a "}, {litSeg, "b"}, {rawSeg, " c"}}},
		{lit("b\uE001c"), []segment{{litSeg, "bc"}}},
		{"a\uE001b", []segment{{rawSeg, "ab"}}},
		{"a\uE000b `c`", []segment{{rawSeg, "a"}, {litSeg, "b `c`"}}},
		{"a\uE002`b`\uE000c", []segment{{rawSeg, "a"}, {proseSeg, "`b`c"}}},
		{lit(""), []segment{{litSeg, ""}}},
	} {
		if got := segments(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("segments(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
