package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
	"github.com/runexp/runexp/internal/suite"
)

// statusDoc is what runexp status (and run --dry-run) does.
const statusDoc = `Says what runexp CONFIG... would do with the same flags, computing nothing,
writing nothing and reading no data file: for each config, how many cells
the cache serves, and each cell it would compute with the reason: not in
the cache, config changed (which keys, old → new), code changed (which
declarations of the kind's, dataset's or estimator's code), data changed
(which file), the external estimator's command or scripts changed, an entry
rejected, --force; then the counts and the wall time predicted for what
would be computed, from the times the cache recorded when those cells were
last computed (runexp suite --predict's list scheduling). A run logs the
same reason for each cell it computes (-v) and suite.json keeps them
("recomputed"). runexp run --dry-run is the same command.

`

func newStatusCommand() (*command, *runFlags) {
	c, f := newRunCommand()
	c.name, c.path = "status", "runexp status"
	c.synopsis = []string{"runexp status [flags] CONFIG...", "runexp run --dry-run [flags] CONFIG..."}
	c.doc = statusDoc + configWords
	c.footer = "Exit status: 0, whatever would run; 2 for a usage, config or cache error."
	c.flags.BoolVar(&f.listCached, "cached", false, "list the cells the cache serves too")
	return c, f
}

func cmdStatus(args []string, stdout, stderr io.Writer) int {
	c, f := newStatusCommand()
	f.dryRun = true
	return f.status(c, args, stdout, stderr)
}

// status runs runexp status: the configs loaded as a run loads them,
// then what a run would do with each cell.
func (f *runFlags) status(c *command, args []string, stdout, stderr io.Writer) int {
	term, e, pos, code, done := f.open(c, c.path, args, stdout, stderr)
	if done {
		return code
	}
	o, entries, err := f.options(e, term, pos, stdout)
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	return dryRunEntries(e, stdout, entries, o.Run, f.jobs, f.listCached, f.quiet)
}

// printDryRun prints what a run would do (suite.DryRunReport): a line per
// config, the cells it would compute grouped by reason (unless quiet),
// the cached ones when listCached, then the totals and the predicted
// wall time on workers.
func printDryRun(p printer, rep *suite.DryRunReport, workers int, listCached, quiet bool) {
	for _, cp := range rep.Configs {
		cached, todo := 0, 0
		for _, c := range cp.Cells {
			if c.Cached {
				cached++
			} else {
				todo++
			}
		}
		p.line(fmt.Sprintf("%s: %s: %d cached, %d to compute", cp.Config.Name, count(len(cp.Cells), "cell"), cached, todo))
		if quiet {
			continue
		}
		for _, g := range reasonGroups(cp) {
			p.line(fmt.Sprintf("  %s to compute: %s", count(len(g.cells), "cell"), g.text))
			printLabels(p, g.cells)
		}
		if listCached && cached > 0 {
			p.line(fmt.Sprintf("  %s cached:", count(cached, "cell")))
			var labels []string
			for i, c := range cp.Cells {
				if c.Cached {
					labels = append(labels, cp.Labels[i])
				}
			}
			printLabels(p, labels)
		}
	}
	cells, cached, run, distinct := rep.Counts()
	line := fmt.Sprintf("%s, %s: %d cached, %d to compute", count(len(rep.Configs), "config"), count(cells, "cell"), cached, run)
	if distinct < run {
		line += fmt.Sprintf(" (%d computations: %d shared between configs)", distinct, run-distinct)
	}
	var why []string
	for _, w := range rep.WhyCounts() {
		why = append(why, fmt.Sprintf("%s %d", w.Why, w.Cells))
	}
	if len(why) > 0 {
		line += "; by cause: " + strings.Join(why, ", ")
	}
	p.line(line)
	if run == 0 {
		p.line("nothing to compute: the cache serves every cell (the reports are still written)")
		return
	}
	w, unknown := rep.Workload()
	if unknown == distinct {
		p.line(fmt.Sprintf("predicted wall time: unknown (none of the %d computations has a time recorded in the cache)", distinct))
		return
	}
	pr := w.Predict(workers)
	s := fmt.Sprintf("predicted wall time of the cells to compute on %d workers: %.1f s (%.1f s of work", workers, pr.Seconds, w.Work())
	if unknown > 0 {
		s += fmt.Sprintf("; %d of the %d computations have no recorded time and are left out", unknown, distinct)
	}
	p.line(s + "; the configs' data loading and reports not included)")
}

// packLabels is the number of cells from which their labels are packed
// several to a line, separated by "; ".
const packLabels = 8

// printLabels prints cell labels indented, one a line, or packed several
// to a line (within 120 columns, or the terminal's width) when there are
// many.
func printLabels(p printer, labels []string) {
	if len(labels) < packLabels {
		for _, l := range labels {
			p.line("    " + l)
		}
		return
	}
	width := report.TextWidth
	if p.tty {
		width = min(width, p.width)
	}
	line := ""
	for i, l := range labels {
		if i < len(labels)-1 {
			l += ";"
		}
		if line != "" && len([]rune(line))+1+len([]rune(l)) > width-4 {
			fmt.Fprintln(p.w, "    "+line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += l
	}
	fmt.Fprintln(p.w, "    "+line)
}

// reasonGroup is the cells of a config that would be computed for one
// reason, by label.
type reasonGroup struct {
	text  string
	cells []string
}

func reasonGroups(cp suite.ConfigPlan) []reasonGroup {
	var out []reasonGroup
	at := map[string]int{}
	for i, c := range cp.Cells {
		if c.Cached {
			continue
		}
		text := c.Reason.Text
		if cp.Shared[i] {
			text += " (computed once for this run's earlier config with the same cell)"
		}
		k, ok := at[text]
		if !ok {
			k = len(out)
			at[text] = k
			out = append(out, reasonGroup{text: text})
		}
		out[k].cells = append(out[k].cells, cp.Labels[i])
	}
	return out
}

// dryRunEntries prints what a run of entries with o would do (runexp
// status, run --dry-run, suite --dry-run).
func dryRunEntries(e *errOut, stdout io.Writer, entries []suite.Entry, o runner.Options, workers int, listCached, quiet bool) int {
	o.Log = nil // the lookup's own notes would repeat the reasons
	rep, err := suite.DryRun(entries, o)
	if err != nil {
		return e.fail(exitUsage, "%v%s", err, dataRootHint(err))
	}
	printDryRun(newPrinter(stdout), rep, workers, listCached, quiet)
	return exitOK
}
