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
// OUT/PAPER/REPORT.md, report.html and metadata.yaml. Exit 0 when written,
// 2 on bad input: an unknown paper, paper values not found, unreadable
// results.
func cmdReport(args []string, stdout, stderr io.Writer) int {
	c := newCommand("report", []string{"runexp report [flags] PAPER..."},
		`For each PAPER (a paper id of the configs, e.g. abrahamsen-hansen-regularized-preimage),
a reproduction report built only from the results, the configs and the paper values:
[Re] or [¬Re] by a stated rule, scope, methodology, results in the paper's layout,
what was easy and difficult, compute and how to reproduce, as REPORT.md, report.html
and a ReScience-style metadata.yaml in OUT/PAPER/. Where a source is missing (a
baseline has no manifests or tables) the report says so. PAPER "all" names every
paper of the configs.`)
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
	for _, p := range papers {
		files, err := paperreport.WriteUnder(paperreport.Options{Configs: *configs, Root: *results, PaperValues: dir}, p, top, filepath.Join(*out, p))
		if err != nil {
			return e.fail(exitUsage, "%v", err)
		}
		for _, f := range files {
			fmt.Fprintln(stdout, f)
		}
	}
	return exitOK
}
