package paperreport

import (
	"encoding/json"
	"flag"

	"github.com/runexp/runexp"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden structure file")

// sources returns the options for the repository's configs and baseline,
// with the paper values found as runexp finds them (../shared beside the
// checkout); the test skips where there are none (CI has them).
func sources(t *testing.T, root string) Options {
	t.Helper()
	configs := filepath.Join("..", "..", "configs")
	// As suite.FindPaperValues looks (that package imports this one):
	// shared/ beside the checkout, or beside the data root.
	tried := []string{filepath.Join("..", "..", "..", "shared", "paper-values")}
	if d := os.Getenv("RUNEXP_DATA"); d != "" {
		tried = append(tried, filepath.Join(d, "..", "paper-values"))
	}
	for _, pv := range tried {
		if _, err := os.Stat(filepath.Join(pv, "zheng-lpkpca.yaml")); err == nil {
			return Options{Configs: configs, Root: root, PaperValues: pv}
		}
	}
	t.Skipf("no paper values in %q", tried)
	return Options{}
}

// structure is a report's outline: its headings and the header of every
// table, one a line; the golden file keeps it so that a section cannot go
// missing unseen.
func structure(md string) string {
	var b strings.Builder
	lines := strings.Split(md, "\n")
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "#"):
			b.WriteString(l + "\n")
		case strings.HasPrefix(l, "| ") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "| ---"):
			b.WriteString("  table: " + l + "\n")
		}
	}
	return b.String()
}

// TestGoldenStructure keeps the outline of Abrahamsen & Hansen's report
// from the committed baseline (testdata/abrahamsen-hansen.structure; go
// test -update rewrites it): the title's [Re]/[¬Re], the seven sections in
// order, a methodology and a results section per config of the stated
// protocol, and the tables' columns.
func TestGoldenStructure(t *testing.T) {
	o := sources(t, filepath.Join("..", "..", "baseline"))
	r, err := Build(o, "abrahamsen-hansen-regularized-preimage")
	if err != nil {
		t.Fatal(err)
	}
	got := structure(r.Markdown)
	golden := filepath.Join("testdata", "abrahamsen-hansen.structure")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("structure of the report differs from %s (go test -update rewrites it):\n%s", golden, got)
	}
	var sections []string
	for _, l := range strings.Split(got, "\n") {
		if strings.HasPrefix(l, "## ") {
			sections = append(sections, l[3:])
		}
	}
	if want := []string{"Introduction", "Implementation", "Methodology", "Results", "Discussion", "References"}; !slices.Equal(sections, want) {
		t.Errorf("sections %q, want ReScience's %q", sections, want)
	}
	if !strings.HasPrefix(r.Title, "[¬Re] ") && !strings.HasPrefix(r.Title, "[Re] ") && !strings.HasPrefix(r.Title, "[Re?] ") {
		t.Errorf("title %q lacks [Re], [¬Re] or [Re?]", r.Title)
	}
	// A baseline has no manifests and no tables: the report says so,
	// and gives the cells' CPU from its costs.json.
	for _, want := range []string{"build, wall time and memory: not recorded", "(cells, costs.json)", "Checks of `abrahamsen-hansen-fig4`", "revision " + baselineRevision(t)} {
		if !strings.Contains(r.Markdown, want) {
			t.Errorf("report from baseline/ lacks %q", want)
		}
	}
	if !strings.Contains(r.AppendixMarkdown, "Check: ") {
		t.Errorf("the appendix lacks the checks in full")
	}
	for _, want := range []string{"headline: ", `doi: "10.1007/s11265-010-0515-4"`, `revision: "` + baselineRevision(t) + `"`, "  - url: \"https://"} {
		if !strings.Contains(r.Metadata, want) {
			t.Errorf("metadata.yaml lacks %q:\n%s", want, r.Metadata)
		}
	}
}

// number finds the numbers of a text (group 1): an optional sign, digits,
// an optional fraction and exponent, not preceded by a letter, digit, dot,
// underscore or hyphen (the 3 of fig3, the 256 of SHA-256 are names).
var number = regexp.MustCompile(`(?:^|[^\p{L}0-9_.\-−])([-−]?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)`)

// numbers returns the numbers of text.
func numbers(text string) []string {
	var out []string
	for _, m := range number.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// sigDigits is the count of significant digits of a number as written.
func sigDigits(s string) int {
	m := strings.TrimLeft(strings.SplitN(strings.ToLower(s), "e", 2)[0], "-−")
	m = strings.Replace(m, ".", "", 1)
	m = strings.TrimLeft(m, "0")
	return max(len(m), 1)
}

// traced reports whether the number tok of a report is one of the source
// values: equal to one rounded to tok's significant digits.
func traced(tok string, values []float64) bool {
	v, err := strconv.ParseFloat(strings.Replace(tok, "−", "-", 1), 64)
	if err != nil {
		return false
	}
	k := sigDigits(tok)
	for _, s := range values {
		if s == v {
			return true
		}
		if s == 0 || v == 0 {
			continue
		}
		r, _ := strconv.ParseFloat(strconv.FormatFloat(s, 'g', k, 64), 64)
		if r == v || math.Abs(r-v) <= 1e-12*math.Abs(v) {
			return true
		}
	}
	return false
}

// corpus returns every number of the files a report may copy from: the
// results root's files for paper's configs and suite.json, the configs and
// the paper-values file; names of files, configs and claims count too.
func corpus(t *testing.T, o Options, paper string) []float64 {
	t.Helper()
	var text strings.Builder
	read := func(p string) {
		if b, err := os.ReadFile(p); err == nil {
			text.Write(b)
			text.WriteString("\n")
		}
	}
	read(filepath.Join(o.PaperValues, paper+".yaml"))
	read(filepath.Join(o.Root, "suite.json"))
	cfgs, err := loadConfigs(o.Configs)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cfgs {
		if c.Paper != paper {
			continue
		}
		read(c.File)
		text.WriteString(c.File + " " + c.Name + "\n")
		for _, f := range []string{"claims.json", "records.jsonl", "manifest.json", "tables.md", "revision.json"} {
			read(filepath.Join(o.Root, c.Name, f))
		}
		ents, _ := os.ReadDir(filepath.Join(o.Root, c.Name))
		for _, e := range ents {
			text.WriteString(e.Name() + "\n")
			if filepath.Ext(e.Name()) == ".png" {
				if r, err := loadRun(o.Root, c); err == nil {
					for _, f := range r.Figures {
						text.WriteString(f.Caption + "\n")
					}
				}
			}
		}
	}
	text.WriteString(o.Root + " " + o.Configs + " " + o.PaperValues + "\n")
	// What the Implementation and References copy: references.bib, the
	// go.mod the libraries come from and the registries' own records
	// of what each estimator, kind and dataset implements.
	text.WriteString(referencesBib + "\n" + latexText(referencesBib) + "\n" + runexp.GoMod + "\n")
	for _, m := range methods.All() {
		text.WriteString(m.Source + "\n" + m.Doc + "\n")
	}
	for _, c := range cfgs {
		if k, ok := runner.LookupKind(c.Kind); ok {
			text.WriteString(k.Doc + "\n")
		}
		if d, ok := runner.LookupDataset(c.Dataset.Name); ok {
			text.WriteString(d.Doc + "\n")
		}
	}
	var vs []float64
	for _, tok := range numbers(text.String()) {
		if v, err := strconv.ParseFloat(strings.Replace(tok, "−", "-", 1), 64); err == nil {
			vs = append(vs, v)
		}
	}
	slices.Sort(vs)
	return slices.Compact(vs)
}

// checkTrace checks every number of a report's Markdown and metadata: a
// source value rounded to the digits shown, or a count the builder noted.
func checkTrace(t *testing.T, o Options, paper string) {
	t.Helper()
	r, err := Build(o, paper)
	if err != nil {
		t.Fatal(err)
	}
	vs := corpus(t, o, paper)
	counts := map[string]bool{}
	for _, c := range r.Counts {
		n, _, _ := strings.Cut(c, ": ")
		counts[n] = true
	}
	bad := 0
	for _, text := range []string{r.Markdown, r.Metadata} {
		for _, tok := range numbers(text) {
			if traced(tok, vs) || counts[tok] {
				continue
			}
			if bad++; bad <= 10 {
				i := strings.Index(text, tok)
				t.Errorf("%s: %q is in no source and is no noted count: …%s…", paper, tok, text[max(0, i-60):min(len(text), i+40)])
			}
		}
	}
	if bad > 10 {
		t.Errorf("%s: %d untraced numbers in all", paper, bad)
	}
}

// TestNumbersTrace checks that every number of every paper's report built
// from the committed baseline is a value of its sources (claims.json,
// records.jsonl, the configs, the paper-values file) or a count of their
// entries that the builder notes.
func TestNumbersTrace(t *testing.T) {
	o := sources(t, filepath.Join("..", "..", "baseline"))
	papers, err := Papers(o.Configs)
	if err != nil {
		t.Fatal(err)
	}
	if len(papers) != 5 {
		t.Errorf("papers %q, want the five of the repository", papers)
	}
	for _, p := range papers {
		checkTrace(t, o, p)
	}
}

// TestNumbersTraceCatches checks the check: a number written into a report
// that no source holds is found.
func TestNumbersTraceCatches(t *testing.T) {
	vs := []float64{0.0123456, 42, 1.5}
	for tok, want := range map[string]bool{"0.01235": true, "0.0123": true, "42": true, "1.5": true, "0.0124": false, "43": false, "7": false} {
		if got := traced(tok, vs); got != want {
			t.Errorf("traced(%q) = %v, want %v", tok, got, want)
		}
	}
	if got, want := numbers("fig3 SHA-256 c1-x: FAIL [-0.3233, 1e-05] 7 of 10, −2"), []string{"-0.3233", "1e-05", "7", "10", "−2"}; !slices.Equal(got, want) {
		t.Errorf("numbers %q, want %q", got, want)
	}
}

// TestFreshRoot builds Abrahamsen & Hansen's report from a results root
// that has what a suite writes beside the records (manifest.json,
// tables.md, suite.json) for one config, fig3, and nothing for the
// others: the compute table takes fig3's wall seconds and workers from its
// manifest and its CPU seconds from suite.json, Reproduce names the
// revision and the data checksum, the results carry fig3's table, the
// configs without results say "Not run", and every number still traces.
func TestFreshRoot(t *testing.T) {
	o := sources(t, t.TempDir())
	freshRoot(t, o, "")
	r, err := Build(o, "abrahamsen-hansen-regularized-preimage")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| `abrahamsen-hansen-fig3` | 7 | 0 | 4.1 | 7.8 | 2 | 1024 |",
		"Test CPU 9000 @ 3.20GHz, 2 logical CPUs, 24.0 GiB memory, build pure Go (gonum)",
		"computed by revision 0123456789abcdef of runexp (the runs' manifest.json)",
		"`rings/none.bin` sha256 `9b9e47d8c7a1e4f18034471cb5f656dcc1126411a3d10f97283f6fa62120defe`",
		"#### Fig. 3: pre-images of x0 from every training start",
		"| 0.05 | 28 |",
		"One row per c.",
		"Not run: the results root has no folder `abrahamsen-hansen-fig4`.",
		"linux/amd64, GOMAXPROCS 2, go1.26.8",
		"9.5 s wall, 12.2 s CPU on 2 workers",
	} {
		// A manifest's words are escaped in the Markdown: read as written.
		if !strings.Contains(report.MarkdownUnescape(r.Markdown), want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(r.Markdown, "The paper's claims") {
		t.Error("the claims table of tables.md is repeated in the results")
	}
	if !strings.Contains(r.Metadata, `revision: "0123456789abcdef"`) {
		t.Errorf("metadata.yaml lacks the revision:\n%s", r.Metadata)
	}
	checkTrace(t, o, "abrahamsen-hansen-regularized-preimage")
}

// An estimator added with --with whose label holds a backtick: the
// report's commands, which would be code spans, are written as text
// (a code span would end at the backtick and read the rest as
// Markdown), shown as written on the page; a spec without one stays
// code.
func TestWithSpecBacktick(t *testing.T) {
	for _, tc := range []struct {
		spec, md, html string
		code           bool // the commands are code spans
	}{
		{"mika:label=My`est", "--with 'mika:label=My\\`est'", "--with &#39;mika:label=My`est&#39;", false},
		{"mika:label=Mine", "--with mika:label=Mine", "--with mika:label=Mine", true},
	} {
		o := sources(t, t.TempDir())
		label := strings.TrimPrefix(tc.spec, "mika:label=")
		freshRoot(t, o, `, "with": [{"spec": "`+tc.spec+`", "estimator": "mika", "label": "`+label+`", "params": {"tol": 1e-9}}]`)
		r, err := Build(o, "abrahamsen-hansen-regularized-preimage")
		if err != nil {
			t.Fatal(err)
		}
		// The estimator's line and the suite command.
		if n := strings.Count(r.Markdown, tc.md); n != 2 {
			t.Errorf("%s: REPORT.md holds %q %d times, want 2", tc.spec, tc.md, n)
		}
		if n := strings.Count(r.HTML, tc.html); n != 2 {
			t.Errorf("%s: report.html holds %q %d times, want 2", tc.spec, tc.html, n)
		}
		for _, c := range []string{"<code>" + tc.html + "</code>", "<code>runexp suite --baseline"} {
			if got := strings.Contains(r.HTML, c); got != tc.code {
				t.Errorf("%s: report.html holds %q: %v, want %v", tc.spec, c, got, tc.code)
			}
		}
	}
}

// freshRoot writes into o.Root what a fresh run of abrahamsen-hansen-fig3
// leaves (the baseline's claims and records, a manifest, tables.md,
// suite.json), with manifestExtra added to the manifest's fields.
func freshRoot(t *testing.T, o Options, manifestExtra string) {
	t.Helper()
	dir := filepath.Join(o.Root, "abrahamsen-hansen-fig3")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"claims.json", "records.jsonl"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "baseline", "abrahamsen-hansen-fig3", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		filepath.Join(dir, "manifest.json"): `{"config": "configs/abrahamsen-hansen-fig3.yaml", "revision": "0123456789abcdef", "vcs_modified": false, "go_version": "go1.26.8", "goos": "linux", "goarch": "amd64", "gomaxprocs": 2, "workers": 2, "seed": 1,
"data": [{"path": "rings/none.bin", "sha256": "9b9e47d8c7a1e4f18034471cb5f656dcc1126411a3d10f97283f6fa62120defe"}], "cells": 7, "failed": 0, "wall_seconds": 4.125,
"machine": {"cpu_model": "Test CPU 9000 @ 3.20GHz", "cores": 2, "memory_bytes": 25769803776, "backend": "gonum", "peak_rss_bytes": 1073741824}` + manifestExtra + `}`,
		filepath.Join(dir, "tables.md"):     "# Fig. 3\n\n### Fig. 3: pre-images of x0 from every training start\n\n| c | distinct |\n|:--|--:|\n| 0.05 | 28 |\n| 5 | 1 |\n\nOne row per c.\n\n### The paper's claims\n\n| Claim | Verdict |\n|:--|:--|\n| c8 | PASS |\n",
		filepath.Join(o.Root, "suite.json"): `{"seconds": 9.5, "workers": 2, "cpu_seconds": 12.25, "runs": [{"name": "abrahamsen-hansen-fig3", "seconds": 4.125, "cpu_seconds": 7.75, "cells": 7}]}`,
	}
	for p, body := range files {
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// baselineRevision is the revision that computed the committed baseline,
// as its revision.json files record it (one refresh writes one).
func baselineRevision(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../baseline/abrahamsen-hansen-fig4/revision.json")
	if err != nil {
		t.Fatal(err)
	}
	var r struct{ Revision string }
	if err := json.Unmarshal(b, &r); err != nil || r.Revision == "" {
		t.Fatalf("baseline/abrahamsen-hansen-fig4/revision.json: %v, revision %q", err, r.Revision)
	}
	return r.Revision
}
