package pagecheck_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/pagecheck"
)

// write creates the file at root/rel with its folders.
func write(t *testing.T, root, rel, contents string) string {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(contents), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPages checks the list of pages of a results root in the order
// documented on Pages: the index, the scoreboard, then each subfolder's
// index.html in name order, leaving out hidden folders (.cache), folders
// without a page, and an index.html or scoreboard.html that is a folder.
func TestPages(t *testing.T) {
	root := t.TempDir()
	write(t, root, "index.html", "")
	write(t, root, "scoreboard.html", "")
	write(t, root, "zheng-lai-table1/index.html", "")
	write(t, root, "abrahamsen-hansen-fig2/index.html", "")
	write(t, root, "matrix/index.html", "")
	write(t, root, ".cache/index.html", "")
	write(t, root, "empty-run/records.jsonl", "")
	write(t, root, "odd/index.html/inside", "") // index.html a folder
	write(t, root, "a-file", "")
	write(t, root, "reports/zheng-lpkpca/report.html", "")
	write(t, root, "reports/abrahamsen-hansen-regularized-preimage/report.html", "")
	write(t, root, "reports/abrahamsen-hansen-regularized-preimage/REPORT.md", "")
	write(t, root, "reports/abrahamsen-hansen-regularized-preimage/appendix.html", "")
	write(t, root, "reports-baseline/zheng-lpkpca/report.html", "")
	write(t, root, "not-reports/zheng-lpkpca/report.html", "")
	got, err := pagecheck.Pages(root)
	if err != nil {
		t.Fatal(err)
	}
	var rel []string
	for _, p := range got {
		r, _ := filepath.Rel(root, p)
		rel = append(rel, filepath.ToSlash(r))
	}
	want := []string{"index.html", "scoreboard.html", "abrahamsen-hansen-fig2/index.html", "matrix/index.html", "zheng-lai-table1/index.html",
		"reports/abrahamsen-hansen-regularized-preimage/report.html", "reports/abrahamsen-hansen-regularized-preimage/appendix.html",
		"reports/zheng-lpkpca/report.html", "reports-baseline/zheng-lpkpca/report.html"}
	if !slices.Equal(rel, want) {
		t.Errorf("pages %q, want %q", rel, want)
	}

	// Without a scoreboard (a single run's root), and a scoreboard.html
	// that is a folder, the index comes first and the runs follow.
	root2 := t.TempDir()
	write(t, root2, "index.html", "")
	write(t, root2, "scoreboard.html/x", "")
	write(t, root2, "run/index.html", "")
	got, err = pagecheck.Pages(root2)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != filepath.Join(root2, "index.html") || got[1] != filepath.Join(root2, "run", "index.html") {
		t.Errorf("pages %q, want the index and run/index.html", got)
	}
}

// TestPagesNoIndex checks that a folder without index.html (not a results
// root: a typo in RUNEXP_PAGES) is an error naming the missing file, not
// an empty list that would pass the check.
func TestPagesNoIndex(t *testing.T) {
	root := t.TempDir()
	write(t, root, "run/index.html", "")
	_, err := pagecheck.Pages(root)
	if err == nil || !strings.HasPrefix(err.Error(), "pagecheck: ") || !strings.Contains(err.Error(), filepath.Join(root, "index.html")) {
		t.Errorf("Pages of a root without index.html: %v", err)
	}
}

// TestShotName checks the screenshot names of make browser-check: one
// flat folder, a name per page that says which page it is.
func TestShotName(t *testing.T) {
	root := filepath.Join("results", "browser")
	for _, tc := range []struct{ page, want string }{
		{filepath.Join(root, "index.html"), "index.png"},
		{filepath.Join(root, "scoreboard.html"), "scoreboard.png"},
		{filepath.Join(root, "huang-table1", "index.html"), "huang-table1--index.png"},
		{filepath.Join(root, "with", "mine", "index.html"), "with--mine--index.png"},
	} {
		if got := pagecheck.ShotName(root, tc.page); got != tc.want {
			t.Errorf("ShotName(%s, %s) = %q, want %q", root, tc.page, got, tc.want)
		}
	}
}

// TestResultProblems checks OK and Problems field by field: each problem
// alone makes the page fail and gives one line saying what it is.
func TestResultProblems(t *testing.T) {
	ok := pagecheck.Result{ClientWidth: 1280, ScrollWidth: 1280}
	if !ok.OK() || len(ok.Problems()) != 0 {
		t.Fatalf("a page filling the viewport exactly: OK %t, problems %q", ok.OK(), ok.Problems())
	}
	for _, tc := range []struct {
		name string
		set  func(*pagecheck.Result)
		want string
	}{
		{"wider", func(r *pagecheck.Result) { r.ScrollWidth = 1281 }, "scrolls sideways: 1281 px wide in a 1280 px viewport"},
		{"overflow", func(r *pagecheck.Result) { r.Overflow = []string{`td.expected "x" ends at 1400 px`} }, `past the right edge: td.expected "x" ends at 1400 px`},
		{"scroller", func(r *pagecheck.Result) { r.Scrollers = []string{"div.wrap 2000 px in 1200"} }, "scrolls sideways inside: div.wrap 2000 px in 1200"},
		{"image", func(r *pagecheck.Result) { r.BrokenImages = []string{"fig.png"} }, "image does not load: fig.png"},
		{"link", func(r *pagecheck.Result) { r.BrokenLinks = []string{"x.html: no such file"} }, "link does not resolve: x.html: no such file"},
	} {
		r := ok
		tc.set(&r)
		if r.OK() {
			t.Errorf("%s: OK", tc.name)
		}
		if p := r.Problems(); len(p) != 1 || p[0] != tc.want {
			t.Errorf("%s: problems %q, want [%q]", tc.name, p, tc.want)
		}
	}
}

// TestFind checks the order Find looks in: $RUNEXP_CHROMIUM first, then
// chromium, chromium-browser and google-chrome on the PATH.
func TestFind(t *testing.T) {
	bin := t.TempDir()
	exe := func(name string) string {
		p := filepath.Join(bin, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	t.Setenv("PATH", bin)
	t.Setenv("RUNEXP_CHROMIUM", "")
	if got := pagecheck.Find(); got != "" {
		t.Errorf("no browser on the PATH: Find() = %q", got)
	}
	chrome := exe("google-chrome")
	if got := pagecheck.Find(); got != chrome {
		t.Errorf("Find() = %q, want %q", got, chrome)
	}
	cb := exe("chromium-browser")
	if got := pagecheck.Find(); got != cb {
		t.Errorf("with chromium-browser and google-chrome: Find() = %q, want %q", got, cb)
	}
	c := exe("chromium")
	if got := pagecheck.Find(); got != c {
		t.Errorf("with all three: Find() = %q, want %q", got, c)
	}
	t.Setenv("RUNEXP_CHROMIUM", "/opt/mine/chrome")
	if got := pagecheck.Find(); got != "/opt/mine/chrome" {
		t.Errorf("RUNEXP_CHROMIUM set: Find() = %q", got)
	}
}
