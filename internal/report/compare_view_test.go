package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// nightlyRun writes a run folder like abrahamsen-hansen-fig3's: two
// estimators over seven widths c, every other parameter the same in every
// cell. scale multiplies Mika's metrics by 1 + scale·(i+1) in the i-th
// cell (a perturbed estimator, each cell by another factor so that the
// order by relative change is known); the claim's verdict is verdict.
func nightlyRun(t *testing.T, dir string, scale float64, minima28 float64, verdict string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var recs []Record
	for i, c := range []float64{0.05, 0.1, 0.2, 0.5, 1, 2, 5} {
		for _, m := range []string{"Mika et al.", "Kwok–Tsang"} {
			f := 1.0
			if m == "Mika et al." {
				f = 1 + scale*float64(i+1)
			}
			params := map[string]any{"c": c, "components": 50.0, "eps": 1e-12, "kernel": "gaussian",
				"max_iter": 1000.0, MethodParam: m, "start": "noisy", "tol": 1e-9}
			minima := float64(28 - 4*i)
			if i == 0 && m == "Mika et al." {
				minima = minima28
			}
			// The perturbed estimator is other code.
			code := "kwok0000kwok0000"
			if m == "Mika et al." {
				code = fmt.Sprintf("mika%04xmika0000", int(scale*1e4))
			}
			recs = append(recs, Record{
				Key:    fmt.Sprintf("c=%g,components=50,eps=1e-12,kernel=gaussian,max_iter=1000,method=%s,start=noisy,tol=1e-09", c, m),
				Params: params, Status: StatusOK,
				Metrics: map[string]float64{"mse_to_clean": 0.0123456789 * f * (1 + float64(i)), "distinct_preimages": minima},
				Code:    code,
			})
		}
	}
	if err := WriteJSONL(filepath.Join(dir, "records.jsonl"), recs); err != nil {
		t.Fatal(err)
	}
	cl := []map[string]any{{"id": "c8-many-minima", "statement": "When c increases the number of distinct pre-images decreases.",
		"status": verdict, "evidence": "distinct_preimages decreasing along c — Spearman ρ = -0.96"},
		{"id": "c8-other", "statement": "unrelated", "status": "PASS", "evidence": "mse_to_clean_max below 1"}}
	b, _ := json.Marshal(cl)
	if err := os.WriteFile(filepath.Join(dir, "claims.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	// The same config file and data on both nights.
	man := `{"config_sha256": "5a7c0f1e", "data": [], "machine": {"backend": "gonum"}}`
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), []byte(man), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestNightlyDiffGolden (issue 47): a perturbed estimator's diff reads at
// a glance: the claim that changed first, with the metric that moved
// (mse_to_clean_max in the other claim's evidence is another metric),
// then every moved metric sorted by relative change, with old and new at
// the precision that tells them apart, delta and ratio, each cell named by
// what differs within the config (c and method), no line over 120
// columns; the numbers are numbers in JSON.
func TestNightlyDiffGolden(t *testing.T) {
	oldRoot, newRoot := t.TempDir(), t.TempDir()
	nightlyRun(t, filepath.Join(oldRoot, "abrahamsen-hansen-fig3"), 0, 28, "PASS")
	nightlyRun(t, filepath.Join(newRoot, "abrahamsen-hansen-fig3"), 1e-4, 27, "FAIL")
	cmp, err := Compare(oldRoot, newRoot, CompareOptions{RelTol: 1e-9, AbsTol: 1e-12})
	if err != nil {
		t.Fatal(err)
	}
	d := NewDiff(cmp.Changes)
	var b bytes.Buffer
	if err := d.RenderText(&b, "Changes against the baseline in baseline/", 120); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "nightly-diff.txt.golden", b.Bytes())
	for i, l := range strings.Split(b.String(), "\n") {
		if n := utf8.RuneCountInString(l); n > 120 {
			t.Errorf("line %d is %d columns: %s", i+1, n, l)
		}
	}
	if len(d.Configs) != 1 || len(d.Configs[0].Claims) != 1 || len(d.Configs[0].Metrics) != 8 {
		t.Fatalf("diff: %+v", d.Configs)
	}
	if got := d.Configs[0].Claims[0].Because; len(got) != 1 || got[0] != "distinct_preimages" {
		t.Errorf("the claim's moved metrics: %v, want [distinct_preimages]", got)
	}
	ms := d.Configs[0].Metrics
	for i := 1; i < len(ms); i++ {
		if RelChange(ms[i]) > RelChange(ms[i-1]) {
			t.Errorf("row %d (%g) after a smaller change (%g)", i, RelChange(ms[i]), RelChange(ms[i-1]))
		}
	}
	js, err := json.Marshal(cmp.Changes)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), `"old_value":0.0123456789,`) || !strings.Contains(string(js), `"cell":"method=\"Mika et al.\" c=0.05"`) {
		t.Errorf("changes in JSON lack the numeric values or the cell label:\n%s", js)
	}
	var page bytes.Buffer
	if err := d.RenderHTML(&page, "Changes against the baseline in baseline/"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<th>Delta</th><th>Ratio</th>", "claim c8-many-minima: PASS → FAIL (moved: distinct_preimages)", "1.00070"} {
		if !strings.Contains(page.String(), want) {
			t.Errorf("the HTML view lacks %q", want)
		}
	}
}

// TestDiffPrecision: old and new get the fewest significant digits (at
// least 4) that tell them apart, plus one; the ratio shows its departure
// from 1 to two digits.
func TestDiffPrecision(t *testing.T) {
	for _, c := range []struct {
		o, n                   float64
		old, new, delta, ratio string
	}{
		{0.0123456789, 0.0123469135, "0.0123457", "0.0123469", "+1.23e-06", "1.00010"},
		{28, 27, "28", "27", "-1", "0.964"},
		{0, 1, "0", "1", "+1", Dash},
		{1, 1.5, "1", "1.5", "+0.5", "1.500"},
	} {
		o, n := diffPrecision(c.o, c.n)
		d, r := deltaRatio(c.o, c.n)
		if o != c.old || n != c.new || d != c.delta || r != c.ratio {
			t.Errorf("%g → %g: %s %s %s %s, want %s %s %s %s", c.o, c.n, o, n, d, r, c.old, c.new, c.delta, c.ratio)
		}
	}
}

// TestCellLabels: only the parameters that differ within the config
// name a cell, the method first.
func TestCellLabels(t *testing.T) {
	got := CellLabels([]map[string]any{
		{"c": 5.0, "components": 50.0, MethodParam: "Mika"},
		{"c": 0.5, "components": 50.0, MethodParam: "Mika"},
		{"c": 5.0, "components": 50.0, MethodParam: "HR", "nu": 0.0},
	})
	want := []string{"method=Mika c=5", "method=Mika c=0.5", "method=HR c=5 nu=0"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("labels %q, want %q", got, want)
	}
	if got := CellLabels([]map[string]any{{"c": 5.0}}); got[0] != "(the one cell)" {
		t.Errorf("one cell: %q", got)
	}
}
