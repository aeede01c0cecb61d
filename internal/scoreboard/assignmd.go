package scoreboard

import (
	"fmt"
	"math"
	"strings"

	"github.com/runexp/runexp/internal/report"
)

// AssignmentHeader heads each paper's table of its assignment in
// REPRODUCIBILITY.md.
const AssignmentHeader = "| ambiguity | counted reading | fit: counted vs stated protocol | how chosen | readings run |"

// markdownAssignment writes the section stating each paper's assignment:
// the rule, then per paper a row per ambiguity some config reads
// otherwise (with the reading counted, its fit beside the stated
// protocol's, the rule that chose it and the readings run), and the
// ambiguities no config reads, in one line.
func (b *Board) markdownAssignment(md mdWriter) {
	md.p("\n## One reading per ambiguity: the assignment\n\n")
	md.para("Each paper is counted under its stated protocol and under one assignment of readings, one reading per listed " +
		"ambiguity for the whole paper; the counts above and every outcome are the assignment's. " + AssignmentRule)
	for _, p := range b.Papers {
		if len(p.Assignment.Choices) == 0 {
			continue
		}
		md.p("### %s\n\n", mdEsc(p.ID))
		var unread []string
		var rows []string
		for _, ch := range p.Assignment.Choices {
			if ch.Rule == RuleStatedNotRead {
				unread = append(unread, ambiguityName(ch))
				continue
			}
			rows = append(rows, fmt.Sprintf("| %s | %s | %s | %s | %s |", mdEsc(ambiguityName(ch)), choiceReading(ch), mdEsc(choiceFitText(ch)), mdEsc(ch.Why), codeList(ch.Readings)))
		}
		if len(rows) > 0 {
			md.p("%s\n|---|---|---|---|---|\n%s\n\n", AssignmentHeader, strings.Join(rows, "\n"))
		}
		if len(unread) > 0 {
			md.para("Read as the stated protocol reads them, no config reading them otherwise (%d): %s.", len(unread), mdEsc(strings.Join(unread, "; ")))
		}
	}
}

// ambiguityName is "a1 (noise scale)".
func ambiguityName(ch Choice) string {
	if ch.Topic == "" {
		return ch.Ambiguity
	}
	return ch.Ambiguity + " (" + ch.Topic + ")"
}

// choiceReading names the reading a choice counts, with its configs.
func choiceReading(ch Choice) string {
	if ch.Reading == "" {
		return "stated protocol"
	}
	return fmt.Sprintf("`%s` (%s)", mdEsc(ch.Reading), codeList(ch.Configs))
}

// choiceFitText is a choice's fits, one per printed table: "Table 1: clip
// 0.109 against 1.102 (15 cells)"; "no printed value" without one.
func choiceFitText(ch Choice) string {
	if len(ch.Fits) == 0 {
		return "no printed value bears on it"
	}
	var parts []string
	for _, f := range ch.Fits {
		table := f.Base
		if _, part, ok := strings.Cut(f.Table, " — "); ok {
			table += " (" + report.Short(part, 24) + ")"
		}
		if f.Interpretation != "" {
			table += " read as " + f.Interpretation
		}
		s := fmt.Sprintf("%s: %s %s against %s (%d cells)", table, f.Reading, fitNum(f.Distance), fitNum(f.StatedDistance), min(f.Cells, f.StatedCells))
		if f.Better {
			s += ", clearly better"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

// fitNum is a distance to three decimals.
func fitNum(d float64) string {
	if math.IsNaN(d) {
		return "—"
	}
	return fmt.Sprintf("%.3f", d)
}

// sensitivityNote is what a claim's note says of its other readings:
// "Sensitivity (never counted): noise255 (a1) FAIL, flipping the stated
// PASS; …", "" when none bears on it.
func sensitivityNote(a Account) string {
	if len(a.Sensitivity) == 0 {
		return ""
	}
	var parts []string
	for _, s := range a.Sensitivity {
		p := fmt.Sprintf("`%s` %s", s.Reading, s.Verdict)
		if s.RanRows < s.Rows {
			p += fmt.Sprintf(" (%s on the %d of %d rows it ran)", s.RanVerdict, s.RanRows, s.Rows)
		}
		switch {
		case s.Flips:
			p += " (flips the stated PASS)"
		case s.Passes:
			p += " (passes where the assignment does not)"
		}
		parts = append(parts, p)
	}
	return "Sensitivity, never counted: " + strings.Join(parts, "; ") + "."
}
