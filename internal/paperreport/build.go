package paperreport

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
)

// Options say where a report's sources are.
type Options struct {
	Configs     string // the configs folder
	Root        string // the results root (a suite's --out, or baseline/)
	PaperValues string // the folder of the paper-values files
}

// Report is one paper's report, rendered.
type Report struct {
	Paper    string
	Title    string // with its [Re] or [¬Re]
	Re       bool
	Markdown string // REPORT.md
	HTML     string // report.html
	Metadata string // metadata.yaml
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
	return b.render(), nil
}

// verdictOf is a paper claim's outcome under a set of runs: reproduced
// when every config claim citing it passes, not reproduced when one
// fails, inconclusive otherwise; "not tested" when no claim cites it and
// "not run" when the configs citing it have no results.
type verdictOf struct {
	Outcome string
	Claims  []string // "config: id VERDICT [lo, hi] (attribution)"
	Failing []string // the config claims that did not pass
}

const (
	reproduced    = "reproduced"
	notReproduced = "not reproduced"
	inconclusive  = "inconclusive"
	notTested     = "not tested"
	notRun        = "not run"
)

func (b *builder) judge(runs []*run, pc string) verdictOf {
	var v verdictOf
	cited, ran, fail, open := false, false, false, false
	for _, r := range runs {
		for _, cc := range r.Config.Claims {
			if paperClaimOf(cc.Source, b.paper) != pc {
				continue
			}
			cited = true
			i := slices.IndexFunc(r.Claims, func(c claim) bool { return c.ID == cc.ID })
			if i < 0 {
				continue
			}
			ran = true
			c := r.Claims[i]
			line := "`" + r.Config.Name + "` " + c.ID + ": " + c.Status
			if c.CILo != nil && c.CIHi != nil {
				line += " [" + strconv.FormatFloat(*c.CILo, 'g', 4, 64) + ", " + strconv.FormatFloat(*c.CIHi, 'g', 4, 64) + "]"
			}
			if c.Attribution != "" {
				line += "; attribution: " + c.Attribution
				if c.AttributionEvidence != "" {
					line += " (" + c.AttributionEvidence + ")"
				}
			}
			if c.CannotDiscriminate != "" {
				line += "; cannot discriminate: " + c.CannotDiscriminate
			}
			v.Claims = append(v.Claims, line)
			switch c.Status {
			case "PASS":
			case "FAIL":
				fail = true
				v.Failing = append(v.Failing, r.Config.Name+" "+c.ID)
			default:
				open = true
				v.Failing = append(v.Failing, r.Config.Name+" "+c.ID)
			}
		}
	}
	switch {
	case !cited:
		v.Outcome = notTested
	case !ran:
		v.Outcome = notRun
	case fail:
		v.Outcome = notReproduced
	case open:
		v.Outcome = inconclusive
	default:
		v.Outcome = reproduced
	}
	return v
}

func (b *builder) render() *Report {
	d := &b.d
	outcomes := map[string]verdictOf{}
	re := true
	var deciding []string
	tested, ran := 0, 0
	for _, pc := range b.info.Claims {
		v := b.judge(b.base, pc.ID)
		outcomes[pc.ID] = v
		switch v.Outcome {
		case notTested:
			continue
		case reproduced:
		default:
			re = false
			deciding = append(deciding, pc.ID+" ("+v.Outcome+")")
		}
		tested++
		if v.Outcome != notRun {
			ran++
		}
	}
	mark := "[¬Re]"
	switch {
	case ran == 0:
		// Nothing of the stated protocol ran: no verdict either way.
		re, mark = false, "[not run]"
	case re:
		mark = "[Re]"
	}
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
		cite += " doi:" + b.info.DOI
	}
	d.p("A reproduction of " + cite + " Generated by `runexp report " + b.paper + "` from the results in `" + filepath.ToSlash(b.o.Root) + "`, the configs in `" + filepath.ToSlash(b.o.Configs) + "` and the paper values in `" + filepath.ToSlash(filepath.Join(b.o.PaperValues, b.paper+".yaml")) + "`.")
	rule := "The rule: [Re] when every claim of the paper that a config of the stated protocol tests reproduces there (every claim of those configs that cites it PASSes); [¬Re] otherwise, a claim whose configs have no results counting against it; [not run] when no config of the stated protocol has results. Readings (variant configs) never decide it."
	reproducedN := 0
	for _, pc := range b.info.Claims {
		if outcomes[pc.ID].Outcome == reproduced {
			reproducedN++
		}
	}
	summary := b.count(reproducedN, "paper claims reproduced under the stated protocol") + " of the " + b.count(tested, "paper claims tested under the stated protocol") + " paper claims tested under the stated protocol reproduce"
	if len(deciding) > 0 {
		summary += "; decided by: " + strings.Join(deciding, ", ")
	}
	d.p(rule + " " + summary + ".")

	b.scope(outcomes)
	b.methodology()
	b.results()
	b.easyDifficult()
	b.compute()
	b.reproduce()

	rep := &Report{Paper: b.paper, Title: title, Re: re, Counts: b.counts}
	rep.Markdown = d.markdown()
	rep.HTML = d.html(title, report.PageCSS)
	rep.Metadata = b.metadata(title, outcomes)
	return rep
}

func (b *builder) scope(outcomes map[string]verdictOf) {
	d := &b.d
	d.h(2, "Scope")
	d.p("Each claim of the paper (its paper-values file), its outcome under the stated protocol, and the config claims that test it with their verdicts, intervals and, where the results record them, attributions; then the same claims under each documented reading.")
	var rows [][]string
	for _, pc := range b.info.Claims {
		v := outcomes[pc.ID]
		rows = append(rows, []string{pc.ID, pc.Statement, v.Outcome, b.count(len(v.Claims), "config claims of the stated protocol citing "+pc.ID)})
	}
	d.table([]string{"claim", "statement (the paper's)", "stated protocol", "config claims"}, rows)
	for _, pc := range b.info.Claims {
		v := outcomes[pc.ID]
		if len(v.Claims) == 0 {
			continue
		}
		d.p(pc.ID + " (" + v.Outcome + "), tested by:")
		d.ul(v.Claims)
	}
	var rrows [][]string
	for _, r := range b.varies {
		for _, pc := range b.info.Claims {
			v := b.judge([]*run{r}, pc.ID)
			if v.Outcome == notTested {
				continue
			}
			kind := "reading"
			if r.Config.Diagnostic {
				kind = "diagnostic"
			}
			what := r.Config.Reading
			if what == "" {
				what = r.Config.Title
			}
			var ids []string
			for _, c := range v.Claims {
				_, after, _ := strings.Cut(c, "` ")
				ids = append(ids, after)
			}
			rrows = append(rrows, []string{"`" + r.Config.Name + "` (" + kind + ")", what, pc.ID, v.Outcome, strings.Join(ids, "\n")})
		}
	}
	if len(rrows) > 0 {
		d.h(3, "Under the readings")
		d.table([]string{"config", "reading", "claim", "outcome", "config claims"}, rrows)
	}
	missingAttr := 0
	for _, r := range b.base {
		for _, c := range r.Claims {
			if c.Attribution == "" {
				missingAttr++
			}
		}
	}
	if missingAttr > 0 {
		d.p("Attribution: " + b.count(missingAttr, "claims of the stated protocol without an attribution field") + " claims of the stated protocol have no attribution in their claims.json (written before runexp recorded one: paper, data, reading or test); they are shown without it.")
	}
}

// ambiguityRef finds the ambiguity ids (a1, a2, …) a text names;
// ambiguityWord those a text names after the word ambiguity.
var (
	ambiguityRef  = regexp.MustCompile(`\b(a[0-9]+)\b`)
	ambiguityWord = regexp.MustCompile(`(?i)ambiguit(?:y|ies)\s+((?:a[0-9]+(?:,\s*|\s+and\s+)?)+)`)
)

// readingAmbiguities returns the ambiguity ids a reading config is run
// for: those its notes or reading line name after the word "ambiguity",
// and those named in the sentences of its notes that its base config's
// notes do not have (the sentences that state the reading).
func (b *builder) readingAmbiguities(r *run) []string {
	var ids []string
	add := func(id string) {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	text := r.Config.Reading + " " + r.Config.Notes
	for _, m := range ambiguityWord.FindAllStringSubmatch(text, -1) {
		for _, id := range ambiguityRef.FindAllString(m[1], -1) {
			add(id)
		}
	}
	baseNotes := ""
	if base := b.baseOf(r); base != nil {
		baseNotes = strings.Join(strings.Fields(base.Config.Notes), " ")
	}
	for _, sent := range strings.SplitAfter(strings.Join(strings.Fields(r.Config.Notes), " "), ". ") {
		if strings.Contains(baseNotes, strings.TrimSpace(sent)) {
			continue
		}
		for _, id := range ambiguityRef.FindAllString(sent, -1) {
			add(id)
		}
	}
	return ids
}

// readingsOf returns the readings run for ambiguity id.
func (b *builder) readingsOf(id string) []*run {
	var rs []*run
	for _, r := range b.varies {
		if !r.Config.Diagnostic && slices.Contains(b.readingAmbiguities(r), id) {
			rs = append(rs, r)
		}
	}
	return rs
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
	if len(b.info.Ambiguities) > 0 {
		d.h(3, "The paper's ambiguities and the readings run")
		var rows [][]string
		for _, a := range b.info.Ambiguities {
			var names []string
			for _, r := range b.readingsOf(a.ID) {
				names = append(names, "`"+r.Config.Name+"`")
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

func (b *builder) results() {
	d := &b.d
	d.h(2, "Results")
	for _, r := range b.base {
		d.h(3, r.Config.Title)
		if !r.Ran {
			d.p("Not run: the results root has no folder `" + r.Config.Name + "`.")
			continue
		}
		tabs := paperTables(r)
		if r.Tables == "" {
			d.p("No tables.md in this results root (a baseline keeps only claims.json and records.jsonl): the paper's table in its layout is written by `runexp " + "suite`, on the run's page.")
		}
		for _, t := range tabs {
			header, rows, after := mdTable(t[1])
			if header == nil {
				continue
			}
			d.h(4, t[0])
			d.table(header, rows)
			for _, p := range after {
				d.p(p)
			}
		}
		if len(r.Figures) > 0 {
			var items []string
			for _, f := range r.Figures {
				cap := strings.Join(strings.Fields(f.Caption), " ")
				if cap == "" {
					cap = "(no caption embedded)"
				}
				items = append(items, "`"+f.File+"`: "+cap)
			}
			d.p("Figures:")
			d.ul(items)
		} else if r.Manifest == nil {
			d.p("No figures in this results root.")
		}
	}
}

func (b *builder) easyDifficult() {
	d := &b.d
	d.h(2, "What was easy, what was difficult")
	var easy, hard []string
	for _, r := range b.base {
		pass, all := 0, len(r.Claims)
		for _, c := range r.Claims {
			if c.Status == "PASS" {
				pass++
			}
		}
		if all > 0 && pass == all {
			easy = append(easy, "`"+r.Config.Name+"`: every one of its "+b.count(all, "claims of "+r.Config.Name)+" claims passes under the stated protocol.")
		}
	}
	for _, a := range b.info.Ambiguities {
		rs := b.readingsOf(a.ID)
		if len(rs) == 0 {
			continue
		}
		var changed []string
		for _, r := range rs {
			base := b.baseOf(r)
			if base == nil {
				continue
			}
			for _, c := range r.Claims {
				i := slices.IndexFunc(base.Claims, func(x claim) bool { return x.ID == c.ID })
				if i >= 0 && base.Claims[i].Status != c.Status {
					changed = append(changed, "`"+r.Config.Name+"` "+c.ID+": "+base.Claims[i].Status+" → "+c.Status)
				}
			}
		}
		line := a.ID + " (" + a.Topic + "): " + b.count(len(rs), "readings run for "+a.ID) + " readings run"
		if len(changed) > 0 {
			line += "; verdicts the reading changes: " + strings.Join(changed, ", ")
		} else {
			line += "; no verdict changes under them"
		}
		hard = append(hard, line)
	}
	d.p("Easy: the configs whose claims all reproduce as the paper states them.")
	if len(easy) == 0 {
		easy = []string{"none: every config of the stated protocol has a claim that does not pass, or has no results here"}
	}
	d.ul(easy)
	d.p("Difficult: the paper's ambiguities for which readings were run, and whether a reading changes a verdict of the stated protocol. Ambiguities without a reading run are in the Methodology table.")
	if len(hard) == 0 {
		hard = []string{"no reading of an ambiguity was run"}
	}
	d.ul(hard)
	d.p("Communication with the authors: none recorded by runexp.")
}

// baseOf returns the run of r's base config.
func (b *builder) baseOf(r *run) *run {
	name := strings.TrimSuffix(filepath.Base(r.Config.VariantOf), ".yaml")
	for _, x := range b.base {
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
		"`runexp suite --out " + report.ShellQuote(out) + with + " " + strings.Join(names, " ") + "`",
		"`runexp report --results " + report.ShellQuote(b.o.Root) + " " + b.paper + "`",
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

// metadata writes the ReScience C metadata of the report: what runexp
// knows, and the fields only the authors can fill left empty and marked.
func (b *builder) metadata(title string, outcomes map[string]verdictOf) string {
	q := strconv.Quote
	var w strings.Builder
	w.WriteString("# ReScience C article metadata (https://github.com/ReScience/template), written by runexp report.\n")
	w.WriteString("# Fields runexp cannot know (authors, editors, reviewers, dates of the article) are left empty for the authors.\n")
	w.WriteString("title: " + q(title) + "\n")
	w.WriteString("authors: []\n")
	w.WriteString("type: \"Replication\"\n")
	w.WriteString("language: \"English\"\n")
	w.WriteString("domain: \"Machine learning\"\n")
	w.WriteString("keywords: [\"kernel PCA\", \"pre-image\", \"reproduction\"]\n")
	mark, _, _ := strings.Cut(title, " ")
	w.WriteString("verdict: " + q(strings.Trim(mark, "[]")) + "\n")
	w.WriteString("replication:\n")
	w.WriteString("  cite: " + q(strings.Join(b.info.Authors, ", ")+" ("+b.info.Year+"). "+b.info.Title+". "+b.info.Venue) + "\n")
	w.WriteString("  bib: \"\"\n")
	w.WriteString("  url: \"\"\n")
	w.WriteString("  doi: " + q(b.info.DOI) + "\n")
	var revs []string
	for _, r := range append(append([]*run(nil), b.base...), b.varies...) {
		if r.Manifest != nil && !slices.Contains(revs, r.Manifest.Revision) {
			revs = append(revs, r.Manifest.Revision)
		}
	}
	w.WriteString("code:\n  - url: \"\"\n    revision: " + q(strings.Join(revs, ", ")) + "\n")
	w.WriteString("claims:\n")
	for _, pc := range b.info.Claims {
		w.WriteString("  - id: " + q(pc.ID) + "\n    outcome: " + q(outcomes[pc.ID].Outcome) + "\n")
	}
	return w.String()
}

// Write builds paper's report and writes REPORT.md, report.html and
// metadata.yaml into dir (created), each atomically, and returns their
// paths.
func Write(o Options, paper, dir string) ([]string, error) {
	r, err := Build(o, paper)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var files []string
	for name, body := range map[string]string{"REPORT.md": r.Markdown, "report.html": r.HTML, "metadata.yaml": r.Metadata} {
		p := filepath.Join(dir, name)
		if err := report.WriteFileAtomic(p, []byte(body)); err != nil {
			return nil, err
		}
		files = append(files, p)
	}
	slices.Sort(files)
	return files, nil
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
