package report

import "slices"

// IndexOptions say what a results index shows beyond what its folders
// hold.
type IndexOptions struct {
	// Up links the root's page to an enclosing index, a URL relative to
	// the root such as "../index.html"; "" links nowhere.
	Up string
	// Papers are the papers' headlines, in the order shown: the verdict
	// per paper, which the scoreboard derives from every config of the
	// paper and its readings (scoreboard.Headline), so the index is told
	// it rather than reading it from the runs. None: no papers table.
	Papers []IndexPaper
}

// IndexPaper is a paper's line on the results index.
type IndexPaper struct {
	// ID is the paper's id: its section of scoreboard.html and its report
	// folder, reports/ID.
	ID, Title string
	// Mark is the headline ("[Re]", "[¬Re]", "[Re?]", "[not run]") and
	// Why the counts and claims behind it.
	Mark, Why string
}

// indexPaper is an IndexPaper as the page shows it.
type indexPaper struct {
	IndexPaper
	// Href links the paper's section of the scoreboard and Report its
	// report, each "" when the root holds no such page.
	Href, Report string
	// Class colours the mark (markClass).
	Class string
}

// indexPapers are the rows of the papers table, linking the scoreboard's
// section of each when the root has a scoreboard, and its report when
// reports names it.
func indexPapers(ps []IndexPaper, scoreboard bool, reports []string) []indexPaper {
	var out []indexPaper
	for _, p := range ps {
		row := indexPaper{IndexPaper: p, Class: markClass(p.Mark)}
		if row.Title == "" {
			row.Title = p.ID
		}
		if scoreboard {
			row.Href = "scoreboard.html#" + p.ID
		}
		if slices.Contains(reports, p.ID) {
			row.Report = relURL("reports", p.ID, "report.html")
		}
		out = append(out, row)
	}
	return out
}

// markClass colours a paper's headline as the verdicts are coloured:
// reproduced green, not reproduced (the paper's claim fails) red, not
// decided amber, not run grey.
func markClass(mark string) string {
	switch mark {
	case "[Re]":
		return "pass"
	case "[¬Re]":
		return "fail"
	case "[Re?]":
		return "inc"
	}
	return "ne"
}
