package scoreboard

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fitFixture writes a base t.yaml whose printed table has eight cells,
// its variants and their records. The paper prints 10 in cells a = 1..4,
// −5 in a = 5, 0 in a = 6 and 10 in a = 7, which no record has, and
// a = 1's 10 again (counted once). Ours:
//
//	t (base)     20, 5, 40, 10, 5 (opposite sign), 3 (paper 0): |ln| = ln 2, ln 2, ln 4, 0 → median ln 2
//	t-r          12.5, 10, 8, 10: |ln| = ln 1.25, 0, ln 1.25, 0 → median ln(1.25)/2 ≈ 0.112 ≤ ln(2)/2: clearly better
//	t-r2         15 everywhere: median ln 1.5 ≈ 0.405 > ln(2)/2 ≈ 0.347: not clearly better (the negative control)
//	t-r3         10 in a = 1, 2 only: distance 0 over 2 cells, under BetterMinCells
//	t-d          10 everywhere, distance 0, but diagnostic: never named
//
// so the reading named is t-r.
func fitFixture(t *testing.T) (configs, root string) {
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
	paper := []float64{10, 10, 10, 10, -5, 0, 10}
	var refs strings.Builder
	for i, v := range paper {
		fmt.Fprintf(&refs, "  - {source: s, row: A, column: \"%d\", metric: m, cell: {a: %d}, value: %g}\n", i+1, i+1, v)
	}
	// The paper prints cell a = 1's value again in column 8: one cell.
	refs.WriteString("  - {source: s, row: A, column: \"8\", metric: m, cell: {a: 1}, value: 10}\n")
	cfg := func(name, extra string) {
		write(filepath.Join(configs, name+".yaml"), "title: T "+name+"\npaper: p\nkind: k\n"+extra+"dataset: {name: d}\n"+
			"paper_table: {title: \"Table 1\", corner: a, rows: [A], columns: [\"1\", \"2\", \"3\", \"4\", \"5\", \"6\", \"7\", \"8\"]}\n"+
			"reference:\n"+refs.String()+
			"claims:\n  - id: c1\n    statement: s\n    source: \"pv.yaml#c1\"\n    expect: fail\n    because: \"measured FAIL\"\n    check: {type: value, metric: m, op: \"<\", value: 1}\n")
	}
	recs := func(name string, ours ...float64) {
		var b strings.Builder
		for i, v := range ours {
			fmt.Fprintf(&b, "{\"key\": \"a=%d\", \"params\": {\"a\": %d}, \"metrics\": {\"m\": %g}, \"status\": \"ok\"}\n", i+1, i+1, v)
		}
		write(filepath.Join(root, name, "records.jsonl"), b.String())
		write(filepath.Join(root, name, "claims.json"), `[{"id": "c1", "verdict": "FAIL"}]`)
	}
	cfg("t", "")
	cfg("t-r", "variant_of: t.yaml\nreads: a1\n")
	cfg("t-r2", "variant_of: t.yaml\nreads: a2\n")
	cfg("t-r3", "variant_of: t.yaml\nreads: a3\n")
	cfg("t-d", "variant_of: t.yaml\ndiagnostic: \"a probe\"\n")
	cfg("t-x", "variant_of: t.yaml\nreads: a1\n") // not run
	recs("t", 20, 5, 40, 10, 5, 3)
	recs("t-r", 12.5, 10, 8, 10)
	recs("t-r2", 15, 15, 15, 15)
	recs("t-r3", 10, 10)
	recs("t-d", 10, 10, 10, 10)
	return configs, root
}

// TestReadingFit checks each fit of the fixture against its
// hand-derived distance and counts, and that only t-r is named.
func TestReadingFit(t *testing.T) {
	configs, root := fitFixture(t)
	b, err := Load(configs, root, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Papers) != 1 || len(b.Papers[0].Tables) != 1 || len(b.Papers[0].Tables[0].Fits) != 1 {
		t.Fatalf("want one paper, table and printed fit: %+v", b.Papers)
	}
	pf := b.Papers[0].Tables[0].Fits[0]
	want := map[string]Fit{
		"t":    {Base: true, Run: true, Distance: math.Ln2, Cells: 4, Excluded: 2, Missing: 1},
		"t-r":  {Run: true, Distance: math.Log(1.25) / 2, Cells: 4, Missing: 3},
		"t-r2": {Run: true, Distance: math.Log(1.5), Cells: 4, Missing: 3},
		"t-r3": {Run: true, Distance: 0, Cells: 2, Missing: 5},
		"t-d":  {Diagnostic: true, Run: true, Distance: 0, Cells: 4, Missing: 3},
		"t-x":  {Distance: math.NaN()},
	}
	if len(pf.Fits) != len(want) || pf.Fits[0].Config != "t" {
		t.Fatalf("fits %+v, want the base first and %d in all", pf.Fits, len(want))
	}
	for _, f := range pf.Fits {
		w, ok := want[f.Config]
		if !ok {
			t.Errorf("unexpected fit %+v", f)
			continue
		}
		same := f.Distance == w.Distance || math.Abs(f.Distance-w.Distance) < 1e-12 || (math.IsNaN(f.Distance) && math.IsNaN(w.Distance))
		if !same || f.Base != w.Base || f.Diagnostic != w.Diagnostic || f.Run != w.Run || f.Cells != w.Cells || f.Excluded != w.Excluded || f.Missing != w.Missing {
			t.Errorf("%s: fit %+v, want %+v", f.Config, f, w)
		}
	}
	got, ok := pf.BetterFit()
	if !ok || got.Config != "t-r" || got.Label != "r" {
		t.Fatalf("better fit %+v (%v), want t-r", got, ok)
	}
	md := string(b.Markdown(Options{}))
	flat := strings.Join(strings.Fields(md), " ") // the notes are wrapped
	if !strings.Contains(flat, "This table's printed values fit the reading `r` clearly better than the stated protocol (Reading fit;") {
		t.Errorf("claim c1's note does not name the reading:\n%s", md)
	}
	// The one printed table points to r: the paper's assignment reads a1
	// as r, and its fit is the one the table shows.
	var a1 Choice
	for _, ch := range b.Papers[0].Assignment.Choices {
		if ch.Ambiguity == "a1" {
			a1 = ch
		}
	}
	if r, st, ok := a1.Fit(); a1.Reading != "r" || a1.Rule != RuleFit || !ok || math.Abs(r-0.112) > 1e-3 || math.Abs(st-0.693) > 1e-3 {
		t.Errorf("a1's choice %+v (fit %v against %v), want r by the fit", a1, r, st)
	}
	for _, s := range []string{
		"| Table 1 | — | `t` | stated protocol | 0.693 | 4 | 2 | 1 |",
		"|  |  | `t-r` | reading | **0.112** | 4 | 0 | 3 |",
		"|  |  | `t-d` | diagnostic | 0.000 | 4 | 0 | 3 |",
		"|  |  | `t-x` | reading | not run | 0 | 0 | 0 |",
		"**On this printed table the values point to the reading `r`**",
	} {
		if !strings.Contains(md, s) {
			t.Errorf("the Markdown lacks %q", s)
		}
	}
}

// TestReadingFitHTML: the HTML page shows each base's fit line, columns
// in the table's order, and names the reading as the Markdown does.
func TestReadingFitHTML(t *testing.T) {
	configs, root := fitFixture(t)
	b, err := Load(configs, root, "")
	if err != nil {
		t.Fatal(err)
	}
	page, err := b.HTML(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"Reading fit to Table 1 (median |ln(ours/paper)|): stated protocol 0.693 over 4 cells; d (diagnostic) 0.000 over 4 cells; r 0.112 over 4 cells; r2 0.405 over 4 cells; r3 0.000 over 2 cells; x not run.",
		"<b>On this printed table the values point to the reading r:",
	} {
		if !strings.Contains(string(page), s) {
			t.Errorf("the HTML page lacks %q", s)
		}
	}
}

// TestBetterRule: the rule's edges. A reading at exactly half the base's
// distance is named, one just above is not, nor one over too few cells,
// nor any when the base has too few cells.
func TestBetterRule(t *testing.T) {
	base := Fit{Base: true, Run: true, Distance: 1, Cells: 3}
	for _, c := range []struct {
		name string
		fits []Fit
		want int
	}{
		{"half", []Fit{base, {Run: true, Distance: 0.5, Cells: 3}}, 1},
		{"above half", []Fit{base, {Run: true, Distance: 0.5000001, Cells: 3}}, -1},
		{"too few cells", []Fit{base, {Run: true, Distance: 0, Cells: 2}}, -1},
		{"base too few", []Fit{{Base: true, Run: true, Distance: 1, Cells: 2}, {Run: true, Distance: 0, Cells: 3}}, -1},
		{"closest of two", []Fit{base, {Run: true, Distance: 0.4, Cells: 3}, {Run: true, Distance: 0.1, Cells: 3}}, 2},
		{"not run", []Fit{base, {Distance: math.NaN()}}, -1},
	} {
		if got := better(c.fits); got != c.want {
			t.Errorf("%s: better = %d, want %d", c.name, got, c.want)
		}
	}
}
