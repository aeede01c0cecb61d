package scoreboard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReproducibilityMarkdown reads the committed REPRODUCIBILITY.md (CI
// regenerates it from baseline/ and fails on a difference) and checks
// that no line is wider than MarkdownWidth outside link targets, and
// that each paper section states each interval method of its verdicts
// exactly once (not once per verdict, as it did: 396 times).
func TestReproducibilityMarkdown(t *testing.T) {
	repo := filepath.Join("..", "..")
	md, err := os.ReadFile(filepath.Join(repo, "REPRODUCIBILITY.md"))
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(md), "\n") {
		if w := MarkdownLineWidth(l); w > MarkdownWidth {
			t.Errorf("REPRODUCIBILITY.md:%d: %d columns outside link targets, over %d", i+1, w, MarkdownWidth)
		}
	}
	b, err := Load(filepath.Join(repo, "configs"), filepath.Join(repo, "baseline"), "")
	if err != nil {
		t.Fatal(err)
	}
	sections := strings.Split(string(md), "\n## ")
	stated := 0
	for _, pp := range b.Papers {
		var sec string
		for _, s := range sections {
			if strings.Contains(strings.SplitN(s, "\n", 2)[0], "(`"+pp.ID+"`)") {
				sec = s
			}
		}
		if sec == "" {
			t.Errorf("no section for paper %s", pp.ID)
			continue
		}
		flat := strings.Join(strings.Fields(sec), " ")
		for _, m := range paperMethods(pp) {
			stated++
			// Stated as "Method: m." or "- (a) m.": counting m alone
			// would also count a longer method that contains it
			// ("paired BCa bootstrap …" contains "BCa bootstrap …").
			if n := strings.Count(flat, "Method: "+m+".") + strings.Count(flat, ") "+m+"."); n != 1 {
				t.Errorf("%s: interval method %q stated %d times, want once", pp.ID, m, n)
			}
		}
	}
	if stated == 0 {
		t.Error("no paper states an interval method: the baseline has intervals")
	}
}

func TestMarkdownLineWidth(t *testing.T) {
	for _, tc := range []struct {
		line string
		want int
	}{
		{"plain", 5},
		{"[PASS](a/very/long/path/claims.json) x", 10},
		{"| [FAIL](p) [-1, 2] | [PASS](q) |", 31},
		{"λ ± [a](b)", 9},
	} {
		if got := MarkdownLineWidth(tc.line); got != tc.want {
			t.Errorf("MarkdownLineWidth(%q) = %d, want %d", tc.line, got, tc.want)
		}
	}
}
