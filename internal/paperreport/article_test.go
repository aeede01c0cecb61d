package paperreport

import (
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/scoreboard"
)

var (
	baselineOnce sync.Once
	baselineReps map[string]*Report
	baselineErr  error
)

// baselineReports builds every paper's report from the committed
// baseline, once for the package's tests.
func baselineReports(t *testing.T) (Options, map[string]*Report) {
	t.Helper()
	o := sources(t, filepath.Join("..", "..", "baseline"))
	baselineOnce.Do(func() {
		papers, err := Papers(o.Configs)
		if err != nil {
			baselineErr = err
			return
		}
		baselineReps = map[string]*Report{}
		for _, p := range papers {
			r, err := Build(o, p)
			if err != nil {
				baselineErr = fmt.Errorf("%s: %w", p, err)
				return
			}
			baselineReps[p] = r
		}
	})
	if baselineErr != nil {
		t.Fatal(baselineErr)
	}
	return o, baselineReps
}

// settingsRows reads the settings tables of a REPORT.md: per config (the
// Methodology heading's config file) and method, the lines of its
// settings cell.
func settingsRows(md string) map[string]map[string][]string {
	out := map[string]map[string][]string{}
	cfg := ""
	in := false
	for _, l := range strings.Split(md, "\n") {
		if m := configLine.FindStringSubmatch(l); m != nil {
			cfg = m[1]
		}
		switch {
		case strings.HasPrefix(l, "| method | settings as run |"):
			in = true
			continue
		case in && strings.HasPrefix(l, "| ---"):
			continue
		case in && strings.HasPrefix(l, "| "):
			cells := strings.SplitN(strings.Trim(l, "| "), " | ", 2)
			if out[cfg] == nil {
				out[cfg] = map[string][]string{}
			}
			// The cells are Markdown, a config's words in them escaped:
			// read as written.
			var lines []string
			for _, s := range strings.Split(cells[1], "<br>") {
				lines = append(lines, report.MarkdownUnescape(s))
			}
			out[cfg][report.MarkdownUnescape(cells[0])] = lines
			continue
		}
		in = false
	}
	return out
}

var configLine = regexp.MustCompile("^Config `([a-z0-9-]+)\\.yaml`")

// settingsMismatches checks the settings a report prints against the
// records of its configs, independently of how the report derives them:
// for each record of each method, each parameter that is not the grid's
// (the model's kernel, width, subspace and the method itself) must be
// printed on the method's line for it with the value the cell used, the
// tuned value (metric tuned_NAME) where the cell records one, marked
// tuned when the config's experiment.tune offered it more than one value
// (a one-value grid, or a width the cell records as tuned_ without a
// grid, is a fixed setting).
func settingsMismatches(md string, cfgs map[string]*config.Config, recs map[string][]report.Record) []string {
	rows := settingsRows(md)
	var bad []string
	for name, rs := range recs {
		c := cfgs[name]
		printed := rows[name]
		if printed == nil {
			bad = append(bad, name+": no settings table")
			continue
		}
		ax := axisParams(c)
		for _, r := range rs {
			label := fmt.Sprint(r.Params["method"])
			lines, ok := printed[label]
			if _, has := r.Params["method"]; !has {
				continue
			}
			if !ok {
				bad = append(bad, fmt.Sprintf("%s: no settings for %s", name, label))
				continue
			}
			for k, v := range r.Params {
				if slices.Contains(ax, k) {
					continue
				}
				want, tuned := paramText(v), false
				if tv, ok := r.Metrics["tuned_"+k]; ok {
					want, tuned = paramText(tv), gridLen(c, label, k) > 1
				}
				i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, k+" ") })
				if i < 0 {
					bad = append(bad, fmt.Sprintf("%s %s: %s not printed", name, label, k))
					continue
				}
				line := lines[i]
				if !regexp.MustCompile(`(^| |; )` + regexp.QuoteMeta(want) + `($|[ ,;(])`).MatchString(strings.TrimPrefix(line, k)) {
					bad = append(bad, fmt.Sprintf("%s %s: %s printed %q, the cell used %s", name, label, k, line, want))
				}
				if tuned != strings.Contains(line, "tuned") {
					bad = append(bad, fmt.Sprintf("%s %s: %s printed %q, tuned %v", name, label, k, line, tuned))
				}
			}
		}
	}
	slices.Sort(bad)
	return bad
}

// TestSettingsAsRun checks that every hyperparameter each report built
// from the baseline prints is the value its cells used, read from the
// records (settingsMismatches), with the values a referee checked by
// hand: Nguyen's RKPCA with σ_min 20 and γ₂ 3e-5 on Fig. 5 and γ₂ 1e-6 /
// 1e-7, γ 1e-7 / 3e-8 on Table 2 (tuned, not the grid's defaults 5, 1e-5
// and 1e-7), Huang's widths, components and neighbour counts, LPKPCA's σ
// relative to the mean distance. A report printing a pre-tuning default
// fails the check.
func TestSettingsAsRun(t *testing.T) {
	o, reps := baselineReports(t)
	cfgs, err := loadConfigs(o.Configs)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*config.Config{}
	for _, c := range cfgs {
		byName[c.Name] = c
	}
	for paper, rep := range reps {
		recs := map[string][]report.Record{}
		for _, c := range cfgs {
			if c.Paper != paper || c.VariantOf != "" {
				continue
			}
			rs, err := report.ReadJSONL(filepath.Join(o.Root, c.Name, "records.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			recs[c.Name] = rs
		}
		for _, m := range settingsMismatches(rep.Markdown, byName, recs) {
			t.Errorf("%s: %s", paper, m)
		}
		if paper == "nguyen-delatorre-robust-kpca" {
			// The control: the pre-tuning default in place of the tuned
			// value is caught.
			md := strings.Replace(rep.Markdown, `sigma\_min 20, tuned`, `sigma\_min 5, tuned`, 1)
			if got := settingsMismatches(md, byName, recs); len(got) == 0 {
				t.Error("a printed σ_min of 5 where the cells used 20 passed the check")
			}
		}
	}
	rows := func(paper, cfg, method string) string {
		return strings.Join(settingsRows(reps[paper].Markdown)[cfg][method], "\n")
	}
	for _, tc := range []struct{ paper, cfg, method, want string }{
		{"nguyen-delatorre-robust-kpca", "nguyen-fig5", "RKPCA", "sigma_min 20, tuned on validation data from {1, 5, 10, 20}"},
		{"nguyen-delatorre-robust-kpca", "nguyen-fig5", "RKPCA", "gamma2 3e-05, tuned on validation data from {1e-05, 3e-05, 0.0001}"},
		{"nguyen-delatorre-robust-kpca", "nguyen-table2", "RKPCA", "gamma2 1e-06 (energy 0.8, energy 0.95); 1e-07 (energy 1), tuned"},
		{"nguyen-delatorre-robust-kpca", "nguyen-table2", "RKPCA", "gamma 1e-07 (energy 0.8, energy 0.95); 3e-08 (energy 1), tuned"},
		{"huang-tian-delatorre-local-gram-preimage", "huang-table1", "(every method)", "sigma (recorded) 24.28"},
		{"huang-tian-delatorre-local-gram-preimage", "huang-table1", "(every method)", "neighbors (recorded) 44"},
		{"huang-tian-delatorre-local-gram-preimage", "huang-table1", "(every method)", "components (recorded) 81"},
		{"zheng-lpkpca", "zheng-lpkpca-table1", "(every method)", "sigma 1: relative: σ is this multiple of the mean pairwise distance"},
	} {
		if got := rows(tc.paper, tc.cfg, tc.method); !strings.Contains(got, tc.want) {
			t.Errorf("%s %s: settings\n%s\nlack %q", tc.cfg, tc.method, got, tc.want)
		}
	}
}

// primaryTable is the paper-values table most of a config's references
// cite (its paper table), as file and id.
func primaryTable(c *config.Config) (file, id string) {
	n := map[[2]string]int{}
	best := [2]string{}
	for _, ref := range c.Reference {
		m := sourceTable.FindStringSubmatch(ref.Source)
		if m == nil {
			continue
		}
		k := [2]string{m[1], m[2]}
		if n[k]++; n[k] > n[best] {
			best = k
		}
	}
	return best[0], best[1]
}

var sourceTable = regexp.MustCompile(`^(\S+\.yaml) tables/(\S+) `)

// missingPaperValues lists the values of a config's paper table in the
// paper-values file (every numeric cell the paper prints) that md, the
// rendered table, does not show as "(paper X)".
func missingPaperValues(c *config.Config, pvDir, md string) ([]string, error) {
	file, id := primaryTable(c)
	rows, err := config.PaperTableValues(filepath.Join(pvDir, file), id)
	if err != nil {
		return nil, err
	}
	var miss []string
	for _, r := range rows {
		if math.IsNaN(r.Value) || r.Printed == "NA" {
			continue // the paper prints no number there
		}
		printed := r.Printed
		if r.StdPrinted != "" {
			printed += " ± " + r.StdPrinted
		}
		if !strings.Contains(md, "(paper "+printed+")") && !strings.Contains(md, "(paper "+r.Printed+")") {
			miss = append(miss, fmt.Sprintf("%s %s (%v)", c.Name, printed, r.Value))
		}
	}
	return miss, nil
}

// TestTablesComplete checks every paper table of every report built from
// the baseline against the paper-values table it regenerates: every value
// the paper prints is shown beside ours ("(paper X)", a dash where we have
// no counterpart: Nguyen's PKPCA row, Huang's Disgust and Scream rows),
// and every method of the config is a row or column of it (RKPCA (C = 1),
// marked ours). A table without the PKPCA references fails the check.
func TestTablesComplete(t *testing.T) {
	o, reps := baselineReports(t)
	cfgs, err := loadConfigs(o.Configs)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cfgs {
		if c.VariantOf != "" || c.PaperTable == nil || reps[c.Paper] == nil {
			continue
		}
		md := reps[c.Paper].Markdown
		miss, err := missingPaperValues(c, o.PaperValues, md)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range miss {
			t.Errorf("the paper's value %s is not in the printed table", m)
		}
		for _, m := range c.Methods {
			l := m.Label
			if l == "" {
				l = m.Name
			}
			if !strings.Contains(md, "| "+report.MarkdownInline(l)+" (ours, not in the paper)") && !slices.ContainsFunc(c.Reference, func(r config.Reference) bool { return fmt.Sprint(r.Cell["method"]) == l }) {
				t.Errorf("%s: method %s is neither a column of the paper's nor one of ours in the printed table", c.Name, l)
			}
		}
	}
	md := reps["nguyen-delatorre-robust-kpca"].Markdown
	for _, want := range []string{"| PKPCA [", "—<br>(paper 5 ± 1)", "| RKPCA (C = 1) (ours, not in the paper) | 3.139 ± 3.36 |"} {
		if !strings.Contains(md, want) {
			t.Errorf("Nguyen Table 1 lacks %q", want)
		}
	}
	// The control: the table as it was printed before (no PKPCA row).
	for _, c := range cfgs {
		if c.Name == "nguyen-table1" {
			without := strings.ReplaceAll(md, "(paper 5 ± 1)", "")
			if miss, _ := missingPaperValues(c, o.PaperValues, without); len(miss) == 0 {
				t.Error("a table without PKPCA's 5 ± 1 passed the check")
			}
		}
	}
}

// TestBibliography: references.bib parses, every entry has the fields its
// type requires, and each report cites only keys it holds, its
// bibliography.bib holding exactly the cited entries; the papers are
// typed as published (A&H a journal article). The check refuses an
// article without a journal and a key given twice.
func TestBibliography(t *testing.T) {
	bib, err := loadBibliography()
	if err != nil {
		t.Fatal(err)
	}
	_, reps := baselineReports(t)
	for paper, rep := range reps {
		var cited []string
		for _, m := range citation.FindAllStringSubmatch(rep.Markdown+rep.AppendixMarkdown, -1) {
			for _, k := range strings.Split(m[1], "; ") {
				k = strings.TrimPrefix(k, "@")
				if _, ok := bib.entry(k); !ok {
					t.Errorf("%s cites %s, which references.bib lacks", paper, k)
				}
				if !slices.Contains(cited, k) {
					cited = append(cited, k)
				}
			}
		}
		got, err := parseBib(rep.Bibliography)
		if err != nil {
			t.Errorf("%s: bibliography.bib: %v", paper, err)
			continue
		}
		var keys []string
		for _, e := range got {
			keys = append(keys, e.Key)
			if e.Fields["runexp"] != "" {
				t.Errorf("%s: bibliography.bib keeps runexp's own field in %s", paper, e.Key)
			}
		}
		slices.Sort(keys)
		slices.Sort(cited)
		if !slices.Equal(keys, cited) {
			t.Errorf("%s: bibliography.bib holds %q, the text cites %q", paper, keys, cited)
		}
		for _, k := range []string{"runexp", "efron1987"} {
			if !slices.Contains(cited, k) {
				t.Errorf("%s does not cite %s", paper, k)
			}
		}
	}
	for key, typ := range map[string]string{"abrahamsen2011": "article", "huang2011": "inproceedings", "nguyen2008": "inproceedings", "zheng2006": "inproceedings", "zheng2015": "inproceedings", "gross2007": "techreport", "jolliffe2002": "book"} {
		if e, ok := bib.entry(key); !ok || e.Type != typ {
			t.Errorf("%s: @%s, want @%s", key, e.Type, typ)
		}
	}
	if _, err := parseBib("@article{x,\n  author = {A, B.},\n  title = {T},\n  year = {2000},\n}\n"); err == nil || !strings.Contains(err.Error(), "lacks journal") {
		t.Errorf("an article without its journal: %v", err)
	}
	if _, err := parseBib("@misc{x, title = {T}, howpublished = {h}}\n@misc{x, title = {T}, howpublished = {h}}\n"); err == nil {
		t.Error("a key given twice was accepted")
	}
}

// maxReportBytes bounds REPORT.md: an article that reads in one sitting
// (Huang's was 190 KB); the long tables go to the appendix.
const maxReportBytes = 80 << 10

// TestReadableLength checks each report built from the baseline against
// maxReportBytes and that no sentence of forty words or more is said
// twice (Huang's "would be decided by" sentences appeared in two
// sections).
func TestReadableLength(t *testing.T) {
	_, reps := baselineReports(t)
	for paper, rep := range reps {
		if n := len(rep.Markdown); n > maxReportBytes {
			t.Errorf("%s: REPORT.md is %d bytes, over %d", paper, n, maxReportBytes)
		}
		seen := map[string]int{}
		for _, block := range strings.Split(rep.Markdown, "\n\n") {
			if strings.HasPrefix(block, "|") {
				continue // table rows repeat their column's words
			}
			for _, s := range strings.Split(block, ". ") {
				if len(strings.Fields(s)) >= 40 {
					seen[s]++
				}
			}
		}
		for s, n := range seen {
			if n > 1 {
				t.Errorf("%s says %d times: %q", paper, n, report.Short(s, 120))
			}
		}
	}
}

// TestSelfContained: a report's pages link and show only files of its own
// folder (its figures, its appendix), so that the folder can be moved on
// its own, and every figure they show is among its files; the figures of
// a baseline, which keeps none, are drawn from the records.
func TestSelfContained(t *testing.T) {
	_, reps := baselineReports(t)
	ref := regexp.MustCompile(`(?:src|href)="([^"#]*)[^"]*"`)
	drawn := 0
	for paper, rep := range reps {
		drawn += len(rep.Files)
		for _, page := range []string{rep.HTML, rep.AppendixHTML} {
			for _, m := range ref.FindAllStringSubmatch(page, -1) {
				u := m[1]
				switch {
				case u == "" || strings.HasPrefix(u, "https://"):
				case strings.ContainsAny(u, "/\\"):
					t.Errorf("%s links %s, outside its folder", paper, u)
				case u == articleHTML || u == appendixHTML:
				default:
					if _, ok := rep.Files[u]; !ok {
						t.Errorf("%s shows %s, which its folder lacks", paper, u)
					}
				}
			}
		}
		if strings.Contains(rep.Markdown, "--out baseline") {
			t.Errorf("%s tells the reader to rerun into baseline/", paper)
		}
	}
	if drawn == 0 {
		t.Error("no report built from the baseline has a figure")
	}
}

// TestMetadataMarks: metadata.yaml titles the article with one of the
// journal's two marks, names the code by URL, the paper's DOI where the
// paper values give one, and the revision that computed the results,
// never "unknown".
func TestMetadataMarks(t *testing.T) {
	_, reps := baselineReports(t)
	for paper, rep := range reps {
		m := rep.Metadata
		title := regexp.MustCompile(`(?m)^title: "(\[[^\]]+\])`).FindStringSubmatch(m)
		if title == nil || (title[1] != "[Re]" && title[1] != "[¬Re]") {
			t.Errorf("%s: title mark %v, want [Re] or [¬Re]", paper, title)
		}
		if !strings.Contains(m, "  - url: \"https://") || strings.Contains(m, "unknown") || !strings.Contains(m, "revision: \""+baselineRevision(t)+"\"") {
			t.Errorf("%s: metadata.yaml:\n%s", paper, m)
		}
	}
	for paper, doi := range map[string]string{"abrahamsen-hansen-regularized-preimage": "10.1007/s11265-010-0515-4", "zheng-lpkpca": "10.1007/978-3-319-21978-3_12"} {
		if !strings.Contains(reps[paper].Metadata, `  - doi: "`+doi+`"`) {
			t.Errorf("%s: no DOI %s in its replication block", paper, doi)
		}
	}
}

// TestReaderNumbers: numbers read as a reader expects: an interval in the
// sign of the value beside it (A&H Fig. 5's ρ = −1 beside [−1, −1], not
// [1, 1]), footnote marks in order of first appearance in every table.
func TestReaderNumbers(t *testing.T) {
	_, reps := baselineReports(t)
	if md := reps["abrahamsen-hansen-regularized-preimage"].Markdown; !strings.Contains(md, "Spearman ρ = -1 (need ≤ −0.8)") || !regexp.MustCompile("`c4-mika-unstable-small-c` \\| c4 \\| PASS \\| [^|]* \\| \\[-1, -1\\]").MatchString(md) {
		t.Error("A&H Fig. 5 c4's interval is not printed in ρ's sign")
	}
	mark := regexp.MustCompile(`\[(\d+)\]`)
	for paper, rep := range reps {
		for _, block := range strings.Split(rep.Markdown, "\n\n") {
			if !strings.HasPrefix(block, "|") {
				continue
			}
			var order []int
			for _, m := range mark.FindAllStringSubmatch(block, -1) {
				var n int
				fmt.Sscan(m[1], &n)
				if !slices.Contains(order, n) {
					order = append(order, n)
				}
			}
			if !slices.IsSorted(order) {
				t.Errorf("%s: footnote marks out of order %v in\n%s", paper, order, report.Short(block, 200))
			}
		}
	}
}

// TestRescienceMark: the journal's two marks for runexp's three: [Re]
// and [¬Re] kept, [Re?] [Re] when at least half of the tested claims
// reproduce and [¬Re] when fewer do (claims not testable here left out).
func TestRescienceMark(t *testing.T) {
	acc := func(cs ...scoreboard.Category) scoreboard.Paper {
		var p scoreboard.Paper
		for _, c := range cs {
			a := scoreboard.Account{Category: c, Rows: []scoreboard.RowRef{{}}}
			if c == scoreboard.NotReproduced {
				a.Attribution = "undetermined"
			}
			p.Accounts = append(p.Accounts, a)
		}
		return p
	}
	failsAsStated := acc(scoreboard.AsStated, scoreboard.AsStated, scoreboard.NotReproduced)
	failsAsStated.Accounts[2].Attribution = "paper"
	for _, tc := range []struct {
		p          scoreboard.Paper
		mark, want string
	}{
		{acc(scoreboard.AsStated), scoreboard.MarkRe, scoreboard.MarkRe},
		{failsAsStated, scoreboard.MarkNotRe, scoreboard.MarkNotRe},
		{acc(scoreboard.AsStated, scoreboard.OtherReading, scoreboard.Inconclusive, scoreboard.NotTestable), scoreboard.MarkUndecided, scoreboard.MarkRe},
		{acc(scoreboard.NotReproduced, scoreboard.Inconclusive, scoreboard.AsStated, scoreboard.NotTestable, scoreboard.NotTestable), scoreboard.MarkUndecided, scoreboard.MarkNotRe},
	} {
		if mark, _ := scoreboard.Headline(tc.p); mark != tc.mark {
			t.Errorf("headline over %d accounts: %s, want %s", len(tc.p.Accounts), mark, tc.mark)
		}
		if got, _ := scoreboard.JournalMark(tc.p); got != tc.want {
			t.Errorf("%s over %d accounts: %s, want %s", tc.mark, len(tc.p.Accounts), got, tc.want)
		}
	}
}

// TestJournalMarkAgrees: each report built from baseline/ says one thing
// in the journal's marks: metadata.yaml's title opens with the mark the
// article prints beside its own headline (its own when that is [Re] or
// [¬Re]), both from scoreboard.JournalMark.
func TestJournalMarkAgrees(t *testing.T) {
	_, reps := baselineReports(t)
	for p, r := range reps {
		title := ""
		for _, l := range strings.Split(r.Metadata, "\n") {
			if s, ok := strings.CutPrefix(l, "title: "); ok {
				title, _ = strconv.Unquote(s)
			}
		}
		journal, _, _ := strings.Cut(title, " ")
		mark, _, _ := strings.Cut(r.Title, " ")
		switch {
		case journal != scoreboard.MarkRe && journal != scoreboard.MarkNotRe:
			t.Errorf("%s: metadata.yaml's title %q opens with no journal mark", p, title)
		case mark == journal:
		case !strings.Contains(r.Markdown, "In the journal's two marks (the title of metadata.yaml): **"+journal+"**"):
			t.Errorf("%s: the article's headline %s does not say that metadata.yaml's title is %s", p, mark, journal)
		}
	}
}

// TestRecordedSettingsRounded: a setting the cells measured (a mean
// pairwise distance, a width derived from it) is printed to 4
// significant digits in every report built from baseline/, never as
// 21.873617262170267.
func TestRecordedSettingsRounded(t *testing.T) {
	_, reps := baselineReports(t)
	long := regexp.MustCompile(`\(recorded\) -?[0-9]*\.[0-9]{5,}`)
	n := 0
	for p, r := range reps {
		n += strings.Count(r.Markdown, "(recorded) ")
		if m := long.FindString(r.Markdown); m != "" {
			t.Errorf("%s prints a measured setting in full: %s", p, m)
		}
	}
	if n == 0 {
		t.Error("no report prints a recorded setting: the check checks nothing")
	}
	if got := paramText(measuredValue(21.873617262170267)); got != "21.87" {
		t.Errorf("measured 21.873617262170267 printed %s, want 21.87", got)
	}
}

// gridLen is the number of values experiment.tune of config c offers
// parameter k of method label, 0 when it offers none.
func gridLen(c *config.Config, label, k string) int {
	tl, _ := c.Experiment.Values["tune"].([]any)
	for _, e := range tl {
		m, _ := e.(map[string]any)
		if m == nil || fmt.Sprint(m["method"]) != label {
			continue
		}
		if vs, ok := m[k].([]any); ok {
			return len(vs)
		}
		if _, ok := m[k]; ok {
			return 1
		}
	}
	return 0
}
