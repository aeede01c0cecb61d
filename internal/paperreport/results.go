package paperreport

import (
	"bytes"
	"fmt"
	"image/png"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/safefs"
	"github.com/runexp/runexp/internal/scoreboard"
	"github.com/runexp/runexp/internal/tables"
)

// results writes the Results section: per config of the stated protocol,
// the paper's tables in the paper's layout (tables.md, or built from
// records.jsonl when the root has none, as baseline/ does), the figures
// (copied into the report's folder, or drawn from the records where the
// root keeps none), the noisy input's error where the paper de-noises,
// and its checks as a table of verdicts, values and intervals, each
// check's statement, test and the paper's values folded under it; the
// long form stays in the run's tables.md, linked from the Appendix.
func (b *builder) results() error {
	d := &b.d
	d.h(2, "Results")
	d.p("Per config of the stated protocol: the paper's tables in the paper's layout (each cell runexp's value with the paper's beside it), the figures, and each check with its verdict, the values it was decided on and its interval.")
	for _, r := range b.base {
		d.h(3, lit(r.Config.Title))
		if !r.Ran {
			d.p("Not run: the results root has no folder `" + r.Config.Name + "`.")
			continue
		}
		b.assignedNote(r)
		b.paperTables(r)
		b.noisyInput(r)
		if err := b.figures(r); err != nil {
			return err
		}
		b.claimsOf(r)
	}
	return nil
}

// assignedNote says, for a config whose rows the paper's assignment
// counts under a reading, which config's verdicts are counted: the tables
// below are the stated protocol's, the reading's numbers are in its
// evidence (Discussion) and its own results.
func (b *builder) assignedNote(r *run) {
	t := b.table(r.Config.Name)
	if t == nil || t.Assigned == -1 {
		return
	}
	c, ok := t.AssignedColumn()
	switch {
	case !ok:
		b.d.p("The paper's assignment reads an ambiguity of this config otherwise, and no config of it reads it so: its rows are not run under the assignment.")
	case c.Name != t.Base.Name:
		b.d.p("Counted under the paper's assignment: the verdicts of `" + c.Name + "` (" + lit(c.Readings.String()) + "), which reads this config's ambiguities as the assignment does; the tables below are the stated protocol's, the reading's numbers are in the Discussion's evidence.")
	}
}

// table is the scoreboard's table of base config name, nil when it has
// none.
func (b *builder) table(name string) *scoreboard.Table {
	for i := range b.sb.Tables {
		if b.sb.Tables[i].Base.Name == name {
			return &b.sb.Tables[i]
		}
	}
	return nil
}

// paperTables writes the config's tables in the paper's layout: from its
// tables.md, or built from records.jsonl and claims.json when the root
// keeps no tables.md (baseline/).
func (b *builder) paperTables(r *run) {
	d := &b.d
	text := r.Tables
	if text == "" && r.Config.PaperTable != nil && r.HasRecords {
		recs, err := report.ReadJSONL(filepath.Join(r.Dir, "records.jsonl"))
		if err == nil {
			_, md, err := tables.Render(r.Config, tables.Paper(r.Config, recs, r.Claims, claims.Options{}))
			if err == nil {
				text = string(md)
				d.p("The paper's tables below are built from this root's records.jsonl and claims.json (it keeps no tables.md); intervals need the per-item scores a baseline leaves out.")
			}
		}
	}
	pr := &run{Config: r.Config, Tables: text}
	for _, t := range paperTables(pr) {
		header, rows, after := mdTable(t[1])
		if header == nil {
			continue
		}
		d.h(4, t[0])
		d.paperTable(t[0], header, rows)
		var notes []string
		for _, p := range after {
			if tableNote.MatchString(p) {
				notes = append(notes, p)
				continue
			}
			d.p(p)
		}
		// A table's notes (one per claim a cell's value decides, one per
		// reason a value is missing) are there to look up: folded when
		// there are more than a few.
		switch {
		case len(notes) > maxOpenNotes:
			d.fold(fmt.Sprintf("The table's %d notes", len(notes)), func() {
				for _, n := range notes {
					d.p(n)
				}
			})
		default:
			for _, n := range notes {
				d.p(n)
			}
		}
	}
}

// tableNote matches a table's note as tables.md writes it: "[3] …".
var tableNote = regexp.MustCompile(`^\[\d+\] `)

// maxOpenNotes bounds the notes of a paper table shown open.
const maxOpenNotes = 4

// noisyInput says the noisy input's error beside the methods' wherever
// the config de-noises and scores the corrupted images as a method (the
// identity estimator), for each metric the paper's table compares.
func (b *builder) noisyInput(r *run) {
	var label string
	for _, m := range r.Config.Methods {
		if m.Name == "identity" {
			label = m.Label
			if label == "" {
				label = "Base Line"
			}
		}
	}
	if label == "" || !r.HasRecords {
		return
	}
	recs, err := report.ReadJSONL(filepath.Join(r.Dir, "records.jsonl"))
	if err != nil {
		return
	}
	var metrics []string
	for _, ref := range r.Config.Reference {
		if !slices.Contains(metrics, ref.Metric) {
			metrics = append(metrics, ref.Metric)
		}
	}
	var parts []string
	for _, m := range metrics {
		var in, lo, hi float64
		found, others := false, 0
		for i := range recs {
			v, ok := recs[i].Metrics[m]
			if !ok || recs[i].Status == report.StatusFailed {
				continue
			}
			if fmt.Sprint(recs[i].Params["method"]) == label {
				in, found = v, true
				continue
			}
			if others == 0 || v < lo {
				lo = v
			}
			if others == 0 || v > hi {
				hi = v
			}
			others++
		}
		if found && others > 0 {
			parts = append(parts, fmt.Sprintf("`%s`: the noisy input %s, the methods %s to %s", m, report.FormatFloat(in, 4), report.FormatFloat(lo, 4), report.FormatFloat(hi, 4)))
		}
	}
	if len(parts) > 0 {
		b.d.p("The noisy input scored as a method (" + lit(label) + "), beside the methods' range: " + strings.Join(parts, "; ") + ".")
	}
}

// figures embeds the run's figures with their captions, each copied into
// the report's folder (as CONFIG--FILE.png) so that the folder reads on
// its own: one too wide to read in the page's column is shown as a
// thumbnail that says so and links the full image. A root that keeps no
// figures for a config (a baseline keeps those of the configs of the
// stated protocol only; a variant's are not shown) gets figures drawn
// from the records (recordFigures), or a sentence saying why none could
// be drawn.
func (b *builder) figures(r *run) error {
	figs := r.Figures
	if len(figs) == 0 {
		drawn, why, err := b.recordFigures(r)
		if err != nil {
			return err
		}
		if why != "" {
			b.d.p("Figures: " + b.once(why, r.Config.Name) + ".")
		}
		for _, f := range drawn {
			b.files[f.File] = f.png
			b.d.fig(f.File, f.File, lit(b.figureCaption(r, f.File, f.Caption)), f.TextPx, f.W, f.H)
		}
		return nil
	}
	for _, f := range figs {
		data, err := safefs.ReadFileIn(b.o.Root, filepath.Join(r.Dir, f.File), maxFigureBytes)
		if err != nil {
			return err
		}
		name := r.Config.Name + "--" + f.File
		b.files[name] = data
		b.d.fig(name, name, lit(b.figureCaption(r, f.File, f.Caption)), f.TextPx, f.W, f.H)
	}
	return nil
}

// minSaidOnce is the length from which a figure caption's sentence
// said before is given once.
const minSaidOnce = 100

// figureCaption is the caption of run r's figure f as the Results print
// it under r's heading: without the config's title and the sentence
// naming the config and paper-values file it was regenerated from, which
// the heading and Introduction give, and each sentence already said in another config's figure
// caption said once (the two figures show different data the same
// way): "The rest as the caption of FILE of CONFIG." after the others.
func (b *builder) figureCaption(r *run, file, caption string) string {
	cap := strings.Join(strings.Fields(caption), " ")
	if cap == "" {
		return file
	}
	title := strings.Join(strings.Fields(r.Config.Title), " ")
	body, found := strings.CutPrefix(cap, title+". ")
	if !found || body == "" {
		return cap
	}
	if b.captions == nil {
		b.captions = map[string]string{}
	}
	var keep []string
	as := ""
	for _, sn := range sentences(body) {
		first, said := b.captions[sn]
		switch {
		case strings.HasPrefix(sn, "Regenerated by runexp, config "+r.Config.Name+";"):
			// The heading and the checks below name the config, the
			// Introduction the paper-values file.
		case len(sn) < minSaidOnce:
			// A short sentence ("Our kpca against components") names
			// what the figure shows: kept.
			keep = append(keep, sn)
		case !said:
			b.captions[sn] = file + " of " + r.Config.Name
			keep = append(keep, sn)
		case strings.HasSuffix(first, " of "+r.Config.Name):
			keep = append(keep, sn)
		case as == "":
			as = first
		}
	}
	switch {
	case as != "" && len(keep) == 0:
		keep = append(keep, "As the caption of "+as+".")
	case as != "":
		keep = append(keep, "The rest as the caption of "+as+".")
	}
	return strings.Join(keep, " ")
}

// once returns s the first time the report says it, then "as for
// `FIRST`" naming the config it was said for: each fact is said once.
func (b *builder) once(s, config string) string {
	if b.said == nil {
		b.said = map[string]string{}
	}
	if first, ok := b.said[s]; ok {
		return "as for `" + first + "`"
	}
	b.said[s] = config
	return s
}

// link is the path from the report's folder to file, with forward
// slashes.
func (b *builder) link(file string) string {
	out := b.o.OutDir
	if out == "" {
		out = filepath.Join(b.o.Root, "reports", b.paper)
	}
	rel, err := filepath.Rel(out, file)
	if err != nil {
		return filepath.ToSlash(file)
	}
	return filepath.ToSlash(rel)
}

// claimsOf writes the config's checks as a table (the check, the paper
// claim it tests, its verdict, the values measured and its interval),
// then, folded, each check in words a reader can check: its statement,
// test and boundary, and the paper's printed values it reads.
func (b *builder) claimsOf(r *run) {
	t := b.table(r.Config.Name)
	var rows [][]string
	var items []string
	for _, cl := range r.Config.Claims {
		i := slices.IndexFunc(r.Claims, func(c claim) bool { return c.ID == cl.ID })
		pc := paperClaimOf(cl.Source, b.paper)
		counted := true
		if t != nil {
			if j := slices.IndexFunc(t.Rows, func(r scoreboard.Row) bool { return r.ID == cl.ID }); j >= 0 {
				counted = t.Rows[j].Counted
			}
		}
		switch {
		case pc == "":
			pc = "(not a claim)"
		case cl.Beyond != "" || !counted:
			// A group, quantity, quantifier or threshold the paper's
			// sentence does not have: shown, never counted.
			pc += " (beyond its sentence: not counted)"
		}
		if i < 0 {
			rows = append(rows, []string{"`" + cl.ID + "`", pc, "NOT-EVALUATED", "claims.json does not list it", ""})
			continue
		}
		res := r.Claims[i]
		iv := ""
		if lo, hi, ok := b.interval(res); ok {
			iv = "[" + lo + ", " + hi + "]"
		}
		rows = append(rows, []string{"`" + cl.ID + "`", pc, res.Status, lit(shortText(measured(res), 160)), iv})
		items = append(items, b.claimText(r.Config, cl, res, t))
	}
	if len(rows) == 0 {
		return
	}
	head := []string{"check", "paper's claim", "verdict", "measured", "interval"}
	intro := "the measured values as the check reads them; the interval is the 95% interval of the difference it decides on, of the same sign as the values"
	id := "checks-" + slug(r.Config.Name)
	a := &b.apx
	a.hid(2, "Checks of `"+r.Config.Name+"`", id)
	if len(rows) <= maxOpenChecks {
		b.d.p("Checks of `" + r.Config.Name + "` (" + intro + "; each in full, with its test, boundary and the paper's values, in the " + appendixLink("appendix", id) + "):")
		b.d.table(head, rows)
	} else {
		// Many checks (one per group and quantity): their verdicts per
		// paper claim here, the checks in the appendix.
		b.d.p("The " + b.count(len(rows), "checks of "+r.Config.Name) + " checks of `" + r.Config.Name + "` by the paper's claim they test (every check, with its values and interval, in the " + appendixLink("appendix", id) + "):")
		b.d.table([]string{"paper's claim", "checks", "verdicts"}, checkSummary(rows))
		a.p("Every check (" + intro + "):")
		a.table(head, rows)
	}
	a.p("Each check in full: its statement, test, boundary and the paper's values.")
	a.ul(items)
}

// maxOpenChecks bounds the checks of a config listed open in the Results;
// a config with more is summarised per paper claim.
const maxOpenChecks = 15

// checkSummary counts the verdicts of checks rows (as claimsOf lays them
// out) per paper claim, in the order first listed.
func checkSummary(rows [][]string) [][]string {
	var order []string
	counts := map[string]map[string]int{}
	n := map[string]int{}
	for _, r := range rows {
		pc, v := r[1], r[2]
		if counts[pc] == nil {
			counts[pc] = map[string]int{}
			order = append(order, pc)
		}
		counts[pc][v]++
		n[pc]++
	}
	var out [][]string
	for _, pc := range order {
		var parts []string
		for _, v := range []string{"PASS", "FAIL", "INCONCLUSIVE", "NOT-EVALUATED"} {
			if c := counts[pc][v]; c > 0 {
				parts = append(parts, strconv.Itoa(c)+" "+v)
			}
		}
		out = append(out, []string{pc, strconv.Itoa(n[pc]), strings.Join(parts, ", ")})
	}
	return out
}

// claimText is one claim in words a reader can check.
func (b *builder) claimText(c *config.Config, cl config.Claim, res claim, t *scoreboard.Table) string {
	var s strings.Builder
	pc := paperClaimOf(cl.Source, b.paper)
	fmt.Fprintf(&s, "`%s`", cl.ID)
	switch {
	case cl.Beyond != "":
		fmt.Fprintf(&s, " (beyond the paper's %s: %s)", pc, lit(cl.Beyond))
	case pc != "":
		fmt.Fprintf(&s, " (the paper's %s)", pc)
	}
	fmt.Fprintf(&s, ": **%s**", res.Status)
	if res.Expected != "" && res.Expected != "PASS" && res.AsExpected {
		s.WriteString(" (expected)")
	}
	s.WriteString(". " + lit(cl.Statement))
	if desc, err := claims.Describe(cl); err == nil {
		fmt.Fprintf(&s, "\nCheck: %s. %s.", prose(desc.Test), prose(desc.Boundary))
	}
	if _, _, ok := b.interval(res); ok {
		// The interval itself is in the table of checks.
		fmt.Fprintf(&s, "\nInterval: %s.", lit(res.CIMethod))
	} else if res.Basis != "" && res.Basis != "interval" {
		s.WriteString("\nNo interval: " + lit(strings.TrimPrefix(strings.TrimPrefix(res.Basis, "point"), ": ")) + ".")
	}
	if pv := paperValues(c, cl); pv != "" {
		s.WriteString("\nThe paper prints: " + lit(pv) + ".")
	}
	if t != nil {
		for _, row := range t.Rows {
			if row.ID == cl.ID && row.Derived.Kind != "" {
				fmt.Fprintf(&s, "\nWhose failure: %s (%s).", scoreboard.AttributionName(row.Derived.Kind), prose(row.Derived.Why))
			}
		}
	}
	return s.String()
}

// interval is a verdict's interval as the report prints it, with the
// sign of the values it reads: a check of a decreasing trend is decided
// on sign·ρ with sign −1, and its interval is printed back in ρ, so that
// ρ = −1 stands beside [−1, −1], not [1, 1].
func (b *builder) interval(res claim) (lo, hi string, ok bool) {
	if res.CILo == nil || res.CIHi == nil {
		return "", "", false
	}
	l, h := *res.CILo, *res.CIHi
	lo, hi = report.FormatFloat(l, 4), report.FormatFloat(h, 4)
	if strings.Contains(res.Evidence, "sign·") && strings.Contains(res.Evidence, "(sign -1 ") {
		lo, hi = report.FormatFloat(-h, 4), report.FormatFloat(-l, 4)
		b.derived(lo, "an interval of sign·x with sign −1, printed in x")
		b.derived(hi, "an interval of sign·x with sign −1, printed in x")
	}
	return lo, hi, true
}

// shortText cuts s to at most n runes at a boundary a reader sees (a
// "; " between values, else a space), never inside a number, marking the
// cut with "…".
func shortText(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := string(r[:n-1])
	if i := strings.LastIndex(cut, "; "); i > n/2 {
		cut = cut[:i]
	} else if i := strings.LastIndex(cut, " "); i > 0 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ;,") + " …"
}

// measured is a verdict's point evidence without the interval's restated
// text (shown apart), cut at a sentence a reader can follow.
func measured(res claim) string {
	ev := res.Evidence
	if i := strings.Index(ev, " | "); i >= 0 {
		ev = ev[:i]
	}
	ev = strings.TrimSpace(ev)
	if len([]rune(ev)) > 400 {
		ev = string([]rune(ev)[:399]) + "…"
	}
	return ev
}

// paperValues lists the paper's printed values of the cells a claim's
// check reads: the config's references of its metric whose cell one of
// the check's selectors (left, right, where, against, the winner) picks,
// at most six.
func paperValues(c *config.Config, cl config.Claim) string {
	metric, _ := cl.Check.Values["metric"].(string)
	if metric == "" {
		return ""
	}
	var sels []map[string]any
	for _, k := range []string{"left", "right", "where", "against"} {
		if m, ok := cl.Check.Values[k].(map[string]any); ok {
			sels = append(sels, m)
		}
	}
	if w, ok := cl.Check.Values["winner"]; ok {
		among, _ := cl.Check.Values["among"].(string)
		if among == "" {
			among = "method"
		}
		sels = append(sels, map[string]any{among: w})
	}
	var vals []string
	for _, ref := range c.Reference {
		if ref.Metric != metric || !picks(sels, ref.Cell) {
			continue
		}
		v := strconv.FormatFloat(ref.Value, 'g', -1, 64) // as printed
		if ref.Printed != "" {
			v = ref.Printed
		}
		where := ref.Row
		if ref.Column != "" {
			where += ", " + ref.Column
		}
		if where == "" {
			where = config.FormatValue(ref.Cell)
		}
		vals = append(vals, v+" ("+where+")")
	}
	if len(vals) > 6 {
		vals = append(vals[:6], fmt.Sprintf("and %d more", len(vals)-6))
	}
	return strings.Join(vals, "; ")
}

// picks reports whether one of the selectors picks cell: each of the
// selector's keys that the cell names holds one of its values (a list
// selects any of its elements). No selector picks every cell.
func picks(sels []map[string]any, cell map[string]any) bool {
	if len(sels) == 0 {
		return true
	}
	for _, sel := range sels {
		ok := true
		for k, want := range sel {
			got, has := cell[k]
			if !has {
				continue
			}
			vs, isList := want.([]any)
			if !isList {
				vs = []any{want}
			}
			if !slices.ContainsFunc(vs, func(v any) bool { return config.FormatValue(v) == config.FormatValue(got) }) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// maxFigureBytes bounds a figure a report reads for its size and label
// height: runexp's PNGs are well under it, and a larger file is shown
// without the facts rather than read whole.
const maxFigureBytes = 32 << 20

// pngFacts reads a figure's size and the height of its smallest label
// (report.ReadTextPx), zero where the file does not say.
func pngFacts(path string) (textPx float64, w, h int) {
	b, err := safefs.ReadFile(path, maxFigureBytes)
	if err != nil {
		return 0, 0, 0
	}
	if cfg, err := png.DecodeConfig(bytes.NewReader(b)); err == nil {
		w, h = cfg.Width, cfg.Height
	}
	return report.ReadTextPx(b), w, h
}
