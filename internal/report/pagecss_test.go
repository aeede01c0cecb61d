package report

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFigureFit checks the thumbnail rule against hand-derived widths.
// A figure's labels are at least 9 CSS px when it is shown at least
// 9·w/textPx px wide; the column is the window less 34 px at most (2 em
// of padding and the image's border), so the note shows below
// 9·w/textPx + 34 px, rounded up to 40 px.
func TestFigureFit(t *testing.T) {
	for _, tc := range []struct {
		w      int
		textPx float64
		thumb  bool
		below  int
		class  string
	}{
		// 9·1200/12 = 900; 900 + 34 = 934 → 960.
		{1200, 12, false, 960, "tn-960"},
		// 9·400/12 = 300; 334 → 360: legible in any phone's window.
		{400, 12, false, 360, "tn-360"},
		// 9·1096/10 = 986.4; 1020.4 → 1040 (huang-table1's Fig. 7 grid,
		// its row labels 10 px tall in a 1096 px image).
		{1096, 10, false, 1040, "tn-1040"},
		// 9·1300/9 = 1300 > 1248, the widest column: a thumbnail.
		{1300, 9, true, 0, "thumb"},
		// Labels drawn under 9 of its own pixels: never legible.
		{300, 8, true, 0, "thumb"},
		// No size or no labels: nothing to say.
		{0, 12, false, 0, ""},
		{500, 0, false, 0, ""},
	} {
		thumb, below := FigureFit(tc.w, tc.textPx)
		if thumb != tc.thumb || below != tc.below {
			t.Errorf("FigureFit(%d, %g) = %t, %d; want %t, %d", tc.w, tc.textPx, thumb, below, tc.thumb, tc.below)
		}
		if c := FigureClass(tc.w, tc.textPx); c != tc.class {
			t.Errorf("FigureClass(%d, %g) = %q, want %q", tc.w, tc.textPx, c, tc.class)
		}
		if tc.below > 0 {
			rule := "@media (max-width: " + strings.TrimPrefix(tc.class, "tn-") + "px) { figure." + tc.class + " .thumb-note { display: block; } }"
			if !strings.Contains(PageCSS, rule) {
				t.Errorf("PageCSS lacks %s", rule)
			}
		}
	}
}

// TestPinsOwnMethod checks which tables of tables.md keep the paper's own
// method's column in view: the paper's layout (values or their intervals)
// with methods as columns, not parameters, and no other table.
func TestPinsOwnMethod(t *testing.T) {
	methods := []string{"Expression", "Noisy input", "Mika et al.", "local Gram (Huang et al.) [3]"}
	params := []string{"Method", "0.02", "0.04", "0.06 [2][5]"}
	for _, tc := range []struct {
		title  string
		header []string
		want   bool
	}{
		{"Table 1: APE per expression: runexp (paper)", methods, true},
		{"Table 1: APE per expression: 95% intervals of runexp's values", methods, true},
		{"Table 1: accuracy per λ: runexp (paper)", params, false},
		{"Every group and method (long form)", methods, false},
		{"Table 2: two columns: runexp (paper)", methods[:2], false},
	} {
		if got := PinsOwnMethod(tc.title, tc.header); got != tc.want {
			t.Errorf("PinsOwnMethod(%q, %q) = %t, want %t", tc.title, tc.header, got, tc.want)
		}
	}
	// Columns of ours appended after the paper's own method (a method of
	// the config the paper's table has no place for, one added with
	// --with) leave the pin on the paper's own method.
	extra := append(append([]string(nil), methods...), "Ours, eq. 7"+BeyondMark, "mine"+AddedMark+" [4]")
	if got := OwnMethodColumn("Table 1: APE per expression: runexp (paper)", extra); got != 3 {
		t.Errorf("OwnMethodColumn with columns of ours after the paper's = %d, want 3 (local Gram)", got)
	}
}

// TestIndexPapers checks the papers table of a results index: one row a
// paper with its headline coloured as the verdicts are ([¬Re] red, [Re?]
// amber, [Re] green, [not run] grey), linked to the paper's section of
// the scoreboard and to its report where the root holds them, and no
// table without papers.
func TestIndexPapers(t *testing.T) {
	root := t.TempDir()
	writeFakeRun(t, filepath.Join(root, "run-a"), "Run A", nil)
	if err := WriteIndexWith(root, IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "index.html")); strings.Contains(string(b), `id="papers"`) {
		t.Error("an index told no papers shows a papers table")
	}
	for _, f := range []string{"scoreboard.html", "reports/p1/report.html"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, f), []byte("<html></html>"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	papers := []IndexPaper{
		{ID: "p1", Title: "Paper <One>", Mark: "[¬Re]", Why: "1 of 2 claims reproduced; 1 fails as the paper states it (c2 not reproduced)"},
		{ID: "p2", Mark: "[Re?]", Why: "0 of 1 claims reproduced"},
		{ID: "p3", Title: "Three", Mark: "[Re]", Why: "2 of 2 claims reproduced"},
		{ID: "p4", Title: "Four", Mark: "[not run]", Why: "no claim was run"},
	}
	if err := WriteIndexWith(root, IndexOptions{Papers: papers}); err != nil {
		t.Fatal(err)
	}
	pg := parseXHTML(t, filepath.Join(root, "index.html"))
	for class, want := range map[string]string{"fail": "[¬Re]", "inc": "[Re?]", "pass": "[Re]", "ne": "[not run]"} {
		if got := pg.cells[class]; !slices.Contains(got, want) || !slices.Contains(pg.cells["key"], want) {
			t.Errorf("cells of class %q: %q, want %q among them, as the row's key", class, got, want)
		}
	}
	for _, l := range []string{"scoreboard.html#p1", "reports/p1/report.html", "scoreboard.html#p2"} {
		if !strings.Contains(strings.Join(pg.links, " "), l) {
			t.Errorf("index lacks link %s; has %q", l, pg.links)
		}
	}
	if strings.Contains(strings.Join(pg.links, " "), "reports/p2/") {
		t.Error("index links a report the root does not hold")
	}
	for _, s := range []string{"Paper <One>", "1 fails as the paper states it (c2 not reproduced)", "p2"} {
		if !strings.Contains(pg.text, s) {
			t.Errorf("index lacks %q", s)
		}
	}
}
