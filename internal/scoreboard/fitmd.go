package scoreboard

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/runexp/runexp/internal/report"
)

// FitHeader heads the reading-fit table of REPRODUCIBILITY.md and
// docs/readings.md (FitMarkdownTable), which cmd/runexp's tests find by
// it.
const FitHeader = "| printed table | interpretation | config | reading | distance | cells | excluded | missing |"

// FitMarkdownTable is the table of every printed table's reading fit: a
// row per config (the base first, then its variants), the distance to
// three decimals with the cells it is the median over, the cells
// excluded (zero or opposite signs) and missing (no value of ours). A
// distance in bold is the reading that fits clearly better than the
// stated protocol (BetterFactor, BetterMinCells).
func (b *Board) FitMarkdownTable() string {
	var w strings.Builder
	w.WriteString(FitHeader + "\n|---|---|---|---|---:|---:|---:|---:|\n")
	for _, pp := range b.Papers {
		for _, t := range pp.Tables {
			for _, pf := range t.Fits {
				for i, f := range pf.Fits {
					table, in := "", ""
					if i == 0 {
						table = mdEsc(report.Short(pf.Table, 70))
						in = interpretationText(pf)
					}
					d := fitDistance(f)
					if i == pf.Better {
						d = "**" + d + "**"
					}
					fmt.Fprintf(&w, "| %s | %s | `%s` | %s | %s | %d | %d | %d |\n", table, in, f.Config, fitRole(f), d, f.Cells, f.Excluded, f.Missing)
				}
			}
		}
	}
	return w.String()
}

// interpretationText names a printed fit's interpretation for a table
// cell: "—" where there is one, its column otherwise, marked when the
// paper's text does not support it.
func interpretationText(pf PrintedFit) string {
	switch {
	case pf.Interpretation == "":
		return "—"
	case !pf.Supported:
		return mdEsc(pf.Interpretation) + " (not supported by the text)"
	}
	return mdEsc(pf.Interpretation)
}

// fitRole says what a fit's config is to its printed table.
func fitRole(f Fit) string {
	switch {
	case f.Base:
		return "stated protocol"
	case f.Diagnostic:
		return "diagnostic"
	case f.PostHoc:
		return "post hoc"
	}
	return "reading"
}

// fitDistance is a fit's distance to three decimals, or why there is
// none.
func fitDistance(f Fit) string {
	switch {
	case !f.Run:
		return "not run"
	case f.Cells == 0 || math.IsNaN(f.Distance):
		return "no cell"
	}
	return fmt.Sprintf("%.3f", f.Distance)
}

// markdownFits writes the board's reading-fit section.
func (b *Board) markdownFits(md mdWriter) {
	any := false
	for _, pp := range b.Papers {
		for _, t := range pp.Tables {
			any = any || len(t.Fits) > 0
		}
	}
	if !any {
		return
	}
	md.p("\n## Reading fit\n\n")
	md.para("How close each config that regenerates a printed table of a paper comes to the paper's printed values: "+
		"the median over the table's cells of |ln(ours/paper)| (0 when every value is as printed, %.2f when the typical "+
		"cell is off by a factor of 2 either way), over the cells where both values are finite, non-zero and of one sign; "+
		"cells with a zero or opposite signs are counted as excluded, cells without a value of ours (no record, a failed "+
		"cell) as missing; a value the paper prints again for the same metric of the same cell (a baseline row repeated under "+
		"every column) counts once. A reading whose distance is at most 1/%d of the stated protocol's, both over at least %d cells, "+
		"fits the printed numbers clearly better (its distance in bold); its base's section and the notes of its "+
		"claims that do not pass as stated say so. Diagnostic variants are shown and never named. Where a config compares "+
		"one printed number with several of our metrics (interpretations of the paper's unit, such as an MSE read as a "+
		"per-image sum of squares on [0, 1] or a per-pixel MSE on 0-255), each interpretation is fitted apart, never pooled "+
		"in one median, and a reading is named only under an interpretation the paper's text supports (the config's "+
		"paper_table.interpretations, with its reason).",
		math.Ln2, BetterFactor, BetterMinCells)
	md.p("%s\n", b.FitMarkdownTable())
}

// fitNotes is what a base's section says under its table about which
// reading the printed values point to: "" when none fits clearly better.
func (t Table) fitNotes() string {
	var ss []string
	for _, pf := range t.Fits {
		if s := pf.pointsTo(); s != "" {
			ss = append(ss, s)
		}
	}
	return strings.Join(ss, " ")
}

// pointsTo is the sentence naming the reading that fits the printed
// table clearly better than the stated protocol, "" when none does.
func (pf PrintedFit) pointsTo() string {
	f, ok := pf.BetterFit()
	if !ok {
		return ""
	}
	base := pf.Fits[0]
	table := mdEsc(report.Short(pf.Table, 90))
	if pf.Interpretation != "" {
		table += " read as " + mdEsc(pf.Interpretation)
	}
	return fmt.Sprintf("**On this printed table the values point to the reading `%s`**: on %s, its distance to the paper's values is %s "+
		"(median |ln(ours/paper)| over %d cells) against the stated protocol's %s (over %d cells), a factor %.1f closer. "+
		"Which reading is counted is decided over all the paper's printed tables (the assignment, \"One reading per ambiguity\").",
		f.Label, table, fitDistance(f), f.Cells, fitDistance(base), base.Cells, base.Distance/f.Distance)
}

// fitClaimNote is what a claim's note adds when its base verdict is not
// PASS and a reading fits the printed table clearly better: the
// reading, so the reader does not take the stated protocol's verdict as
// the paper's.
func (t Table) fitClaimNote(r Row) string {
	if !r.Base.Run || !r.Base.Present || r.Base.Verdict == Pass {
		return ""
	}
	var names []string
	for _, pf := range t.Fits {
		if f, ok := pf.BetterFit(); ok && !slices.Contains(names, "`"+f.Label+"`") {
			names = append(names, "`"+f.Label+"`")
		}
	}
	if len(names) == 0 {
		return ""
	}
	return " This table's printed values fit the reading " + strings.Join(names, ", ") + " clearly better than the stated protocol (Reading fit; the assignment decides over all the paper's tables which reading is counted)."
}

// fitLines are the base's reading fits as plain lines, one per printed
// table: each config's distance and cells, the stated protocol first.
func (t Table) fitLines() []string {
	var out []string
	for _, pf := range t.Fits {
		var cs []string
		for _, f := range pf.Fits {
			name := f.Label
			if f.Base {
				name = "stated protocol"
			} else if f.Diagnostic {
				name += " (diagnostic)"
			} else if f.PostHoc {
				name += " (post hoc)"
			}
			d := fitDistance(f)
			if f.Run && f.Cells > 0 {
				d += fmt.Sprintf(" over %d cells", f.Cells)
			}
			cs = append(cs, name+" "+d)
		}
		out = append(out, fmt.Sprintf("Reading fit to %s (median |ln(ours/paper)|): %s.", report.Short(pf.Table, 90), strings.Join(cs, "; ")))
	}
	return out
}

// plainMarkdown drops the Markdown emphasis and code marks of s.
func plainMarkdown(s string) string {
	return strings.NewReplacer("**", "", "`", "").Replace(s)
}
