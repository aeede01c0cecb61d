package paperreport

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
)

// methodology writes the Methodology: how a claim is judged, then per
// config of the stated protocol its data, the settings its cells ran
// with (read from its records) and its notes, and the paper's ambiguities
// with the readings run for each.
func (b *builder) methodology() {
	d := &b.d
	d.h(2, "Methodology")
	d.p("Every config regenerates one of the paper's tables or figures from a YAML file that copies each of the paper's printed numbers with its source. A claim of the paper is tested by one or more checks (rows); a check is decided on the confidence interval of the paired difference it reads, a BCa bootstrap" + b.cite("tool:bca") + " over the test items (images, repetitions or splits), wherever the items are recorded, and on the single recorded numbers otherwise; an interval that covers the check's boundary is INCONCLUSIVE, never a pass. Kernel PCA is Schölkopf et al.'s" + b.cite("tool:kpca") + ".")
	for _, r := range b.base {
		c := r.Config
		d.h(3, lit(c.Title))
		facts := "Config `" + filepath.Base(c.File) + "`, kind `" + c.Kind + "`, data `" + c.Dataset.Name + "`" + b.cite("dataset:"+c.Dataset.Name) + ", seed " + strconv.FormatUint(c.Seed, 10)
		if c.Repeats > 0 {
			facts += ", " + strconv.Itoa(c.Repeats) + " repeats"
		}
		if _, ok := c.Experiment.Values["paper_rows"]; ok {
			facts += ". The paper copies rows of its table from another work" + b.cite("paper-rows:"+b.paper)
		}
		if t := b.table(c.Name); t != nil && t.StandIn != "" {
			facts += ". Data: " + lit(t.StandIn) + b.cite("paper-data:"+b.paper)
		}
		if !r.Ran {
			facts += ". No results in this root"
		}
		d.p(facts + ".")
		b.settingsTable(r)
		if n := b.newNotes(c); n != "" {
			d.fold("The config's notes: how its data stand in and how it reads each ambiguity", func() { d.p(n) })
		}
	}
	b.ambiguities()
}

// newNotes is config c's notes without the sentences an earlier config's
// notes in the report already gave (configs of one dataset share their
// account of it), saying which config gave them; each fact is said once.
func (b *builder) newNotes(c *config.Config) string {
	text := strings.Join(strings.Fields(c.Notes), " ")
	if text == "" {
		return ""
	}
	if b.noted == nil {
		b.noted = map[string]string{}
	}
	var keep, from []string
	for _, s := range sentences(text) {
		if prev, ok := b.noted[s]; ok {
			if !slices.Contains(from, prev) {
				from = append(from, prev)
			}
			continue
		}
		b.noted[s] = c.Name
		keep = append(keep, s)
	}
	var out string
	if len(keep) > 0 {
		out = lit(strings.Join(keep, " "))
	}
	if len(from) > 0 {
		out += " (" + isAre(len(keep), "The rest", "The rest") + " as in the notes of `" + strings.Join(from, "`, `") + "`.)"
	}
	return strings.TrimSpace(out)
}

// sentences splits text after each ". " that ends a sentence (not one
// inside a number or an abbreviation such as "e.g.").
func sentences(text string) []string {
	var out []string
	start := 0
	for i := 0; i+1 < len(text); i++ {
		if text[i] != '.' || text[i+1] != ' ' || i+2 >= len(text) {
			continue
		}
		next := text[i+2]
		if !(next >= 'A' && next <= 'Z') {
			continue
		}
		out = append(out, text[start:i+1])
		start = i + 2
	}
	return append(out, text[start:])
}

// settingsTable writes the settings config r's cells ran with, read from
// its records (settingsOf): the model's, then each method's, tuned values
// marked with their grid; the experiment's own options from the config,
// which the records do not repeat.
func (b *builder) settingsTable(r *run) {
	d := &b.d
	c := r.Config
	if !r.HasRecords {
		d.p("Settings: no records in this root; the config lists them.")
		return
	}
	recs, err := report.ReadJSONL(filepath.Join(r.Dir, "records.jsonl"))
	if err != nil {
		d.p("Settings: records.jsonl could not be read (" + err.Error() + ").")
		return
	}
	var rows [][]string
	var model []string
	byMethod := map[string][]string{}
	for _, s := range settingsOf(c, recs) {
		if s.Method == "" {
			model = append(model, lit(settingText(s)))
			continue
		}
		byMethod[s.Method] = append(byMethod[s.Method], lit(settingText(s)))
	}
	if len(model) > 0 {
		rows = append(rows, []string{"(every method)", strings.Join(model, "\n")})
	}
	for _, m := range methodLabels(c, recs) {
		set := strings.Join(byMethod[m], "\n")
		if set == "" {
			set = "(no parameters of its own)"
		}
		rows = append(rows, []string{lit(m), set})
	}
	if exp := experimentText(c); exp != "" {
		rows = append(rows, []string{"(experiment)", exp})
	}
	d.p("The settings the cells ran with, read from the records (a value chosen on validation data is marked tuned, with the grid it came from; a setting that differs over the grid names the cells each value holds at):")
	d.table([]string{"method", "settings as run"}, rows)
}

// experimentText is the config's experiment options a reader needs, one
// a line: those the records do not hold (splits, rates, λ and k grids),
// without the tuning grids (shown with the values they gave), the
// printed-only rows and the figure's file name.
func experimentText(c *config.Config) string {
	var keys []string
	for k := range c.Experiment.Values {
		switch k {
		case "tune", "paper_rows", "figure_name", "examples":
			continue
		}
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var lines []string
	for _, k := range keys {
		lines = append(lines, lit(k+" "+config.FormatValue(c.Experiment.Values[k])))
	}
	return strings.Join(lines, "\n")
}

// ambiguities writes the paper's ambiguities with the readings run for
// each (the text folded), and the variants of the paper's configs.
func (b *builder) ambiguities() {
	d := &b.d
	if len(b.info.Ambiguities) == 0 {
		return
	}
	d.h(3, "The paper's ambiguities and the readings run")
	var rows [][]string
	read := 0
	for _, a := range b.info.Ambiguities {
		var names []string
		for _, n := range b.readingsOf(a.ID) {
			names = append(names, "`"+n+"`")
		}
		run := "none"
		if len(names) > 0 {
			run = strings.Join(names, ", ")
			read++
		}
		rows = append(rows, []string{a.ID, lit(a.Topic), run})
	}
	d.p(fmt.Sprintf("The paper-values file lists %s points the paper leaves unstated or ambiguous; %s of them %s read otherwise by a reading variant (a config that changes only that reading). Each config of the stated protocol says how it reads each ambiguity bearing on its verdicts (its notes).",
		b.count(len(b.info.Ambiguities), "ambiguities of the paper"), b.count(read, "ambiguities with a reading run"), isAre(read, "was", "were")))
	d.table([]string{"id", "topic", "readings run"}, rows)
	d.fold("The ambiguities in the paper-values file's words", func() {
		var items []string
		for _, a := range b.info.Ambiguities {
			items = append(items, a.ID+" ("+lit(a.Topic)+"): "+lit(a.Text))
		}
		d.ul(items)
	})
	var rrows [][]string
	for _, t := range b.sb.Tables {
		for _, v := range t.Variants {
			role := v.Role()
			if len(v.Reads) > 0 {
				role += " of " + strings.Join(v.Reads, ", ")
			}
			what := v.Reading
			if what == "" {
				what = v.Title
			}
			rrows = append(rrows, []string{"`" + v.Name + "`", "`" + t.Base.Name + "`", role, lit(what)})
		}
	}
	if len(rrows) > 0 {
		summary := fmt.Sprintf("The %s variants: readings, post-hoc variants and diagnostics", b.count(len(rrows), "variants listed"))
		if len(rrows) == 1 {
			summary = "The variant: a reading, post-hoc variant or diagnostic"
		}
		d.fold(summary, func() {
			d.table([]string{"config", "of the base", "what it is", "reading"}, rrows)
		})
	}
}
