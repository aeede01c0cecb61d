package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/runexp/runexp/internal/paperreport"
	"github.com/runexp/runexp/internal/suggest"
	"github.com/runexp/runexp/internal/suite"
)

// cmdReport writes a reproduction report per paper (internal/paperreport):
// OUT/PAPER/REPORT.md, report.html, their appendix, metadata.yaml,
// bibliography.bib and the figures, and prints each paper's headline with
// its counts and where its report is. Exit 0 when written, 2 on bad
// input: an unknown paper, paper values not found, unreadable results.
func cmdReport(args []string, stdout, stderr io.Writer) int {
	c := newCommand("report", []string{"runexp report [flags] PAPER..."},
		`For each PAPER (a paper id of the configs, e.g. abrahamsen-hansen-regularized-preimage),
a reproduction report built only from the results, the configs and the paper values:
[Re], [¬Re] or [Re?] by a stated rule, and the sections of a ReScience C article:
introduction, implementation, methodology, results in the paper's layout with the
figures, discussion with the evidence behind each claim not reproduced, and
references, as REPORT.md and report.html (with an appendix of the long tables),
metadata.yaml and bibliography.bib in OUT/PAPER/, with the figures beside them.
Where a source is missing (a baseline has no manifests or figures) the report
draws what the records hold and says what is missing. It prints each paper's
headline and counts. PAPER "all" names every paper of the configs.`)
	fs := c.flags
	configs := fs.String("configs", "configs", "the `DIR` of the configs (*.yaml)")
	results := fs.String("results", "results", "the results root `DIR` (runexp suite --out, or baseline)")
	pv := fs.String("paper-values", "", "the `DIR` of the paper-values YAML files (default: shared/paper-values beside the checkout or a folder above it, or beside $RUNEXP_DATA)")
	out := fs.String("out", "", "the `DIR` the reports go in, one folder per paper (default: RESULTS/reports)")
	e, pos, code, done := c.begin(args, stdout, stderr)
	if done {
		return code
	}
	if len(pos) == 0 {
		return e.fail(exitUsage, "want at least one PAPER; see runexp report --help")
	}
	known, err := paperreport.Papers(*configs)
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	papers := pos
	if len(pos) == 1 && pos[0] == "all" {
		papers = known
	}
	for _, p := range papers {
		if !slices.Contains(known, p) {
			return e.fail(exitUsage, "%q is not a paper of the configs in %s%s: a report is of a paper whose configs' claims cite its paper-values file (%s); a config's own results are its folder under --results", p, *configs, suggest.Hint(p, known, 3), strings.Join(known, ", "))
		}
	}
	dir, err := suite.FindPaperValues(*configs, *pv)
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	// The reports are written under the folder the user named: --out,
	// or the results root, whose reports/ folder must then be a real
	// one (a link there would put them elsewhere).
	top := *out
	if *out == "" {
		*out, top = filepath.Join(*results, "reports"), *results
	}
	pr := newPrinter(stdout)
	for _, p := range papers {
		rep, files, err := paperreport.WriteReport(paperreport.Options{Configs: *configs, Root: *results, PaperValues: dir}, p, top, filepath.Join(*out, p))
		if err != nil {
			return e.fail(exitUsage, "%v", err)
		}
		printReport(pr, p, rep, files)
	}
	return exitOK
}

// printReport says what a paper's report found and where it is: the
// paper's headline with its counts (the scoreboard's), then the page to
// open and the report's other files by name, figures counted.
func printReport(pr printer, paper string, rep *paperreport.Report, files []string) {
	mark, why, _ := strings.Cut(rep.Headline, " ")
	pr.line(mark + " " + paper + ": " + why)
	var page string
	var others []string
	figs := 0
	for _, f := range files {
		switch b := filepath.Base(f); {
		case b == "report.html":
			page = f
		case strings.HasSuffix(b, ".png"):
			figs++
		default:
			others = append(others, b)
		}
	}
	if page != "" {
		pr.line("    " + page)
	}
	rest := strings.Join(others, ", ")
	if figs > 0 {
		rest += fmt.Sprintf(", %d figure", figs)
		if figs > 1 {
			rest += "s"
		}
	}
	pr.line("    beside it: " + rest)
}
