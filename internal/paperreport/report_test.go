package paperreport

import (
	"flag"
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
	if want := []string{"Scope", "Methodology", "Results", "What was easy, what was difficult", "Compute", "Reproduce"}; !slices.Equal(sections, want) {
		t.Errorf("sections %q, want %q", sections, want)
	}
	if !strings.HasPrefix(r.Title, "[¬Re] ") && !strings.HasPrefix(r.Title, "[Re] ") {
		t.Errorf("title %q lacks [Re] or [¬Re]", r.Title)
	}
	// A baseline has no manifests and no tables: the report says so.
	for _, want := range []string{"Revision and data checksums: not recorded", "No tables.md in this results root", "Machine and build: not recorded"} {
		if !strings.Contains(r.Markdown, want) {
			t.Errorf("report from baseline/ lacks %q", want)
		}
	}
	if !strings.Contains(r.Metadata, "verdict: ") || !strings.Contains(r.Metadata, "doi: \"10.1007/s11265-010-0515-4\"") {
		t.Errorf("metadata.yaml:\n%s", r.Metadata)
	}
}

// number finds the numbers of a text: an optional sign, digits, an
// optional fraction and exponent.
var number = regexp.MustCompile(`[-−]?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?`)

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
		for _, f := range []string{"claims.json", "records.jsonl", "manifest.json", "tables.md"} {
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
	var vs []float64
	for _, tok := range number.FindAllString(text.String(), -1) {
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
		for _, tok := range number.FindAllString(text, -1) {
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
}
