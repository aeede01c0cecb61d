package pagecheck_test

import (
	"context"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/runexp/runexp/internal/pagecheck"
)

// fakeBrowser writes a shell script that stands in for Chromium: it
// prints a line on stderr, waits for the first DevTools command on file
// descriptor 3, and answers on 4 with reply (printf format; "" for no
// answer: it exits).
func fakeBrowser(t *testing.T, reply string) string {
	t.Helper()
	script := "#!/bin/sh\necho 'fake chromium: cannot open display' >&2\n"
	if reply != "" {
		script += "dd bs=1 count=1 <&3 >/dev/null 2>&1\nsleep 0.1\nprintf '" + reply + "' >&4\n"
	}
	p := filepath.Join(t.TempDir(), "chromium")
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestStartFails checks Start against browsers that cannot be driven: the
// error names the DevTools command that failed and why, carries the end
// of the browser's stderr where there is one, and the throw-away profile
// is removed (TMPDIR is the test's, so a leftover is seen).
func TestStartFails(t *testing.T) {
	for _, tc := range []struct {
		name, path string
		reply      string
		want       []string
	}{
		{name: "missing", path: "/nonexistent/chromium", want: []string{"pagecheck: starting /nonexistent/chromium: "}},
		{name: "exits", reply: "", want: []string{"pagecheck: Target.createTarget: "}},
		{name: "refuses", reply: `{"id":1,"error":{"code":-32000,"message":"no target"}}\000`,
			want: []string{"pagecheck: Target.createTarget: no target (code -32000)", "Chromium's stderr ends: fake chromium: cannot open display"}},
		{name: "garbage", reply: `not json\000`,
			want: []string{"pagecheck: Target.createTarget: pagecheck: DevTools message: "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := tc.path
			if path == "" {
				path = fakeBrowser(t, tc.reply)
			}
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			b, err := pagecheck.Start(ctx, path, 1280)
			if err == nil {
				b.Close()
				t.Fatal("Start succeeded")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
				t.Errorf("left behind in TMPDIR: %v", ents)
			}
		})
	}
}

// TestLinkKinds checks the link rules on a page built here, each link
// alone: a folder is not a page, a fragment into a CSV cannot resolve, an
// id written with an HTML entity in another page matches its decoded
// fragment, and a plain link to a data file is fine.
func TestLinkKinds(t *testing.T) {
	b, ctx := start(t)
	root := t.TempDir()
	write(t, root, "data.csv", "a,b\n1,2\n")
	write(t, root, "sub/x.txt", "")
	write(t, root, "other.html", `<!DOCTYPE html><html><body><h2 id="a&amp;b">A and B</h2><p id='single'>x</p></body></html>`)
	page := write(t, root, "index.html", `<!DOCTYPE html><html><body>
<a href="data.csv">the records</a>
<a href="sub/">a folder</a>
<a href="data.csv#row2">a fragment of a CSV</a>
<a href="other.html#a&amp;b">an escaped id</a>
<a href="other.html#missing">a missing id</a>
<a href="other.html#single">an id in single quotes</a>
</body></html>`)
	r, err := b.Check(ctx, page, "")
	if err != nil {
		t.Fatal(err)
	}
	if r.Links != 6 {
		t.Errorf("%d links checked, want 6", r.Links)
	}
	want := []string{
		"sub/: a folder, not a page",
		"data.csv#row2: a fragment into a file that is not a page",
		"other.html#missing: no element with id missing",
		// The scan of another page's ids reads id="…" only, as runexp
		// writes them; single quotes are not seen.
		"other.html#single: no element with id single",
	}
	if len(r.BrokenLinks) != len(want) {
		t.Errorf("broken links %q, want %d", r.BrokenLinks, len(want))
	}
	for _, w := range want {
		if !slices.ContainsFunc(r.BrokenLinks, func(s string) bool { return strings.HasSuffix(s, w) }) {
			t.Errorf("no broken link ending %q in %q", w, r.BrokenLinks)
		}
	}
}

// TestOverflowListed checks what the overflow report holds: the innermost
// elements only (the cells, not their row and table), at most eight of
// them, and a box that scrolls sideways inside a page that itself fits.
func TestOverflowListed(t *testing.T) {
	b, ctx := start(t)
	root := t.TempDir()
	var cells strings.Builder
	for i := range 12 {
		fmt.Fprintf(&cells, `<tr><td class="wide">%d</td></tr>`, i)
	}
	wide := write(t, root, "wide.html", `<!DOCTYPE html><html><head><style>
body { margin: 0; } td.wide { display: block; width: 3000px; }
</style></head><body><table>`+cells.String()+`</table></body></html>`)
	r, err := b.Check(ctx, wide, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Overflow) != 8 {
		t.Errorf("%d overflowing elements listed, want the bound, 8: %q", len(r.Overflow), r.Overflow)
	}
	for _, o := range r.Overflow {
		if !strings.HasPrefix(o, "td.wide ") {
			t.Errorf("listed %q, want only the cells", o)
		}
	}

	scroll := write(t, root, "scroll.html", `<!DOCTYPE html><html><head><style>
body { margin: 0; } .wrap { overflow-x: auto; width: 600px; } .inner { width: 1000px; height: 10px; }
</style></head><body><div class="wrap"><div class="inner"></div></div></body></html>`)
	r, err = b.Check(ctx, scroll, "")
	if err != nil {
		t.Fatal(err)
	}
	if r.ScrollWidth > r.ClientWidth || len(r.Overflow) != 0 {
		t.Errorf("the page itself overflows: %d px in %d, %q", r.ScrollWidth, r.ClientWidth, r.Overflow)
	}
	if len(r.Scrollers) != 1 || !strings.HasPrefix(r.Scrollers[0], "div.wrap ") || !strings.HasSuffix(r.Scrollers[0], " 1000 px in 600") {
		t.Errorf("scrollers %q, want div.wrap, 1000 px in 600", r.Scrollers)
	}
	if r.OK() {
		t.Error("a page with a sideways scroller passed")
	}
}

// TestScreenshotHeight checks that a long page's screenshot stops at 6000
// CSS pixels (the bound in check.go: a 40-claim page must not become a
// 30 MB PNG) and is the browser's width wide.
func TestScreenshotHeight(t *testing.T) {
	b, ctx := start(t)
	root := t.TempDir()
	page := write(t, root, "long.html", `<!DOCTYPE html><html><body style="margin:0"><div style="height:20000px"></div></body></html>`)
	shot := filepath.Join(root, "shots", "long.png")
	r, err := b.Check(ctx, page, shot)
	if err != nil {
		t.Fatal(err)
	}
	if r.Screenshot != shot {
		t.Errorf("Screenshot %q, want %q", r.Screenshot, shot)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Width != width || cfg.Height != 6000 {
		t.Errorf("screenshot %d×%d, want %d×6000", cfg.Width, cfg.Height, width)
	}
}

// TestCheckMissingPage checks that a page that does not exist is an
// error, not a result checked on the browser's error page.
func TestCheckMissingPage(t *testing.T) {
	b, ctx := start(t)
	page := filepath.Join(t.TempDir(), "gone.html")
	_, err := b.Check(ctx, page, "")
	if err == nil || !strings.Contains(err.Error(), page+": the browser shows ") {
		t.Errorf("Check of a missing page: %v", err)
	}
}

// TestCheckRoot checks a small results root end to end: every page is
// checked, each screenshot lands under its ShotName, and a problem on a
// run page is reported against that page.
func TestCheckRoot(t *testing.T) {
	b, ctx := start(t)
	root := t.TempDir()
	write(t, root, "index.html", `<!DOCTYPE html><html><body><a href="run/index.html">run</a></body></html>`)
	write(t, root, "run/index.html", `<!DOCTYPE html><html><body><a href="../index.html">up</a><img src="fig.png"></body></html>`)
	shots := filepath.Join(root, "screenshots")
	rs, err := b.CheckRoot(ctx, root, shots)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 {
		t.Fatalf("%d results, want 2", len(rs))
	}
	if !rs[0].OK() {
		t.Errorf("index: %q", rs[0].Problems())
	}
	if rs[1].Page != filepath.Join(root, "run", "index.html") || !slices.Equal(rs[1].BrokenImages, []string{"fig.png"}) {
		t.Errorf("run page %s: broken images %q, want [fig.png]", rs[1].Page, rs[1].BrokenImages)
	}
	for _, name := range []string{"index.png", "run--index.png"} {
		if fi, err := os.Stat(filepath.Join(shots, name)); err != nil || fi.Size() == 0 {
			t.Errorf("screenshot %s: %v", name, err)
		}
	}
	if _, err := b.CheckRoot(ctx, t.TempDir(), ""); err == nil {
		t.Error("CheckRoot of a folder without index.html passed")
	}
}
