package paperreport

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/scoreboard"
)

// evidenceRow is one line of a claim's evidence: a row (check) of the
// claim under one config, the stated protocol's or a variant's, with its
// verdict, the values it was decided on, its interval and the values of
// the paper's table (and of the metrics its because: text names) that
// config measured.
type evidenceRow struct {
	Config, Role, Row, Verdict, Measured, Interval, Values string
	// Beyond marks a row that goes beyond the paper's sentence (never
	// counted): the summary sums a config's such rows into one line.
	Beyond bool
}

// maxOpenEvidence bounds the lines of a claim's evidence shown open: a
// longer one is summarised per config, the full table folded below.
const maxOpenEvidence = 12

// evidenceRows is the evidence of a paper claim as the scoreboard lists
// it (scoreboard.Account.Evidence: each row under the stated protocol,
// the assigned reading, the other readings, the post-hoc variants and the
// diagnostics, the rows beyond its sentence, the diagnostics' own checks),
// each with the values its config measured of the paper's cells the check
// reads; paper is the paper's printed values of those cells.
func (b *builder) evidenceRows(a scoreboard.Account) (rows []evidenceRow, paper string) {
	for _, ev := range a.Evidence {
		base := b.run(ev.Table)
		var cl config.Claim
		if base != nil {
			if j := slices.IndexFunc(base.Config.Claims, func(c config.Claim) bool { return c.ID == ev.Row }); j >= 0 {
				cl = base.Config.Claims[j]
			}
		}
		refs, metrics := evidenceRefs(base, cl)
		if paper == "" && len(refs) > 0 {
			paper = lit(paperRefsText(refs))
		}
		role, what := roleText(ev)
		if what != "" {
			role += ": " + lit(shortText(what, max(90-len([]rune(role))-2, 10)))
		}
		e := evidenceRow{Config: "`" + ev.Config + "`", Role: role, Row: "`" + ev.Row + "`", Verdict: ev.Verdict, Measured: lit(shortText(ev.Point, 140)), Beyond: ev.Role == scoreboard.RoleBeyond}
		r := b.run(ev.Config)
		if ev.HasCI {
			res := claim{CILo: &ev.CILo, CIHi: &ev.CIHi}
			if r != nil {
				// The full evidence says whether the interval is of
				// sign·x.
				if i := slices.IndexFunc(r.Claims, func(c claim) bool { return c.ID == ev.Row }); i >= 0 {
					res.Evidence = r.Claims[i].Evidence
				}
			}
			lo, hi, _ := b.interval(res)
			e.Interval = "[" + lo + ", " + hi + "]"
		}
		if r != nil && ev.Verdict != "not run" {
			if v := b.measuredValues(r, refs, metrics); v != "" {
				e.Values = lit(v)
			}
		}
		rows = append(rows, e)
	}
	return rows, paper
}

// evidenceRefs are the paper's cells a check reads (the base config's
// references of its metric that its selectors pick) or, where it reads
// none (a derived metric such as a gain), every reference of the config
// when there are at most eight; and the metrics the check's because: and
// attribution texts name ({metric:NAME}), which the config's author
// singled out as evidence.
func evidenceRefs(r *run, cl config.Claim) ([]config.Reference, []string) {
	if r == nil {
		return nil, nil
	}
	c := r.Config
	metric, _ := cl.Check.Values["metric"].(string)
	var sels []map[string]any
	for _, k := range []string{"left", "right", "where", "against"} {
		if m, ok := cl.Check.Values[k].(map[string]any); ok {
			sels = append(sels, m)
		}
	}
	var refs []config.Reference
	for _, ref := range c.Reference {
		if ref.Metric == metric && ref.Absent == "" && picks(sels, ref.Cell) {
			refs = append(refs, ref)
		}
	}
	if len(refs) == 0 {
		// A check of a derived quantity (a gain, a rank): the paper's
		// cells it derives from, where they are few.
		distinct := map[string]bool{}
		var all []config.Reference
		for _, ref := range c.Reference {
			if ref.Absent != "" {
				continue
			}
			all = append(all, ref)
			distinct[ref.Metric+"\x00"+config.CanonicalKey(ref.Cell)] = true
		}
		if len(distinct) <= 10 {
			refs = all
		}
	}
	var metrics []string
	for _, text := range []string{cl.Because, cl.DefectEvidence} {
		found, _ := claims.References(text)
		for _, f := range found {
			if m, ok := strings.CutPrefix(f, "metric:"); ok && !slices.Contains(metrics, m) {
				metrics = append(metrics, m)
			}
		}
	}
	return refs, metrics
}

// refGroups groups references by their row in the paper's table, in
// order, each row's metrics once (a value the paper prints under every
// column is one value).
func refGroups(refs []config.Reference) (rows []string, byRow map[string][]config.Reference) {
	byRow = map[string][]config.Reference{}
	for _, ref := range refs {
		if !slices.Contains(rows, ref.Row) {
			rows = append(rows, ref.Row)
		}
		if slices.ContainsFunc(byRow[ref.Row], func(o config.Reference) bool {
			return o.Metric == ref.Metric && fmt.Sprint(o.Cell) == fmt.Sprint(ref.Cell)
		}) {
			continue
		}
		byRow[ref.Row] = append(byRow[ref.Row], ref)
	}
	return rows, byRow
}

// paperRefsText is the paper's printed values of refs, by row of its
// table with the columns named: "LPKPCA % (0.02, …, 0.06): 94.83, …".
func paperRefsText(refs []config.Reference) string {
	rows, byRow := refGroups(refs)
	perRow := map[string]int{}
	for _, ref := range refs {
		perRow[ref.Row]++
	}
	var parts []string
	for _, row := range rows {
		var cols, vals []string
		for _, ref := range byRow[row] {
			v := ref.Printed
			if v == "" {
				v = report.FormatFloat(ref.Value, -1)
			}
			vals = append(vals, v)
			cols = append(cols, ref.Column)
		}
		label := row
		if len(byRow[row]) > 1 {
			label += " (" + strings.Join(cols, ", ") + ")"
		} else if len(cols) == 1 && cols[0] != "" && perRow[row] == 1 {
			label += ", " + cols[0]
		}
		parts = append(parts, label+": "+strings.Join(vals, ", "))
	}
	return strings.Join(parts, "; ")
}

// measuredValues is config r's values of the paper's cells refs (the
// base's references, selected in r's records by the same cells) and of
// metrics, as paperRefsText lays the paper's out.
func (b *builder) measuredValues(r *run, refs []config.Reference, metrics []string) string {
	if !r.HasRecords {
		return ""
	}
	recs, err := report.ReadJSONL(filepath.Join(r.Dir, "records.jsonl"))
	if err != nil {
		return ""
	}
	rows, byRow := refGroups(refs)
	var parts []string
	for _, row := range rows {
		var vals []string
		for _, ref := range byRow[row] {
			if v, ok := oursOf(ref, recs); ok {
				vals = append(vals, report.FormatFloat(v, 4))
			} else {
				vals = append(vals, report.Dash)
			}
		}
		parts = append(parts, row+": "+strings.Join(vals, ", "))
	}
	for _, m := range metrics {
		for _, rec := range recs {
			if v, ok := rec.Metrics[m]; ok && rec.Status != report.StatusFailed {
				parts = append(parts, m+" "+report.FormatFloat(v, 4))
				break
			}
		}
	}
	return strings.Join(parts, "; ")
}

// evidenceTable writes a claim's evidence: open when it is short, else a
// summary per config (its verdicts counted over the claim's rows) open
// and the full table folded.
func (b *builder) evidenceTable(a scoreboard.Account) {
	d := &b.d
	rows, paper := b.evidenceRows(a)
	if len(rows) == 0 {
		return
	}
	values := paper != ""
	for _, e := range rows {
		values = values || e.Values != ""
	}
	full := func(to *doc) {
		var tr [][]string
		if paper != "" {
			tr = append(tr, []string{"the paper", "", "", "", "", "", paper})
		}
		for _, e := range rows {
			tr = append(tr, []string{e.Config, e.Role, e.Row, e.Verdict, e.Measured, e.Interval, e.Values})
		}
		head := []string{"config", "what it is", "check", "verdict", "measured", "interval", "values of the paper's cells"}
		if !values {
			// No paper cell bears on the claim (a figure's claim).
			for i := range tr {
				tr[i] = tr[i][:6]
			}
			head = head[:6]
		}
		to.table(head, tr)
	}
	if len(rows) <= maxOpenEvidence {
		full(d)
		return
	}
	tr := evidenceSummary(rows, paper)
	id := "evidence-" + slug(a.Claim.ID)
	d.p(fmt.Sprintf("Its %s under each config (every check with its values and interval in the %s):", b.counted(len(rows), "check's verdict", "checks' verdicts"), appendixLink("appendix", id)))
	head := []string{"config", "what it is", "verdicts of the claim's checks", "values of the paper's cells"}
	if !values {
		for i := range tr {
			tr[i] = tr[i][:3]
		}
		head = head[:3]
	}
	d.table(head, tr)
	b.apx.hid(2, "The evidence of "+a.Claim.ID+": every check under every config", id)
	full(&b.apx)
}

// evidenceSummary is a long evidence table summed per config: a row per
// config and role with the verdicts counted over the claim's checks and
// the config's values of the paper's cells, the paper's own values first.
// A config's counted checks and those beyond the sentence (or a
// diagnostic's own) are summed apart; its rows beyond the sentence, each
// of a condition or threshold of ours, into one line (each is in the
// appendix).
func evidenceSummary(rows []evidenceRow, paper string) [][]string {
	type sum struct {
		config, role, values string
		counts               map[string]int
		rows                 int
	}
	beyond, _ := roleText(scoreboard.Evidence{Role: scoreboard.RoleBeyond})
	var order []string
	sums := map[string]*sum{}
	for _, e := range rows {
		role := e.Role
		if e.Beyond {
			role = beyond
		}
		key := e.Config + "\x00" + role
		s := sums[key]
		if s == nil {
			s = &sum{config: e.Config, role: role, counts: map[string]int{}}
			sums[key] = s
			order = append(order, key)
		}
		s.counts[e.Verdict]++
		s.rows++
		if s.values == "" {
			s.values = e.Values
		}
	}
	var tr [][]string
	if paper != "" {
		tr = append(tr, []string{"the paper", "", "", paper})
	}
	for _, key := range order {
		s := sums[key]
		var parts []string
		for _, v := range []string{scoreboard.Pass, scoreboard.Fail, scoreboard.Inconc, scoreboard.NotEvaluatedV, "not run"} {
			if n := s.counts[v]; n > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", n, v))
			}
		}
		role := s.role
		if role == beyond && s.rows > 1 {
			role += fmt.Sprintf(" (%d checks of ours)", s.rows)
		}
		tr = append(tr, []string{s.config, role, strings.Join(parts, ", "), s.values})
	}
	return tr
}

// roleText says what a result is to the claim, counted or not
// (scoreboard's roles, worded so that no role reads as an outcome), and
// what it reads or probes, "" when its role says it.
func roleText(ev scoreboard.Evidence) (role, what string) {
	if ev.Reading != "" && !strings.HasPrefix(ev.Reading, ev.Role) {
		what = ev.Reading
	}
	switch ev.Role {
	case scoreboard.RoleStated:
		return "stated protocol (counted)", ""
	case scoreboard.RoleAssigned:
		return "assigned reading (counted)", what
	case scoreboard.RoleSensitivity:
		return "reading, not counted", what
	case scoreboard.RolePostHoc:
		return "post-hoc variant, not counted", what
	case scoreboard.RoleDiagnostic:
		return "diagnostic, not counted", what
	case scoreboard.RoleBeyond:
		return "beyond the paper's sentence, not counted", what
	}
	return ev.Role, what
}
