package scoreboard

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/runexp/runexp/internal/report"
)

// Options say how the pages name their inputs and where they link from.
type Options struct {
	// Command is the command line that regenerates the page, printed in
	// its header (e.g. "make scoreboard").
	Command string
	// ConfigsDir is the configs directory as given, printed in the header.
	ConfigsDir string
	// LinkDir is the directory the page is written to: evidence links are
	// relative to it.
	LinkDir string
}

// evidence is the relative slash path from o.LinkDir to dir/claims.json.
func (o Options) evidence(dir string) string {
	from, err1 := filepath.Abs(o.LinkDir)
	to, err2 := filepath.Abs(filepath.Join(dir, "claims.json"))
	if err1 != nil || err2 != nil {
		return filepath.ToSlash(filepath.Join(dir, "claims.json"))
	}
	rel, err := filepath.Rel(from, to)
	if err != nil {
		return filepath.ToSlash(to)
	}
	return filepath.ToSlash(rel)
}

// Definitions of the categories, printed in each page's header; the
// package documentation states the same.
var definitions = [nCategories]string{
	"PASS under the stated protocol (the base config) and under the paper's assignment of readings.",
	"FAIL or INCONCLUSIVE under the stated protocol, PASS under the assigned reading (a config whose `variant_of` leads to the base and that `reads:` the listed ambiguity the assignment reads otherwise).",
	"FAIL under the assignment (the stated protocol where it reads nothing otherwise); the other readings are sensitivity, never counted.",
	"INCONCLUSIVE under the assignment.",
	"NOT-EVALUATED under the assignment, or the claims.json does not list the claim.",
	"a claim of the paper that no config can test, declared with the reason in `configs/accounting/<paper>.yaml`; counted once per paper claim.",
	"the config the assignment reads the row under has no folder in the results root.",
}

// verdictText is a cell's verdict with the point verdict (when it differs)
// and the interval.
func verdictText(c Cell) (verdict, extra string) {
	switch {
	case !c.Run:
		return "not run", ""
	case !c.Present:
		return "—", ""
	}
	var b strings.Builder
	if c.Point != "" && c.Point != c.Verdict {
		fmt.Fprintf(&b, " (point: %s)", c.Point)
	}
	if c.HasCI {
		fmt.Fprintf(&b, " [%s, %s]", num(c.CILo), num(c.CIHi))
		if c.CILevel > 0 {
			lvl := c.CILevel
			if lvl <= 1 {
				lvl *= 100
			}
			fmt.Fprintf(&b, " %s%%", num(lvl))
		}
		if c.CIMethod != "" {
			b.WriteString(" " + mdEsc(c.CIMethod))
		}
	}
	return c.Verdict, b.String()
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }

func num3(v float64) string { return strconv.FormatFloat(v, 'g', 3, 64) }

// mdEsc writes text a config or the paper values supply (a title, a
// statement, a reading, a note) so that a Markdown viewer shows it as
// written, on one line and inside a table cell too: report.MarkdownLiteral.
func mdEsc(s string) string { return report.MarkdownLiteral(s) }

// mdProse writes a sentence the scoreboard composed (a derivation's why,
// what would decide it): its `code` spans of names stay code, the words
// in it that come from a config (taken in through report.NoCode) show as
// written (report.MarkdownWithCode).
func mdProse(s string) string { return report.MarkdownWithCode(s) }

// mdCode writes a name as a code span. Nothing is escaped inside a code
// span (a backslash would show), so a name that holds a backtick, or is
// empty, is written as plain escaped text instead; a pipe is escaped as a
// table needs.
func mdCode(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" || strings.Contains(s, "`") {
		return mdEsc(s)
	}
	return "`" + strings.ReplaceAll(s, "|", `\|`) + "`"
}

func expectText(r Row) string {
	if r.Expect == "" {
		return "PASS"
	}
	return strings.ToUpper(r.Expect) + " — " + report.Short(r.Because, 140)
}

// MarkdownWidth is the widest line of REPRODUCIBILITY.md outside link
// targets: paragraphs and notes are wrapped to MarkdownWrap, and a table
// row is one line, kept short by moving statements, expectations and
// interval methods out of the cells into notes.
const (
	MarkdownWidth = 200
	MarkdownWrap  = 120
)

// shortCategory names a category in a table cell; the header defines each.
var shortCategory = [nCategories]string{
	"as stated",
	"other reading",
	"not reproduced",
	"inconclusive",
	"not evaluated",
	"not testable",
	"not run",
}

// Markdown renders the board as REPRODUCIBILITY.md: per paper, the
// interval methods its verdicts use, stated once, then per base config a
// compact table (claim, the verdict under the stated protocol and under
// each reading, category) with each claim's statement and expectation in
// a numbered note under it.
func (b *Board) Markdown(o Options) []byte {
	var w bytes.Buffer
	md := mdWriter{&w}
	b.markdownHeader(md, o)
	b.markdownClaims(md)
	b.markdownAssignment(md)
	b.markdownRows(md)
	b.markdownBeyond(md)
	b.markdownFits(md)
	b.markdownBases(&w)
	b.setsMarkdown(&w)
	for _, pp := range b.Papers {
		pp.markdown(md, o)
	}
	return w.Bytes()
}

// mdWriter writes the scoreboard's Markdown: p as given, para wrapped to
// MarkdownWrap and followed by a blank line, item wrapped after a lead
// (a list item's "- ", a note's "1. ").
type mdWriter struct{ w *bytes.Buffer }

func (m mdWriter) p(format string, args ...any) { fmt.Fprintf(m.w, format, args...) }

func (m mdWriter) para(format string, args ...any) {
	m.w.WriteString(wrapMarkdown("", fmt.Sprintf(format, args...), MarkdownWrap))
	m.w.WriteString("\n\n")
}

func (m mdWriter) item(lead, text string) {
	m.w.WriteString(wrapMarkdown(lead, text, MarkdownWrap))
	m.w.WriteString("\n")
}

// markdownHeader writes the title, what the page is and the coverage of
// the results root.
func (b *Board) markdownHeader(md mdWriter, o Options) {
	md.p("# Reproducibility scoreboard\n\n")
	md.para("Generated by `%s` from the results in `%s` and the configs in `%s`; do not edit by hand. "+
		"The unit is the paper's claim (the claims of each paper's paper-values file): first each claim's outcome and, "+
		"for one not reproduced, whose failure it is; then the rows that test the claims, each under the stated protocol "+
		"(the base config) and under each documented reading of the paper (the configs whose `variant_of` leads to the "+
		"base; docs/readings.md), with the interval where the row has one; each verdict links to its config's claims.json.",
		o.Command, filepath.ToSlash(b.Root), filepath.ToSlash(o.ConfigsDir))
	md.p("## Coverage\n\n")
	cov := fmt.Sprintf("%d configs, %d with results in `%s`.", b.Configs, b.Configs-len(b.NotRun), filepath.ToSlash(b.Root))
	if len(b.NotRun) > 0 {
		cov += fmt.Sprintf(" Missing from the results root, so **not run** here (%d): %s.", len(b.NotRun), codeList(b.NotRun))
		cov += " The full-suite version of this page comes from `make suite` (every config), then `runexp scoreboard` on its results folder."
	}
	md.para("%s", cov)
	if len(b.NoClaims) > 0 {
		md.para("Configs that state no claim (%d): %s.", len(b.NoClaims), codeList(b.NoClaims))
	}
	if len(b.Unknown) > 0 {
		md.para("Folders of the results root that no config names, not counted (%d): %s.", len(b.Unknown), codeList(b.Unknown))
	}
}

// totalsTable writes a totals table by paper and category: the papers'
// claims (rows false, with each paper's headline and its claims passing
// under the stated protocol and under the assignment) or their rows.
func (b *Board) totalsTable(md mdWriter, rows bool) {
	what := "claims"
	if rows {
		what = "rows"
	}
	md.p("| paper |")
	if !rows {
		md.p(" headline |")
	}
	md.p(" %s |", what)
	if !rows {
		md.p(" pass, stated protocol | pass, assignment |")
	}
	// The categories by their short names, defined under Categories.
	for c := Category(0); c < nCategories; c++ {
		md.p(" %s |", shortCategory[c])
	}
	md.p("\n|---|")
	if !rows {
		md.p("---|")
	}
	md.p("---:|%s", strings.Repeat("---:|", int(nCategories)))
	if !rows {
		md.p("---:|---:|")
	}
	md.p("\n")
	var stated, assigned int
	for _, pp := range b.Papers {
		t := pp.Totals
		md.p("| %s |", mdEsc(pp.ID))
		if rows {
			t = pp.RowTotals
		} else {
			mark, _ := Headline(pp)
			md.p(" %s |", mark)
		}
		md.p(" %d |", t.Claims())
		if !rows {
			md.p(" %d | %d |", pp.StatedPass, pp.AssignedPass)
			stated, assigned = stated+pp.StatedPass, assigned+pp.AssignedPass
		}
		for _, v := range t {
			md.p(" %d |", v)
		}
		md.p("\n")
	}
	t := b.Totals
	if rows {
		t = b.RowTotals
	}
	md.p("| **all** |")
	if !rows {
		md.p(" |")
	}
	md.p(" **%d** |", t.Claims())
	if !rows {
		md.p(" **%d** | **%d** |", stated, assigned)
	}
	for _, v := range t {
		md.p(" **%d** |", v)
	}
	md.p("\n\n")
}

// markdownClaims writes what the page leads with: the outcome of every
// paper claim, by the rule stated, with whose failure each one not
// reproduced or inconclusive is, and the headline per paper.
func (b *Board) markdownClaims(md mdWriter) {
	md.p("## The paper's claims\n\n")
	md.para("%s", OutcomeRule)
	md.para("Headline per paper: %s", HeadlineRule)
	md.para("\"pass, stated protocol\" counts the claims every row of which passes under the base configs; \"pass, " +
		"assignment\" those that pass under the paper's assignment (the next section), the count the headline and the " +
		"categories follow: as stated (both pass) plus other reading (only the assignment passes).")
	b.totalsTable(md, false)
	md.p("| paper | claim | statement | outcome | rows |\n|---|---|---|---|---|\n")
	var notes []string
	for _, pp := range b.Papers {
		for _, a := range pp.Accounts {
			ref := ""
			if note := accountNote(a); note != "" {
				notes = append(notes, fmt.Sprintf("`%s` %s: %s", pp.ID, a.Claim.ID, note))
				ref = fmt.Sprintf(" [%d]", len(notes))
			}
			md.p("| %s | %s%s | %s | %s | %s |\n", mdEsc(pp.ID), a.Claim.ID, ref, mdEsc(report.Short(a.Claim.Statement, 60)), mdEsc(accountCategoryText(a)), accountRows(a))
		}
	}
	md.p("\n")
	for i, n := range notes {
		md.item(fmt.Sprintf("%d. ", i+1), n)
	}
	md.p("\n")
	b.markdownSplit(md)
}

// accountRows is how many rows test a claim, for a table cell.
func accountRows(a Account) string {
	switch a.Status() {
	case "aggregate":
		return "aggregate of " + strings.Join(a.Aggregate, ", ")
	case "not testable here":
		return "—"
	case "not accounted for":
		return "**not accounted for**"
	}
	s := strconv.Itoa(len(a.Rows))
	if a.Beyond > 0 {
		s += fmt.Sprintf(" (+%d beyond)", a.Beyond)
	}
	return s
}

// accountNote is what a claim's note says: why its outcome and whose
// failure, and what would decide it; "" for a claim reproduced as stated.
func accountNote(a Account) string {
	var parts []string
	switch a.Status() {
	case "aggregate":
		parts = append(parts, "aggregate: "+a.Reading)
	case "not testable here":
		parts = append(parts, "not testable here: "+a.NotTestable)
	}
	if a.Why != "" {
		parts = append(parts, upperFirst(a.Why))
	}
	if a.Decide != "" {
		parts = append(parts, "Would be decided by "+a.Decide)
	}
	s := ""
	if len(parts) > 0 {
		s = mdProse(strings.Join(parts, ". ")) + "."
	}
	if n := sensitivityNote(a); n != "" {
		s = strings.TrimSpace(s + " " + n)
	}
	return s
}

// markdownRows writes the rows' categories, totals and split: the
// evidence under the claims.
func (b *Board) markdownRows(md mdWriter) {
	md.p("## Rows: the evidence under the claims\n\n")
	md.p("Each row of a base config that tests a paper claim falls in exactly one category (its short name in the tables in brackets):\n\n")
	for c := Category(0); c < nCategories; c++ {
		md.item("- ", fmt.Sprintf("**%s** (%s): %s", c, shortCategory[c], definitions[c]))
	}
	md.p("\n")
	md.para("A `diagnostic` variant probes our data rather than reading the paper (e.g. LPKPCA with a graph built from " +
		"the labels): its column is shown and never counted. A cell reads `not run` when its config has no folder in the " +
		"results root and `—` when that config does not state the claim. A verdict followed by `[lo, hi]` was decided on " +
		"that interval; each paper says once how its intervals are built and what they bound. \"(expected)\" marks a " +
		"verdict of the stated protocol that its config expects (a known non-reproduction); the note on the claim says why.")
	b.totalsTable(md, true)
	md.para("Rows not reproduced or inconclusive under the assignment, by whose failure (derived): %s.", b.RowSplit.line())
}

// markdownSplit writes the paper claims not reproduced and inconclusive
// by whose failure they are, so that a reader does not take a failure of
// our data or test, or an undetermined one, for the paper's.
func (b *Board) markdownSplit(md mdWriter) {
	md.p("### Whose failure\n\n")
	md.para("A claim not reproduced is not by itself a verdict on the paper. Whose failure it is, is derived from the " +
		"verdicts of its rows under the stated protocol and the paper's readings, and from what the configs declare " +
		"(docs/readings.md, \"Attribution\"): **fails as the paper states it** (paper: FAIL under the stated protocol and " +
		"under a reading of every ambiguity the config lists as bearing on it, on the paper's own data), or **fails here** " +
		"through **our data** (a diagnostic that moves a named property of our data toward the paper's turns the claim), " +
		"**our reading** (a reading of a listed ambiguity passes it) or **our test** (a named defect of our check: a " +
		"degenerate comparison, a quantifier or threshold of ours, our metric for a visual claim), or **undetermined** " +
		"(none of these is shown: the note names the experiment that would decide it).")
	for i, what := range []string{"not reproduced", "inconclusive"} {
		names := attrNames
		if i == 1 {
			// An inconclusive claim has not failed: its columns name
			// whose the undecided verdict is.
			names = attrShort
		}
		md.p("| paper | %s |", what)
		for _, n := range names {
			md.p(" %s |", n)
		}
		md.p("\n|---|---:|%s\n", strings.Repeat("---:|", nAttr))
		row := func(name string, s [nAttr]int, f string) {
			n := 0
			for _, v := range s {
				n += v
			}
			md.p("| %s | "+f+" |", name, n)
			for _, v := range s {
				md.p(" "+f+" |", v)
			}
			md.p("\n")
		}
		for _, pp := range b.Papers {
			row(mdEsc(pp.ID), pp.Split[i], "%d")
		}
		row("**all**", b.Split[i], "**%d**")
		md.p("\n")
	}
}

// markdownBeyond lists the checked rows that trace to no paper claim.
func (b *Board) markdownBeyond(md mdWriter) {
	if len(b.Beyond) == 0 {
		return
	}
	md.p("\n## Checks beyond the paper's claims\n\n")
	md.para("These rows check a figure's shape, an ambiguity's scan, a diagnostic's own question, or a group, condition or "+
		"quantity the paper's table or sentence does not have (a stand-in's extra groups, a check beyond the paper); they "+
		"are shown in their tables and never counted above (%d):", len(b.Beyond))
	for _, r := range b.Beyond {
		md.item("- ", fmt.Sprintf("`%s#%s` %s (source %s; %s): %s", r.Config, r.ID, r.Verdict, mdEsc(r.Source), mdProse(r.Why), mdEsc(strings.Join(strings.Fields(r.Statement), " "))))
	}
}

// markdown writes a paper's section: its totals, how its intervals are
// built, how its claims are accounted for, and a table per base config.
func (pp *Paper) markdown(md mdWriter, o Options) {
	title := pp.Title
	if title == "" {
		title = pp.ID
	}
	md.p("\n## %s (`%s`)\n\n", mdEsc(title), pp.ID)
	mark, why := Headline(*pp)
	md.para("**%s** %s. Paper claims: %s. By whose failure: %s. Rows: %s.", mark, mdEsc(why), totalsLine(pp.Totals), pp.Split.line(), totalsLine(pp.RowTotals))
	methods := paperMethods(*pp)
	if len(methods) > 0 {
		md.item("", intervalsText(methods))
		if len(methods) > 1 {
			md.p("\n")
			for i, m := range methods {
				md.item(fmt.Sprintf("- (%c) ", 'a'+i), mdEsc(m)+".")
			}
		}
	}
	pp.markdownAccounts(md.w)
	for _, t := range pp.Tables {
		t.markdown(md, o, methods)
	}
}

// markdown writes a base config's section: its title and readings, then
// a row per claim with its verdicts and a numbered note per claim.
func (t Table) markdown(md mdWriter, o Options, methods []string) {
	md.p("\n### `%s`\n\n", t.Base.Name)
	head := mdEsc(report.Short(t.Base.Title, 200))
	if !t.Base.Run {
		head += " — **not run**"
	}
	md.para("%s", head)
	if len(t.Variants) > 0 {
		for _, v := range t.Variants {
			md.item("- ", variantItem(v))
		}
		md.p("\n")
	}
	for _, c := range append([]Column{t.Base}, t.Variants...) {
		if len(c.Extra) > 0 {
			md.para("The results of `%s` list claims the config no longer states, not counted: %s.", c.Name, codeList(c.Extra))
		}
	}
	if len(t.Rows) == 0 {
		md.p("No claims.\n")
		return
	}
	// A base with many variants gets its verdicts in more than one
	// table, each within MarkdownWidth: the stated protocol with the
	// readings and post-hoc variants first (the counted columns and the
	// category), then the diagnostics, never counted.
	moved := make([]string, len(t.Rows))
	for k, part := range t.markdownParts(o, methods) {
		if k > 0 {
			if slices.ContainsFunc(part.Variants, func(c Column) bool { return !c.Diagnostic }) {
				md.para("More readings of `%s`:", t.Base.Name)
			} else {
				md.para("More diagnostics of `%s` (not counted):", t.Base.Name)
			}
		}
		part.markdownGrid(md, o, methods, k == 0, moved)
	}
	for i, r := range t.Rows {
		note := claimNote(r) + moved[i]
		if fit := t.fitClaimNote(r); fit != "" {
			if !strings.HasSuffix(note, ".") {
				note += "."
			}
			note += fit
		}
		md.item(fmt.Sprintf("%d. ", i+1), note)
	}
	md.p("\n")
	md.item("", "Rows: "+totalsLine(t.Totals)+". By whose failure: "+t.Split.line()+".")
	if len(t.Beyond) > 0 {
		md.p("\n")
		md.item("", "Checks of the diagnostic variants beyond the base's claims, shown and never counted:")
		md.p("\n")
		for _, b := range t.Beyond {
			md.item("- ", fmt.Sprintf("`%s#%s` %s: %s", b.Config, b.ID, b.Verdict, mdEsc(strings.Join(strings.Fields(b.Statement), " "))))
		}
	}
	if fit := t.fitNotes(); fit != "" {
		md.p("\n")
		md.para("%s", fit)
	}
}

// markdownParts splits a base's variants into tables that fit
// MarkdownWidth: the readings and post-hoc variants first, then the
// diagnostics, each table as many of them as fit (the first with the
// stated protocol and the category). Every part keeps the base's rows; a part's Variants
// and its rows' Variants are the same columns.
func (t Table) markdownParts(o Options, methods []string) []Table {
	var counted, diags []int
	for j, v := range t.Variants {
		if v.Diagnostic {
			diags = append(diags, j)
		} else {
			counted = append(counted, j)
		}
	}
	fits := func(cols []int, first bool) bool {
		p := t.subTable(cols)
		if MarkdownLineWidth(p.markdownHead(first)) > MarkdownWidth {
			return false
		}
		for i, r := range p.Rows {
			if MarkdownLineWidth(mdRow(i, r, p, o, methods, false, first)) > MarkdownWidth {
				return false
			}
		}
		return true
	}
	parts := []Table{}
	var cur []int
	first := true
	// The counted columns first (a part holds as many as fit), then the
	// diagnostics.
	for _, j := range append(counted, diags...) {
		next := append(slices.Clone(cur), j)
		if len(cur) > 0 && !fits(next, first) {
			parts = append(parts, t.subTable(cur))
			cur, first = []int{j}, false
			continue
		}
		cur = next
	}
	return append(parts, t.subTable(cur))
}

// subTable is t with the variant columns cols (indexes into t.Variants).
func (t Table) subTable(cols []int) Table {
	p := t
	p.Variants = make([]Column, len(cols))
	if t.Assigned >= 0 {
		// The assigned column's index among the part's columns; a part
		// without it reads no column as the assignment's.
		p.Assigned = atBase
	}
	for k, j := range cols {
		p.Variants[k] = t.Variants[j]
		if j == t.Assigned {
			p.Assigned = k
		}
	}
	p.Rows = make([]Row, len(t.Rows))
	for i, r := range t.Rows {
		r.Variants = make([]Cell, len(cols))
		for k, j := range cols {
			r.Variants[k] = t.Rows[i].Variants[j]
		}
		p.Rows[i] = r
	}
	return p
}

// markdownHead is the header of a verdict table: the claim, the stated
// protocol and the category in the first table, the variants in each.
func (t Table) markdownHead(first bool) string {
	var b strings.Builder
	b.WriteString("| claim |")
	if first {
		b.WriteString(" stated protocol |")
	}
	for i, v := range t.Variants {
		switch v.Role() {
		case "reading":
			counted := ""
			if i == t.Assigned {
				counted = ", counted"
			}
			fmt.Fprintf(&b, " %s (%s%s) |", mdCode(v.Label), strings.Join(v.Reads, "+"), counted)
		case "diagnostic":
			role := "diagnostic"
			if v.Moves != "" {
				role += ", moves the data"
			}
			fmt.Fprintf(&b, " %s (%s) |", mdCode(v.Label), role)
		default:
			fmt.Fprintf(&b, " %s (%s) |", mdCode(v.Label), v.Role())
		}
	}
	if first {
		b.WriteString(" category |")
	}
	return b.String()
}

// markdownGrid writes one verdict table of a base; a row too wide with
// its intervals keeps them in its note (moved, by row).
func (t Table) markdownGrid(md mdWriter, o Options, methods []string, first bool, moved []string) {
	n := len(t.Variants)
	if first {
		n += 2
	}
	md.p("%s\n|---|%s\n", t.markdownHead(first), strings.Repeat("---|", n))
	for i, r := range t.Rows {
		row := mdRow(i, r, t, o, methods, true, first)
		if MarkdownLineWidth(row) > MarkdownWidth {
			row = mdRow(i, r, t, o, methods, false, first)
			moved[i] += movedIntervals(r, t, first)
		}
		md.p("%s\n", row)
	}
	md.p("\n")
}

// variantItem is a variant's list item: what it is to the base (the
// ambiguities it reads, why it was added post hoc, what it probes).
func variantItem(v Column) string {
	kind := v.Role()
	switch kind {
	case "reading":
		kind = "reading of " + strings.Join(v.Reads, ", ")
	case "post hoc":
		if len(v.Reads) > 0 {
			kind = "post hoc, with a reading of " + strings.Join(v.Reads, ", ")
		}
	}
	item := fmt.Sprintf("`%s` (%s): `%s`", v.Label, kind, v.Name)
	if v.Reading != "" {
		item += " — " + mdEsc(v.Reading)
	}
	switch {
	case v.PostHoc != "":
		item += " — added post hoc: " + mdEsc(v.PostHoc)
	case v.Diagnostic:
		item += " — probes " + mdEsc(v.Probe)
		if v.Moves != "" {
			item += "; moves " + mdEsc(v.Moves)
		}
	}
	if !v.Run {
		item += " — not run"
	}
	return item
}

// claimNote is a claim's statement, expectation, whose failure its
// verdict is (derived, with the config's evidence) and what its cell
// leaves out (the point verdict where it differs, the interval's
// deciding rival).
func claimNote(r Row) string {
	s := fmt.Sprintf("`%s`: %s", r.ID, mdEsc(strings.Join(strings.Fields(r.Statement), " ")))
	if r.Beyond != "" {
		s += " Beyond the paper's claim " + r.Paper + ": " + mdEsc(r.Beyond) + "."
	}
	if r.Expect != "" {
		s += fmt.Sprintf(" Expected %s: %s", strings.ToUpper(r.Expect), mdEsc(strings.Join(strings.Fields(r.Because), " ")))
	}
	if d := r.Derived; d.Kind != "" {
		if !strings.HasSuffix(s, ".") {
			s += "."
		}
		s += fmt.Sprintf(" Whose failure (%s): %s", attrShort[attrIndex(d.Kind)], mdProse(d.Why))
		if d.Decide != "" {
			s += "; would be decided by " + mdProse(d.Decide)
		}
		if ev := r.DefectEvidence; ev != "" && r.Defect != "" {
			s += ". Defect of our check (" + r.Defect + "): " + mdEsc(strings.Join(strings.Fields(ev), " "))
		}
	}
	var extra []string
	if c := r.Base; c.Run && c.Present {
		if c.Point != "" && c.Point != c.Verdict {
			extra = append(extra, "point estimate "+c.Point)
		}
		if _, rival, ok := strings.Cut(c.CIMethod, "; deciding rival: "); ok && c.HasCI {
			extra = append(extra, "deciding rival "+mdEsc(rival))
		}
	}
	if len(extra) > 0 {
		// A because-text may end in evidence with no full stop of its own.
		if !strings.HasSuffix(s, ".") {
			s += "."
		}
		s += " Stated protocol: " + strings.Join(extra, "; ") + "."
	}
	return s
}

// methodFamily is a claim's interval method without its deciding rival.
func methodFamily(m string) string {
	f, _, _ := strings.Cut(m, "; deciding rival: ")
	return f
}

// paperMethods lists the interval methods of a paper's verdicts, sorted.
func paperMethods(pp Paper) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range pp.Tables {
		for _, r := range t.Rows {
			for _, c := range append([]Cell{r.Base}, r.Variants...) {
				if m := methodFamily(c.CIMethod); c.HasCI && m != "" && !seen[m] {
					seen[m] = true
					out = append(out, m)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// intervalsText says, once per paper, how its intervals are built and
// what they bound.
func intervalsText(methods []string) string {
	s := "Intervals: a verdict followed by `[lo, hi]` was decided on the 95% confidence interval of the quantity the " +
		"claim compares — left − factor × right for a comparison, the named winner minus its closest rival for a " +
		"\"best\" claim, the value itself for a value check — over the population the test items (images or splits) " +
		"are drawn from, with the training data, model and estimators fixed: PASS when it lies on the claimed side, " +
		"FAIL when it lies on the other, INCONCLUSIVE when it straddles the boundary. "
	if len(methods) == 1 {
		return s + "Method: " + mdEsc(methods[0]) + "."
	}
	return s + "Methods (the letter after an interval):"
}

// metExpectation reports whether the stated protocol's verdict is the
// one its config expects other than PASS.
func metExpectation(r Row) bool {
	switch r.Expect {
	case "fail":
		return r.Base.Verdict == Fail
	case "inconclusive":
		return r.Base.Verdict == Inconc
	}
	return false
}

// mdRow is claim row i of table t, each verdict with its interval when
// withCI is set.
func mdRow(i int, r Row, t Table, o Options, methods []string, withCI, first bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "| `%s` [%d] |", r.ID, i+1)
	if first {
		fmt.Fprintf(&b, " %s |", mdCell(r.Base, t.Base, o, methods, metExpectation(r), withCI))
	}
	for j, v := range t.Variants {
		fmt.Fprintf(&b, " %s |", mdCell(r.Variants[j], v, o, methods, false, withCI))
	}
	if first {
		fmt.Fprintf(&b, " %s |", categoryText(r))
	}
	return b.String()
}

// movedIntervals lists, for a claim's note, the intervals a row too wide
// for MarkdownWidth left out of its cells.
func movedIntervals(r Row, t Table, first bool) string {
	var parts []string
	add := func(label string, c Cell) {
		if c.Run && c.Present && c.HasCI {
			parts = append(parts, fmt.Sprintf("%s [%s, %s]", label, num(c.CILo), num(c.CIHi)))
		}
	}
	if first {
		add("stated protocol", r.Base)
	}
	for j, v := range t.Variants {
		add(mdCode(v.Label), r.Variants[j])
	}
	if len(parts) == 0 {
		return ""
	}
	return " Intervals: " + strings.Join(parts, "; ") + "."
}

func mdCell(c Cell, col Column, o Options, methods []string, expected, withCI bool) string {
	v, _ := verdictText(c)
	if !c.Run || !c.Present {
		return v
	}
	v = fmt.Sprintf("[%s](%s)", v, o.evidence(col.Dir))
	if expected {
		v += " (expected)"
	}
	if c.HasCI && withCI {
		// Three digits in a cell, as many as a verdict needs beside the
		// interval's end points; the notes keep four.
		v += fmt.Sprintf(" [%s, %s]", num3(c.CILo), num3(c.CIHi))
		if i := slices.Index(methods, methodFamily(c.CIMethod)); len(methods) > 1 && i >= 0 {
			v += fmt.Sprintf(" (%c)", 'a'+i)
		}
	}
	return v
}

// linkTarget matches the target of a Markdown link, "](...)".
var linkTarget = regexp.MustCompile(`\]\([^)\s]*\)`)

// MarkdownLineWidth is the width of a line of the scoreboard's Markdown
// outside its link targets, in runes: a link counts its text and the
// empty "()" of its target, as a reader of the raw file sees them.
func MarkdownLineWidth(line string) int {
	return utf8.RuneCountInString(linkTarget.ReplaceAllString(line, "]()"))
}

// wrapMarkdown wraps text at spaces to width (outside link targets) after
// lead, indenting continuation lines by lead's width.
func wrapMarkdown(lead, text string, width int) string {
	ind := strings.Repeat(" ", utf8.RuneCountInString(lead))
	var lines []string
	cur := lead
	for _, word := range strings.Fields(text) {
		if cur != lead && cur != ind && MarkdownLineWidth(cur+" "+word) > width {
			lines = append(lines, cur)
			cur = ind
			// A word that opens a block at a line's start ("-", "1.")
			// would end the paragraph or item it continues.
			word = report.MarkdownLineStart(word)
		}
		if cur == lead || cur == ind {
			cur += word
		} else {
			cur += " " + word
		}
	}
	return strings.Join(append(lines, cur), "\n")
}

func codeList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	return strings.Join(q, ", ")
}

// totalsLine is "N claims: a reproduced as stated, …".
func totalsLine(t Totals) string {
	parts := make([]string, 0, nCategories)
	for c := Category(0); c < nCategories; c++ {
		parts = append(parts, fmt.Sprintf("%d %s", t[c], c))
	}
	return fmt.Sprintf("%d: %s", t.Claims(), strings.Join(parts, ", "))
}

// setsMarkdown writes the section of each collection (Board.Sets).
func (b *Board) setsMarkdown(w *bytes.Buffer) {
	if len(b.Sets) == 0 {
		return
	}
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("\n## Collections\n\n")
	p("A collection lists configs (`runexp configs/NAME.yaml` runs the set); its members' config checks (not the papers' claims) counted by status, and how many got the status their config expects.\n")
	for _, s := range b.Sets {
		p("\n### `%s`\n\n%s\n\n", s.Name, mdEsc(s.Title))
		p("| config | config checks | PASS | FAIL | INCONCLUSIVE | NOT-EVALUATED | as expected |\n|---|---:|---:|---:|---:|---:|---:|\n")
		for _, r := range s.Rows {
			if !r.Run {
				p("| `%s` | %d | not run | | | | |\n", r.Config, r.Claims)
				continue
			}
			p("| `%s` | %d | %d | %d | %d | %d | %d |\n", r.Config, r.Claims, r.Pass, r.Fail, r.Inconclusive, r.NotEvaluated, r.AsExpected)
		}
		t := s.Total
		p("| **all** | **%d** | **%d** | **%d** | **%d** | **%d** | **%d** |\n", t.Claims, t.Pass, t.Fail, t.Inconclusive, t.NotEvaluated, t.AsExpected)
	}
}

// ClaimLines are the papers' claims as plain lines for a terminal: one
// per paper with its headline and its claims by outcome, then the total
// and the split by whose failure. The suite's summary and the scoreboard
// command print them, so that both count what the reports count.
func (b *Board) ClaimLines() []string {
	var out []string
	for _, p := range b.Papers {
		mark, _ := Headline(p)
		out = append(out, fmt.Sprintf("%s %s: paper claims %s; passing under the stated protocol %d, under the assignment (%s) %d",
			mark, p.ID, totalsLine(p.Totals), p.StatedPass, p.Assignment.Set(), p.AssignedPass))
	}
	out = append(out, fmt.Sprintf("all papers: paper claims %s", totalsLine(b.Totals)))
	out = append(out, fmt.Sprintf("paper claims by whose failure: %s", b.Split.line()))
	return out
}

// Text is the totals as plain lines for a terminal, one per paper and one
// per collection.
func (b *Board) Text() string {
	var w strings.Builder
	for _, l := range b.ClaimLines() {
		fmt.Fprintf(&w, "%s\n", l)
	}
	fmt.Fprintf(&w, "rows: %s\n", totalsLine(b.RowTotals))
	if len(b.Beyond) > 0 {
		fmt.Fprintf(&w, "rows beyond the paper's claims, not counted: %d\n", len(b.Beyond))
	}
	bs := b.Basis
	fmt.Fprintf(&w, "base rows: %d decided by an interval, %d inconclusive intervals, %d point verdicts, %d not judged (of %d)\n", bs.Decided, bs.Inconclusive, bs.Point, bs.NotJudged, bs.Rows())
	for _, p := range b.Papers {
		if len(p.Unaccounted) > 0 {
			fmt.Fprintf(&w, "%s: paper claims not accounted for: %s\n", p.ID, strings.Join(p.Unaccounted, ", "))
		}
	}
	for _, s := range b.Sets {
		fmt.Fprintf(&w, "%s\n", s.Line())
	}
	if len(b.NotRun) > 0 {
		fmt.Fprintf(&w, "not run (%d of %d configs): %s\n", len(b.NotRun), b.Configs, strings.Join(b.NotRun, ", "))
	}
	return w.String()
}

// markdownBases writes how the base rows' verdicts were reached: by an
// interval (decided or inconclusive) or on the point estimate alone, with
// each point verdict's reason.
func (b *Board) markdownBases(w *bytes.Buffer) {
	bs := b.Basis
	n := bs.Rows()
	if n == 0 {
		return
	}
	pct := func(k int) string { return strconv.FormatFloat(100*float64(k)/float64(n), 'f', 1, 64) + "%" }
	w.WriteString("\n")
	w.WriteString(wrapMarkdown("", fmt.Sprintf("The %d rows of the base configs: %d decided (PASS or FAIL) by an interval (%s), "+
		"%d inconclusive intervals (%s), %d point verdicts (%s), %d not judged. An INCONCLUSIVE verdict's evidence states "+
		"the smallest departure its items could decide and about how many items the observed one would need.",
		n, bs.Decided, pct(bs.Decided), bs.Inconclusive, pct(bs.Inconclusive), bs.Point, pct(bs.Point), bs.NotJudged), MarkdownWrap))
	w.WriteString("\n")
	if len(bs.PointRows) == 0 {
		return
	}
	w.WriteString("\nPoint verdicts and why they have no interval:\n\n")
	for _, r := range bs.PointRows {
		w.WriteString(wrapMarkdown("- ", mdEsc(r), MarkdownWrap))
		w.WriteString("\n")
	}
}

// markdownAccounts writes the paper's claims (its paper-values file)
// with their outcomes: a table of claim, rows and outcome, with each
// claim's statement, why and what would decide it in a numbered note.
func (pp *Paper) markdownAccounts(w *bytes.Buffer) {
	if len(pp.Accounts) == 0 {
		return
	}
	w.WriteString("\n### The paper's claims\n\n")
	w.WriteString("| paper claim | rows | outcome |\n|---|---|---|\n")
	notes := make([]string, len(pp.Accounts))
	for i, a := range pp.Accounts {
		fmt.Fprintf(w, "| %s [%d] | %s | %s |\n", a.Claim.ID, i+1, accountRows(a), mdEsc(accountCategoryText(a)))
		notes[i] = fmt.Sprintf("%s: %s", a.Claim.ID, mdEsc(strings.Join(strings.Fields(a.Claim.Statement), " ")))
		if n := accountNote(a); n != "" {
			notes[i] += " " + n
		}
	}
	w.WriteString("\n")
	for i, n := range notes {
		w.WriteString(wrapMarkdown(fmt.Sprintf("%d. ", i+1), n, MarkdownWrap))
		w.WriteString("\n")
	}
}

// upperFirst is s with its first letter upper-cased, to open a sentence.
func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
