package pagecheck_test

import (
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/runexp/runexp/internal/pagecheck"
	"github.com/runexp/runexp/internal/report"
)

// width is the window the pages must fit: a 1280-pixel screen, a
// desktop's.
const width = 1280

// start returns a browser for the test, skipping without Chromium unless
// RUNEXP_BROWSER_CHECK=require (CI), where a missing browser fails.
func start(t *testing.T) (*pagecheck.Browser, context.Context) {
	t.Helper()
	path := pagecheck.Find()
	if path == "" {
		msg := "no Chromium on the PATH (Debian: apt-get install chromium) and RUNEXP_CHROMIUM unset; make browser-check runs this check in CI"
		if os.Getenv("RUNEXP_BROWSER_CHECK") == "require" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	b, err := pagecheck.Start(ctx, path, width)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Error(err)
		}
	})
	return b, ctx
}

// TestOverflowFixture checks the check: a claims table whose Expected cell
// is white-space: nowrap and holds a whole note (as the run page once did)
// scrolls sideways at 1280 px and the cell is named; the same page
// with the cell wrapping passes.
func TestOverflowFixture(t *testing.T) {
	b, ctx := start(t)
	shots := t.TempDir()
	bad, err := b.Check(ctx, filepath.Join("testdata", "overflow", "index.html"), filepath.Join(shots, "overflow.png"))
	if err != nil {
		t.Fatal(err)
	}
	if bad.OK() {
		t.Errorf("the overflowing fixture passed: %+v", bad)
	}
	if bad.ScrollWidth <= bad.ClientWidth {
		t.Errorf("overflow fixture: document %d px wide in %d, want wider", bad.ScrollWidth, bad.ClientWidth)
	}
	if !slices.ContainsFunc(bad.Overflow, func(s string) bool { return strings.HasPrefix(s, "td.expected") }) {
		t.Errorf("overflow fixture: the Expected cell is not named among %q", bad.Overflow)
	}
	t.Logf("overflow fixture: %s", strings.Join(bad.Problems(), "; "))

	good, err := b.Check(ctx, filepath.Join("testdata", "fixed", "index.html"), filepath.Join(shots, "fixed.png"))
	if err != nil {
		t.Fatal(err)
	}
	if !good.OK() {
		t.Errorf("the fixed fixture fails: %q", good.Problems())
	}
	if good.ClientWidth != width {
		t.Errorf("viewport %d px wide, want %d", good.ClientWidth, width)
	}
	if good.Images != 1 || good.Links != 2 {
		t.Errorf("fixed fixture: %d images and %d links checked, want 1 and 2", good.Images, good.Links)
	}
	if fi, err := os.Stat(good.Screenshot); err != nil || fi.Size() == 0 {
		t.Errorf("no screenshot: %v", err)
	}
}

// TestBrokenFixture checks that every kind of broken link and a missing
// image are found, and that the links that resolve are not reported.
func TestBrokenFixture(t *testing.T) {
	b, ctx := start(t)
	r, err := b.Check(ctx, filepath.Join("testdata", "broken", "index.html"), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.BrokenImages) != 1 || r.BrokenImages[0] != "missing.png" {
		t.Errorf("broken images %q, want [missing.png]", r.BrokenImages)
	}
	want := []string{"#nowhere: no element with id nowhere", "missing.html: no such file", "#gone: no element with id gone", "https://example.org/: leaves the results"}
	if len(r.BrokenLinks) != len(want) {
		t.Errorf("broken links %q, want %d", r.BrokenLinks, len(want))
	}
	for _, w := range want {
		if !slices.ContainsFunc(r.BrokenLinks, func(s string) bool { return strings.Contains(s, w) }) {
			t.Errorf("no broken link reported containing %q in %q", w, r.BrokenLinks)
		}
	}
	if r.Links != 6 {
		t.Errorf("%d links checked, want 6", r.Links)
	}
}

// widths are the windows every page of a results root must fit: a
// desktop's 1280 px and a phone's 390.
var widths = []int{width, 390}

// TestResults checks every page of the results root named by RUNEXP_PAGES
// (make browser-check sets it after running the configs) at each of
// widths, with a screenshot of each in its screenshots/WIDTH folder.
func TestResults(t *testing.T) {
	root := os.Getenv("RUNEXP_PAGES")
	if root == "" {
		t.Skip("RUNEXP_PAGES unset: make browser-check runs configs and checks their pages")
	}
	b, ctx := start(t)
	for _, w := range widths {
		if err := b.SetWidth(ctx, w); err != nil {
			t.Fatal(err)
		}
		shots := filepath.Join(root, "screenshots", fmt.Sprint(w))
		rs, err := b.CheckRoot(ctx, root, shots)
		if err != nil {
			t.Fatal(err)
		}
		if len(rs) < 2 {
			t.Errorf("%d pages under %s, want the index and at least one run", len(rs), root)
		}
		for _, r := range rs {
			rel, _ := filepath.Rel(root, r.Page)
			if r.ClientWidth != w {
				t.Errorf("%s: viewport %d px, want %d", rel, r.ClientWidth, w)
			}
			if r.OK() {
				t.Logf("%d px: %s: %d px in %d, %d images, %d links, %d tables scrolling in their box: ok", w, rel, r.ScrollWidth, r.ClientWidth, r.Images, r.Links, len(r.Boxes))
				continue
			}
			for _, p := range r.Problems() {
				t.Errorf("%d px: %s: %s", w, rel, p)
			}
		}
		t.Logf("screenshots in %s", shots)
	}
}

// TestWideTableFixture checks the check at a phone's width: a table of
// seven numeric columns, styled as runexp pages once were,
// makes the page scroll sideways at 390 px (and fits at 1280); the same
// table under report.PageCSS scrolls in its own box with its first column
// sticky, and passes at both. Text set under 9 px and a figure whose labels
// fall under 9 px (an image with data-text-px, not linked) fail at both.
func TestWideTableFixture(t *testing.T) {
	b, ctx := start(t)
	root := t.TempDir()
	var tbl strings.Builder
	tbl.WriteString("<table><thead><tr><th>method</th>")
	for i := range 7 {
		fmt.Fprintf(&tbl, "<th>benchmark-%d</th>", i)
	}
	tbl.WriteString("</tr></thead><tbody>")
	for r := range 4 {
		fmt.Fprintf(&tbl, "<tr><td>estimator %d</td>", r)
		for i := range 7 {
			fmt.Fprintf(&tbl, "<td>0.0%d%d [0.01, 0.02]</td>", r, i)
		}
		tbl.WriteString("</tr>")
	}
	tbl.WriteString("</tbody></table>")
	old := "body { font-family: sans-serif; margin: 1.5em auto; max-width: 80em; padding: 0 1em; }\ntable { border-collapse: collapse; } th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; white-space: nowrap; }\n"
	page := func(name, css, body string) string {
		return write(t, root, name, "<!DOCTYPE html><html><head><meta charset=\"utf-8\" /><style>\n"+css+"</style></head><body><h1>A wide table</h1>"+body+"</body></html>")
	}
	wide := page("wide.html", old, tbl.String())
	fixed := page("fixed.html", report.PageCSS, tbl.String())
	small := page("small.html", report.PageCSS, `<p style="font-size: 8px">fine print</p><img src="fig.png" data-text-px="17" style="width: 20px" />`)
	writePNG(t, filepath.Join(root, "fig.png"), 200, 100)
	for _, w := range widths {
		if err := b.SetWidth(ctx, w); err != nil {
			t.Fatal(err)
		}
		r, err := b.Check(ctx, wide, "")
		if err != nil {
			t.Fatal(err)
		}
		if w == 390 && (r.OK() || r.ScrollWidth <= r.ClientWidth) {
			t.Errorf("%d px: the wide table passed: %d px in %d", w, r.ScrollWidth, r.ClientWidth)
		}
		if w == width && !r.OK() {
			t.Errorf("%d px: the wide table fails: %q", w, r.Problems())
		}
		t.Logf("%d px, wide table before: %s", w, strings.Join(r.Problems(), "; "))
		r, err = b.Check(ctx, fixed, "")
		if err != nil {
			t.Fatal(err)
		}
		if !r.OK() {
			t.Errorf("%d px: the table under PageCSS fails: %q", w, r.Problems())
		}
		if w == 390 && len(r.Boxes) != 1 {
			t.Errorf("%d px: boxes %q, want the table scrolling in its own box", w, r.Boxes)
		}
		r, err = b.Check(ctx, small, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(r.SmallText) != 1 || !strings.HasPrefix(r.SmallText[0], `p "fine print" at 8.0 px`) ||
			len(r.SmallFigures) != 1 || !strings.HasPrefix(r.SmallFigures[0], "fig.png: labels 1.7 px") {
			t.Errorf("%d px: small text %q, small figures %q", w, r.SmallText, r.SmallFigures)
		}
	}
}

// writePNG writes a white w×h PNG.
func writePNG(t *testing.T, path string, w, h int) {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}
