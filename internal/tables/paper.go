package tables

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/report"
)

// Paper returns the paper's table as the config's paper_table lays it
// out, one table per part, each followed by the table of its intervals
// (when any cell has one): every cell is runexp's value with the paper's
// beside it, "255.4 (paper 268)", and a cell whose metric a claim reads
// that does not reproduce as the paper states it (FAIL, INCONCLUSIVE or
// NOT-EVALUATED) carries a note naming the claim. recs are the config
// file's own methods' records; res the claims' verdicts; o how the
// claims' intervals are built, which the cells' intervals reuse.
func Paper(c *config.Config, recs []report.Record, res []claims.Result, o claims.Options) []*report.Table {
	return PaperWith(c, recs, nil, res, o)
}

// PaperWith is Paper with the methods --with added (added, their
// records): each is a column of its own where the paper's columns are
// methods, or a row where its rows are, filled from its records at the
// cells the paper's references name for the config's method, and marked
// as not the paper's.
func PaperWith(c *config.Config, recs, added []report.Record, res []claims.Result, o claims.Options) []*report.Table {
	pt := c.PaperTable
	if pt == nil {
		return nil
	}
	parts := pt.Parts
	if len(parts) == 0 {
		parts = []string{""}
	}
	var out []*report.Table
	for _, part := range parts {
		v, iv := paperPart(c, part, recs, res, o)
		extraPart(c, part, v, iv, beyondLabels(c), recs, o, beyondMark)
		extraPart(c, part, v, iv, addedLabels(c), added, o, addedMark)
		out = append(out, v)
		if iv != nil {
			out = append(out, iv)
		}
	}
	return out
}

// place is a reference value's cell in the paper's table.
type place struct{ row, col string }

// paperCell is one filled cell of a paper table.
type paperCell struct {
	ours, paper string
	// notes are the cell's notes: the claims its metric decides, and a
	// reference that selects several cells.
	notes []string
	// interval is the cell's interval or a dash, ivNote why there is
	// none.
	interval, ivNote string
	// absent marks a value the paper prints that we have no counterpart
	// to (Reference.Absent): no claim reads it, so it does not keep a
	// column's shared note in its cells.
	absent bool
}

// paperPart builds one part's table of values and, when any cell has an
// interval, its table of intervals.
func paperPart(c *config.Config, part string, recs []report.Record, res []claims.Result, o claims.Options) (vals, ivs *report.Table) {
	pt := c.PaperTable
	title := pt.Title
	if part != "" {
		title += " — " + part
	}
	cells := map[place]*paperCell{}
	methods := map[string]bool{}
	var why []string
	for _, ref := range c.Reference {
		if ref.Part != part {
			continue
		}
		pc, iv := referenceCell(c, ref, recs, res, o)
		cells[place{ref.Row, ref.Column}] = pc
		switch {
		case iv.why != "":
			why = append(why, iv.why)
		case iv.ok:
			methods[iv.method] = true
		}
	}
	var rows []string
	for _, row := range pt.Rows {
		for _, col := range pt.Columns {
			if cells[place{row, col}] != nil {
				rows = append(rows, row)
				break
			}
		}
	}
	rowNotes, colNotes := sharedNotes(cells, rows, pt.Columns)

	// Ours and the paper's on one line, "255.4 (paper 268)", where the
	// table fits a terminal so; else on two, the paper's under ours.
	vals, ivs = layoutPart(title, pt, rows, cells, rowNotes, colNotes, " ")
	if vals.NaturalWidth() > report.TextWidth {
		vals, ivs = layoutPart(title, pt, rows, cells, rowNotes, colNotes, "\n")
	}
	vals.Caption = "Each cell: runexp's value, then the paper's as printed. "
	if len(vals.Notes) > 0 {
		vals.Caption += "A note marks a value (or a row or column of them) that a claim reads which does not reproduce " +
			"as the paper states it. "
	}
	vals.Caption += sourcesNote
	if len(methods) == 0 {
		if len(why) > 0 {
			vals.Caption += " No value has an interval: " + strings.TrimSuffix(why[0], ".") + "."
		}
		return vals, nil
	}
	ms := make([]string, 0, len(methods))
	for m := range methods {
		ms = append(ms, m)
	}
	sort.Strings(ms)
	ivs.Caption = fmt.Sprintf("The 95%% interval of each of runexp's values in the table above (%s): it bounds the value runexp "+
		"would record on the population its test items are drawn from (the same training data, model and estimator), so it "+
		"shows how far our value is pinned down, not the paper's own spread.", strings.Join(ms, "; "))
	return vals, ivs
}

// addedLabels are the labels of the --with methods, in config order.
func addedLabels(c *config.Config) []string {
	var out []string
	for _, m := range c.Methods {
		if m.Added {
			out = append(out, methodLabel(m))
		}
	}
	return out
}

// beyondLabels are the labels of the config's own methods that no
// reference names (a method, or a setting of one, that the paper's table
// has no place for: a second RKPCA, the noisy input scored as a method),
// in config order: a complete table shows their values too.
func beyondLabels(c *config.Config) []string {
	named := map[string]bool{}
	for _, r := range c.Reference {
		if m, ok := r.Cell["method"]; ok {
			named[fmt.Sprint(m)] = true
		}
	}
	var out []string
	for _, m := range c.Methods {
		if l := methodLabel(m); !m.Added && !named[l] && !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// methodLabel is the label of a config's method in its records: its own,
// else the registered estimator's title.
func methodLabel(m config.Method) string {
	if m.Label != "" {
		return m.Label
	}
	if s, ok := methodTitle(m.Name); ok {
		return s
	}
	return m.Name
}

// methodTitle is the registered estimator's title, the label of a method
// given without one.
func methodTitle(name string) (string, bool) {
	s, ok := methods.Lookup(name)
	if !ok {
		return "", false
	}
	return s.Title, true
}

// addedMark marks an added method's row or column as not the paper's;
// beyondMark one of the config's own methods the paper's table has no
// place for.
const (
	addedMark  = report.AddedMark
	beyondMark = report.BeyondMark
)

// extraPart adds to vals, one part's table, a column (or row) per method
// of labels (the --with methods, with their records added, or the
// config's own methods beyond the paper's table, with its records), marked
// mark: where every column of the paper's table holds one method (the
// references of a column name one method), the added method's values
// at each row's cell, that is, the cell of the row's first reference
// with the added method in place of the paper's; where every row does, a
// row the same way. ivs, the part's table of intervals (nil when it has
// none), gets the same column or row with the added method's intervals,
// built as the config's own methods' are (o). A table laid out otherwise
// says in its caption that the added methods are in the long-form table.
func extraPart(c *config.Config, part string, vals, ivs *report.Table, labels []string, added []report.Record, o claims.Options, mark string) {
	if len(labels) == 0 || len(vals.Rows) == 0 {
		return
	}
	addedMark := mark
	var refs []config.Reference
	for _, r := range c.Reference {
		if r.Part == part && r.Cell["method"] != nil {
			refs = append(refs, r)
		}
	}
	oneMethod := func(key func(config.Reference) string) bool {
		by := map[string]string{}
		for _, r := range refs {
			m := fmt.Sprint(r.Cell["method"])
			if prev, ok := by[key(r)]; ok && prev != m {
				return false
			}
			by[key(r)] = m
		}
		return len(by) > 1
	}
	value := func(ref config.Reference, label string) (string, string) { return addedValue(ref, label, added, o) }
	refs = slices.DeleteFunc(refs, func(r config.Reference) bool { return r.Absent != "" })
	first := func(match func(config.Reference) bool) (config.Reference, bool) { return typical(refs, match) }
	switch {
	case oneMethod(func(r config.Reference) string { return r.Column }):
		for _, l := range labels {
			vals.Header = append(vals.Header, l+addedMark)
			if ivs != nil {
				ivs.Header = append(ivs.Header, l+addedMark)
			}
			for i, row := range vals.Rows {
				name := "" // the longest row name the label begins with (notes follow it)
				for _, r := range c.PaperTable.Rows {
					if strings.HasPrefix(row[0], r) && len(r) > len(name) {
						name = r
					}
				}
				v, iv := report.Dash, report.Dash
				if ref, ok := first(func(r config.Reference) bool { return r.Row == name }); ok {
					v, iv = value(ref, l)
				}
				vals.Rows[i] = append(vals.Rows[i], v)
				if ivs != nil && i < len(ivs.Rows) {
					ivs.Rows[i] = append(ivs.Rows[i], iv)
				}
			}
		}
	case oneMethod(func(r config.Reference) string { return r.Row }):
		for _, l := range labels {
			row, ivRow := []string{l + addedMark}, []string{l + addedMark}
			for _, col := range c.PaperTable.Columns {
				v, iv := report.Dash, report.Dash
				if ref, ok := first(func(r config.Reference) bool { return r.Column == col }); ok {
					v, iv = value(ref, l)
				}
				row, ivRow = append(row, v), append(ivRow, iv)
			}
			vals.Rows = append(vals.Rows, row)
			if ivs != nil {
				ivs.Rows = append(ivs.Rows, ivRow)
			}
		}
	default:
		what := "The methods added with --with"
		if mark == beyondMark {
			what = "The config's methods that the paper's table has no place for"
		}
		vals.Caption += " " + what + " (" + strings.Join(labels, ", ") + ") are in the long-form table: this table's rows and columns are not one method each."
		return
	}
	if mark == beyondMark {
		vals.Caption += " A column or row marked \"ours, not in the paper\" is a method of the config that the paper's table does not have, at the cells the paper's references name; the paper has no value for it."
		return
	}
	vals.Caption += " A column or row marked \"added, not the paper's\" is a method added with --with, at the cells the paper's references name; the paper has no value for it."
}

// typical returns the reference, among refs that match, whose metric most
// of them read (the first such): a row's estimators share a metric where
// its "Noisy input" column reads the corrupted input's, which every
// record holds and an added method would only repeat.
func typical(refs []config.Reference, match func(config.Reference) bool) (config.Reference, bool) {
	count := map[string]int{}
	for _, r := range refs {
		if match(r) {
			count[r.Metric]++
		}
	}
	best, found := config.Reference{}, false
	for _, r := range refs {
		if match(r) && (!found || count[r.Metric] > count[best.Metric]) {
			best, found = r, true
		}
	}
	return best, found
}

// addedValue is the added method label's value at ref's cell (ref's
// selector with label for its method), as referenceCell writes ours, and
// its interval built with o as referenceCell builds ours (a dash where
// there is none).
func addedValue(ref config.Reference, label string, added []report.Record, o claims.Options) (string, string) {
	sel := make(map[string]any, len(ref.Cell))
	for k, v := range ref.Cell {
		sel[k] = v
	}
	sel["method"] = label
	for i := range added {
		if !claims.Matches(&added[i], sel) {
			continue
		}
		r := added[i]
		if v, ok := r.Metrics[ref.Metric]; ok && r.Status != report.StatusFailed {
			s := report.FormatFloat(v, 4)
			if sd, ok := r.Metrics[ref.Std]; ok && ref.Std != "" {
				s += " ± " + report.FormatFloat(sd, 3)
			}
			iv := report.Dash
			if est, _, w := claims.CellInterval(o, "table-ci:"+r.Key+":"+ref.Metric, &r, ref.Metric); w == "" {
				iv = fmt.Sprintf("[%s, %s]", report.FormatFloat(est.CI.Lo, 4), report.FormatFloat(est.CI.Hi, 4))
			}
			return s, iv
		}
		return report.Failed, report.Dash
	}
	return "no cell", report.Dash
}

// cellInterval says how a reference cell's interval came out: ok with
// the method that gave it, or why there is none (both empty when no
// record matched).
type cellInterval struct {
	ok          bool
	method, why string
}

// referenceCell is the cell of the paper's table for the reference value
// ref: the paper's value, ours (from the first record its cell selects)
// and our value's interval.
func referenceCell(c *config.Config, ref config.Reference, recs []report.Record, res []claims.Result, o claims.Options) (*paperCell, cellInterval) {
	pc := &paperCell{paper: ref.Printed, interval: report.Dash}
	if pc.paper == "" {
		pc.paper = report.FormatFloat(ref.Value, -1)
	}
	if ref.Absent != "" {
		// The paper prints it; we have nothing to set beside it.
		pc.ours, pc.absent = report.Dash, true
		pc.notes = append(pc.notes, "No value of ours: "+strings.TrimSuffix(ref.Absent, ".")+".")
		return pc, cellInterval{}
	}
	var match []*report.Record
	for i := range recs {
		if claims.Matches(&recs[i], ref.Cell) {
			match = append(match, &recs[i])
		}
	}
	if len(match) == 0 {
		pc.ours = "no cell"
		return pc, cellInterval{}
	}
	r := match[0]
	pc.ours = report.Failed
	if v, ok := r.Metrics[ref.Metric]; ok && r.Status != report.StatusFailed {
		pc.ours = report.FormatFloat(v, 4)
		if sd, ok := r.Metrics[ref.Std]; ok && ref.Std != "" {
			pc.ours += " ± " + report.FormatFloat(sd, 3)
		}
	}
	if len(match) > 1 {
		pc.notes = append(pc.notes, fmt.Sprintf("The paper's value is compared with the first of the %d cells its reference selects (%s); the long-form table lists them all.", len(match), config.CanonicalKey(ref.Cell)))
	}
	pc.notes = append(pc.notes, deciding(c, res, r, ref.Metric)...)
	est, method, w := claims.CellInterval(o, "table-ci:"+r.Key+":"+ref.Metric, r, ref.Metric)
	if w != "" {
		// One note per reason, not per metric.
		pc.ivNote = "No interval: " + strings.ReplaceAll(w, ref.Metric, "the value") + "."
		return pc, cellInterval{why: w}
	}
	pc.interval = fmt.Sprintf("[%s, %s]", report.FormatFloat(est.CI.Lo, 4), report.FormatFloat(est.CI.Hi, 4))
	return pc, cellInterval{ok: true, method: method}
}

// notes returns the markers of ns among t's notes, "[1][2]".
func notes(t *report.Table, ns []string) string {
	var b strings.Builder
	for _, n := range ns {
		b.WriteString(t.Note(n))
	}
	return b.String()
}

// layoutPart lays out a part's values and intervals, ours and the
// paper's separated by sep.
func layoutPart(title string, pt *config.PaperTable, rows []string, cells map[place]*paperCell, rowNotes, colNotes map[string][]string, sep string) (vals, ivs *report.Table) {
	vals = &report.Table{Title: title + ": runexp (paper)", Header: []string{pt.Corner}}
	ivs = &report.Table{Title: title + ": 95% intervals of runexp's values", Header: []string{pt.Corner}}
	for _, col := range pt.Columns {
		h := col
		if len(colNotes[col]) > 0 {
			h += " "
		}
		for _, n := range colNotes[col] {
			h += vals.Note(n)
		}
		vals.Header = append(vals.Header, h)
		ivs.Header = append(ivs.Header, col)
	}
	for _, row := range rows {
		label := strings.TrimSpace(row + " " + notes(vals, rowNotes[row]))
		vr, ir := []string{label}, []string{row}
		for _, col := range pt.Columns {
			pc := cells[place{row, col}]
			if pc == nil {
				vr, ir = append(vr, report.Dash), append(ir, report.Dash)
				continue
			}
			var own []string
			for _, n := range pc.notes {
				if !slices.Contains(rowNotes[row], n) && !slices.Contains(colNotes[col], n) {
					own = append(own, n)
				}
			}
			v := strings.TrimSpace(pc.ours + sep + "(paper " + pc.paper + ") " + notes(vals, own))
			iv := pc.interval
			if pc.ivNote != "" {
				iv += " " + ivs.Note(pc.ivNote)
			}
			vr, ir = append(vr, v), append(ir, iv)
		}
		vals.Rows = append(vals.Rows, vr)
		ivs.Rows = append(ivs.Rows, ir)
	}
	return vals, ivs
}

// sharedNotes returns the notes shown once beside a row's label instead
// of in its cells (a note in two or more cells of the row and in no other
// row: a claim that compares the row's values) and those shown once in a
// column's header (a note in every filled cell of the column, two or more,
// and in no other column).
func sharedNotes(cells map[place]*paperCell, rows, cols []string) (byRow, byCol map[string][]string) {
	type count struct {
		n     int
		where map[string]bool
	}
	tally := func(key func(place) string) map[string]*count {
		m := map[string]*count{}
		for p, pc := range cells {
			for _, n := range pc.notes {
				if m[n] == nil {
					m[n] = &count{where: map[string]bool{}}
				}
				m[n].n++
				m[n].where[key(p)] = true
			}
		}
		return m
	}
	inRows := tally(func(p place) string { return p.row })
	inCols := tally(func(p place) string { return p.col })
	byRow, byCol = map[string][]string{}, map[string][]string{}
	// Notes in the order of their first cell, row by row.
	for _, row := range rows {
		for _, col := range cols {
			pc := cells[place{row, col}]
			if pc == nil {
				continue
			}
			for _, n := range pc.notes {
				if c := inRows[n]; c.n >= 2 && len(c.where) == 1 && !slices.Contains(byRow[row], n) {
					byRow[row] = append(byRow[row], n)
				}
			}
		}
	}
	for _, col := range cols {
		filled := 0
		for _, row := range rows {
			if pc := cells[place{row, col}]; pc != nil && !pc.absent {
				filled++
			}
		}
		for _, row := range rows {
			pc := cells[place{row, col}]
			if pc == nil {
				continue
			}
			for _, n := range pc.notes {
				c := inCols[n]
				if c.n == filled && filled >= 2 && len(c.where) == 1 && len(inRows[n].where) > 1 && !slices.Contains(byCol[col], n) {
					byCol[col] = append(byCol[col], n)
				}
			}
		}
	}
	return byRow, byCol
}

// deciding returns, for a record's metric, one note per claim that reads
// it and does not reproduce as the paper states it.
func deciding(c *config.Config, res []claims.Result, r *report.Record, metric string) []string {
	byID := map[string]config.Claim{}
	for _, cl := range c.Claims {
		byID[cl.ID] = cl
	}
	var out []string
	for _, x := range res {
		cl, ok := byID[x.ID]
		if !ok || x.Status == claims.Pass || !claims.Involves(cl, r, metric) {
			continue
		}
		out = append(out, fmt.Sprintf("Claim %s is %s here: %s", x.ID, verdictText(x), x.Statement))
	}
	return out
}

// verdictText is a claim's verdict with whether runexp expects it:
// "FAIL (expected)", "PASS", or "FAIL (expected PASS)".
func verdictText(r claims.Result) string {
	s := r.Status
	switch {
	case r.AsExpected && s != claims.Pass:
		s += " (expected)"
	case !r.AsExpected:
		s += " (expected " + r.Expected + ")"
	}
	return s
}

// sourcesNote says where a paper table's printed values come from: the
// config's reference list cites each one (the paper's table and row in
// the transcription of the paper); no file outside the repository is
// named.
const sourcesNote = "The paper's values are cited one by one in the config's reference list."
