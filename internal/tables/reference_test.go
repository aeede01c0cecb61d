package tables_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/tables"
)

// refSrc is a config with reference values and no paper_table: they are
// listed one per line. Each value is chosen for one rule of Reference.
const refSrc = `title: "Reference test: a title long enough that the text rendering has to wrap it somewhere before column one hundred and twenty"
paper: p
kind: k
dataset: {name: d}
notes: "These notes go to tables.md only."
reference:
  - {source: "Table 2 row 1", metric: err, cell: {method: a}, value: 100}
  - {source: "Table 2 row 2", metric: err, cell: {method: b}, value: 100}
  - {source: "Table 2 row 3", metric: err, cell: {method: c}, value: 100}
  - {source: "Table 2 row 4", metric: err, cell: {method: z}, value: 300}
  - {source: "Table 2 row 5", metric: snr, cell: {method: a}, value: 5}
  - {source: "Table 2 row 6", metric: err, cell: {method: failing}, value: 100}
  - {source: "Table 2 row 1", metric: zero, cell: {method: a}, value: 0}
  - {source: "Table 2 row 7", metric: err, cell: {method: [a, b]}, value: 100}
`

// refRecords: a's err is exactly 10% above the paper's 100 (not marked:
// the mark is for beyond PaperTolerance), b's 10.5% above (marked), c's
// 50% below (marked), failing failed although it holds an err.
func refRecords() []report.Record {
	mk := func(m string, status string, metrics map[string]float64) report.Record {
		return report.Record{Key: "method=" + m, Params: map[string]any{"method": m}, Status: status, Metrics: metrics}
	}
	return []report.Record{
		mk("a", report.StatusOK, map[string]float64{"err": 110, "zero": 0.5}),
		mk("b", report.StatusPartial, map[string]float64{"err": 110.5}),
		mk("c", report.StatusOK, map[string]float64{"err": 50}),
		mk("failing", report.StatusFailed, map[string]float64{"err": 90}),
	}
}

// TestReference checks the one-per-line table row by row: the relative
// difference and its mark at and beyond the 10% tolerance, a reference
// whose cell does not exist, a metric the cell lacks, a failed cell, a
// paper value of 0 (no relative difference), a reference selecting two
// cells (one row each), and the sources as shared notes.
func TestReference(t *testing.T) {
	c, err := config.Parse("ref.yaml", []byte(refSrc))
	if err != nil {
		t.Fatal(err)
	}
	tb := tables.Reference(c, refRecords())
	want := [][]string{
		{"method=a", "err", "110", "100", "+10.0%", "[1]"},
		{"method=b", "err", "110.5", "100", "+10.5% !", "[2]"},
		{"method=c", "err", "50", "100", "-50.0% !", "[3]"},
		{"method=z (no such cell)", "err", "—", "300", "—", "[4]"},
		{"method=a", "snr", "failed", "5", "—", "[5]"},
		{"method=failing", "err", "failed", "100", "—", "[6]"},
		{"method=a", "zero", "0.5", "0", "—", "[1]"},
		{"method=[a b]", "err", "110", "100", "+10.0%", "[7]"},
		{"method=[a b]", "err", "110.5", "100", "+10.5% !", "[7]"},
	}
	if len(tb.Rows) != len(want) {
		t.Fatalf("%d rows, want %d: %q", len(tb.Rows), len(want), tb.Rows)
	}
	for i := range want {
		if !slices.Equal(tb.Rows[i], want[i]) {
			t.Errorf("row %d: %q, want %q", i, tb.Rows[i], want[i])
		}
	}
	if len(tb.Notes) != 7 || tb.Notes[0] != "Table 2 row 1" || tb.Notes[6] != "Table 2 row 7" {
		t.Errorf("notes %q, want the seven distinct sources in order", tb.Notes)
	}
	if tb.Caption != "rel = (runexp − paper) / |paper|, marked ! beyond 10%." {
		t.Errorf("caption %q", tb.Caption)
	}
}

// TestReferenceNonFinite checks the relative difference of values that
// have none: an infinite or NaN value of ours, or a NaN paper value.
func TestReferenceNonFinite(t *testing.T) {
	src := `title: t
paper: p
kind: k
dataset: {name: d}
reference:
  - {source: s, metric: inf, cell: {method: a}, value: 10}
  - {source: s, metric: nan, cell: {method: a}, value: 10}
`
	c, err := config.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	recs := []report.Record{{Key: "method=a", Params: map[string]any{"method": "a"}, Status: report.StatusOK,
		Metrics: map[string]float64{"inf": math.Inf(1), "nan": math.NaN()}}}
	tb := tables.Reference(c, recs)
	if len(tb.Rows) != 2 {
		t.Fatalf("rows %q", tb.Rows)
	}
	if got := tb.Rows[0][2:5]; !slices.Equal(got, []string{"+Inf", "10", "—"}) {
		t.Errorf("infinite value: %q", got)
	}
	// A NaN metric means the method failed on the cell (FormatCompare).
	if got := tb.Rows[1][2:5]; !slices.Equal(got, []string{"failed", "10", "—"}) {
		t.Errorf("NaN value: %q", got)
	}
}

// TestFailures checks the table of failed and partial cells: ok cells are
// left out, a reason joins the cell's error with its failed rows by
// count, and a partial cell with neither says where to look; with every
// cell ok there is no table.
func TestFailures(t *testing.T) {
	if tb := tables.Failures([]report.Record{{Key: "a", Status: report.StatusOK}}); tb != nil {
		t.Errorf("every cell ok: a table %q", tb.Rows)
	}
	counted := report.Record{Key: "method=b", Status: report.StatusPartial}
	for range 3 {
		counted.AddFailure("pre-image is not finite")
	}
	counted.AddFailure("singular matrix\nat row 4")
	both := counted
	both.Key, both.Status, both.Error = "method=c", report.StatusFailed, "the fit failed"
	recs := []report.Record{
		{Key: "method=a", Status: report.StatusOK},
		counted,
		both,
		{Key: "method=d", Status: report.StatusPartial},
		{Key: "method=e", Status: report.StatusFailed, Error: "out of memory"},
	}
	tb := tables.Failures(recs)
	want := [][]string{
		{"method=b", "partial", "failed rows: 3 × pre-image is not finite; 1 × singular matrix"},
		{"method=c", "failed", "the fit failed; failed rows: 3 × pre-image is not finite; 1 × singular matrix"},
		{"method=d", "partial", "some rows failed; see the failure counts in records.jsonl"},
		{"method=e", "failed", "out of memory"},
	}
	if tb == nil || len(tb.Rows) != len(want) {
		t.Fatalf("failures table %v, want %d rows", tb, len(want))
	}
	for i := range want {
		if !slices.Equal(tb.Rows[i], want[i]) {
			t.Errorf("row %d: %q, want %q", i, tb.Rows[i], want[i])
		}
	}
}

// TestBuildOrder checks the order of a report's tables: the paper's
// values first (here one per line), then the kind's own, the failed
// cells, the report's problems and the claims; a table with nothing to
// show is left out.
func TestBuildOrder(t *testing.T) {
	c, err := config.Parse("ref.yaml", []byte(refSrc))
	if err != nil {
		t.Fatal(err)
	}
	kind := []*report.Table{{Title: "Kind long form", Header: []string{"x"}}, {Title: "Kind second", Header: []string{"y"}}}
	res := []claims.Result{{ID: "c1", Status: claims.Pass, Expected: claims.Pass, AsExpected: true, Statement: "s", Evidence: "e"}}
	in := tables.Input{Config: c, Records: refRecords(), Scoped: refRecords(), Kind: kind,
		Problems: []string{"figure 2: no finite point"}, Claims: res}
	titles := func(ts []*report.Table) []string {
		var out []string
		for _, t := range ts {
			out = append(out, t.Title)
		}
		return out
	}
	got := titles(tables.Build(in))
	want := []string{"runexp beside the paper", "Kind long form", "Kind second", "Failed and partial cells", "Report problems", "The paper's claims"}
	if !slices.Equal(got, want) {
		t.Errorf("tables %q, want %q", got, want)
	}
	// Nothing failed, no problem, no claim, no reference: the kind's
	// tables alone.
	bare, err := config.Parse("bare.yaml", []byte("title: t\npaper: p\nkind: k\ndataset: {name: d}\n"))
	if err != nil {
		t.Fatal(err)
	}
	ok := []report.Record{{Key: "a", Status: report.StatusOK}}
	got = titles(tables.Build(tables.Input{Config: bare, Records: ok, Scoped: ok, Kind: kind}))
	if !slices.Equal(got, []string{"Kind long form", "Kind second"}) {
		t.Errorf("bare config: tables %q", got)
	}
	// The problems table lists each problem as its own row.
	pr := tables.Build(tables.Input{Config: bare, Problems: []string{"p1", "p2"}})
	if len(pr) != 1 || len(pr[0].Rows) != 2 || pr[0].Rows[1][0] != "p2" {
		t.Errorf("problems table %+v", pr)
	}
}

// TestClaimsVerdicts checks the verdict column for each case of
// expectation: a pass as expected is plain, an expected failure says so,
// and a verdict other than the expected one names what was expected.
func TestClaimsVerdicts(t *testing.T) {
	res := []claims.Result{
		{ID: "c1", Status: claims.Pass, Expected: claims.Pass, AsExpected: true, Evidence: "1 < 2."},
		{ID: "c2", Status: claims.Fail, Expected: claims.Fail, AsExpected: true, Evidence: "3 > 2.", Because: "our data differ"},
		{ID: "c3", Status: claims.Fail, Expected: claims.Pass, AsExpected: false, Evidence: "5 > 4."},
		{ID: "c4", Status: claims.Pass, Expected: claims.Fail, AsExpected: false, Evidence: "1 < 2.", Because: "it failed before"},
	}
	tb := tables.Claims(res)
	for i, want := range []string{"PASS", "FAIL (expected)", "FAIL (expected PASS)", "PASS (expected FAIL)"} {
		if tb.Rows[i][1] != want {
			t.Errorf("%s: verdict %q, want %q", res[i].ID, tb.Rows[i][1], want)
		}
	}
	for i, want := range []string{
		"c1. Evidence: 1 < 2.",
		"c2. Evidence: 3 > 2. Expected FAIL: our data differ",
		"c3. Evidence: 5 > 4.",
		"c4. Evidence: 1 < 2. Expected FAIL: it failed before",
	} {
		if tb.Notes[i] != want {
			t.Errorf("note %d: %q, want %q", i, tb.Notes[i], want)
		}
		if !strings.HasPrefix(tb.Rows[i][0], res[i].ID+" [") {
			t.Errorf("claim cell %q does not point to its note", tb.Rows[i][0])
		}
	}
}

// TestRender checks tables.txt and tables.md: the title first (wrapped in
// the text), the notes in Markdown only, every table in both, and no
// line of the text wider than report.FileWidth (80 columns).
func TestRender(t *testing.T) {
	c, err := config.Parse("ref.yaml", []byte(refSrc))
	if err != nil {
		t.Fatal(err)
	}
	tbs := tables.Build(tables.Input{Config: c, Records: refRecords(), Scoped: refRecords()})
	txt, md, err := tables.Render(c, tbs)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(md), "# "+c.Title+"\n\nThese notes go to tables.md only.\n\n") {
		t.Errorf("tables.md starts %q", string(md)[:min(len(md), 200)])
	}
	if strings.Contains(string(txt), "These notes") {
		t.Error("tables.txt holds the config's notes")
	}
	for _, tb := range tbs {
		if !strings.Contains(string(md), tb.Title) || !strings.Contains(string(txt), tb.Title) {
			t.Errorf("table %q missing from a rendering", tb.Title)
		}
	}
	lines := strings.Split(string(txt), "\n")
	if !strings.HasPrefix(c.Title, lines[0]) || len(lines[0]) == len(c.Title) {
		t.Errorf("first line %q: want the title wrapped", lines[0])
	}
	for _, l := range lines {
		if report.Width(l) > report.FileWidth {
			t.Errorf("line of %d columns: %q", report.Width(l), l)
		}
	}
}

// partsSrc lays out a paper table in two parts with a row that no
// reference fills (left out), a failed cell, a reference to a cell that
// does not exist, and one that selects two cells.
const partsSrc = `title: t
paper: p
kind: k
dataset: {name: d}
paper_table:
  title: "Table 3"
  corner: Method
  parts: [APE, SNR]
  rows: [A, B, C]
  columns: [s1, s2]
reference:
  - {source: s, part: APE, row: A, column: s1, metric: ape, cell: {method: a, sigma: 1}, value: 1.4}
  - {source: s, part: APE, row: A, column: s2, metric: ape, cell: {method: a, sigma: 2}, value: 2.6}
  - {source: s, part: APE, row: B, column: s1, metric: ape, cell: {method: b, sigma: 1}, value: 3}
  - {source: s, part: APE, row: B, column: s2, metric: ape, cell: {method: b, sigma: 9}, value: 4}
  - {source: s, part: SNR, row: A, column: s1, metric: snr, cell: {method: a}, value: 11}
claims:
  - id: c-row
    statement: "A's error grows with sigma."
    check: {type: compare, metric: ape, left: {method: a, sigma: 1}, op: ">", right: {method: a, sigma: 2}}
`

// TestPaperParts checks a paper table shown in parts: one table per part
// in the paper's order, titled with the part; a row no value fills is
// left out; a failed cell and a missing one say so beside the paper's
// value; a note on a claim that reads two cells of one row is shown once
// beside the row's label; a reference selecting two cells says which one
// is shown; and without per-item scores no table of intervals follows,
// the caption saying why.
func TestPaperParts(t *testing.T) {
	c, err := config.Parse("parts.yaml", []byte(partsSrc))
	if err != nil {
		t.Fatal(err)
	}
	rec := func(m string, sigma int, status string, ms map[string]float64) report.Record {
		return report.Record{Key: config.CanonicalKey(map[string]any{"method": m, "sigma": sigma}),
			Params: map[string]any{"method": m, "sigma": sigma}, Status: status, Metrics: ms}
	}
	recs := []report.Record{
		rec("a", 1, report.StatusOK, map[string]float64{"ape": 1.5, "snr": 10}),
		rec("a", 2, report.StatusOK, map[string]float64{"ape": 2.5, "snr": 12}),
		rec("b", 1, report.StatusFailed, map[string]float64{"ape": 3.1}),
	}
	res := []claims.Result{{ID: "c-row", Status: claims.Fail, Expected: claims.Pass, Statement: "A's error grows with sigma."}}
	tbs := tables.Paper(c, recs, res, claims.Options{})
	if len(tbs) != 2 || tbs[0].Title != "Table 3 — APE: runexp (paper)" || tbs[1].Title != "Table 3 — SNR: runexp (paper)" {
		for _, tb := range tbs {
			t.Log(tb.Title)
		}
		t.Fatalf("%d tables, want the two parts' values and no intervals", len(tbs))
	}
	ape := tbs[0]
	want := [][]string{
		{"A [1]", "1.5 (paper 1.4)", "2.5 (paper 2.6)"},
		{"B", "failed (paper 3)", "no cell (paper 4)"},
	}
	if len(ape.Rows) != len(want) {
		t.Fatalf("APE rows %q", ape.Rows)
	}
	for i := range want {
		if !slices.Equal(ape.Rows[i], want[i]) {
			t.Errorf("APE row %d: %q, want %q", i, ape.Rows[i], want[i])
		}
	}
	if len(ape.Notes) != 1 || ape.Notes[0] != "Claim c-row is FAIL (expected PASS) here: A's error grows with sigma." {
		t.Errorf("APE notes %q", ape.Notes)
	}
	for _, w := range []string{"A note marks a value", "No value has an interval: the experiment records no per-item scores."} {
		if !strings.Contains(ape.Caption, w) {
			t.Errorf("APE caption %q lacks %q", ape.Caption, w)
		}
	}
	snr := tbs[1]
	if len(snr.Rows) != 1 || !slices.Equal(snr.Rows[0], []string{"A", "10 (paper 11) [1]", "—"}) {
		t.Errorf("SNR rows %q", snr.Rows)
	}
	if len(snr.Notes) != 1 || !strings.HasPrefix(snr.Notes[0], "The paper's value is compared with the first of the 2 cells its reference selects (method=a)") {
		t.Errorf("SNR notes %q", snr.Notes)
	}
	// A passing claim marks nothing.
	res[0].Status, res[0].AsExpected = claims.Pass, true
	if ape := tables.Paper(c, recs, res, claims.Options{})[0]; ape.Rows[0][0] != "A" || len(ape.Notes) != 0 {
		t.Errorf("passing claim: row %q, notes %q", ape.Rows[0], ape.Notes)
	}
}
