package scoreboard

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.md")

// fixture writes a configs folder and a results root: paper p has base
// b.yaml (claims c1–c4), reading variant b-r.yaml (c1–c3), diagnostic
// b-d.yaml (c1–c3) and base m.yaml, which is missing from the results.
func fixture(t *testing.T) (configs, root string) {
	t.Helper()
	dir := t.TempDir()
	configs, root = filepath.Join(dir, "configs"), filepath.Join(dir, "results")
	write := func(path, body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	claim := func(id string) string {
		return "  - id: " + id + "\n    statement: \"Claim " + id + " | holds\"\n    source: \"pv.yaml#" + id + "\"\n    check: {type: value, metric: m, op: \"<\", value: 1}\n"
	}
	head := func(title, extra string) string {
		return "title: " + title + "\npaper: p\nkind: k\n" + extra + "dataset: {name: d}\nclaims:\n"
	}
	write(filepath.Join(configs, "b.yaml"), head("Base table", "")+claim("c1")+claim("c2")+claim("c3")+
		claim("c4")+"    expect: fail\n    because: \"measured FAIL in issue 9\"\n")
	write(filepath.Join(configs, "b-r.yaml"), head("Base table, other reading", "variant_of: b.yaml\nreads: a1\nreading: the other reading\n")+claim("c1")+claim("c2")+claim("c3"))
	write(filepath.Join(configs, "b-d.yaml"), head("Base table, diagnostic", "variant_of: b.yaml\ndiagnostic: \"a probe of our data\"\n")+claim("c1")+claim("c2")+claim("c3")+
		"  - id: scan\n    statement: \"A diagnostic's own check\"\n    source: \"pv.yaml#ambiguities/a1\"\n    check: {type: value, metric: m, op: \"<\", value: 1}\n")
	write(filepath.Join(configs, "m.yaml"), head("Missing table", "")+claim("c1"))
	// Base s (its rows test paper claims c3 and c4): s1 fails as the
	// paper states it, s2 fails on our data, s3 is inconclusive with no
	// attribution, shape checks a figure's shape (no paper claim: shown,
	// never counted).
	cites := func(id, c string) string {
		return "  - id: " + id + "\n    statement: \"Row " + id + "\"\n    source: \"pv.yaml#claims/" + c + "\"\n    check: {type: value, metric: m, op: \"<\", value: 1}\n"
	}
	write(filepath.Join(configs, "s.yaml"), head("Split table", "")+cites("s1", "c3")+cites("s2", "c4")+cites("s3", "c3")+
		"  - id: shape\n    statement: \"Not a paper claim: the figure's shape\"\n    source: \"pv.yaml#figures/figure2\"\n    check: {type: value, metric: m, op: \"<\", value: 1}\n")
	write(filepath.Join(root, "s", "claims.json"), `[
 {"id": "s1", "verdict": "FAIL", "attribution": "paper", "attribution_evidence": "the stated protocol fails"},
 {"id": "s2", "verdict": "FAIL", "attribution": "paper", "attribution_evidence": "same-subject edges 0.12"},
 {"id": "s3", "verdict": "INCONCLUSIVE"},
 {"id": "shape", "verdict": "FAIL"}
]`)
	write(filepath.Join(configs, "pv", "p.yaml"), "citation:\n  title: The Paper\nambiguities:\n- id: a1\n  topic: the unit\n  text: which unit\n")
	// Base: c1 PASS; c2 FAIL (passes under the reading); c3 INCONCLUSIVE
	// with an interval (passes only under the diagnostic); c4 absent
	// (not evaluated), with a stale claim old.
	write(filepath.Join(root, "b", "claims.json"), `[
 {"id": "c1", "status": "PASS"},
 {"id": "c2", "status": "FAIL"},
 {"id": "c3", "verdict": "INCONCLUSIVE", "point_verdict": "PASS", "ci_lo": -0.5, "ci_hi": 1.25, "ci_level": 0.95, "ci_method": "BCa"},
 {"id": "old", "status": "PASS"}
]`)
	write(filepath.Join(root, "b-r", "claims.json"), `[{"id": "c1", "status": "FAIL"}, {"id": "c2", "verdict": "PASS"}, {"id": "c3", "status": "FAIL"}]`)
	write(filepath.Join(root, "b-d", "claims.json"), `[{"id": "c1", "status": "PASS"}, {"id": "c2", "status": "PASS"}, {"id": "c3", "status": "PASS"}, {"id": "scan", "status": "FAIL"}]`)
	write(filepath.Join(root, "stray", "claims.json"), `[]`)
	return configs, root
}

// TestTotals checks each category on the fixture: c1 as stated, c2 under
// the reading, c3 inconclusive (the diagnostic's PASS is not counted), c4
// not evaluated, m's c1 not run.
func TestTotals(t *testing.T) {
	configs, root := fixture(t)
	b, err := Load(configs, root, filepath.Join(configs, "pv"))
	if err != nil {
		t.Fatal(err)
	}
	// No printed table bears on a1, so the assignment keeps the stated
	// protocol's reading: b's c2, which only the reading r passes, is not
	// reproduced (r is sensitivity).
	want := Totals{AsStated: 1, NotReproduced: 3, Inconclusive: 2, NotEvaluated: 1, NotRun: 1}
	if b.RowTotals != want {
		t.Errorf("row totals %v, want %v", b.RowTotals, want)
	}
	// Whose failure, derived: s's s1 and s2 fail as the paper states it (s
	// lists no ambiguity and runs on the paper's own data); b's c2 passes
	// under the reading r, not assigned: undetermined; b's c3 and s's s3
	// are inconclusive, undetermined. The figure's shape and the
	// diagnostic's own check are listed apart and never counted.
	var split Split
	split[0][AttrPaper], split[0][AttrUndetermined], split[1][AttrUndetermined] = 2, 1, 2
	if b.RowSplit != split {
		t.Errorf("row split %v, want %v", b.RowSplit, split)
	}
	var beyond []string
	for _, r := range b.Beyond {
		beyond = append(beyond, r.Config+"#"+r.ID+" "+r.Verdict)
	}
	if got := strings.Join(beyond, ", "); got != "b-d#scan FAIL, s#shape FAIL" {
		t.Errorf("beyond the paper's claims: %s", got)
	}
	if len(b.Papers) != 1 || b.Papers[0].Title != "The Paper" || len(b.Papers[0].Tables) != 3 {
		t.Fatalf("papers %+v", b.Papers)
	}
	if got := strings.Join(b.NotRun, ","); got != "m" {
		t.Errorf("not run %q, want m", got)
	}
	if got := strings.Join(b.Unknown, ","); got != "stray" {
		t.Errorf("unknown %q, want stray", got)
	}
	tb := b.Papers[0].Tables[0]
	if len(tb.Variants) != 2 || tb.Variants[0].Name != "b-d" || !tb.Variants[0].Diagnostic || tb.Variants[1].Label != "r" {
		t.Errorf("variants %+v", tb.Variants)
	}
	if got := strings.Join(tb.Base.Extra, ","); got != "old" {
		t.Errorf("stale claims %q, want old", got)
	}
	// A FAIL with no reading assigned is not reproduced; a reading's PASS
	// counts only where the assignment reads the row under it.
	if got := categorise(Row{Base: Cell{Run: true, Present: true, Verdict: Fail}}, atBase); got != NotReproduced {
		t.Errorf("FAIL alone: %v", got)
	}
	passing := Row{Base: Cell{Run: true, Present: true, Verdict: Fail}, Variants: []Cell{{Run: true, Present: true, Verdict: Pass}}}
	if got := categorise(passing, atBase); got != NotReproduced {
		t.Errorf("FAIL with a reading, not assigned, passing: %v", got)
	}
	if got := categorise(passing, 0); got != OtherReading {
		t.Errorf("FAIL with the assigned reading passing: %v", got)
	}
	if got := categorise(passing, atMissing); got != NotRun {
		t.Errorf("the assigned reading not run: %v", got)
	}
}

// TestGolden compares the Markdown with testdata/golden.md (go test
// -update rewrites it) and checks that a second rendering and the HTML
// page are byte-identical across calls.
func TestGolden(t *testing.T) {
	configs, root := fixture(t)
	b, err := Load(configs, root, filepath.Join(configs, "pv"))
	if err != nil {
		t.Fatal(err)
	}
	// Links are relative to the page's folder, the results root's parent.
	o := Options{Command: "runexp scoreboard results", ConfigsDir: "configs", LinkDir: filepath.Dir(root)}
	b.Root = "results" // as the command line would give it
	got := b.Markdown(o)
	path := filepath.Join("testdata", "golden.md")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Markdown differs from %s (go test -update rewrites it):\n%s", path, got)
	}
	if again := b.Markdown(o); !bytes.Equal(again, got) {
		t.Error("two renderings differ")
	}
	h1, err := b.HTML(o)
	if err != nil {
		t.Fatal(err)
	}
	h2, _ := b.HTML(o)
	if !bytes.Equal(h1, h2) || !bytes.Contains(h1, []byte(`href="results/b/claims.json"`)) {
		t.Errorf("HTML not deterministic or without evidence links")
	}
}

// TestBadInput checks that a variant with a claim its base lacks, a
// variant of another paper, a malformed claims.json and a missing root
// are errors naming the file.
func TestBadInput(t *testing.T) {
	for _, tc := range []struct {
		name, file, body, want string
	}{
		{"extra claim", "configs/b-r.yaml", "title: t\npaper: p\nkind: k\nvariant_of: b.yaml\nreads: a1\ndataset: {name: d}\nclaims:\n  - id: c9\n    check: {type: value, metric: m, op: \"<\", value: 1}\n", `b-r.yaml:8: claim "c9" is not a claim of its base`},
		{"other paper", "configs/b-r.yaml", "title: t\npaper: q\nkind: k\nvariant_of: b.yaml\nreads: a1\ndataset: {name: d}\n", `paper "q", but its base`},
		{"bad json", "results/b/claims.json", "[{", "results/b/claims.json"},
		{"bad verdict", "results/b/claims.json", `[{"id": "c1", "verdict": "MAYBE"}]`, `verdict "MAYBE"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			configs, root := fixture(t)
			if err := os.WriteFile(filepath.Join(filepath.Dir(configs), tc.file), []byte(tc.body), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Load(configs, root, "")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	configs, root := fixture(t)
	if _, err := Load(configs, filepath.Join(root, "none"), ""); err == nil {
		t.Error("missing results root: no error")
	}
}

// TestHTMLLinksRunPages: where a run folder has its page (runexp suite
// writes index.html beside claims.json), the verdicts of the HTML page
// link to the claim's row there; where it has none (a baseline), to its
// claims.json. The intervals of a paper are stated once, the bounds per
// claim in its fold and tooltip.
func TestHTMLLinksRunPages(t *testing.T) {
	page := fixturePage(t, "b")
	for _, want := range []string{
		`href="results/b/index.html#claim-c1"`, `href="results/b/index.html#claim-c3"`, // the base has a page
		`href="results/b-r/claims.json"`, // its reading has none
		`title="[-0.5, 1.25] 95%; point estimate PASS"`,
		"Intervals: BCa (1 cell).",
		"PASS under the assigned reading (a config whose <code>variant_of</code> leads",
	} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("HTML lacks %s", want)
		}
	}
	if bytes.Contains(page, []byte(`href="results/b/claims.json"`)) {
		t.Error("HTML links the raw claims.json of a run that has a page")
	}
}

// TestHTMLPhoneLayout: the tables of claims (the papers' claims, the
// totals and each base's rows) are laid out a record a block on a phone
// (report.PageCSS's stack), the verdict under the stated protocol marked
// key beside the claim and each reading's verdict named by its column;
// verdicts and outcomes take the shared palette (a FAIL red, an
// inconclusive amber, a headline by its mark: grey for [not run]).
func TestHTMLPhoneLayout(t *testing.T) {
	page := fixturePage(t)
	if n := bytes.Count(page, []byte(`<table class="claims stack">`)); n < 2 {
		t.Errorf("%d tables of claims laid out as records, want the papers' claims and each base's", n)
	}
	for _, want := range []string{
		`<td class="v fail key" data-label="stated protocol"`,
		`<td class="v pass chip" data-label="r"`,
		`<td data-label="category">`,
		`<span class="ne">[not run]</span>`,
	} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("HTML lacks %s", want)
		}
	}
	if bytes.Contains(page, []byte(".fail { background: #f9e0e0; }")) {
		t.Error("the scoreboard keeps its own verdict colours")
	}
}

// fixturePage is the HTML page of the fixture's board, the runs named
// having a run page (index.html beside their claims.json).
func fixturePage(t *testing.T, paged ...string) []byte {
	t.Helper()
	configs, root := fixture(t)
	for _, run := range paged {
		if err := os.WriteFile(filepath.Join(root, run, "index.html"), []byte("<!DOCTYPE html>\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := Load(configs, root, filepath.Join(configs, "pv"))
	if err != nil {
		t.Fatal(err)
	}
	page, err := b.HTML(Options{Command: "runexp scoreboard results", ConfigsDir: "configs", LinkDir: filepath.Dir(root)})
	if err != nil {
		t.Fatal(err)
	}
	return page
}

// TestHTMLOrder: the page leads with the per-paper totals, then the
// assignment, then the table of the paper's claims, as the Markdown does;
// every claim's statement, cut to a line in the table, folds out whole;
// the diagnostics of a base sit in a table of their own, after its
// counted table, which keeps the stated protocol's column (key) in view.
func TestHTMLOrder(t *testing.T) {
	configs, root := accountFixture(t, accounting)
	bd, err := Load(configs, root, filepath.Join(configs, "pv"))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := bd.HTML(Options{Command: "runexp scoreboard results", ConfigsDir: "configs", LinkDir: filepath.Dir(root)})
	if err != nil {
		t.Fatal(err)
	}
	page := string(raw)
	totals, asg, claims := strings.Index(page, `<h2 id="totals">`), strings.Index(page, `<h2 id="assignment">`), strings.Index(page, `<h2 id="claims">`)
	if totals < 0 || asg < totals || claims < asg {
		t.Errorf("sections at %d (totals), %d (assignment), %d (claims): want them in that order", totals, asg, claims)
	}
	start := strings.Index(page[claims:], "<tbody>") + claims
	end := strings.Index(page[start:], "</tbody>") + start
	rows := strings.Count(page[start:end], "<tr>")
	if folds := strings.Count(page[start:end], "<details><summary>"); rows == 0 || folds != rows {
		t.Errorf("%d claims, %d foldable: every cut statement must open whole", rows, folds)
	}
	// b's diagnostic b-d is out of its counted table, in its own.
	b := page[strings.Index(page, `<h3 id="config-b">`):strings.Index(page, `<h3 id="config-m">`)]
	counted := b[:strings.Index(b, "</table>")]
	if strings.Contains(counted, "<th>d</th>") || !strings.Contains(counted, "<th>r</th>") || !strings.Contains(b, "The diagnostics of <code>b</code>, never counted") {
		t.Errorf("base b's tables:\n%s", b)
	}
}
