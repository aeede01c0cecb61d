package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// pairRun writes a run folder of two methods over three widths c, Mika's
// cells with tol, its metrics scaled by 1 + scale; the manifest gives the
// config's and one data file's SHA-256.
func pairRun(t *testing.T, dir string, tol, scale float64, code, configSum, dataSum string) {
	t.Helper()
	var recs []Record
	for i, c := range []float64{0.5, 1, 2} {
		for _, m := range []string{"Mika", "HR"} {
			p := map[string]any{"c": c, MethodParam: m}
			key := fmt.Sprintf("c=%g,method=%s", c, m)
			f := 1.0
			if m == "Mika" {
				p["tol"] = tol
				key += fmt.Sprintf(",tol=%g", tol)
				f += scale * float64(i+1)
			}
			recs = append(recs, Record{Key: key, Params: p, Status: StatusOK, Code: code,
				Metrics: map[string]float64{"mse": 0.25 * f, "snr": 10 * f}})
		}
	}
	if err := WriteJSONL(filepath.Join(dir, "records.jsonl"), recs); err != nil {
		t.Fatal(err)
	}
	man := fmt.Sprintf(`{"config_sha256": %q, "data": [{"path": "usps/zip.train.gz", "sha256": %q}]}`, configSum, dataSum)
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), []byte(man), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestComparePairsEditedParameter: a parameter edited in the grid (Mika's
// tol 1e-9 → 1e-8) gives Mika's cells new keys; each is compared with its
// former self (one "params" change naming the edit, then its metrics old
// → new) instead of a cell lost and a cell gained, and each change says
// what caused it: the parameters and the config file (config), the code
// fingerprint (code), a data file (data). Two old values of tol replaced
// by one new one pair nothing (which was its former self?).
func TestComparePairsEditedParameter(t *testing.T) {
	old, now := filepath.Join(t.TempDir(), "run"), filepath.Join(t.TempDir(), "run")
	pairRun(t, old, 1e-9, 0, "c0de0001", "aaaa0001", "dddd0001")
	pairRun(t, now, 1e-8, 1e-3, "c0de0002", "aaaa0002", "dddd0002")
	ch, err := CompareResults(old, now, CompareOptions{RelTol: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	params, metrics := 0, 0
	for _, c := range ch {
		switch {
		case c.What == "new cell" || c.What == "missing in new":
			t.Errorf("an unpaired cell: %s", c)
		case c.What == "params":
			params++
			if c.Params != "tol 1e-09 → 1e-08" || c.Old != "tol=1e-09" || c.New != "tol=1e-08" || !strings.Contains(c.Was, "tol=1e-09") {
				t.Errorf("the pair: %+v", c)
			}
		case strings.HasPrefix(c.What, "metric "):
			metrics++
			if c.Params == "" || c.Cell == "" || strings.Contains(c.Cell, "tol") {
				t.Errorf("a paired cell's metric: %+v (want its label without tol, and the change)", c)
			}
		}
		kinds := c.CauseKinds()
		if strings.HasPrefix(c.What, "metric ") && kinds != "config, code, data" {
			t.Errorf("%s: causes %q, want config, code, data (%+v)", c, kinds, c.Causes)
		}
	}
	if params != 3 || metrics != 6 {
		t.Errorf("%d pairs and %d moved metrics, want 3 and 6: %v", params, metrics, ch)
	}
	var b bytes.Buffer
	if err := NewDiff(ch).RenderText(&b, "Changes", 80); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"c=2 (tol 1e-09 → 1e-08) [config, code, data]", "caused by: config: its parameters: tol 1e-09 → 1e-08 (3 cells)",
		"code: code fingerprint c0de0001 → c0de0002 (3 cells)", "data: usps/zip.train.gz (SHA-256 dddd0001 → dddd0002) (3 cells)"} {
		if !strings.Contains(strings.Join(strings.Fields(b.String()), " "), want) {
			t.Errorf("the diff lacks %q:\n%s", want, b.String())
		}
	}

	// Only the parameter: the config file and data the same, the code too.
	pairRun(t, now, 1e-8, 1e-3, "c0de0001", "aaaa0001", "dddd0001")
	ch, err = CompareResults(old, now, CompareOptions{RelTol: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range ch {
		if got := c.CauseKinds(); got != "config" || len(c.Causes) != 1 {
			t.Errorf("%s: causes %+v, want the parameters alone", c, c.Causes)
		}
	}

	// Nothing differs but the numbers: no cause to name.
	pairRun(t, now, 1e-9, 1e-3, "c0de0001", "aaaa0001", "dddd0001")
	ch, err = CompareResults(old, now, CompareOptions{RelTol: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	if len(ch) == 0 || ch[0].CauseKinds() != "none" {
		t.Errorf("same config, code and data: %+v", ch)
	}

	// tol [1e-9, 1e-7] → [1e-8]: neither old cell is the new one's.
	two := filepath.Join(t.TempDir(), "run")
	pairRun(t, two, 1e-9, 0, "c0de0001", "aaaa0001", "dddd0001")
	recs, err := ReadJSONL(filepath.Join(two, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.Method() == "Mika" {
			r.Params = map[string]any{"c": r.Params["c"], MethodParam: "Mika", "tol": 1e-7}
			r.Key = strings.Replace(r.Key, "tol=1e-09", "tol=1e-07", 1)
			recs = append(recs, r)
		}
	}
	if err := WriteJSONL(filepath.Join(two, "records.jsonl"), recs); err != nil {
		t.Fatal(err)
	}
	pairRun(t, now, 1e-8, 0, "c0de0001", "aaaa0001", "dddd0001")
	ch, err = CompareResults(two, now, CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range ch {
		if c.What == "params" {
			t.Errorf("paired although two old cells are as near: %+v", c)
		}
	}
}

// TestDiffFitsWidth: cells whose labels are long (an estimator's label
// with spaces and commas, several parameters) are never cut: at 80 and
// at 120 columns every line fits, and every word of every label is in
// the output whole; where the table does not fit, each cell's name is a
// line of its own above its metrics.
func TestDiffFitsWidth(t *testing.T) {
	var ch []Change
	labels := map[string]bool{}
	for i, m := range []string{`"Ours (local Gram, k=10)"`, `"Kwok–Tsang (D-C(10))"`, `"Mika et al."`} {
		for j, nb := range []string{"mean-distance", "median-distance-to-the-tenth-neighbour"} {
			label := fmt.Sprintf("method=%s neighbors=%s c=%g components=%d", m, nb, 0.5*float64(i+1), 10*(j+1))
			labels[label] = true
			o, n := 0.0123456789*float64(i+j+1), 0.0123456789*float64(i+j+1)*(1+1e-4*float64(i*2+j+1))
			ch = append(ch, Change{Config: "zheng-lpkpca-table3-subsets123-labelgraph", Key: label, Cell: label,
				What: "metric recognition_rate_mean", Old: FormatFloat(o, -1), New: FormatFloat(n, -1), OldValue: &o, NewValue: &n,
				Causes: []Cause{{"code", "code fingerprint 83b984f8 → 11320ff4"}}})
		}
	}
	for _, width := range []int{80, 120} {
		var b bytes.Buffer
		if err := NewDiff(ch).RenderText(&b, "Changes against the baseline in baseline/", width); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for i, l := range strings.Split(out, "\n") {
			if n := utf8.RuneCountInString(l); n > width {
				t.Errorf("at %d columns, line %d is %d columns: %s", width, i+1, n, l)
			}
		}
		if strings.Contains(out, "…") {
			t.Errorf("at %d columns, something was cut:\n%s", width, out)
		}
		words := strings.Fields(out)
		for label := range labels {
			for _, w := range strings.Fields(label) {
				found := false
				for _, x := range words {
					if strings.Contains(x, w) {
						found = true
						break
					}
				}
				if !found {
					t.Errorf("at %d columns, %q of %q is not whole in\n%s", width, w, label, out)
				}
			}
		}
	}
}

// TestChangesTableMarkdown: the Markdown table of a diff has delta and
// ratio for each moved metric, its rows sorted as the diff (largest
// relative change first), and the cause of each.
func TestChangesTableMarkdown(t *testing.T) {
	mk := func(key string, o, n float64) Change {
		return Change{Config: "fig3", Key: key, Cell: key, What: "metric mse", Old: FormatFloat(o, -1), New: FormatFloat(n, -1),
			OldValue: &o, NewValue: &n, Causes: []Cause{{"code", "code fingerprint a → b"}}}
	}
	tb := ChangesTable([]Change{mk("c=1", 1, 1.01), mk("c=2", 1, 1.5), mk("c=5", 2, 1.9)})
	var md bytes.Buffer
	if err := tb.RenderMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	doc := parseTablesMarkdown(md.String())
	if len(doc.Tables) != 1 {
		t.Fatalf("rendered:\n%s", md.String())
	}
	got := doc.Tables[0]
	if strings.Join(got.Header, "|") != "Config|Cell|Change|Old|New|Delta|Ratio|Cause" {
		t.Errorf("header %q", got.Header)
	}
	var order []string
	for _, r := range got.Rows {
		order = append(order, r[1]+" "+r[5]+" "+r[6]+" "+r[7])
	}
	if want := "c=2 +0.5 1.500 code|c=5 -0.1 0.950 code|c=1 +0.01 1.010 code"; strings.Join(order, "|") != want {
		t.Errorf("rows %q, want %q", order, want)
	}
}
