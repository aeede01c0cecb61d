package paperreport

import (
	"bytes"
	"fmt"
	"image/png"
	"path/filepath"
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
// with their captions, the noisy input's error where the paper de-noises,
// and each of the config's claims as its check in words, with the
// measured values, the paper's, the boundary and the interval; the long
// form stays in the run's tables.md, linked from the Appendix.
func (b *builder) results() {
	d := &b.d
	d.h(2, "Results")
	d.p("Per config of the stated protocol: the paper's tables in the paper's layout (each cell runexp's value with the paper's beside it), the figures, and each claim as its check, the values measured, the paper's, the boundary the verdict is held against and the interval it was decided on. The long-form tables (one row per grid cell) are in each run's tables.md (Appendix).")
	for _, r := range b.base {
		d.h(3, r.Config.Title)
		if !r.Ran {
			d.p("Not run: the results root has no folder `" + r.Config.Name + "`.")
			continue
		}
		if t := b.table(r.Config.Name); t != nil && t.StandIn != "" {
			d.p("Data: " + t.StandIn + ".")
		}
		b.paperTables(r)
		b.noisyInput(r)
		b.figures(r)
		b.claimsOf(r)
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
		for _, p := range after {
			d.p(p)
		}
	}
}

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
		b.d.p("The noisy input scored as a method (" + label + "), beside the methods' range: " + strings.Join(parts, "; ") + ".")
	}
}

// figures embeds the run's figures with their captions: each links its
// full image, and one too wide to read in the page's column is shown as a
// thumbnail that says so.
func (b *builder) figures(r *run) {
	for _, f := range r.Figures {
		src := b.link(filepath.Join(r.Dir, f.File))
		cap := strings.Join(strings.Fields(f.Caption), " ")
		if cap == "" {
			cap = f.File
		}
		b.d.fig(src, f.File, cap, f.TextPx, f.W, f.H)
	}
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

// claimsOf writes each of the config's claims: the paper claim it tests
// (or why it goes beyond it), its verdict, its check in words with the
// boundary, the measured values and the interval, the paper's printed
// values of the metric it reads, and whose failure a verdict other than
// PASS is.
func (b *builder) claimsOf(r *run) {
	t := b.table(r.Config.Name)
	var items []string
	for _, cl := range r.Config.Claims {
		i := slices.IndexFunc(r.Claims, func(c claim) bool { return c.ID == cl.ID })
		if i < 0 {
			items = append(items, "`"+cl.ID+"`: not evaluated (claims.json does not list it).")
			continue
		}
		items = append(items, b.claimText(r.Config, cl, r.Claims[i], t))
	}
	if len(items) > 0 {
		b.d.p("Claims of `" + r.Config.Name + "`:")
		b.d.ul(items)
	}
}

// claimText is one claim in words a reader can check.
func (b *builder) claimText(c *config.Config, cl config.Claim, res claim, t *scoreboard.Table) string {
	var s strings.Builder
	pc := paperClaimOf(cl.Source, b.paper)
	fmt.Fprintf(&s, "`%s`", cl.ID)
	switch {
	case cl.Beyond != "":
		fmt.Fprintf(&s, " (beyond the paper's %s: %s)", pc, cl.Beyond)
	case pc != "":
		fmt.Fprintf(&s, " (the paper's %s)", pc)
	}
	fmt.Fprintf(&s, ": **%s**", res.Status)
	if res.Expected != "" && res.Expected != "PASS" && res.AsExpected {
		s.WriteString(" (expected)")
	}
	s.WriteString(". " + strings.Join(strings.Fields(cl.Statement), " "))
	if desc, err := claims.Describe(cl); err == nil {
		fmt.Fprintf(&s, "\nCheck: %s. %s.", desc.Test, desc.Boundary)
	}
	if ev := measured(res); ev != "" {
		s.WriteString("\nMeasured: " + ev)
	}
	if res.CILo != nil && res.CIHi != nil {
		lvl := ""
		if res.CILevel != nil {
			lvl = " " + report.FormatFloat(100**res.CILevel, 3) + "%"
		}
		fmt.Fprintf(&s, "\nInterval%s: [%s, %s] (%s).", lvl, report.FormatFloat(*res.CILo, 4), report.FormatFloat(*res.CIHi, 4), res.CIMethod)
	} else if res.Basis != "" && res.Basis != "interval" {
		s.WriteString("\nNo interval: " + strings.TrimPrefix(strings.TrimPrefix(res.Basis, "point"), ": ") + ".")
	}
	if pv := paperValues(c, cl); pv != "" {
		s.WriteString("\nThe paper prints: " + pv + ".")
	}
	if t != nil {
		for _, row := range t.Rows {
			if row.ID == cl.ID && row.Derived.Kind != "" {
				fmt.Fprintf(&s, "\nWhose failure: %s (%s).", scoreboard.AttributionName(row.Derived.Kind), row.Derived.Why)
				if row.Derived.Decide != "" {
					s.WriteString(" Would be decided by " + row.Derived.Decide + ".")
				}
			}
		}
	}
	return s.String()
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
