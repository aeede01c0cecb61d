package scoreboard

import (
	"bytes"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/runexp/runexp/internal/report"
)

// The HTML page holds what the Markdown holds, laid out for a browser: per
// paper, one compact table per base config (claim | stated protocol | each
// reading | category) whose cells are short verdicts linking to the claim's
// row on its run page; the statement, the expectation and every cell's
// interval fold under the claim's id; the interval methods are stated once
// per paper. It fits a 1280-pixel window (package pagecheck checks it).

// htmlCell is a verdict cell of the page.
type htmlCell struct {
	Text, Href, Class string
	// Label names its column, for a phone's layout (report.PageCSS's
	// stack).
	Label string
	// Title is the tooltip: the interval and the point verdict.
	Title string
}

// htmlDetail is one column's line in a claim's fold.
type htmlDetail struct {
	Column, Verdict, Interval string
}

type htmlRow struct {
	ID, Anchor, Statement, Expected, Category string
	// Whose is whose failure the stated protocol's verdict is, derived,
	// with the config's evidence; Beyond why the row is not counted.
	Whose, Beyond string
	Cells         []htmlCell
	Details       []htmlDetail
}

type htmlTable struct {
	Name, Anchor, Title string
	Run                 bool
	Heads               []string
	Readings            []htmlReading
	Rows                []htmlRow
	// DiagHeads and Diags are the diagnostics' verdicts, in a table of
	// their own under the counted one (never counted, and without them the
	// counted columns fit the window).
	DiagHeads []string
	Diags     []htmlDiagRow
	Totals    string
	// Fits are the reading-fit lines of the base's printed tables and
	// FitNote the sentence naming a reading they point to (fitmd.go).
	Fits    []string
	FitNote string
}

// htmlDiagRow is a row's verdicts under the diagnostic variants.
type htmlDiagRow struct {
	ID    string
	Cells []htmlCell
}

// htmlReading is a variant column, named under the table.
type htmlReading struct {
	Label, Name, Kind, Reading string
	Run                        bool
}

type htmlMethod struct {
	Method string
	Cells  int
}

type htmlPaper struct {
	ID, Title string
	// Mark and MarkWhy are the paper's headline (Headline).
	Mark, MarkWhy string
	Totals        Totals
	// StatedPass and AssignedPass are the paper's (Paper).
	StatedPass, AssignedPass int
	Split                    Split
	Line                     string
	Methods                  []htmlMethod // the interval methods of its cells, most used first
	Tables                   []htmlTable
}

// htmlClaim is a paper claim's line in the page's leading table: its
// statement cut to a line (Short) and whole (Statement), which its fold
// shows with the note.
type htmlClaim struct {
	Paper, ID, Short, Statement, Outcome, Rows, Note, Class string
}

// htmlAssignment is a paper's assignment on the page: a row per ambiguity
// some config reads otherwise, and those none reads in one line.
type htmlAssignment struct {
	Paper  string
	Rows   []htmlChoice
	Unread string
}

type htmlChoice struct {
	Ambiguity, Reading, Fit, Why, Readings string
}

type htmlPage struct {
	Command, Root, Configs string
	Rule, HeadlineRule     string
	AssignmentRule         string
	Assignments            []htmlAssignment
	Claims                 []htmlClaim
	RowTotals              Totals
	Categories             []string
	Definitions            []template.HTML
	NConfigs, NRun         int
	NotRun, Unknown        []string
	Papers                 []htmlPaper
	Totals                 Totals
	// StatedPass and AssignedPass count the claims passing under the
	// stated protocol and under the assignment, over every paper.
	StatedPass, AssignedPass int
	Split                    Split
	// SplitHeads head the split's two tables: not reproduced, then
	// inconclusive, each by attribution.
	SplitHeads [2][nAttr]string
	Beyond     []Beyond
	Sets       []Set
}

// codeSpans escapes s for HTML and sets its `code` spans (the Markdown
// of the category definitions) as <code> elements.
func codeSpans(s string) template.HTML {
	parts := strings.Split(s, "`")
	var b strings.Builder
	for i, p := range parts {
		p = template.HTMLEscapeString(p)
		if i%2 == 1 && i < len(parts)-1 {
			p = "<code>" + p + "</code>"
		} else if i%2 == 1 {
			p = "`" + p // an unpaired backtick stays as written
		}
		b.WriteString(p)
	}
	return template.HTML(b.String())
}

func cellClass(c Cell) string {
	switch {
	case !c.Run || !c.Present:
		return "ne"
	case c.Verdict == Pass:
		return "pass"
	case c.Verdict == Fail:
		return "fail"
	case c.Verdict == Inconc:
		return "inc"
	}
	return "ne"
}

// intervalMethod splits a claim's interval method into the method, stated
// once per paper, and the part that names this claim's deciding rival.
func intervalMethod(m string) (method, rival string) {
	method, rival, _ = strings.Cut(m, "; deciding rival: ")
	return method, rival
}

// intervalText is a cell's interval for its claim's fold and tooltip:
// "[lo, hi] 95%", the point verdict when it differs and the deciding
// rival.
func intervalText(c Cell) string {
	var parts []string
	if c.HasCI {
		lvl := c.CILevel
		if lvl > 0 && lvl <= 1 {
			lvl *= 100
		}
		s := fmt.Sprintf("[%s, %s]", num(c.CILo), num(c.CIHi))
		if lvl > 0 {
			s += " " + num(lvl) + "%"
		}
		parts = append(parts, s)
	}
	if c.Point != "" && c.Point != c.Verdict {
		parts = append(parts, "point estimate "+c.Point)
	}
	if _, rival := intervalMethod(c.CIMethod); rival != "" {
		parts = append(parts, "deciding rival "+strings.TrimPrefix(rival, "vs "))
	}
	return strings.Join(parts, "; ")
}

// runPage is the link of a verdict: the claim's row on its run page when
// the run folder has one (runexp suite writes it), else the folder's
// claims.json (a baseline holds only records and claims).
func (o Options) runPage(dir, id string) string {
	ev := o.evidence(dir)
	if fi, err := os.Stat(filepath.Join(dir, "index.html")); err == nil && fi.Mode().IsRegular() {
		return strings.TrimSuffix(ev, "claims.json") + "index.html#claim-" + id
	}
	return ev
}

func htmlOf(c Cell, col Column, id string, o Options) htmlCell {
	v, _ := verdictText(c)
	h := htmlCell{Text: v, Class: cellClass(c), Title: intervalText(c)}
	if c.Run && c.Present {
		h.Href = o.runPage(col.Dir, id)
	}
	return h
}

// HTML renders the board as one static page (no script, relative links
// only), with the content of Markdown.
func (b *Board) HTML(o Options) ([]byte, error) {
	pg := htmlPage{Command: o.Command, Root: filepath.ToSlash(b.Root), Configs: filepath.ToSlash(o.ConfigsDir),
		NConfigs: b.Configs, NRun: b.Configs - len(b.NotRun), NotRun: b.NotRun, Unknown: b.Unknown, Totals: b.Totals, Sets: b.Sets,
		Split: b.Split, SplitHeads: [2][nAttr]string{attrNames, attrShort}, Beyond: b.Beyond,
		Rule: OutcomeRule, HeadlineRule: HeadlineRule, RowTotals: b.RowTotals, AssignmentRule: AssignmentRule}
	for _, p := range b.Papers {
		pg.StatedPass += p.StatedPass
		pg.AssignedPass += p.AssignedPass
		for _, a := range p.Accounts {
			pg.Claims = append(pg.Claims, htmlClaim{Paper: p.ID, ID: a.Claim.ID, Short: report.Short(a.Claim.Statement, 90), Statement: a.Claim.Statement,
				Outcome: accountCategoryText(a), Rows: plainMarkdown(accountRows(a)), Note: plainMarkdown(accountNote(a)), Class: accountClass(a)})
		}
		if ha := htmlAssignmentOf(p); len(ha.Rows) > 0 || ha.Unread != "" {
			pg.Assignments = append(pg.Assignments, ha)
		}
	}
	for c := Category(0); c < nCategories; c++ {
		pg.Categories = append(pg.Categories, c.String())
		pg.Definitions = append(pg.Definitions, codeSpans(definitions[c]))
	}
	for _, p := range b.Papers {
		pg.Papers = append(pg.Papers, htmlPaperOf(p, o))
	}
	var w bytes.Buffer
	if err := page.Execute(&w, pg); err != nil {
		return nil, err
	}
	return w.Bytes(), nil
}

// htmlAssignmentOf is paper p's assignment on the page: a row per
// ambiguity read, those left at the stated protocol named together.
func htmlAssignmentOf(p Paper) htmlAssignment {
	ha := htmlAssignment{Paper: p.ID}
	var unread []string
	for _, ch := range p.Assignment.Choices {
		if ch.Rule == RuleStatedNotRead {
			unread = append(unread, ambiguityName(ch))
			continue
		}
		ha.Rows = append(ha.Rows, htmlChoice{Ambiguity: ambiguityName(ch), Reading: plainMarkdown(choiceReading(ch)), Fit: choiceFitText(ch),
			Why: plainMarkdown(ch.Why), Readings: strings.Join(ch.Readings, ", ")})
	}
	ha.Unread = strings.Join(unread, "; ")
	return ha
}

// htmlPaperOf is paper p's section of the page: its headline, its tables
// and the interval methods of their cells, most used first.
func htmlPaperOf(p Paper, o Options) htmlPaper {
	hp := htmlPaper{ID: p.ID, Title: p.Title, Totals: p.Totals, Split: p.Split, StatedPass: p.StatedPass, AssignedPass: p.AssignedPass,
		Line: "Paper claims: " + totalsLine(p.Totals) + ". By whose failure: " + p.Split.line() + ". Rows: " + totalsLine(p.RowTotals)}
	hp.Mark, hp.MarkWhy = Headline(p)
	if hp.Title == "" {
		hp.Title = p.ID
	}
	methods := map[string]int{}
	for _, t := range p.Tables {
		hp.Tables = append(hp.Tables, htmlTableOf(t, o, methods))
	}
	for m, n := range methods {
		hp.Methods = append(hp.Methods, htmlMethod{Method: m, Cells: n})
	}
	slices.SortFunc(hp.Methods, func(a, b htmlMethod) int {
		if a.Cells != b.Cells {
			return b.Cells - a.Cells
		}
		return strings.Compare(a.Method, b.Method)
	})
	return hp
}

// htmlTableOf is table t on the page: the stated protocol, the readings
// and the post-hoc variants in the table that counts, the diagnostics in
// one of their own; methods counts the interval method of each cell.
func htmlTableOf(t Table, o Options, methods map[string]int) htmlTable {
	ht := htmlTable{Name: t.Base.Name, Anchor: "config-" + t.Base.Name, Title: t.Base.Title, Run: t.Base.Run, Totals: "Rows: " + totalsLine(t.Totals),
		Fits: t.fitLines(), FitNote: plainMarkdown(t.fitNotes())}
	var counted, diags []int
	for i, v := range t.Variants {
		if v.Diagnostic {
			diags = append(diags, i)
		} else {
			counted = append(counted, i)
		}
	}
	for _, i := range append(slices.Clone(counted), diags...) {
		v := t.Variants[i]
		if !v.Diagnostic {
			ht.Heads = append(ht.Heads, v.Label)
		} else {
			ht.DiagHeads = append(ht.DiagHeads, v.Label)
		}
		ht.Readings = append(ht.Readings, htmlReading{Label: v.Label, Name: v.Name, Kind: variantKind(v, i == t.Assigned), Reading: report.Short(v.Reading, 200), Run: v.Run})
	}
	sub := t.subTable(counted)
	cols := append([]Column{t.Base}, sub.Variants...)
	for _, r := range sub.Rows {
		ht.Rows = append(ht.Rows, htmlRowOf(r, t.Base.Name, cols, o, methods))
	}
	if len(diags) == 0 {
		return ht
	}
	dt := t.subTable(diags)
	for _, r := range dt.Rows {
		dr := htmlDiagRow{ID: r.ID}
		for j, c := range r.Variants {
			hc := htmlOf(c, dt.Variants[j], r.ID, o)
			hc.Label = dt.Variants[j].Label
			dr.Cells = append(dr.Cells, hc)
			if m, _ := intervalMethod(c.CIMethod); c.HasCI && m != "" {
				methods[m]++
			}
		}
		ht.Diags = append(ht.Diags, dr)
	}
	return ht
}

// variantKind says what variant v is on the page, assigned when it is the
// reading the paper's assignment counts.
func variantKind(v Column, assigned bool) string {
	switch kind := v.Role(); kind {
	case "reading":
		kind = "reading of " + strings.Join(v.Reads, ", ")
		if assigned {
			kind += ", the assignment's: counted"
		}
		return kind
	case "diagnostic":
		return "diagnostic, not counted"
	case "post hoc":
		return "post hoc, never a reproduction"
	default:
		return kind
	}
}

// htmlRowOf is row r of base's table on the page, its cells under cols
// (the base, then its variants), counting the interval method of each
// cell in methods.
func htmlRowOf(r Row, base string, cols []Column, o Options, methods map[string]int) htmlRow {
	hr := htmlRow{ID: r.ID, Anchor: base + "--" + r.ID, Statement: r.Statement, Expected: expectText(r), Category: categoryText(r), Beyond: r.Beyond}
	if d := r.Derived; d.Kind != "" {
		hr.Whose = attrShort[attrIndex(d.Kind)] + ": " + d.Why
		if d.Decide != "" {
			hr.Whose += "; would be decided by " + d.Decide
		}
		if ev := r.DefectEvidence; ev != "" && r.Defect != "" {
			hr.Whose += ". Defect of our check (" + r.Defect + "): " + ev
		}
	}
	cells := append([]Cell{r.Base}, r.Variants...)
	for i, c := range cells {
		name := "stated protocol"
		if i > 0 {
			name = cols[i].Label
		}
		hc := htmlOf(c, cols[i], r.ID, o)
		hc.Label = name
		hr.Cells = append(hr.Cells, hc)
		v, _ := verdictText(c)
		hr.Details = append(hr.Details, htmlDetail{Column: name, Verdict: v, Interval: intervalText(c)})
		if m, _ := intervalMethod(c.CIMethod); c.HasCI && m != "" {
			methods[m]++
		}
	}
	return hr
}

// accountClass colours a paper claim's outcome: reproduced green; not
// reproduced red, whoever's failure it is (a known non-reproduction is
// still a failure of the claim), and reproduced only post hoc too;
// inconclusive amber; not evaluated, not testable or not run grey.
func accountClass(a Account) string {
	switch a.Category {
	case AsStated, OtherReading:
		return "pass"
	case NotReproduced:
		return "fail"
	case Inconclusive:
		return "inc"
	}
	return "ne"
}

// markClass colours a paper's headline: [Re] green, [¬Re] red, [Re?]
// amber, [not run] grey.
func markClass(mark string) string {
	switch mark {
	case MarkRe:
		return "pass"
	case MarkNotRe:
		return "fail"
	case MarkUndecided:
		return "inc"
	}
	return "ne"
}

// pageFuncs: list builds a template's list of strings, sum adds a row of
// the split.
var pageFuncs = template.FuncMap{
	"list":      func(s ...string) []string { return s },
	"markClass": markClass,
	"sum": func(v [nAttr]int) int {
		n := 0
		for _, x := range v {
			n += x
		}
		return n
	},
}

var page = template.Must(template.New("scoreboard").Funcs(pageFuncs).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8"/>
<meta name="viewport" content="width=device-width, initial-scale=1"/>
<title>Reproducibility scoreboard</title>
<style>
` + report.PageCSS + `td.r { text-align: right; font-variant-numeric: tabular-nums; }
td.v { white-space: nowrap; }
.muted, .nav { color: #555; } .nav { font-size: 0.9em; }
table.claims { width: 100%; }
details > summary { cursor: pointer; }
details dl { margin: 0.3em 0 0.2em; font-size: 0.95em; }
details dt { font-weight: bold; color: #444; }
details dd { margin: 0 0 0.3em 1.2em; }
ul.readings { margin: 0.2em 0; font-size: 0.9em; }
tr:target { outline: 2px solid #4a7fd0; }
</style>
</head>
<body>
<h1>Reproducibility scoreboard</h1>
<p>Generated by <code>{{.Command}}</code> from the results in <code>{{.Root}}</code> and the configs in <code>{{.Configs}}</code>. Each verdict links to the claim on its run's page (or, where the results hold no page, to the run's claims.json); open a claim for its statement, expectation and intervals.</p>
<p class="nav">On this page: <a href="#totals">totals</a> · <a href="#assignment">one reading per ambiguity</a> · <a href="#claims">the paper's claims</a> · <a href="#whose-failure">whose failure</a> · <a href="#categories">rows</a> · <a href="#coverage">coverage</a>{{if .Sets}} · <a href="#collections">collections</a>{{end}}{{range .Papers}} · <a href="#{{.ID}}">{{.ID}}</a>{{end}}</p>
<h2 id="totals">The paper's claims: totals</h2>
<p>{{.Rule}}</p>
<p>Headline per paper: {{.HeadlineRule}}</p>
<p>"Pass, stated protocol" counts the paper claims every row of which passes under the base configs; "pass, assignment" those that pass under the paper's assignment (next section), the count the headline and the categories follow.</p>
<table class="stack">
<thead><tr><th>paper</th><th>headline</th><th>paper claims</th><th>pass, stated protocol</th><th>pass, assignment</th>{{range .Categories}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>
{{- range .Papers}}
<tr><td><a href="#{{.ID}}">{{if .Title}}{{.Title}}{{else}}{{.ID}}{{end}}</a></td><td class="key {{markClass .Mark}}" title="{{.MarkWhy}}">{{.Mark}}</td><td class="r" data-label="paper claims">{{.Totals.Claims}}</td><td class="r" data-label="pass, stated protocol">{{.StatedPass}}</td><td class="r" data-label="pass, assignment">{{.AssignedPass}}</td>{{range $i, $n := .Totals}}<td class="r" data-label="{{index $.Categories $i}}">{{$n}}</td>{{end}}</tr>
{{- end}}
<tr><td><b>all</b></td><td class="key"></td><td class="r" data-label="paper claims"><b>{{.Totals.Claims}}</b></td><td class="r" data-label="pass, stated protocol"><b>{{.StatedPass}}</b></td><td class="r" data-label="pass, assignment"><b>{{.AssignedPass}}</b></td>{{range $i, $n := .Totals}}<td class="r" data-label="{{index $.Categories $i}}"><b>{{$n}}</b></td>{{end}}</tr>
</tbody>
</table>
<h2 id="assignment">One reading per ambiguity: the assignment</h2>
<p>Each paper is counted under its stated protocol and under one assignment of readings, one reading per listed ambiguity for the whole paper; the counts and outcomes on this page are the assignment's. {{.AssignmentRule}}</p>
{{- range .Assignments}}
<h3 id="assignment-{{.Paper}}">{{.Paper}}</h3>
{{- if .Rows}}
<table class="stack">
<thead><tr><th>ambiguity</th><th>counted reading</th><th>fit: counted vs stated protocol (median |ln(ours/paper)|)</th><th>how chosen</th><th>readings run</th></tr></thead>
<tbody>
{{- range .Rows}}
<tr><td>{{.Ambiguity}}</td><td class="key" data-label="counted reading">{{.Reading}}</td><td data-label="fit">{{.Fit}}</td><td data-label="how chosen">{{.Why}}</td><td data-label="readings run">{{.Readings}}</td></tr>
{{- end}}
</tbody>
</table>
{{- end}}
{{- with .Unread}}
<p>Read as the stated protocol reads them, no config reading them otherwise: {{.}}.</p>
{{- end}}
{{- end}}
<h2 id="claims">The paper's claims</h2>
<p>Each claim's outcome under the assignment; open a claim for its whole statement, why, what would decide it, and its verdicts under the other readings (sensitivity, never counted).</p>
<table class="claims stack">
<thead><tr><th>paper</th><th>claim</th><th>outcome</th><th>rows</th></tr></thead>
<tbody>
{{- range .Claims}}
<tr><td>{{.Paper}}</td><td><details><summary><b>{{.ID}}</b> {{.Short}}</summary><p>{{.Statement}}</p>{{with .Note}}<p>{{.}}</p>{{end}}</details></td><td class="key {{.Class}}">{{.Outcome}}</td><td data-label="rows">{{.Rows}}</td></tr>
{{- end}}
</tbody>
</table>
<h2 id="whose-failure">Whose failure</h2>
<p>A claim not reproduced is not by itself a verdict on the paper. Whose failure it is, is derived from the verdicts of its rows under the stated protocol and the paper's readings and from what the configs declare (docs/readings.md): it <b>fails as the paper states it</b> (FAIL under the stated protocol and under a reading of every ambiguity bearing on it, on the paper's own data), or it <b>fails here</b> through <b>our data</b> (a diagnostic that moves a named property of our data toward the paper's turns it), <b>our reading</b> (a reading of a listed ambiguity passes it) or <b>our test</b> (a named defect of our check), or it is <b>undetermined</b> (none of these is shown; the claim's note names the experiment that would decide it).</p>
{{- range $i, $what := (list "not reproduced" "inconclusive")}}
<table>
<thead><tr><th>paper</th><th>{{$what}}</th>{{range index $.SplitHeads $i}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>
{{- range $.Papers}}
<tr><td><a href="#{{.ID}}">{{if .Title}}{{.Title}}{{else}}{{.ID}}{{end}}</a></td><td class="r">{{sum (index .Split $i)}}</td>{{range index .Split $i}}<td class="r">{{.}}</td>{{end}}</tr>
{{- end}}
<tr><td><b>all</b></td><td class="r"><b>{{sum (index $.Split $i)}}</b></td>{{range index $.Split $i}}<td class="r"><b>{{.}}</b></td>{{end}}</tr>
</tbody>
</table>
{{- end}}
{{- if .Beyond}}
<p>Checks beyond the paper's claims (a figure's shape, an ambiguity's scan, a diagnostic's own question), shown in their tables and never counted ({{len .Beyond}}):</p>
<ul>{{range .Beyond}}<li><code>{{.Config}}#{{.ID}}</code> {{.Verdict}}</li>{{end}}</ul>
{{- end}}
<h2 id="categories">Rows: the evidence under the claims</h2>
<p>Each row of a base config that tests a paper claim falls in one category:</p>
<ul>
{{- range $i, $c := .Categories}}
<li><b>{{$c}}</b>: {{index $.Definitions $i}}</li>
{{- end}}
</ul>
<table>
<thead><tr><th>rows</th>{{range .Categories}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody><tr><td class="r">{{.RowTotals.Claims}}</td>{{range .RowTotals}}<td class="r">{{.}}</td>{{end}}</tr></tbody>
</table>
<p>A diagnostic variant is shown and never counted. Where a claim has an interval, its verdict is PASS when the interval lies on the claimed side of the claim's threshold, FAIL when on the other, INCONCLUSIVE when it straddles it; each paper names its interval methods once, and each claim's fold gives the bounds.</p>
<h2 id="coverage">Coverage</h2>
<p>{{.NConfigs}} configs, {{.NRun}} with results.{{if .NotRun}} Not run ({{len .NotRun}}):{{range .NotRun}} <code>{{.}}</code>{{end}}. The full-suite version comes from <code>make suite</code>.{{end}}{{if .Unknown}} Folders no config names, not counted:{{range .Unknown}} <code>{{.}}</code>{{end}}.{{end}}</p>
{{- if .Sets}}
<h2 id="collections">Collections</h2>
<p>A collection lists configs (<code>runexp configs/NAME.yaml</code> runs the set); its members' config checks (not the papers' claims) counted by status, and how many got the status their config expects.</p>
{{- range .Sets}}
<h3 id="set-{{.Name}}">{{.Name}}</h3>
<p>{{.Title}}</p>
<table>
<thead><tr><th>config</th><th>config checks</th><th>PASS</th><th>FAIL</th><th>INCONCLUSIVE</th><th>NOT-EVALUATED</th><th>as expected</th></tr></thead>
<tbody>
{{- range .Rows}}
<tr><td><code>{{.Config}}</code></td><td class="r">{{.Claims}}</td>{{if .Run}}<td class="r">{{.Pass}}</td><td class="r">{{.Fail}}</td><td class="r">{{.Inconclusive}}</td><td class="r">{{.NotEvaluated}}</td><td class="r">{{.AsExpected}}</td>{{else}}<td colspan="5" class="ne">not run</td>{{end}}</tr>
{{- end}}
<tr><td><b>all</b></td><td class="r"><b>{{.Total.Claims}}</b></td><td class="r"><b>{{.Total.Pass}}</b></td><td class="r"><b>{{.Total.Fail}}</b></td><td class="r"><b>{{.Total.Inconclusive}}</b></td><td class="r"><b>{{.Total.NotEvaluated}}</b></td><td class="r"><b>{{.Total.AsExpected}}</b></td></tr>
</tbody>
</table>
{{- end}}
{{- end}}
{{- range .Papers}}
<h2 id="{{.ID}}"><span class="{{markClass .Mark}}">{{.Mark}}</span> {{.Title}} ({{.ID}})</h2>
<p>{{.MarkWhy}}. {{.Line}}.</p>
{{- if .Methods}}
<p>Intervals:{{range $i, $m := .Methods}}{{if $i}};{{end}} {{$m.Method}} ({{$m.Cells}} cell{{if ne $m.Cells 1}}s{{end}}){{end}}. A compare or ratio claim's interval bounds the difference of its two sides, a best claim's the winner minus its closest (deciding) rival, named in the fold.</p>
{{- end}}
{{- range .Tables}}
<h3 id="{{.Anchor}}">{{.Name}}{{if not .Run}} — not run{{end}}</h3>
<p>{{.Title}}</p>
{{- if .Readings}}
<ul class="readings">
{{- range .Readings}}
<li><b>{{.Label}}</b> ({{.Kind}}): <code>{{.Name}}</code>{{with .Reading}} — {{.}}{{end}}{{if not .Run}} — not run{{end}}</li>
{{- end}}
</ul>
{{- end}}
{{- if .Rows}}
<table class="claims stack">
<thead><tr><th>claim</th><th>stated protocol</th>{{range .Heads}}<th>{{.}}</th>{{end}}<th>category</th></tr></thead>
<tbody>
{{- range .Rows}}
<tr id="{{.Anchor}}"><td><details><summary><code>{{.ID}}</code> {{.Statement}}</summary>
<dl><dt>Expected</dt><dd>{{.Expected}}</dd>
{{- with .Beyond}}<dt>Beyond the paper's claim</dt><dd>{{.}}</dd>{{end}}
{{- with .Whose}}<dt>Whose failure</dt><dd>{{.}}</dd>{{end}}
{{- range .Details}}<dt>{{.Column}}</dt><dd>{{.Verdict}}{{with .Interval}} {{.}}{{end}}</dd>{{end}}
</dl></details></td>{{range $i, $c := .Cells}}<td class="v {{$c.Class}}{{if not $i}} key{{else}} chip{{end}}" data-label="{{$c.Label}}"{{with $c.Title}} title="{{.}}"{{end}}>{{if $c.Href}}<a href="{{$c.Href}}">{{$c.Text}}</a>{{else}}{{$c.Text}}{{end}}</td>{{end}}<td data-label="category">{{.Category}}</td></tr>
{{- end}}
</tbody>
</table>
{{- if .Diags}}
<p>The diagnostics of <code>{{.Name}}</code>, never counted:</p>
<table class="claims stack">
<thead><tr><th>claim</th>{{range .DiagHeads}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>
{{- range .Diags}}
<tr><td><code>{{.ID}}</code></td>{{range $c := .Cells}}<td class="v {{$c.Class}} chip" data-label="{{$c.Label}}"{{with $c.Title}} title="{{.}}"{{end}}>{{if $c.Href}}<a href="{{$c.Href}}">{{$c.Text}}</a>{{else}}{{$c.Text}}{{end}}</td>{{end}}</tr>
{{- end}}
</tbody>
</table>
{{- end}}
<p>{{.Totals}}.</p>
{{- range .Fits}}
<p class="muted">{{.}}</p>
{{- end}}
{{- with .FitNote}}
<p><b>{{.}}</b></p>
{{- end}}
{{- else}}
<p>No claims.</p>
{{- end}}
{{- end}}
{{- end}}
</body>
</html>
`))
