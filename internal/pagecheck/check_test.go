package pagecheck_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/runexp/runexp/internal/pagecheck"
)

// width is the window the pages must fit: a 1280-pixel screen, the width
// issue 26 names.
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
// is white-space: nowrap and holds a whole note (the run page before issue
// 26) scrolls sideways at 1280 px and the cell is named; the same page
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

// TestResults checks every page of the results root named by RUNEXP_PAGES
// (make browser-check sets it after running the configs), with a
// screenshot of each in its screenshots folder.
func TestResults(t *testing.T) {
	root := os.Getenv("RUNEXP_PAGES")
	if root == "" {
		t.Skip("RUNEXP_PAGES unset: make browser-check runs configs and checks their pages")
	}
	b, ctx := start(t)
	shots := filepath.Join(root, "screenshots")
	rs, err := b.CheckRoot(ctx, root, shots)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) < 2 {
		t.Errorf("%d pages under %s, want the index and at least one run", len(rs), root)
	}
	for _, r := range rs {
		rel, _ := filepath.Rel(root, r.Page)
		if r.OK() {
			t.Logf("%s: %d px in %d, %d images, %d links: ok", rel, r.ScrollWidth, r.ClientWidth, r.Images, r.Links)
			continue
		}
		for _, p := range r.Problems() {
			t.Errorf("%s: %s", rel, p)
		}
	}
	t.Logf("screenshots in %s", shots)
}
