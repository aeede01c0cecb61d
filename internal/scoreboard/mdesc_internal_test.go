package scoreboard

import (
	"strings"
	"testing"
)

// TestMdEscHTML: a paper title, config title or claim statement opens no
// HTML tag in scoreboard.md (issue #38).
func TestMdEscHTML(t *testing.T) {
	got := mdEsc("<script>alert(1)</script> | a & b")
	if strings.Contains(got, "<") || got != `&lt;script>alert(1)&lt;/script> \| a & b` {
		t.Errorf("mdEsc = %q", got)
	}
}
