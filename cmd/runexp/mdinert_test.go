//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/runexp/runexp/internal/suite"
)

// The texts a config or a paper-values file could carry to make the
// Markdown or HTML runexp writes do something: each is put into every
// field below at once.
var hostileMarkdown = []string{
	"![beacon](http://evil.example/b.png) [j](javascript:alert(1)) <img src=x onerror=alert(1)>",
	"\"><img src=x onerror=alert(1)> <http://evil.example> www.evil.example a@evil.example",
	"title\n# heading\n| a | row |\n\n- item *e* _i_ `c` ~~s~~",
	"# h", "1. x", "> q", "    indented",
}

// inertFields names where the fixture puts the text: in the config
// (nguyen-table2.yaml), its claims.json (whose statements the run copies
// from the config) and the paper-values file.
const (
	inertConfig = "nguyen-table2"
	inertPaper  = "nguyen-delatorre-robust-kpca"
)

// inertFixture copies reportPaper's configs, results and paper values into
// a new folder with s in the config's title, stand-in, ambiguity, notes,
// paper table title (on one line, as it must be) and claim statements, in claims.json's statements and
// evidence, and in the paper-values title and claim statements. It returns
// the configs, results and paper-values folders.
func inertFixture(t testing.TB, pv, s string) (configs, results, values string) {
	t.Helper()
	dir := t.TempDir()
	configs, results, values = filepath.Join(dir, "configs"), filepath.Join(dir, "results"), filepath.Join(dir, "pv")
	for _, d := range []string{configs, values} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	q := strconv.Quote(s)
	for _, name := range []string{"nguyen-fig5", "nguyen-table1", "nguyen-table1-observed-fixed", "nguyen-table2"} {
		copyModule(t, filepath.Join("../../baseline", name), filepath.Join(results, name))
		b, err := os.ReadFile(filepath.Join("../../configs", name+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if name == inertConfig {
			b = replaceLines(b, map[string]string{
				"title: ":                     "title: " + q,
				"stand_in: ":                  "stand_in: " + q,
				"  a3: ":                      "  a3: " + q,
				"  title: \"Table 2":          "  title: " + strconv.Quote(strings.Join(strings.Fields(s), " ")),
				"    statement: ":             "    statement: " + q,
				"notes: |":                    "notes: " + q,
				"  Our data: the 68 × 42":     "",
				"  paper's shape-normalised ": "",
			})
			b = dropIndented(b, "notes: ")
		}
		writeBytes(t, filepath.Join(configs, name+".yaml"), b)
	}
	claims := filepath.Join(results, inertConfig, "claims.json")
	var cs []map[string]any
	b, err := os.ReadFile(claims)
	if err != nil || json.Unmarshal(b, &cs) != nil {
		t.Fatalf("claims.json: %v", err)
	}
	for _, c := range cs {
		c["statement"] = s
	}
	if b, err = json.Marshal(cs); err != nil {
		t.Fatal(err)
	}
	writeBytes(t, claims, b)
	ents, err := os.ReadDir(pv)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(pv, e.Name()))
		if err != nil || e.IsDir() {
			continue
		}
		if e.Name() == inertPaper+".yaml" {
			b = replaceLines(b, map[string]string{"  title: ": "  title: " + q, "  statement: ": "  statement: " + q})
		}
		writeBytes(t, filepath.Join(values, e.Name()), b)
	}
	return configs, results, values
}

func writeBytes(t testing.TB, p string, b []byte) {
	t.Helper()
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// replaceLines replaces each line that starts with a key of repl by its
// value.
func replaceLines(b []byte, repl map[string]string) []byte {
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		for k, v := range repl {
			if strings.HasPrefix(l, k) {
				lines[i] = v
			}
		}
	}
	return []byte(strings.Join(lines, "\n"))
}

// dropIndented removes the indented lines that follow the line starting
// with key (what is left of a block scalar once its first line is
// replaced).
func dropIndented(b []byte, key string) []byte {
	lines := strings.Split(string(b), "\n")
	var out []string
	skip := false
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, key):
			skip = true
		case skip && (strings.HasPrefix(l, "  ") || l == ""):
			continue
		default:
			skip = false
		}
		out = append(out, l)
	}
	return []byte(strings.Join(out, "\n"))
}

// benign is s with every character that could be markup replaced by an
// "x" (letters, digits and spaces kept, a line break a space): the same
// length, so the same
// wrapping and cutting, and no markup.
func benign(s string) string {
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

// mdShape is the structure a CommonMark viewer with GitHub's extensions
// (goldmark) reads in md: every node but text, as kind and depth, with the
// destination of each link and image, in document order.
func mdShape(t testing.TB, md []byte) []string {
	t.Helper()
	p := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser()
	doc := p.Parse(text.NewReader(md))
	var shape []string
	depth := 0
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			depth--
			return ast.WalkContinue, nil
		}
		depth++
		switch n := n.(type) {
		case *ast.Text, *ast.String:
			return ast.WalkContinue, nil
		case *ast.Link:
			shape = append(shape, fmt.Sprintf("%d link %s", depth, n.Destination))
		case *ast.Image:
			shape = append(shape, fmt.Sprintf("%d image %s", depth, n.Destination))
		case *ast.AutoLink:
			shape = append(shape, fmt.Sprintf("%d autolink %s", depth, n.URL(md)))
		default:
			shape = append(shape, fmt.Sprintf("%d %s", depth, n.Kind()))
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return shape
}

var htmlTag = regexp.MustCompile(`<([a-zA-Z][a-zA-Z0-9]*)((?:\s+[a-zA-Z-]+(?:=(?:"[^"]*"|'[^']*'|[^\s>]*))?)*)\s*/?>`)
var htmlAttr = regexp.MustCompile(`\s([a-zA-Z-]+)`)

// htmlShape is the tags and attribute names of page, sorted: what a
// browser builds elements from, whatever the text between them says.
func htmlShape(page []byte) []string {
	var shape []string
	for _, m := range htmlTag.FindAllSubmatch(page, -1) {
		tag := strings.ToLower(string(m[1]))
		for _, a := range htmlAttr.FindAllSubmatch(regexp.MustCompile(`"[^"]*"|'[^']*'`).ReplaceAll(m[2], nil), -1) {
			tag += " " + strings.ToLower(string(a[1]))
		}
		shape = append(shape, tag)
	}
	sort.Strings(shape)
	return shape
}

// writtenPages runs runexp report and runexp scoreboard on the fixture
// with s in every field and returns each Markdown and HTML file written,
// by name; ok is false when runexp refused the configs (a text a config
// cannot hold is no finding).
func writtenPages(t testing.TB, pv, s string) (pages map[string][]byte, ok bool) {
	t.Helper()
	configs, results, values := inertFixture(t, pv, s)
	out := filepath.Join(filepath.Dir(results), "board")
	code, _, stderr := runCLI("report", "--configs", configs, "--results", results, "--paper-values", values, reportPaper)
	if code != 0 {
		if code == exitUsage {
			t.Logf("%q: refused: %s", s, stderr)
			return nil, false
		}
		t.Fatalf("runexp report exited %d: %s", code, stderr)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCLI("scoreboard", "--configs", configs, "--paper-values", values,
		"--out", filepath.Join(out, "scoreboard.md"), "--html", filepath.Join(out, "scoreboard.html"), results)
	if code != 0 {
		t.Fatalf("runexp scoreboard exited %d: %s", code, stderr)
	}
	pages = map[string][]byte{}
	for _, dir := range []string{filepath.Join(results, "reports", reportPaper), out} {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if b, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil && bytes.ContainsAny(b, "\uE000\uE001\uE002\uE003") {
				// The report marks a config's words with these
				// private-use runes while it builds a page: none may
				// leave it (metadata.yaml, a caption, an attribute).
				t.Errorf("%s/%s holds a mark of a config's words", filepath.Base(dir), e.Name())
			}
			if n := e.Name(); strings.HasSuffix(n, ".md") || strings.HasSuffix(n, ".html") {
				b, err := os.ReadFile(filepath.Join(dir, n))
				if err != nil {
					t.Fatal(err)
				}
				pages[filepath.Base(dir)+"/"+n] = b
			}
		}
	}
	return pages, true
}

// checkInert writes the pages with s and with benign(s) in every field and
// checks that a viewer builds the same document from both: s adds no
// link, image, tag, heading, row or emphasis.
func checkInert(t testing.TB, pv, s string) {
	t.Helper()
	hostile, ok := writtenPages(t, pv, s)
	if !ok {
		return
	}
	names := make([]string, 0, len(hostile))
	for n := range hostile {
		names = append(names, n)
	}
	sort.Strings(names)
	t.Logf("%q: %s", s, strings.Join(names, " "))
	plain, ok := writtenPages(t, pv, benign(s))
	if !ok {
		t.Fatalf("the benign twin of %q was refused", s)
	}
	if len(hostile) == 0 {
		t.Fatal("no page written")
	}
	for name, h := range hostile {
		var got, want []string
		if strings.HasSuffix(name, ".md") {
			got, want = mdShape(t, h), mdShape(t, plain[name])
		} else {
			got, want = htmlShape(h), htmlShape(plain[name])
		}
		if d := firstDiff(got, want); d != "" {
			t.Errorf("%s with %q in the config and paper values: %s", name, s, d)
		}
	}
}

// firstDiff names the first element where got and want differ.
func firstDiff(got, want []string) string {
	for i := range max(len(got), len(want)) {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			return fmt.Sprintf("element %d is %q, plain text gives %q (%d elements against %d)", i, g, w, len(got), len(want))
		}
	}
	return ""
}

// TestMarkdownInert checks that text from a config or a paper-values file
// is shown, never read, in every Markdown and HTML file runexp report and
// runexp scoreboard write: a CommonMark parser (goldmark, with GitHub's
// extensions) reads the same structure from the pages with hostile text
// as from the pages with its markup-free twin. Before the escape, a title
// of "![beacon](http://evil.example/b.png)" put an image into REPORT.md.
func TestMarkdownInert(t *testing.T) {
	pv, err := suite.FindPaperValues("../../configs", "")
	if err != nil {
		t.Skipf("no paper values beside the checkout: %v", err)
	}
	for _, s := range hostileMarkdown {
		checkInert(t, pv, s)
	}
}

// FuzzMarkdownInert feeds config and paper-values text through report
// and scoreboard (make fuzz).
func FuzzMarkdownInert(f *testing.F) {
	pv, err := suite.FindPaperValues("../../configs", "")
	if err != nil {
		f.Skipf("no paper values beside the checkout: %v", err)
	}
	for _, s := range hostileMarkdown {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 300 || !utf8Clean(s) || strings.TrimSpace(s) == "" {
			return
		}
		checkInert(t, pv, s)
	})
}

func utf8Clean(s string) bool {
	return bytes.Equal([]byte(strings.ToValidUTF8(s, "")), []byte(s))
}
