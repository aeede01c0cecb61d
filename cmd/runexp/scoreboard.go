package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/scoreboard"
	"github.com/runexp/runexp/internal/suite"
)

// cmdScoreboard writes REPRODUCIBILITY.md (and optionally an HTML page)
// from a results root: every claim under its base config and under each
// documented reading (internal/scoreboard). Exit 0 when written, 2 on bad
// input; configs not run and claims not evaluated are content of the page,
// not a failure of the command.
func cmdScoreboard(args []string, stdout, stderr io.Writer) int {
	c := newCommand("scoreboard", []string{"runexp scoreboard [flags] RESULTS_ROOT"},
		`For each paper and claim: the verdict under the stated protocol and under each
documented reading (configs with variant_of), with intervals and links to the
evidence; totals per paper and per collection of configs (docs/readings.md).
RESULTS_ROOT is a folder of per-config results (runexp suite/run --out, or
baseline/). Paper titles and claims come from the paper values; when they
cannot be found the command exits 2 rather than count fewer claims.`)
	fs := c.flags
	configs := fs.String("configs", "configs", "the `DIR` of the configs (*.yaml)")
	pv := fs.String("paper-values", "", "the `DIR` of the paper-values YAML files, for paper titles and claims (default: shared/paper-values beside the checkout or a folder above it, or beside $RUNEXP_DATA; exit 2 when not found)")
	out := fs.String("out", "REPRODUCIBILITY.md", "the Markdown `FILE` to write")
	htmlOut := fs.String("html", "", "the HTML page `FILE` to write (none when empty)")
	readings := fs.String("readings", "", "rewrite the generated blocks of the Markdown `FILE` (docs/readings.md: the reading fit, each paper's assignment, every config's verdict counts) from the same results")
	e, pos, code, done := c.begin(args, stdout, stderr)
	if done {
		return code
	}
	if len(pos) != 1 {
		return e.fail(exitUsage, "want one RESULTS_ROOT; see runexp scoreboard --help")
	}
	root := pos[0]
	dir, err := suite.FindPaperValues(*configs, *pv)
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	b, err := suite.LoadScoreboard(*configs, root, dir)
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	if len(b.Untitled) > 0 {
		e.warn("warning: no paper title for %d papers, headed by their ids instead (%s); --paper-values DIR names the folder of the paper values", len(b.Untitled), b.Untitled[0])
	}
	cmd := []string{"runexp scoreboard"}
	if *configs != "configs" {
		cmd = append(cmd, "--configs "+filepath.ToSlash(*configs))
	}
	cmd = append(cmd, filepath.ToSlash(root))
	o := scoreboard.Options{Command: strings.Join(cmd, " "), ConfigsDir: *configs, LinkDir: filepath.Dir(*out)}
	if err := report.WriteFileAtomic(*out, b.Markdown(o)); err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	if *readings != "" {
		doc, err := os.ReadFile(*readings)
		if err == nil {
			var text string
			if text, err = scoreboard.UpdateGenerated(string(doc), b.GeneratedBlocks()); err == nil {
				err = report.WriteFileAtomic(*readings, []byte(text))
			}
		}
		if err != nil {
			return e.fail(exitUsage, "%s: %v", *readings, err)
		}
	}
	if *htmlOut != "" {
		o.LinkDir = filepath.Dir(*htmlOut)
		page, err := b.HTML(o)
		if err == nil {
			err = report.WriteFileAtomic(*htmlOut, page)
		}
		if err != nil {
			return e.fail(exitUsage, "%v", err)
		}
	}
	fmt.Fprint(stdout, b.Text())
	return exitOK
}
