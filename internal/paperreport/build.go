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
	// OutDir is the folder the report is written to, which its links to
	// the runs' figures are relative to (default Root/reports/PAPER).
	OutDir string
}

// Report is one paper's report, rendered.
type Report struct {
	Paper    string
	Title    string // with its [Re] or [¬Re]
	Re       bool
	Markdown string // REPORT.md
	HTML     string // report.html
	Metadata string // metadata.yaml
	// Bibliography is bibliography.bib, the references metadata.yaml
	// names.
	Bibliography string
	// Counts lists the numbers of the report that are counts of entries
	// of its sources rather than copies of them, each as "N: what".
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
	// sb is the paper on the scoreboard (package scoreboard): its claims'
	// outcomes and attributions, the one derivation the scoreboard, the
	// reports and the suite line all read.
	sb scoreboard.Paper
}

// count formats n, a count of entries of the sources, and notes it.
func (b *builder) count(n int, what string) string {
	s := strconv.Itoa(n)
	b.counts = append(b.counts, s+": "+what)
	return s
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
	b := &builder{o: o, paper: paper}
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
	return b.render(), nil
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
	for _, c := range []scoreboard.Category{scoreboard.AsStated, scoreboard.OtherReading, scoreboard.PostHocOnly, scoreboard.NotReproduced, scoreboard.Inconclusive, scoreboard.NotEvaluated, scoreboard.NotRun} {
		if ids := byCat[c]; len(ids) > 0 {
			parts = append(parts, fmt.Sprintf("%s %s (%s)", b.count(len(ids), c.String()+" claims"), c, strings.Join(ids, ", ")))
		}
	}
	s := fmt.Sprintf("We reproduce the paper's %s claims with runexp, from YAML configs, on real data: %s.", b.count(n, "paper claims tested"), strings.Join(parts, "; "))
	if len(whose) > 0 {
		var ws []string
		for _, k := range []string{"fails as the paper states it", "fails here: our data", "fails here: our test", "undetermined"} {
			if whose[k] > 0 {
				ws = append(ws, fmt.Sprintf("%d %s", whose[k], k))
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
		s += fmt.Sprintf(" The paper's own data were not used for %s of the %s configs of the stated protocol (%s): stand-ins replace them, as the Datasets table says.",
			b.count(len(standIns), "configs on stand-ins"), b.count(len(b.sb.Tables), "configs of the stated protocol"), strings.Join(standIns, ", "))
	} else {
		s += " Every config of the stated protocol runs on the paper's own data."
	}
	return s
}

func (b *builder) render() *Report {
	d := &b.d
	mark, why := scoreboard.Headline(b.sb)
	title := mark + " " + b.info.Title
	d.h(1, title)
	cite := strings.Join(b.info.Authors, ", ")
	if b.info.Year != "" {
		cite += " (" + b.info.Year + ")"
	}
	cite += ". " + b.info.Title + "."
	if b.info.Venue != "" {
		cite += " " + b.info.Venue + "."
	}
	if b.info.DOI != "" {
		cite += " doi:" + b.info.DOI + "."
	}
	d.p("A reproduction of " + cite + " Generated by `runexp report " + b.paper + "` from the results in `" + relName(b.o.Root) + "`, the configs in `" + relName(b.o.Configs) + "` and the paper values `" + b.paper + ".yaml`.")
	d.p("**Abstract.** " + b.abstract())
	d.p("**" + mark + "** " + why + ". The rule: " + scoreboard.HeadlineRule)
	b.count(len(b.sb.Accounts), "paper claims in the paper values")
	outcomes := map[string]scoreboard.Account{}
	for _, a := range b.sb.Accounts {
		outcomes[a.Claim.ID] = a
	}
	b.scope(outcomes)
	b.methodology()
	b.results()
	b.discussion()
	b.easyDifficult()
	b.compute()
	b.reproduce()
	b.references()
	b.appendix()

	rep := &Report{Paper: b.paper, Title: title, Re: mark == scoreboard.MarkRe, Counts: b.counts}
	rep.Markdown = d.markdown()
	rep.HTML = d.html(title, report.PageCSS)
	rep.Metadata = b.metadata(title, b.abstract(), outcomes)
	rep.Bibliography = b.bibliography()
	return rep
}

func (b *builder) scope(outcomes map[string]scoreboard.Account) {
	d := &b.d
	d.h(2, "Scope")
	d.p("Each claim of the paper (its paper-values file) with its outcome over the rows that test it, whose failure a claim not reproduced is, and what would decide one left undetermined; the scoreboard (REPRODUCIBILITY.md) counts the same units. " + scoreboard.OutcomeRule)
	var rows [][]string
	for _, pc := range b.info.Claims {
		a := outcomes[pc.ID]
		whose := ""
		if a.Attribution != "" && a.Category != scoreboard.OtherReading {
			whose = scoreboard.AttributionName(a.Attribution)
		}
		rows = append(rows, []string{pc.ID, scoreboard.OutcomeText(a), whose, b.count(len(a.Rows), "rows testing "+pc.ID), pc.Statement})
	}
	// The outcome comes right after the claim's id, so that a narrow
	// screen shows it before the table scrolls.
	d.table([]string{"claim", "outcome", "whose failure", "rows", "statement (the paper's)"}, rows)
	for _, pc := range b.info.Claims {
		a := outcomes[pc.ID]
		var items []string
		if a.Why != "" {
			items = append(items, "Why: "+a.Why+".")
		}
		if a.Decide != "" {
			items = append(items, "Would be decided by: "+a.Decide+".")
		}
		for _, r := range a.Rows {
			line := "`" + r.Table + "#" + r.Row + "`: " + r.Verdict
			if r.Attribution != "" {
				line += " (" + scoreboard.AttributionName(r.Attribution) + ": " + r.Why + ")"
			}
			items = append(items, line)
		}
		if a.Beyond > 0 {
			items = append(items, b.count(a.Beyond, "rows beyond "+pc.ID)+" rows go beyond the claim (groups or quantities the paper does not have) and are not counted.")
		}
		if len(items) == 0 {
			continue
		}
		d.p(pc.ID + " (" + scoreboard.OutcomeText(a) + "):")
		d.ul(items)
	}
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
			rrows = append(rrows, []string{"`" + v.Name + "`", "`" + t.Base.Name + "`", role, what})
		}
	}
	if len(rrows) > 0 {
		d.h(3, "Readings, post-hoc variants and diagnostics")
		d.table([]string{"config", "of the base", "what it is", "reading"}, rrows)
	}
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

func (b *builder) methodology() {
	d := &b.d
	d.h(2, "Methodology")
	d.p("Per config of the stated protocol: what it runs, on which data, and its notes (how our data stand in for the paper's and which reading of each ambiguity it takes; the data's provenance is in the data root's PROVENANCE.md).")
	for _, r := range b.base {
		c := r.Config
		d.h(3, c.Title)
		facts := []string{"config: `" + filepath.ToSlash(c.File) + "`", "kind: `" + c.Kind + "`", "data: `" + c.Dataset.Name + "`", "seed: " + strconv.FormatUint(c.Seed, 10)}
		if c.Repeats > 0 {
			facts = append(facts, "repeats: "+strconv.Itoa(c.Repeats))
		}
		if !r.Ran {
			facts = append(facts, "no results in this root")
		}
		d.ul(facts)
		if n := strings.TrimSpace(c.Notes); n != "" {
			d.p(strings.Join(strings.Fields(n), " "))
		}
	}
	b.settings()
	if len(b.info.Ambiguities) > 0 {
		d.h(3, "The paper's ambiguities and the readings run")
		var rows [][]string
		for _, a := range b.info.Ambiguities {
			var names []string
			for _, n := range b.readingsOf(a.ID) {
				names = append(names, "`"+n+"`")
			}
			run := "none"
			if len(names) > 0 {
				run = strings.Join(names, ", ")
			}
			rows = append(rows, []string{a.ID, a.Topic, a.Text, run})
		}
		d.table([]string{"id", "topic", "ambiguity (the paper-values file's)", "readings run"}, rows)
	}
}

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
		if r.Config.PaperTable != nil && !strings.HasPrefix(head, r.Config.PaperTable.Title) {
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

// easyDifficult says, in substance, what reproduced as the paper states
// it and on which data, which of the paper's ambiguities a verdict turned
// on (a reading that reproduces a claim the stated protocol does not),
// and what blocked the rest.
func (b *builder) easyDifficult() {
	d := &b.d
	d.h(2, "What was easy, what was difficult")
	var easy, hard []string
	standIn := map[string]bool{}
	for _, t := range b.sb.Tables {
		standIn[t.Base.Name] = t.StandIn != ""
	}
	for _, a := range b.sb.Accounts {
		if a.Category != scoreboard.AsStated {
			continue
		}
		var on []string
		for _, r := range a.Rows {
			if !slices.Contains(on, r.Table) {
				on = append(on, r.Table)
			}
		}
		data := "the paper's own data"
		for _, t := range on {
			if standIn[t] {
				data = "a stand-in for the paper's data"
			}
		}
		easy = append(easy, a.Claim.ID+": "+report.Short(a.Claim.Statement, 110)+" — reproduced as stated on "+data+" (`"+strings.Join(on, "`, `")+"`).")
	}
	for _, a := range b.sb.Accounts {
		switch {
		case a.Category == scoreboard.OtherReading:
			hard = append(hard, a.Claim.ID+": reproduced only under the reading "+strings.Join(a.Under, ", ")+" of the paper's text, not under the stated protocol: which of the paper's readings is meant decides it.")
		case a.Category != scoreboard.AsStated && a.Category != scoreboard.NotTestable:
			s := a.Claim.ID + ": " + scoreboard.OutcomeText(a) + "."
			if a.Decide != "" {
				s += " What it needs: " + a.Decide + "."
			}
			hard = append(hard, s)
		}
	}
	d.p("Easy: the paper's claims that reproduce as the paper states them, and on which data.")
	if len(easy) == 0 {
		easy = []string{"none of the paper's claims reproduces as stated here"}
	}
	d.ul(easy)
	d.p("Difficult: the claims whose verdict turns on a reading of the paper's text, and those not reproduced, with what would decide them.")
	if len(hard) == 0 {
		hard = []string{"nothing: every claim reproduces as stated"}
	}
	d.ul(hard)
	d.p("Communication with the authors: none recorded by runexp.")
}

// baseOf returns the run of r's base config.
func (b *builder) baseOf(r *run) *run {
	name := strings.TrimSuffix(filepath.Base(r.Config.VariantOf), ".yaml")
	for _, x := range append(append([]*run(nil), b.base...), b.varies...) {
		if x.Config.Name == name {
			return x
		}
	}
	return nil
}

func (b *builder) compute() {
	d := &b.d
	d.h(2, "Compute")
	bySuite := map[string]suiteRun{}
	if b.suite != nil {
		for _, s := range b.suite.Runs {
			bySuite[s.Name] = s
		}
	}
	var rows [][]string
	var machine []string
	runs := append(append([]*run(nil), b.base...), b.varies...)
	for _, r := range runs {
		if !r.Ran {
			continue
		}
		cells, failed, wall, cpu, workers := "not recorded", "not recorded", "not recorded", "not recorded", "not recorded"
		if r.HasRecords {
			cells = b.count(r.Cells, "records of "+r.Config.Name)
			failed = b.count(r.Failed, "records of "+r.Config.Name+" not ok")
		}
		if m := r.Manifest; m != nil {
			wall = strconv.FormatFloat(m.WallSeconds, 'f', -1, 64)
			workers = strconv.Itoa(m.Workers)
			mc := b.machineText(m)
			if !slices.Contains(machine, mc) {
				machine = append(machine, mc)
			}
		}
		if s, ok := bySuite[r.Config.Name]; ok {
			cpu = strconv.FormatFloat(s.CPUSeconds, 'f', -1, 64)
			if wall == "not recorded" {
				wall = strconv.FormatFloat(s.Seconds, 'f', -1, 64)
			}
		}
		rows = append(rows, []string{"`" + r.Config.Name + "`", cells, failed, wall, cpu, workers, b.peakText(r.Manifest)})
	}
	d.p("Per config with results: its cells and failed cells (records.jsonl), wall seconds (manifest.json), CPU seconds (suite.json), workers and the peak memory of the process that ran it (manifest.json; a suite runs every config in one process, so there it bounds the config's own peak from above); \"not recorded\" where the results root lacks it.")
	d.table([]string{"config", "cells", "failed", "wall (s)", "CPU (s)", "workers", "peak memory (MiB)"}, rows)
	if len(machine) > 0 {
		d.p("Machine and build, as the manifests record them: " + strings.Join(machine, "; ") + ". Reruns are not recorded in the manifests.")
	} else {
		d.p("Machine and build: not recorded (this results root has no manifest.json).")
	}
	if b.suite != nil {
		d.p("The whole suite that wrote this root: " + strconv.FormatFloat(b.suite.Seconds, 'f', -1, 64) + " s wall, " + strconv.FormatFloat(b.suite.CPUSeconds, 'f', -1, 64) + " s CPU on " + strconv.Itoa(b.suite.Workers) + " workers (suite.json).")
	}
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

func (b *builder) reproduce() {
	d := &b.d
	d.h(2, "Reproduce")
	var names []string
	for _, r := range append(append([]*run(nil), b.base...), b.varies...) {
		names = append(names, r.Config.Name)
	}
	out, with, added := b.reproduceWith()
	if len(added) > 0 {
		var items []string
		for _, a := range added {
			items = append(items, a.Label+": `--with "+a.Quoted+"`, parameters "+a.Params+"; ran with "+a.Ran)
		}
		d.p("Estimators added on the command line (runexp --with), beside the configs' own methods:")
		d.ul(items)
	}
	d.p("With RUNEXP_DATA naming the data root (the folder holding SHA256SUMS) and a build of runexp at the revision below:")
	d.ul([]string{
		"`runexp suite --out " + report.ShellQuote(relName(out)) + with + " " + strings.Join(names, " ") + "`",
		"`runexp report --results " + report.ShellQuote(rootName(out, b.o.Root)) + " " + b.paper + "`",
	})
	var revs []string
	sums := map[string]string{}
	var paths []string
	for _, r := range append(append([]*run(nil), b.base...), b.varies...) {
		m := r.Manifest
		if m == nil {
			continue
		}
		rev := m.Revision
		if m.Modified {
			rev += " (with uncommitted changes)"
		}
		if !slices.Contains(revs, rev) {
			revs = append(revs, rev)
		}
		for _, f := range m.Data {
			if _, ok := sums[f.Path]; !ok {
				paths = append(paths, f.Path)
			}
			sums[f.Path] = f.SHA256
		}
	}
	if len(revs) == 0 {
		d.p("Revision and data checksums: not recorded (this results root has no manifest.json; a baseline keeps only claims and records).")
		return
	}
	d.p("Revision: " + strings.Join(revs, ", ") + ".")
	slices.Sort(paths)
	const shown = 12
	var items []string
	for _, p := range paths[:min(len(paths), shown)] {
		items = append(items, "`"+p+"` sha256 `"+sums[p]+"`")
	}
	d.p("Data files read: " + b.count(len(paths), "distinct data files in the manifests") + " (SHA-256 from the manifests; the data root's SHA256SUMS lists them all).")
	d.ul(items)
}

// reproduceWith returns what the reproduce commands need of the estimators
// added on the command line: the --out that writes the results root (its
// parent when the root is a --with folder, OUT/with-SLUG), the --with
// flags as a command line's words, and the added estimators as rows.
func (b *builder) reproduceWith() (out, flags string, added []report.AddedRow) {
	var specs []string
	for _, r := range append(append([]*run(nil), b.base...), b.varies...) {
		if r.Manifest == nil {
			continue
		}
		for _, a := range report.AddedRows(r.Manifest.With) {
			if !slices.Contains(specs, a.Spec) {
				specs = append(specs, a.Spec)
				flags += " --with " + a.Quoted
			}
			if !strings.HasPrefix(a.Ran, "skipped") && !slices.Contains(added, a) {
				added = append(added, a)
			}
		}
	}
	out = b.o.Root
	switch {
	case len(specs) == 0:
	case strings.HasPrefix(filepath.Base(filepath.Clean(out)), "with-"):
		// The default folder of a --with run, OUT/with-SLUG: the same
		// flags find it again.
		out = filepath.Dir(filepath.Clean(out))
	default:
		// --with-dir named the folder: writing into it is --with-dir .
		flags += " --with-dir ."
	}
	return out, flags, added
}

// machineText describes the machine and build a manifest records,
// noting the numbers it derives (memory in GiB) and those of the CPU
// model's name as counts the report logs; a manifest written before
// runexp recorded the machine lacks the CPU model, memory and backend,
// and the text says so.
func (b *builder) machineText(m *report.Manifest) string {
	t := m.GOOS + "/" + m.GOARCH + ", GOMAXPROCS " + strconv.Itoa(m.GOMAXPROCS) + ", " + m.GoVersion
	mc := m.Machine
	if mc == nil {
		return t + " (CPU model, memory and backend not recorded)"
	}
	if mc.CPUModel != "" {
		for _, n := range digitRun.FindAllString(mc.CPUModel, -1) {
			b.counts = append(b.counts, n+": in the CPU model's name (manifest.json machine.cpu_model)")
		}
		t += ", " + mc.CPUModel
	}
	t += ", " + b.count(mc.Cores, "logical CPUs (manifest.json machine.cores)") + " logical CPUs"
	if mc.MemoryBytes > 0 {
		gib := strconv.FormatFloat(float64(mc.MemoryBytes)/(1<<30), 'f', 1, 64)
		b.counts = append(b.counts, gib+": manifest.json machine.memory_bytes in GiB")
		t += ", " + gib + " GiB memory"
	}
	build := "pure Go (gonum)"
	if mc.Backend == "openblas" {
		build = "OpenBLAS"
	}
	return t + ", build " + build
}

// peakText is a manifest's peak memory in MiB, noted as derived, or "not
// recorded".
func (b *builder) peakText(m *report.Manifest) string {
	if m == nil || m.Machine == nil || m.Machine.PeakRSSBytes == 0 {
		return "not recorded"
	}
	mib := strconv.FormatFloat(float64(m.Machine.PeakRSSBytes)/(1<<20), 'f', 0, 64)
	b.counts = append(b.counts, mib+": manifest.json machine.peak_rss_bytes in MiB")
	return mib
}

// digitRun finds the numbers in a CPU model's name ("i7-8700", "3.20GHz").
var digitRun = regexp.MustCompile(`[0-9]+(?:\.[0-9]+)?`)
