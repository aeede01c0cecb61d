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

// discussion writes the Discussion from the results: the facts the
// detectors find in the records (methods worse than their noisy input,
// output that does not follow the grid, solvers at their iteration cap),
// the printed values ours are far from, the reading the printed numbers
// point to, what reproduced and on which data, and, per claim not
// reproduced as stated, its evidence under every config that bears on it
// and what would decide it. Each fact is said once.
func (b *builder) discussion() {
	d := &b.d
	d.h(2, "Discussion")
	var facts []string
	for _, r := range b.base {
		if !r.HasRecords {
			continue
		}
		recs, err := report.ReadJSONL(filepath.Join(r.Dir, "records.jsonl"))
		if err != nil {
			continue
		}
		var found []fact
		found = append(found, worseThanInput(r.Config, recs)...)
		found = append(found, flatOverGrid(r.Config, recs)...)
		found = append(found, capsHit(r.Config, recs)...)
		for _, f := range found {
			for _, n := range f.Derived {
				b.derived(n, "computed by a detector over the records of "+r.Config.Name)
			}
			facts = append(facts, "`"+r.Config.Name+"`: "+prose(f.Text))
		}
		if s := b.farCells(r, recs); s != "" {
			facts = append(facts, s)
		}
	}
	if len(facts) > 0 {
		d.p("What the records show beyond the verdicts, found in them by runexp (each with the numbers it rests on):")
		d.ul(facts)
	}
	b.reproducedText()
	var open []scoreboard.Account
	for _, a := range b.sb.Accounts {
		if a.Category != scoreboard.AsStated && a.Category != scoreboard.NotTestable {
			open = append(open, a)
		}
	}
	if len(open) == 0 {
		d.p("Every claim of the paper that a config tests reproduces as the paper states it.")
	}
	for _, a := range open {
		d.h(3, a.Claim.ID+": "+scoreboard.OutcomeText(a))
		s := "The paper: \"" + lit(report.Short(a.Claim.Statement, 200)) + "\""
		if a.Why != "" {
			s += " " + prose(upperFirst(a.Why)) + "."
		}
		if a.Category == scoreboard.OtherReading {
			s += " It reproduces under the assignment's " + strings.Join(a.Under, ", ") + ", not under the stated protocol (" + a.Stated + ")."
		}
		if t := sensitivityText(a); t != "" {
			s += " Under the other readings, not counted: " + t + "."
		}
		d.p(s)
		if len(a.Rows) > 0 {
			b.evidenceTable(a)
		} else if len(a.Aggregate) > 0 {
			d.p("It combines the outcomes of " + strings.Join(a.Aggregate, ", ") + " (their evidence is under each).")
		}
		if a.Decide != "" {
			d.p("What would decide it: " + prose(a.Decide) + ".")
		}
	}
	d.p("Communication with the authors: none recorded by runexp.")
}

// reproducedText says in one paragraph which claims reproduce as the
// paper states them and on which data.
func (b *builder) reproducedText() {
	standIn := map[string]bool{}
	for _, t := range b.sb.Tables {
		standIn[t.Base.Name] = t.StandIn != ""
	}
	var own, stand []string
	for _, a := range b.sb.Accounts {
		if a.Category != scoreboard.AsStated {
			continue
		}
		on := false
		for _, r := range a.Rows {
			on = on || standIn[r.Table]
		}
		if on {
			stand = append(stand, a.Claim.ID)
		} else {
			own = append(own, a.Claim.ID)
		}
	}
	var parts []string
	if len(own) > 0 {
		parts = append(parts, joinAnd(own)+" on the paper's own data")
	}
	if len(stand) > 0 {
		parts = append(parts, joinAnd(stand)+" on stand-ins for the paper's data")
	}
	if len(parts) > 0 {
		b.d.p("Reproduced as the paper states them: " + strings.Join(parts, "; ") + ". The claims that are not follow, each with the verdicts and numbers of every config that bears on it: the stated protocol, the assigned reading, the other readings of the paper's ambiguities, and the diagnostics of our data.")
	}
	var flipped []string
	for _, a := range b.sb.Accounts {
		if a.Category != scoreboard.AsStated {
			continue
		}
		for _, s := range a.Sensitivity {
			if s.Flips {
				flipped = append(flipped, a.Claim.ID+" under "+s.Reading+" ("+s.Verdict+")")
			}
		}
	}
	if len(flipped) > 0 {
		b.d.p("Reproduced as stated, but not under every documented reading (shown, not counted): " + strings.Join(flipped, "; ") + ".")
	}
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// farCells says how far a config's values are from the paper's printed
// ones: the cells a factor discrepancyFactor or more off, the farthest
// first (at most four); "" when none is.
func (b *builder) farCells(r *run, recs []report.Record) string {
	if len(r.Config.Reference) == 0 {
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
		if ref.Absent != "" {
			continue
		}
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
		cells = append(cells, fmt.Sprintf("%s: ours %s, the paper's %s", lit(f.where), report.FormatFloat(f.ours, 4), strconv.FormatFloat(f.paps, 'g', -1, 64)))
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

func floats(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return strings.Join(s, ", ")
}

// references writes the References: every entry of references.bib the
// text cites, in the order first cited, then the paper values the claims
// and printed numbers come from.
func (b *builder) references() {
	d := &b.d
	d.h(2, "References")
	note := "The paper values: `" + b.paper + ".yaml` of the shared paper-values folder, every printed number, claim and ambiguity of the paper transcribed with its quote; the configs cite it line by line. The code: " + CodeURL + b.citeKeys("runexp") + "."
	var entries [][]string
	for _, k := range b.cited {
		if e, ok := b.bib.entry(k); ok {
			entries = append(entries, []string{k, referenceText(e)})
		}
	}
	d.refs(entries)
	d.p(note)
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
	for _, r := range b.runs() {
		if r.Tables == "" {
			continue
		}
		items = append(items, "`"+r.Config.Name+"/tables.md` (and records.csv beside it)")
	}
	if len(items) == 0 {
		return
	}
	b.d.h(2, "Appendix: long-form tables")
	b.d.p("Each run's long-form tables (one row per grid cell, every metric) are in its folder of the results root `" + relName(b.o.Root) + "`:")
	b.d.ul(items)
}
