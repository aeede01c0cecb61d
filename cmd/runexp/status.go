package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
	"github.com/runexp/runexp/internal/suite"
)

// statusDoc is what runexp status (and run --dry-run) does.
const statusDoc = `Says what runexp CONFIG... would do with the same flags, computing nothing,
writing nothing: for each config, how many cells the cache serves, and each
cell it would compute with the reason: not in the cache (a new value of
the grid: which parameter, which value; a new method), config changed
(which keys, old → new; a parameter of the grid, "tol 1e-09 → 1e-08 (method
Mika)", the cell paired with the one it replaces; --with changed: a
parameter of an added estimator), code changed (which declarations of the
kind's, dataset's or estimator's code), data changed (which file), the
external estimator's script or a module it imports changed, an entry
rejected, --force; then the counts, what it checked of the data, and the
wall time predicted for what would be computed, from the times the cache
recorded when those cells (or the cells they replace) were last computed
(runexp suite --predict's list scheduling). A run logs the same reason for
each cell it computes (-v) and suite.json keeps them ("recomputed").
runexp run --dry-run is the same command.

`

func newStatusCommand() (*command, *runFlags) {
	c, f := newRunCommand()
	c.name, c.path = "status", "runexp status"
	c.synopsis = []string{"runexp status [flags] CONFIG...", "runexp run --dry-run [flags] CONFIG..."}
	c.doc = statusDoc + configWords
	c.footer = `Before its first cell a run opens the data root and reads the config's data,
each file checked against SHA256SUMS; status checks the same (the files the
config's last run read, as its manifest or cache entries list them, up to
1 GiB in all; it says which configs it could not check) and exits as the
run would.

Exit status: 0, whatever would run; 2 for a usage, config or cache error,
or when the run would stop on its data (no data root, a data file missing
or not as SHA256SUMS lists it).`
	c.flags.BoolVar(&f.listCached, "cached", false, "list the cells the cache serves too")
	c.flags.BoolVar(&f.json, "json", false, "print it as one JSON object (docs/schemas/status.schema.json), for scripts")
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
	return dryRunEntries(e, stdout, entries, o.Run, f.jobs, f.listCached, f.quiet, f.json, suite.Earlier{File: f.times})
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
	if l := dataLine(rep); l != "" {
		p.line(l)
	}
	if run == 0 {
		if len(rep.DataErrors()) > 0 {
			p.line("nothing to compute: the cache serves every cell, but the run would stop on its data first")
			return
		}
		p.line("nothing to compute: the cache serves every cell (the reports are still written)")
		return
	}
	stopped := rep.Stopped()
	if stopped == run {
		p.line(fmt.Sprintf("predicted wall time: none: the %s to compute belong to configs that would stop on their data before their first cell", count(run, "cell")))
		return
	}
	w, unknown := rep.Workload()
	if w.Cells() == 0 {
		p.line(fmt.Sprintf("predicted wall time: unknown (none of the %d computations has a time recorded: not in the cache, OUT/suite.json or the baseline's costs.json; --times FILE names an earlier run's suite.json)", unknown))
		return
	}
	pr := w.Predict(workers)
	s := fmt.Sprintf("predicted wall time of the cells to compute on %d workers: %s (%s of work", workers, humanSeconds(pr.Seconds), humanSeconds(w.Work()))
	if n, files := rep.Earlier(); n > 0 {
		s += fmt.Sprintf("; %d of the costs from earlier runs: %s", n, strings.Join(sourceNames(files), ", "))
	}
	if unknown > 0 {
		s += fmt.Sprintf("; %d of the %d computations have no recorded time and are left out", unknown, w.Cells()+unknown)
	}
	if stopped > 0 {
		s += fmt.Sprintf("; the %s of the configs that would stop on their data left out", count(stopped, "cell"))
	}
	p.line(s + "; the configs' data loading and reports not included)")
}

// sourceNames names the files earlier runs' costs came from: the
// costs.json of several configs of one baseline as one,
// "BASELINE/*/costs.json (N configs)".
func sourceNames(files []string) []string {
	var out, bases []string
	per := map[string]int{}
	for _, f := range files {
		if filepath.Base(f) != suite.CostsFile {
			out = append(out, f)
			continue
		}
		b := filepath.Dir(filepath.Dir(f))
		if per[b] == 0 {
			bases = append(bases, b)
		}
		per[b]++
	}
	for _, b := range bases {
		if per[b] == 1 {
			for _, f := range files {
				if filepath.Dir(filepath.Dir(f)) == b && filepath.Base(f) == suite.CostsFile {
					out = append(out, f)
				}
			}
			continue
		}
		out = append(out, fmt.Sprintf("%s (%d configs)", filepath.Join(b, "*", suite.CostsFile), per[b]))
	}
	return out
}

// dataLine says what the dry run checked of the data the runs would read
// before their first cell ("" when no config needs a data root): the
// files verified against SHA256SUMS, and the configs whose files were
// not, and why.
func dataLine(rep *suite.DryRunReport) string {
	var files, checked, failed int
	var bytes int64
	unchecked := map[string][]string{}
	var reasons []string
	needed := false
	for _, cp := range rep.Configs {
		d := cp.Data
		if !d.Needed {
			continue
		}
		needed = true
		files += d.Files
		checked += d.Checked
		bytes += d.Bytes
		if d.Err != nil {
			failed++
			continue
		}
		if d.Unchecked != "" {
			if !slices.Contains(reasons, d.Unchecked) {
				reasons = append(reasons, d.Unchecked)
			}
			unchecked[d.Unchecked] = append(unchecked[d.Unchecked], cp.Config.Name)
		}
	}
	if !needed {
		return ""
	}
	var parts []string
	switch {
	case checked > 0:
		parts = append(parts, fmt.Sprintf("%s that the last runs read checked against SHA256SUMS (%s)", count(checked, "file"), runner.Bytes(float64(bytes))))
	case files > 0:
		parts = append(parts, "the files the last runs read were checked for an earlier config")
	}
	if failed > 0 {
		parts = append(parts, fmt.Sprintf("%s would stop on its data (below)", count(failed, "config")))
	}
	// Configs not checked for the same reason are counted together (a
	// fresh results folder: every config).
	var not []string
	for _, why := range reasons {
		names := unchecked[why]
		if len(names) > 3 {
			not = append(not, fmt.Sprintf("%d configs (%s, …), each: %s", len(names), strings.Join(names[:2], ", "), why))
			continue
		}
		not = append(not, strings.Join(names, ", ")+": "+why)
	}
	if len(not) > 0 {
		parts = append(parts, "not checked: "+strings.Join(not, "; "))
	}
	if len(parts) == 0 {
		return ""
	}
	return "data: " + strings.Join(parts, "; ")
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
	why   []string
	cells []string
	keys  []string
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
			out = append(out, reasonGroup{text: text, why: c.Reason.Why})
		}
		out[k].cells = append(out[k].cells, cp.Labels[i])
		out[k].keys = append(out[k].keys, c.Cell.Key)
	}
	return out
}

// dryRunEntries prints what a run of entries with o would do (runexp
// status, run --dry-run, suite --dry-run), as JSON with asJSON; earlier
// names where the costs of earlier runs are looked for besides the
// results root (suite.EarlierTimes).
func dryRunEntries(e *errOut, stdout io.Writer, entries []suite.Entry, o runner.Options, workers int, listCached, quiet, asJSON bool, earlier suite.Earlier) int {
	o.Log = nil // the lookup's own notes would repeat the reasons
	rep, err := suite.DryRun(entries, o)
	if err == nil {
		if earlier.OutRoot = o.Top; earlier.OutRoot == "" {
			earlier.OutRoot = o.OutRoot
		}
		rep.Times, rep.TimesFrom, err = suite.EarlierTimes(entries, earlier)
	}
	if err != nil {
		if asJSON {
			writeJSON(stdout, statusFailed(err, exitUsage))
		}
		return e.fail(exitUsage, "%v%s", err, dataRootHint(err))
	}
	if asJSON {
		code := exitOK
		if len(rep.DataErrors()) > 0 {
			code = exitUsage
		}
		if err := writeJSON(stdout, statusJSON(rep, workers, listCached, code)); err != nil {
			return e.fail(exitUsage, "%v", err)
		}
	} else {
		printDryRun(newPrinter(stdout), rep, workers, listCached, quiet)
	}
	// What the run checks before its first cell, it would stop on: the
	// dry run exits as the run would, with its words.
	errs := rep.DataErrors()
	for i, de := range errs {
		msg := fmt.Sprintf("%s: the run would stop before its first cell: %v%s", de.Config, de.Err, dataRootHint(de.Err))
		if i == len(errs)-1 {
			return e.fail(exitUsage, "%s", msg)
		}
		e.err("%s", msg)
	}
	return exitOK
}

// humanSeconds writes a duration in seconds as a reader plans with it:
// "5.2 s", "3 min 20 s", "1 h 05 min".
func humanSeconds(sec float64) string {
	switch {
	case sec < 100:
		return fmt.Sprintf("%.1f s", sec)
	case sec < 3600:
		return fmt.Sprintf("%d min %02d s", int(sec)/60, int(sec)%60)
	}
	return fmt.Sprintf("%d h %02d min", int(sec)/3600, int(sec)%3600/60)
}
