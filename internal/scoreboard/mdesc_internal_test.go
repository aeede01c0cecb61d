package scoreboard

import (
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/report/reporttest"
)

// TestMdEscHTML: a paper title, config title or claim statement opens no
// HTML tag in scoreboard.md, nor does a claim's interval
// method (ci_method): the fixture tables.md is tested with,
// through report.MarkdownText, the one escape of every Markdown writer.
func TestMdEscHTML(t *testing.T) {
	got := mdEsc("<script>alert(1)</script> | a & b")
	if strings.Contains(got, "<") || got != `&lt;script>alert(1)&lt;/script> \| a & b` {
		t.Errorf("mdEsc = %q", got)
	}
	for _, s := range []string{reporttest.InjectionTitle, reporttest.InjectionNotes} {
		if tag := reporttest.RawTag(mdEsc(s)); tag != "" {
			t.Errorf("mdEsc(%q) holds %q raw", s, tag)
		}
		c := Cell{Run: true, Present: true, Verdict: Pass, HasCI: true, CILo: 1, CIHi: 2, CIMethod: s}
		if _, extra := verdictText(c); reporttest.RawTag(extra) != "" {
			t.Errorf("the interval method %q is written raw: %q", s, extra)
		}
		if tag := reporttest.RawTag(intervalsText([]string{s})); tag != "" {
			t.Errorf("the paper's interval method %q is written raw", s)
		}
	}
}
