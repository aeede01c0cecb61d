package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/paperreport"
	"github.com/runexp/runexp/internal/scoreboard"
)

// outcomeNames maps the outcome a claim table shows (its first words) to
// the category the totals lines count it under, as docs/readings.md
// defines both; written out here so that the test does not read the
// scoreboard's own table of them.
var outcomeNames = []struct{ short, long string }{
	{"as stated", "reproduced as stated"},
	{"other reading", "reproduced only under another documented reading"},
	{"not reproduced", "not reproduced"},
	{"inconclusive", "inconclusive"},
	{"not evaluated", "not evaluated"},
	{"not testable", "not testable here"},
	{"not run", "not run"},
}

// claimTable reads the first Markdown table under heading in md whose
// header has the columns claim and outcome: the outcome of each claim
// (its note's reference [N] dropped), by paper (column paper, or the
// paper given).
func claimTable(t *testing.T, md, heading, paper string) map[string]map[string]string {
	t.Helper()
	i := strings.Index(md, "\n"+heading+"\n")
	if i < 0 {
		t.Fatalf("no %q section", heading)
	}
	out := map[string]map[string]string{}
	inTable := false
	var cols map[string]int
	for _, l := range strings.Split(md[i+len(heading)+2:], "\n") {
		if strings.HasPrefix(l, "## ") {
			break
		}
		if !strings.HasPrefix(l, "|") {
			if inTable {
				break
			}
			continue
		}
		cells := strings.Split(strings.Trim(l, "| "), " | ")
		if !inTable {
			// The header names the columns; the totals table before the
			// one wanted has no claim column.
			cols = map[string]int{}
			for i, c := range cells {
				cols[c] = i
			}
			_, hasClaim := cols["claim"]
			_, hasOutcome := cols["outcome"]
			inTable = hasClaim && hasOutcome
			continue
		}
		if strings.HasPrefix(cells[0], "-") {
			continue
		}
		p := paper
		if c, ok := cols["paper"]; ok {
			p = cells[c]
		}
		id, _, _ := strings.Cut(cells[cols["claim"]], " ")
		if out[p] == nil {
			out[p] = map[string]string{}
		}
		out[p][id] = strings.ReplaceAll(cells[cols["outcome"]], `\`, "")
	}
	return out
}

// TestSameUnits is the first "Done when" of issue #44: REPRODUCIBILITY.md,
// each paper's report and the suite's summary lines count the same
// units, the papers' claims, each with the same outcome. The committed
// REPRODUCIBILITY.md and the reports built from baseline/ are read as
// their readers read them (the Markdown tables); the suite's lines are
// scoreboard.Board.ClaimLines of the same root, the lines suite.Report
// keeps.
func TestSameUnits(t *testing.T) {
	needPaperValues(t)
	b, err := scoreboard.Load(repoConfigs, repoBaseline, paperValues)
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join("..", "..", "REPRODUCIBILITY.md"))
	if err != nil {
		t.Fatal(err)
	}
	board := claimTable(t, string(md), "## The paper's claims", "")
	lines := b.ClaimLines()
	total := 0
	for _, p := range b.Papers {
		rep, err := paperreport.Build(paperreport.Options{Root: repoBaseline, Configs: repoConfigs, PaperValues: paperValues}, p.ID)
		if err != nil {
			t.Fatalf("%s: %v", p.ID, err)
		}
		scope := claimTable(t, rep.Markdown, "## Introduction", p.ID)[p.ID]
		if len(scope) != len(board[p.ID]) {
			t.Errorf("%s: the report lists %d claims, REPRODUCIBILITY.md %d", p.ID, len(scope), len(board[p.ID]))
		}
		counts := map[string]int{}
		for id, o := range scope {
			if w := board[p.ID][id]; w != o {
				t.Errorf("%s %s: the report says %q, REPRODUCIBILITY.md %q", p.ID, id, o, w)
			}
			known := false
			for _, n := range outcomeNames {
				if o == n.short || strings.HasPrefix(o, n.short+" (") {
					counts[n.long]++
					known = true
				}
			}
			if !known {
				t.Errorf("%s %s: outcome %q is none of the categories", p.ID, id, o)
			}
		}
		total += len(scope)
		line := ""
		for _, l := range lines {
			if strings.Contains(l, " "+p.ID+": paper claims ") {
				line = l
			}
		}
		want := fmt.Sprintf("paper claims %d: ", len(scope))
		for i, n := range outcomeNames {
			if i > 0 {
				want += ", "
			}
			want += fmt.Sprintf("%d %s", counts[n.long], n.long)
		}
		// The line goes on with the claims passing under the stated
		// protocol and under the assignment.
		if !strings.Contains(line, want+";") {
			t.Errorf("%s: the suite's line %q, the report counts %q", p.ID, line, want)
		}
		if mark, _ := scoreboard.Headline(p); !strings.Contains(rep.Title, mark) || !strings.HasPrefix(line, mark+" ") {
			t.Errorf("%s: headline %s, the report's title %q, the suite's line %q", p.ID, mark, rep.Title, line)
		}
	}
	if total != 46 {
		t.Errorf("%d paper claims over the reports; the five papers' paper values list 46", total)
	}
}
