package tables_test

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/tables"
)

// src lays out a made-up paper table: two methods (rows) by one metric
// read two ways (columns), and two claims: c-low holds on the records
// below, c-high (expected to fail) does not.
const src = `title: test
paper: p
kind: k
dataset: {name: d}
paper_table:
  title: "Table 1: error, read two ways"
  corner: Method
  rows: [A (ours), B]
  columns: [err, err255]
reference:
  - {source: "p.yaml tables/table1 row 1", row: "A (ours)", column: err, metric: err, cell: {method: a}, value: 268}
  - {source: "p.yaml tables/table1 row 1", row: "A (ours)", column: err255, metric: err255, cell: {method: a}, value: 268}
  - {source: "p.yaml tables/table1 row 2", row: B, column: err, printed: "300.0 ± 2", metric: err, std: err_std, cell: {method: b}, value: 300}
claims:
  - id: c-low
    statement: "A beats B."
    check: {type: compare, metric: err, left: {method: a}, op: "<", right: {method: b}}
  - id: c-high
    statement: "B beats A."
    expect: fail
    because: "it does not on our data"
    check: {type: compare, metric: err, left: {method: b}, op: "<", right: {method: a}}
`

// records returns a's and b's records: err is the mean of 50 per-item
// scores (item i of a is 250 + i%10, so err = 254.5), err255 a's err
// times 255/10.
func records() []report.Record {
	mk := func(m string, base float64) report.Record {
		x := make([]float64, 50)
		for i := range x {
			x[i] = base + float64(i%10)
		}
		return report.Record{Key: "method=" + m, Params: map[string]any{"method": m}, Status: report.StatusOK,
			Metrics: map[string]float64{"err": metrics.Mean(x), "err_std": 2.5, "err255": metrics.Mean(x) * 25.5},
			Arrays:  map[string][]float64{"x": x}}
	}
	return []report.Record{mk("a", 250), mk("b", 290)}
}

func options() claims.Options {
	return claims.Options{
		Items: func(rec *report.Record, metric string) (claims.ItemStat, bool) {
			if metric != "err" {
				return claims.ItemStat{}, false
			}
			return claims.ItemStat{Array: "x", Stat: func(_ *report.Record, x []float64) float64 { return metrics.Mean(x) }}, true
		},
		Rand:   func(key string) *rand.Rand { return rand.New(rand.NewPCG(1, uint64(len(key)))) },
		Counts: true,
	}
}

func TestPaper(t *testing.T) {
	c, err := config.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	recs := records()
	var res []claims.Result
	for _, cl := range c.Claims {
		res = append(res, claims.EvaluateWith(cl, recs, options()))
	}
	if res[0].Status != claims.Pass || res[1].Status != claims.Fail || !res[1].AsExpected {
		t.Fatalf("claims %+v", res)
	}
	tbl := tables.Build(tables.Input{Config: c, Records: recs, Scoped: recs, Claims: res, Intervals: options()})
	// The paper's table, its intervals, then the claims.
	if len(tbl) != 3 || tbl[0].Title != "Table 1: error, read two ways: runexp (paper)" ||
		tbl[1].Title != "Table 1: error, read two ways: 95% intervals of runexp's values" || tbl[2].Title != "The paper's claims" {
		for _, x := range tbl {
			t.Log(x.Title)
		}
		t.Fatalf("%d tables", len(tbl))
	}
	// c-high reads err of both rows, so its note marks the err column's
	// header, not each cell; c-low passes and marks nothing.
	want := [][]string{
		{"A (ours)", "254.5 (paper 268)", "6490 (paper 268)"},
		{"B", "294.5 ± 2.5 (paper 300.0 ± 2)", "—"},
	}
	vals := tbl[0]
	if vals.Header[1] != "err [1]" || len(vals.Notes) != 1 || !strings.HasPrefix(vals.Notes[0], "Claim c-high is FAIL (expected) here: B beats A.") {
		t.Errorf("header %q, notes %q", vals.Header, vals.Notes)
	}
	for i, row := range want {
		for j, cell := range row {
			if vals.Rows[i][j] != cell {
				t.Errorf("row %d, column %d: %q, want %q", i, j, vals.Rows[i][j], cell)
			}
		}
	}
	// a's err has per-item scores: its interval holds its mean; err255
	// has none, and says so once.
	ivs := tbl[1]
	if ivs.Rows[0][0] != "A (ours)" || !strings.HasPrefix(ivs.Rows[0][1], "[") || ivs.Rows[0][2] != "— [1]" ||
		len(ivs.Notes) != 1 || ivs.Notes[0] != "No interval: the value has no per-item scores." {
		t.Errorf("intervals %q, notes %q", ivs.Rows, ivs.Notes)
	}
	if !strings.Contains(ivs.Caption, "BCa bootstrap (Efron 1987) over test items; 2000 resamples") {
		t.Errorf("interval caption %q does not name the method", ivs.Caption)
	}
	est, _, why := claims.CellInterval(options(), "table-ci:method=a:err", &recs[0], "err")
	if why != "" || !(est.CI.Lo < 254.5 && 254.5 < est.CI.Hi) {
		t.Errorf("a's interval [%v, %v] (%s) does not hold its mean 254.5", est.CI.Lo, est.CI.Hi, why)
	}
	// The claims: an expected non-reproduction reads "FAIL (expected)",
	// its evidence and reason in a note.
	cl := tbl[2]
	if cl.Rows[1][1] != "FAIL (expected)" || !strings.HasPrefix(cl.Rows[1][0], "c-high [") || !strings.Contains(cl.Notes[1], "Expected FAIL: it does not on our data") {
		t.Errorf("claims rows %q, notes %q", cl.Rows, cl.Notes)
	}
}

// TestPaperTwoLines: a paper table too wide for a terminal with ours and
// the paper's on one line puts the paper's under ours.
func TestPaperTwoLines(t *testing.T) {
	long := strings.Replace(src, "columns: [err, err255]", "columns: [err, err255, third reading, fourth reading, fifth reading, sixth reading]", 1)
	c, err := config.Parse("t.yaml", []byte(long))
	if err != nil {
		t.Fatal(err)
	}
	recs := records()
	vals := tables.Paper(c, recs, nil, claims.Options{})[0]
	if got := vals.Rows[0][1]; got != "254.5\n(paper 268)" {
		t.Errorf("cell %q, want ours and the paper's on two lines", got)
	}
	var b bytes.Buffer
	if err := vals.RenderText(&b); err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(b.String(), "\n") {
		if report.Width(l) > report.TextWidth {
			t.Errorf("line of %d columns: %s", report.Width(l), l)
		}
	}
}
