package paperreport

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/scoreboard"
)

// Options say where a report's sources are.
type Options struct {
	Configs     string // the configs folder
	Root        string // the results root (a suite's --out, or baseline/)
	PaperValues string // the folder of the paper-values files
	// OutDir is the folder the report is written to (default
	// Root/reports/PAPER); the report's figures are written beside it.
	OutDir string
}

// Report is one paper's report, rendered.
type Report struct {
	Paper    string
	Title    string // with its [Re], [¬Re] or [Re?]
	Re       bool
	Markdown string // REPORT.md
	HTML     string // report.html
	Metadata string // metadata.yaml
	// Bibliography is bibliography.bib: the entries of references.bib
	// the report's text cites.
	Bibliography string
	// AppendixMarkdown and AppendixHTML are APPENDIX.md and
	// appendix.html: the long tables the article links to.
	AppendixMarkdown, AppendixHTML string
	// Headline is the paper's mark with the counts behind it, as the
	// scoreboard gives them (scoreboard.Headline), for a terminal line.
	Headline string
	// Files are the report's figures, by file name: copied from the runs'
	// folders or drawn from the records, written into the report's folder
	// so that it can be moved on its own.
	Files map[string][]byte
	// Counts lists the numbers of the report that are counts of entries
	// of its sources, or values derived from them, rather than copies of
	// them, each as "N: what".
	Counts []string
}

// builder carries a report under construction.
type builder struct {
	o      Options
	paper  string
	info   *config.PaperInfo
	base   []*run // configs of the stated protocol, by name
	varies []*run // readings and diagnostics
	suite  *suiteFile
	counts []string
	d      doc
	// apx is the appendix: the tables too long for the article (every
	// check of a config, a claim's evidence under every config), linked
	// from it.
	apx doc
	// sb is the paper on the scoreboard (package scoreboard): its claims'
	// outcomes and attributions, the one derivation the scoreboard, the
	// reports and the suite line all read.
	sb scoreboard.Paper
	// bib is references.bib; cited the keys the text cites, in the order
	// first cited.
	bib   *bibliography
	cited []string
	// files are the figures the report's folder holds (Report.Files).
	files map[string][]byte
	// noted maps each sentence of the configs' notes already given to
	// the config that gave it; said maps a sentence said once to where.
	noted, said map[string]string
	// captions maps each sentence of a figure caption printed to the
	// figure that first said it ("FILE of CONFIG").
	captions map[string]string
}

// count formats n, a count of entries of the sources, and notes it.
func (b *builder) count(n int, what string) string {
	s := strconv.Itoa(n)
	b.counts = append(b.counts, s+": "+what)
	return s
}

// counted is n with its noun, singular or plural ("1 reading", "2
// readings"), noted as a count.
func (b *builder) counted(n int, one, many string) string {
	if n == 1 {
		return b.count(n, one) + " " + one
	}
	return b.count(n, many) + " " + many
}

// cite returns the citation of the entries of references.bib that are
// the source of items ("estimator:mika", "dataset:usps"), " [@key; …]",
// and notes them as cited; "" when none is.
func (b *builder) cite(items ...string) string {
	var keys []string
	for _, it := range items {
		for _, k := range b.bib.keysFor(it) {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	return b.citeKeys(keys...)
}

// citeKeys cites the entries of keys, " [@a; @b]".
func (b *builder) citeKeys(keys ...string) string {
	if len(keys) == 0 {
		return ""
	}
	var parts []string
	for _, k := range keys {
		if !slices.Contains(b.cited, k) {
			b.cited = append(b.cited, k)
		}
		parts = append(parts, "@"+k)
	}
	return " [" + strings.Join(parts, "; ") + "]"
}

// paperClaimOf returns the paper claim id (c1, …) a config claim's source
// cites in paper's paper-values file, or "".
func paperClaimOf(source, paper string) string {
	_, after, ok := strings.Cut(source, "paper-values/"+paper+".yaml#claims/")
	if !ok {
		return ""
	}
	end := strings.IndexFunc(after, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') })
	if end >= 0 {
		after = after[:end]
	}
	return after
}

// Build builds the report of paper from the sources o names.
func Build(o Options, paper string) (*Report, error) {
	cfgs, err := loadConfigs(o.Configs)
	if err != nil {
		return nil, err
	}
	b := &builder{o: o, paper: paper, files: map[string][]byte{}}
	if b.bib, err = loadBibliography(); err != nil {
		return nil, err
	}
	b.info, err = config.ReadPaperInfo(filepath.Join(o.PaperValues, paper+".yaml"))
	if err != nil {
		return nil, err
	}
	for _, c := range cfgs {
		if c.Paper != paper {
			continue
		}
		r, err := loadRun(o.Root, c)
		if err != nil {
			return nil, err
		}
		if c.VariantOf == "" {
			b.base = append(b.base, r)
		} else {
			b.varies = append(b.varies, r)
		}
	}
	if len(b.base) == 0 {
		return nil, fmt.Errorf("paperreport: no config of %s names paper %s", o.Configs, paper)
	}
	if b.suite, err = loadSuite(o.Root); err != nil {
		return nil, err
	}
	board, err := scoreboard.Load(o.Configs, o.Root, o.PaperValues)
	if err != nil {
		return nil, err
	}
	p, ok := board.Paper(paper)
	if !ok {
		return nil, fmt.Errorf("paperreport: the scoreboard of %s has no paper %s", o.Root, paper)
	}
	b.sb = p
	return b.render()
}

// run returns the run of the config name, nil when the paper has none.
func (b *builder) run(name string) *run {
	for _, r := range b.runs() {
		if r.Config.Name == name {
			return r
		}
	}
	return nil
}

// runs are the paper's configs, those of the stated protocol first.
func (b *builder) runs() []*run {
	return append(append([]*run(nil), b.base...), b.varies...)
}

// abstract states the outcome of the paper's claims by the scoreboard's
// units and rule, whose failure those not reproduced are, and whether the
// paper's data were used.
func (b *builder) abstract() string {
	var n int
	byCat := map[scoreboard.Category][]string{}
	whose := map[string]int{}
	for _, a := range b.sb.Accounts {
		if a.Category == scoreboard.NotTestable {
			continue
		}
		n++
		byCat[a.Category] = append(byCat[a.Category], a.Claim.ID)
		if a.Category != scoreboard.AsStated && a.Category != scoreboard.OtherReading && a.Attribution != "" {
			whose[scoreboard.AttributionName(a.Attribution)]++
		}
	}
	var parts []string
	for _, c := range []scoreboard.Category{scoreboard.AsStated, scoreboard.OtherReading, scoreboard.NotReproduced, scoreboard.Inconclusive, scoreboard.NotEvaluated, scoreboard.NotRun} {
		if ids := byCat[c]; len(ids) > 0 {
			parts = append(parts, fmt.Sprintf("%s %s (%s)", b.count(len(ids), c.String()+" claims"), c, strings.Join(ids, ", ")))
		}
	}
	s := fmt.Sprintf("We reproduce the paper's %s tested claims with runexp, from YAML configs, on real data, each ambiguity of the paper read one way for the whole paper: %s.", b.count(n, "paper claims tested"), strings.Join(parts, "; "))
	if len(whose) > 0 {
		var ws []string
		for _, k := range []string{"fails as the paper states it", "fails here: our data", "fails here: our test", "undetermined"} {
			if whose[k] > 0 {
				ws = append(ws, fmt.Sprintf("%s %s", b.count(whose[k], "claims "+k), k))
			}
		}
		s += " Of those not reproduced or inconclusive: " + strings.Join(ws, ", ") + "."
	}
	var standIns []string
	for _, t := range b.sb.Tables {
		if t.StandIn != "" {
			standIns = append(standIns, "`"+t.Base.Name+"`")
		}
	}
	if len(standIns) > 0 {
		s += fmt.Sprintf(" The paper's own data were not used for %s of the %s configs of the stated protocol (%s): stand-ins replace them.",
			b.count(len(standIns), "configs on stand-ins"), b.count(len(b.sb.Tables), "configs of the stated protocol"), strings.Join(standIns, ", "))
	} else {
		s += " Every config of the stated protocol runs on the paper's own data."
	}
	return s
}

func (b *builder) render() (*Report, error) {
	d := &b.d
	mark, why := scoreboard.Headline(b.sb)
	title := mark + " " + b.info.Title
	d.h(1, mark+" "+lit(b.info.Title))
	d.p("A reproduction of " + b.citeLabelOf("paper:"+b.paper) + b.cite("paper:"+b.paper) + ", *" + lit(b.info.Title) + "*" + venueText(b.info.Venue) + ", with runexp" + b.citeKeys("runexp") + ". Written by `runexp report " + b.paper + "` from the results in `" + relName(b.o.Root) + "` (revision " + b.revisionText() + "), the configs in `" + relName(b.o.Configs) + "` and the paper values `" + b.paper + ".yaml`.")
	d.p("**Abstract.** " + b.abstract())
	d.p("**" + mark + "** " + why + ".")
	if journal, jwhy := scoreboard.JournalMark(b.sb); journal != mark {
		d.p("In the journal's two marks (the title of metadata.yaml): **" + journal + "**, " + jwhy + ".")
	}
	d.fold("How the headline is decided", func() { d.p(scoreboard.HeadlineRule + " " + scoreboard.JournalRule) })
	b.count(len(b.sb.Accounts), "paper claims in the paper values")
	outcomes := map[string]scoreboard.Account{}
	for _, a := range b.sb.Accounts {
		outcomes[a.Claim.ID] = a
	}
	b.introduction(outcomes)
	if err := b.implementation(); err != nil {
		return nil, err
	}
	b.methodology()
	if err := b.results(); err != nil {
		return nil, err
	}
	b.discussion()
	b.references()
	b.appendix()

	rep := &Report{Paper: b.paper, Title: title, Re: mark == scoreboard.MarkRe, Headline: mark + " " + why, Files: b.files}
	rep.Markdown = d.markdown()
	rep.HTML = d.html(title, report.PageCSS, b.citeLabels())
	if len(b.apx.blocks) > 0 {
		apx := doc{}
		at := "Appendix to " + title
		apx.h(1, "Appendix to "+mark+" "+lit(b.info.Title))
		apx.p("The long tables of the report (" + "[the article](article:introduction)" + "): every check of a config with its values and interval, and the evidence of each claim not reproduced as stated under every config that bears on it.")
		apx.blocks = append(apx.blocks, b.apx.blocks...)
		rep.AppendixMarkdown = apx.markdown()
		rep.AppendixHTML = apx.html(at, report.PageCSS, b.citeLabels())
	}
	rep.Metadata = b.metadata(title, b.abstract(), outcomes)
	rep.Bibliography = b.bibliography()
	rep.Counts = b.counts
	return rep, nil
}

// venueText is ", VENUE" or "".
func venueText(v string) string {
	if v == "" {
		return ""
	}
	return ", " + lit(v)
}

// citeLabels maps each cited key to its label in running text ("Mika et
// al. 1999").
func (b *builder) citeLabels() map[string]string {
	m := map[string]string{}
	for _, k := range b.cited {
		if e, ok := b.bib.entry(k); ok {
			m[k] = citeLabel(e)
		}
	}
	return m
}

// introduction says what the paper claims and what was reproduced: the
// configs run, the data, and each claim's outcome.
func (b *builder) introduction(outcomes map[string]scoreboard.Account) {
	d := &b.d
	d.hid(2, "Introduction", "introduction")
	var standIn, own []string
	for _, t := range b.sb.Tables {
		if t.StandIn != "" {
			standIn = append(standIn, "`"+t.Base.Name+"`")
		} else {
			own = append(own, "`"+t.Base.Name+"`")
		}
	}
	nRead, nDiag, nPost := 0, 0, 0
	for _, t := range b.sb.Tables {
		for _, v := range t.Variants {
			switch v.Role() {
			case "reading":
				nRead++
			case "diagnostic":
				nDiag++
			default:
				nPost++
			}
		}
	}
	s := fmt.Sprintf("%s%s make %s claims that their paper-values file transcribes with the sentence each rests on (below, in the paper's words). We test them with %s configs of the paper's stated protocol",
		b.citeLabelOf("paper:"+b.paper), b.cite("paper:"+b.paper), b.count(len(b.info.Claims), "claims of the paper"), b.count(len(b.sb.Tables), "configs of the stated protocol"))
	switch {
	case len(own) > 0 && len(standIn) > 0:
		s += fmt.Sprintf(", %s on the paper's own data and %s on stand-ins for data we do not have", b.count(len(own), "configs on the paper's data"), b.count(len(standIn), "configs on stand-ins"))
	case len(standIn) > 0:
		s += ", every one on a stand-in for data we do not have"
	default:
		s += ", every one on the paper's own data"
	}
	var kinds []string
	if nRead > 0 {
		kinds = append(kinds, b.counted(nRead, "reading", "readings")+" of the paper's ambiguities")
	}
	if nDiag > 0 {
		kinds = append(kinds, b.counted(nDiag, "diagnostic", "diagnostics")+" of our data")
	}
	if nPost > 0 {
		kinds = append(kinds, b.counted(nPost, "post-hoc variant", "post-hoc variants"))
	}
	if len(kinds) > 0 {
		s += fmt.Sprintf(", and %s: %s.", b.counted(nRead+nDiag+nPost, "variant", "variants"), joinAnd(kinds))
	} else {
		s += "."
	}
	d.p(s + " Each claim's outcome follows from the rows (the configs' checks) that test it; whose failure a claim not reproduced is comes from the verdicts of its rows under the stated protocol, the readings and the diagnostics (Discussion).")
	d.fold("How a claim's outcome and whose failure it is are decided", func() { d.p(scoreboard.OutcomeRule) })
	var rows [][]string
	for _, pc := range b.info.Claims {
		a := outcomes[pc.ID]
		whose := ""
		if a.Attribution != "" && a.Category != scoreboard.OtherReading {
			whose = scoreboard.AttributionName(a.Attribution)
		}
		rows = append(rows, []string{pc.ID, scoreboard.OutcomeText(a), whose, statedText(a), sensitivityText(a), lit(pc.Statement)})
	}
	// The outcome comes right after the claim's id, so that a narrow
	// screen shows it before the table scrolls.
	d.table([]string{"claim", "outcome", "whose failure", "as stated", "other readings (not counted)", "statement (the paper's)"}, rows)
	b.assignment()
}

// statedText is a claim's verdict under the stated protocol, marked when
// the assignment's differs.
func statedText(a scoreboard.Account) string {
	switch {
	case a.Stated == "":
		return ""
	case a.Flipped:
		return a.Stated + " (the assignment's reading does not pass it)"
	}
	return a.Stated
}

// sensitivityText is a claim's verdict under each other documented
// reading, a flip of a claim the stated protocol passes marked.
func sensitivityText(a scoreboard.Account) string {
	// Readings grouped by their verdict, in the order first given.
	var order []string
	by := map[string][]string{}
	for _, s := range a.Sensitivity {
		if s.Reading == scoreboard.RoleStated {
			continue // its own column
		}
		v := s.Verdict
		switch {
		case s.Flips:
			v += " (flips a claim the stated protocol passes)"
		case s.Passes:
			v += " (passes; not counted)"
		}
		if _, ok := by[v]; !ok {
			order = append(order, v)
		}
		by[v] = append(by[v], s.Reading)
	}
	var parts []string
	for _, v := range order {
		parts = append(parts, strings.Join(by[v], ", ")+": "+v)
	}
	return strings.Join(parts, "; ")
}

// assignment writes the paper's one reading per ambiguity: for each
// ambiguity a reading of which ran, the reading counted, the rule that
// chose it and its fit to the printed values beside the stated
// protocol's; the others are read as the stated protocol.
func (b *builder) assignment() {
	d := &b.d
	as := b.sb.Assignment
	var rows [][]string
	var notRead []string
	for _, c := range as.Choices {
		if len(c.Readings) == 0 {
			notRead = append(notRead, c.Ambiguity)
			continue
		}
		reading := "stated protocol"
		if c.Reading != "" {
			reading = "`" + c.Reading + "`"
		}
		fit := "— (no printed table)"
		if r, st, ok := c.Fit(); ok {
			fit = fmt.Sprintf("%s against %s", b.derived(report.FormatFloat(r, 3), "the chosen reading's fit (scoreboard Choice.Fit)"), b.derived(report.FormatFloat(st, 3), "the stated protocol's fit (scoreboard Choice.Fit)"))
		} else if rf := c.ReadingFits(); len(rf) > 0 {
			// The stated protocol kept: each reading's fit beside it,
			// so that a reader sees by how much none displaced it.
			var parts []string
			for _, f := range rf {
				parts = append(parts, fmt.Sprintf("`%s` %s against %s (over %s printed tables)", f.Reading,
					b.derived(report.FormatFloat(f.Distance, 3), "a reading's fit over the printed tables on which it and the stated protocol ran (scoreboard Choice.ReadingFits)"),
					b.derived(report.FormatFloat(f.Stated, 3), "the stated protocol's fit over the same tables (scoreboard Choice.ReadingFits)"),
					b.count(f.Tables, "printed tables")))
			}
			fit = strings.Join(parts, "; ")
		}
		var cands []string
		for _, r := range c.Readings {
			cands = append(cands, "`"+r+"`")
		}
		rows = append(rows, []string{c.Ambiguity + " (" + lit(c.Topic) + ")", reading, strings.Join(cands, ", "), prose(c.Why), fit})
	}
	d.h(3, "One reading of each ambiguity")
	s := "Each of the paper's ambiguities is read one way for the whole paper, chosen from the printed values, never from verdicts; the counts above are under that assignment, every other reading is shown and never counted."
	if len(rows) == 0 {
		d.p(s + " No reading of any ambiguity ran, so every one is read as the stated protocol reads it.")
		return
	}
	d.p(s)
	d.fold("The rule that chooses the reading", func() { d.p(scoreboard.AssignmentRule) })
	d.table([]string{"ambiguity", "read as (counted)", "readings run", "why", "fit: median |ln(ours/paper)|, the reading's against the stated protocol's"}, rows)
	if len(notRead) > 0 {
		d.p("No reading of " + joinAnd(notRead) + " ran: the stated protocol's reading of each stands (Methodology).")
	}
}

// citeLabelOf is the running-text label of the first entry that is the
// source of item ("Nguyen and De la Torre 2008"), "" when none is.
func (b *builder) citeLabelOf(item string) string {
	keys := b.bib.keysFor(item)
	if len(keys) == 0 {
		return lit(b.info.Title)
	}
	e, _ := b.bib.entry(keys[0])
	return citeLabel(e)
}

// readingsOf returns the readings run for ambiguity id: the variants
// whose reads: names it (a reading of a variant reads what its chain
// reads), post-hoc and diagnostic variants left out.
func (b *builder) readingsOf(id string) []string {
	var names []string
	for _, t := range b.sb.Tables {
		for _, v := range t.Variants {
			if v.Role() == "reading" && slices.Contains(v.Reads, id) {
				names = append(names, v.Name)
			}
		}
	}
	return names
}

// rootName names the results root for the report command: under the
// suite's --out (a --with folder) it is that folder's name joined to
// out's, so the two commands read together; else relName's.
func rootName(out, root string) string {
	if rel, err := filepath.Rel(out, root); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(filepath.Join(relName(out), rel))
	}
	return relName(root)
}

// digitRun finds the numbers in a CPU model's name ("i7-8700", "3.20GHz").
var digitRun = regexp.MustCompile(`[0-9]+(?:\.[0-9]+)?`)

// paperTables returns the sections of tables.md that lay values out as the
// paper prints them (their heading names the config's paper table), or,
// for a config without one, its first table; each as heading and lines.
func paperTables(r *run) [][2]string {
	if r.Tables == "" {
		return nil
	}
	secs := strings.Split("\n"+r.Tables, "\n### ")
	var out [][2]string
	for _, s := range secs[1:] {
		head, body, _ := strings.Cut(s, "\n")
		if strings.HasPrefix(head, "The paper's claims") || strings.HasPrefix(head, "Failed and partial cells") {
			continue
		}
		// The heading is Markdown (report.MarkdownLiteral): the title
		// as written is its text.
		if r.Config.PaperTable != nil && !strings.HasPrefix(oneLine(report.MarkdownUnescape(head)), oneLine(r.Config.PaperTable.Title)) {
			continue
		}
		out = append(out, [2]string{head, strings.TrimSpace(body)})
		if r.Config.PaperTable == nil {
			break
		}
	}
	return out
}

// mdTable parses the first Markdown pipe table of text into header and
// rows, and returns the paragraphs after it.
func mdTable(text string) (header []string, rows [][]string, after []string) {
	lines := strings.Split(text, "\n")
	split := func(l string) []string {
		l = strings.TrimSpace(l)
		l = strings.TrimPrefix(strings.TrimSuffix(l, "|"), "|")
		var cs []string
		for _, c := range strings.Split(strings.ReplaceAll(l, `\|`, "\x00"), "|") {
			cs = append(cs, strings.ReplaceAll(strings.TrimSpace(c), "\x00", "|"))
		}
		return cs
	}
	i := 0
	for i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), "|") {
		i++
	}
	if i+1 >= len(lines) {
		return nil, nil, nil
	}
	header = split(lines[i])
	i += 2 // the rule
	for ; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), "|"); i++ {
		rows = append(rows, split(lines[i]))
	}
	for _, p := range strings.Split(strings.Join(lines[i:], "\n"), "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			after = append(after, strings.Join(strings.Fields(p), " "))
		}
	}
	return header, rows, after
}

// oneLine is s with each run of white space or control characters one
// space, as report.MarkdownLiteral writes a title on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(strings.Map(noControl, s)), " ") }
