package paperreport

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/scoreboard"
)

// discrepancyFactor is how far our value must be from the paper's printed
// one, either way, for the discussion to name it: a factor 2 is beyond
// what rounding, a different random split or a stand-in's scale explain
// by themselves, and below it the tables already show the cell.
const discrepancyFactor = 2

// discussion writes the Discussion: the printed values ours are far from
// (by more than discrepancyFactor), the reading the printed numbers point
// to, the claims not reproduced and what would decide them, and where the
// data are stand-ins; every sentence from the results and the configs.
func (b *builder) discussion() {
	d := &b.d
	d.h(2, "Discussion")
	var items []string
	for _, r := range b.base {
		if s := b.farCells(r); s != "" {
			items = append(items, s)
		}
	}
	for _, t := range b.sb.Tables {
		for _, pf := range t.Fits {
			if f, ok := pf.BetterFit(); ok {
				base := pf.Fits[0]
				in := ""
				if pf.Interpretation != "" {
					in = " read as " + pf.Interpretation
				}
				fit := func(v float64, what string) string { return b.derived(report.FormatFloat(v, 3), what+" of "+pf.Table) }
				items = append(items, fmt.Sprintf("The printed values of %s%s point to the reading `%s`: its typical cell is a factor %s from the paper's, against %s under the stated protocol (median |ln(ours/paper)| %s against %s).",
					pf.Table, in, f.Config, fit(math.Exp(f.Distance), "the reading's typical factor (the scoreboard's reading fit)"), fit(math.Exp(base.Distance), "the stated protocol's typical factor"),
					fit(f.Distance, "the reading's fit distance (scoreboard)"), fit(base.Distance, "the stated protocol's fit distance (scoreboard)")))
			}
		}
	}
	for _, a := range b.sb.Accounts {
		if a.Category == scoreboard.AsStated || a.Category == scoreboard.NotTestable || a.Category == scoreboard.OtherReading {
			continue
		}
		s := fmt.Sprintf("%s, %s: %s.", a.Claim.ID, scoreboard.OutcomeText(a), a.Why)
		if a.Decide != "" {
			s += " Would be decided by " + a.Decide + "."
		}
		items = append(items, s)
	}
	if len(items) == 0 {
		d.p("Every claim of the paper reproduces as stated, and no value of ours is a factor " + strconv.Itoa(discrepancyFactor) + " or more from the paper's.")
		return
	}
	d.p("What the results say beyond the verdicts: the printed values ours are a factor " + strconv.Itoa(discrepancyFactor) + " or more from, the reading the printed numbers point to, and, for each claim not reproduced, why and what would decide it.")
	d.ul(items)
}

// farCells says how far a config's values are from the paper's printed
// ones: the typical factor over its printed cells and the cells a factor
// discrepancyFactor or more off, the farthest first (at most four); ""
// when none is.
func (b *builder) farCells(r *run) string {
	if !r.HasRecords || len(r.Config.Reference) == 0 {
		return ""
	}
	recs, err := report.ReadJSONL(filepath.Join(r.Dir, "records.jsonl"))
	if err != nil {
		return ""
	}
	type far struct {
		where      string
		ours, paps float64
		lr         float64
	}
	var fs []far
	seen := map[string]bool{}
	for _, ref := range r.Config.Reference {
		ours, ok := oursOf(ref, recs)
		if !ok || ours <= 0 || ref.Value <= 0 {
			continue
		}
		where := ref.Row
		if ref.Column != "" {
			where += ", " + ref.Column
		}
		k := where + "\x00" + ref.Metric
		if seen[k] {
			continue
		}
		seen[k] = true
		if lr := math.Abs(math.Log(ours / ref.Value)); lr >= math.Log(discrepancyFactor) {
			fs = append(fs, far{where, ours, ref.Value, lr})
		}
	}
	if len(fs) == 0 {
		return ""
	}
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].lr > fs[j].lr })
	var cells []string
	for _, f := range fs[:min(len(fs), 4)] {
		cells = append(cells, fmt.Sprintf("%s: ours %s, the paper's %s", f.where, report.FormatFloat(f.ours, 4), strconv.FormatFloat(f.paps, 'g', -1, 64)))
	}
	return fmt.Sprintf("`%s`: %s of its %s printed cells are a factor %d or more from the paper's (%s).",
		r.Config.Name, b.count(len(fs), "printed cells of "+r.Config.Name+" a factor 2 off"), b.count(len(seen), "printed cells of "+r.Config.Name), discrepancyFactor, strings.Join(cells, "; "))
}

// derived notes a number the report computes from its sources (a fit, a
// ratio) with what it is, and returns it: the numbers-trace test finds it
// among the report's noted counts.
func (b *builder) derived(v, what string) string {
	b.counts = append(b.counts, v+": "+what)
	return v
}

// oursOf is our value of a reference: the metric of the first record its
// cell selects that did not fail.
func oursOf(ref config.Reference, recs []report.Record) (float64, bool) {
	for i := range recs {
		if !picks([]map[string]any{ref.Cell}, recs[i].Params) || recs[i].Status == report.StatusFailed {
			continue
		}
		v, ok := recs[i].Metrics[ref.Metric]
		return v, ok && !math.IsNaN(v) && !math.IsInf(v, 0)
	}
	return 0, false
}

// settings writes the hyperparameter and dataset tables of the configs of
// the stated protocol, from the configs themselves.
func (b *builder) settings() {
	d := &b.d
	var hyper, data [][]string
	for _, r := range b.base {
		c := r.Config
		m := c.Model
		kernel := m.Kernel
		if m.WidthName != "" && len(m.Widths) > 0 {
			kernel += ", " + m.WidthName + " " + floats(m.Widths)
		}
		sub := ""
		switch {
		case len(m.Components) > 0:
			sub = "components " + ints(m.Components)
		case len(m.Energy) > 0:
			sub = "energy " + floats(m.Energy)
		}
		var meths []string
		for _, me := range c.Methods {
			s := me.Name
			if me.Label != "" && me.Label != me.Name {
				s = me.Label + " (" + me.Name + ")"
			}
			if len(me.Params.Values) > 0 {
				s += " " + config.FormatValue(me.Params.Values)
			}
			meths = append(meths, s)
		}
		exp := ""
		if len(c.Experiment.Values) > 0 {
			exp = config.FormatValue(c.Experiment.Values)
		}
		hyper = append(hyper, []string{"`" + c.Name + "`", kernel, sub, strings.Join(meths, "\n"), exp})
		opts := config.FormatValue(c.Dataset.Options.Values)
		corr := c.Corruption.Type
		standIn := "the paper's own"
		if t := b.table(c.Name); t != nil && t.StandIn != "" {
			standIn = t.StandIn
		}
		data = append(data, []string{"`" + c.Name + "`", "`" + c.Dataset.Name + "` " + opts, corr, standIn})
	}
	d.h(3, "Hyperparameters")
	d.p("Every setting of the configs of the stated protocol as they ran (a list is a grid); the configs' notes say which are the paper's and which are ours.")
	d.table([]string{"config", "kernel", "subspace", "methods and their parameters", "experiment"}, hyper)
	d.h(3, "Datasets")
	d.table([]string{"config", "dataset and options", "corruption", "data"}, data)
}

func floats(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return strings.Join(s, ", ")
}

func ints(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}

// references writes the References: the reproduced paper, runexp and the
// paper-values file the claims and printed numbers come from.
func (b *builder) references() {
	d := &b.d
	d.h(2, "References")
	refs := []string{
		"[1] " + b.citation() + doiText(b.info.DOI),
		"[2] runexp, " + CodeURL + ", revision " + b.revision() + ".",
		"[3] The paper values: `" + b.paper + ".yaml` of the shared paper-values folder (every printed number, claim and ambiguity of [1], transcribed with its quote).",
	}
	d.ul(refs)
}

func doiText(doi string) string {
	if doi == "" {
		return ""
	}
	return " doi:" + doi
}

// relName names a path the report mentions without the machine's layout:
// relative to the working folder when it lies under it, else its last
// element.
func relName(path string) string {
	if !filepath.IsAbs(path) {
		return filepath.ToSlash(filepath.Clean(path))
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.Base(path)
}

// appendix links each run's long-form tables (tables.md: one row per grid
// cell, every metric in records.csv), which the Results leave out.
func (b *builder) appendix() {
	var items []string
	for _, r := range append(append([]*run(nil), b.base...), b.varies...) {
		if r.Tables == "" {
			continue
		}
		items = append(items, "`"+r.Config.Name+"`: "+b.link(filepath.Join(r.Dir, "tables.md"))+" (and records.csv beside it)")
	}
	if len(items) == 0 {
		return
	}
	b.d.h(2, "Appendix: long-form tables")
	b.d.ul(items)
}
