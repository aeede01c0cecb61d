package scoreboard

import (
	"fmt"
	"math"
	"strings"

	"github.com/runexp/runexp/internal/report"
)

// AssignmentHeader heads each paper's table of its assignment in
// REPRODUCIBILITY.md and docs/readings.md.
const AssignmentHeader = "| ambiguity | counted reading | fit, counted against stated | readings run |"

// markdownAssignment writes the section stating each paper's assignment:
// the rule, then per paper its table (assignmentMarkdown) and the
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
		md.w.WriteString(p.assignmentMarkdown())
		var unread []string
		for _, ch := range p.Assignment.Choices {
			if ch.Rule == RuleStatedNotRead {
				unread = append(unread, ambiguityName(ch))
			}
		}
		if len(unread) > 0 {
			md.para("Read as the stated protocol reads them, no config reading them otherwise (%d): %s.", len(unread), mdEsc(strings.Join(unread, "; ")))
		}
	}
}

// assignmentMarkdown is a paper's assignment as a table, a row per
// ambiguity some config reads otherwise (the reading counted, its fit
// against the stated protocol's where a fit chose it, the readings run),
// each row's rule and fits per printed table in its numbered note; ""
// when no config reads any ambiguity otherwise.
func (p Paper) assignmentMarkdown() string {
	var rows, notes []string
	for _, ch := range p.Assignment.Choices {
		if ch.Rule == RuleStatedNotRead {
			continue
		}
		fit := "—"
		if r, st, ok := ch.Fit(); ok {
			fit = fitNum(r) + " against " + fitNum(st)
		}
		notes = append(notes, mdProse(upperFirst(ch.Why)+". Fits: "+choiceFitText(ch)+"."))
		rows = append(rows, fmt.Sprintf("| %s [%d] | %s | %s | %s |", mdEsc(ambiguityName(ch)), len(notes), choiceReading(ch), fit, codeList(ch.Readings)))
	}
	if len(rows) == 0 {
		return ""
	}
	var w strings.Builder
	fmt.Fprintf(&w, "%s\n|---|---|---|---|\n%s\n\n", AssignmentHeader, strings.Join(rows, "\n"))
	for i, n := range notes {
		w.WriteString(wrapMarkdown(fmt.Sprintf("%d. ", i+1), n, MarkdownWrap))
		w.WriteString("\n")
	}
	w.WriteString("\n")
	return w.String()
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
	return fmt.Sprintf("%s (%s)", mdCode(ch.Reading), codeList(ch.Configs))
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
