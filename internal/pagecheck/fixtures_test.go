package pagecheck_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/report"
)

// TestSmallFigureFixture checks the figure rule on its fixtures: a 1200 px
// figure whose smallest label is 12 of its pixels, shrunk
// to a phone's 390 px window (labels about 3.7 CSS px) and linked to its
// full image with nothing saying so, fails there (the check once let any
// linked image through below 600 px); the same figure with its
// thumbnail note shown below 960 px (report.FigureFit) passes. At 1280 px
// both show the labels at 12 px and pass.
func TestSmallFigureFixture(t *testing.T) {
	b, ctx := start(t)
	for _, w := range widths {
		if err := b.SetWidth(ctx, w); err != nil {
			t.Fatal(err)
		}
		bad, err := b.Check(ctx, filepath.Join("testdata", "smallfig-broken", "index.html"), "")
		if err != nil {
			t.Fatal(err)
		}
		good, err := b.Check(ctx, filepath.Join("testdata", "smallfig-fixed", "index.html"), "")
		if err != nil {
			t.Fatal(err)
		}
		if !good.OK() {
			t.Errorf("%d px: the fixed figure fails: %q", w, good.Problems())
		}
		if w == width {
			if !bad.OK() {
				t.Errorf("%d px: the figure at full size fails: %q", w, bad.Problems())
			}
			continue
		}
		if bad.OK() || len(bad.SmallFigures) != 1 || !strings.HasPrefix(bad.SmallFigures[0], "fig.png: labels 3.") ||
			!strings.HasSuffix(bad.SmallFigures[0], "no thumbnail note in view)") {
			t.Errorf("%d px: the 4 px labels: small figures %q, want fig.png's labels at 3.x px with no note", w, bad.SmallFigures)
		}
		t.Logf("%d px, broken: %s", w, strings.Join(bad.Problems(), "; "))
	}
}

// TestStarFixture checks the ★ rule on its fixtures: a matrix
// whose ★ in one column sits on 0.03573 while 0.03177 and 0.03226 are
// shown (ranks over other images than the means) fails, naming that
// column; the matrix with each ★ on its column's lowest mean passes. A
// note's number ("[1]") and a failed cell are not values.
func TestStarFixture(t *testing.T) {
	b, ctx := start(t)
	bad, err := b.Check(ctx, filepath.Join("testdata", "star-broken", "index.html"), "")
	if err != nil {
		t.Fatal(err)
	}
	if bad.OK() || len(bad.BadStars) != 1 || !strings.Contains(bad.BadStars[0], `column 2 "usps-noise": ★ on 0.03573 while 0.03177 is shown`) {
		t.Errorf("bad stars %q, want usps-noise's ★ on 0.03573 against 0.03177", bad.BadStars)
	}
	good, err := b.Check(ctx, filepath.Join("testdata", "star-fixed", "index.html"), "")
	if err != nil {
		t.Fatal(err)
	}
	if !good.OK() {
		t.Errorf("the fixed matrix fails: %q", good.Problems())
	}
}

// TestScrollingTableRules checks the rules of a table that scrolls in its
// own box at 390 px, on pages built here with report.PageCSS: a grid whose
// last column is pinned (the paper's own method) keeps its first and last
// columns in view at both ends of the scroll and shows a scroll shadow; a
// cell marked key in the middle of a grid goes out of view when scrolled,
// and is named; the same grid without the shadow is named too; a pinned
// column so wide that no method's name fits between it and the first
// column is named; a table of records (class stack) lays out without
// scrolling, its key in view.
func TestScrollingTableRules(t *testing.T) {
	b, ctx := start(t)
	if err := b.SetWidth(ctx, 390); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	grid := func(class string, mark func(j int) string) string {
		var tbl strings.Builder
		fmt.Fprintf(&tbl, `<table class="%s"><thead><tr><th>method</th>`, class)
		for j := range 7 {
			fmt.Fprintf(&tbl, `<th class="%s">benchmark-%d</th>`, mark(j), j)
		}
		tbl.WriteString("</tr></thead><tbody>")
		for r := range 3 {
			fmt.Fprintf(&tbl, "<tr><td>estimator %d</td>", r)
			for j := range 7 {
				fmt.Fprintf(&tbl, `<td class="%s">0.0%d%d (paper 0.0%d)</td>`, mark(j), r, j, j)
			}
			tbl.WriteString("</tr>")
		}
		return tbl.String() + "</tbody></table>"
	}
	page := func(name, css, body string) string {
		return write(t, root, name, "<!DOCTYPE html><html><head><meta charset=\"utf-8\" /><style>\n"+css+"</style></head><body><h1>Tables</h1>"+body+"</body></html>")
	}
	last := func(j int) string {
		if j == 6 {
			return "pin"
		}
		return ""
	}
	middle := func(j int) string {
		if j == 3 {
			return "key"
		}
		return ""
	}
	records := `<table class="stack"><thead><tr><th>claim</th><th>statement</th><th>verdict</th></tr></thead><tbody>` +
		`<tr><td>c1-ape-normal</td><td data-label="statement">` + strings.Repeat("a long statement of the claim ", 8) + `</td><td class="key fail" data-label="verdict">FAIL</td></tr></tbody></table>`
	// A pinned column as wide as the window leaves no room for a method's
	// name between it and the sticky first column: wherever the table
	// scrolls, the pin covers part of the name.
	wide := strings.NewReplacer(`<th class="pin">benchmark-6</th>`, `<th class="pin">robust-KPCA-(Nguyen-&amp;-De-la-Torre)-own-method</th>`,
		"<th>method</th>", "<th>Energy,occlusion,region-label</th>").Replace(grid("", last))
	for _, tc := range []struct {
		name, css, body string
		hidden, noCue   bool
		covers          bool
	}{
		{"pinned", report.PageCSS, grid("", last), false, false, false},
		{"pin covers", report.PageCSS + "th, td { overflow-wrap: normal; }\n", wide, false, false, true},
		{"key in the middle", report.PageCSS, grid("", middle), true, false, false},
		{"no shadow", report.PageCSS + "table { background: none; }\n", grid("", last), false, true, false},
		{"records", report.PageCSS, records, false, false, false},
	} {
		r, err := b.Check(ctx, page(strings.ReplaceAll(tc.name, " ", "-")+".html", tc.css, tc.body), "")
		if err != nil {
			t.Fatal(err)
		}
		if (len(r.HiddenKeys) > 0) != tc.hidden || (len(r.NoCue) > 0) != tc.noCue || (len(r.PinCovers) > 0) != tc.covers || r.OK() != !(tc.hidden || tc.noCue || tc.covers) {
			t.Errorf("%s: hidden %q, no cue %q, pin covers %q, want %t, %t and %t; problems %q", tc.name, r.HiddenKeys, r.NoCue, r.PinCovers, tc.hidden, tc.noCue, tc.covers, r.Problems())
		}
		if tc.covers && !strings.Contains(r.PinCovers[0], `"benchmark-0"`) {
			t.Errorf("%s: %q does not name a covered method", tc.name, r.PinCovers)
		}
		if tc.hidden && !strings.Contains(r.HiddenKeys[0], `.key "benchmark-3"`) {
			t.Errorf("%s: %q does not name the key cell", tc.name, r.HiddenKeys[0])
		}
		if tc.name == "records" && len(r.Boxes) != 0 {
			t.Errorf("records: scroll in a box: %q", r.Boxes)
		}
	}
}
