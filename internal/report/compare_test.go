package report

import (
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// writeCompareRun writes records.jsonl and, when cl is not nil, claims.json
// into dir.
func writeCompareRun(t *testing.T, dir string, recs []Record, cl []claimJSON) {
	t.Helper()
	if err := WriteJSONL(filepath.Join(dir, "records.jsonl"), recs); err != nil {
		t.Fatal(err)
	}
	if cl != nil {
		b, err := json.Marshal(cl)
		if err != nil {
			t.Fatal(err)
		}
		if err := WriteFileAtomic(filepath.Join(dir, "claims.json"), b); err != nil {
			t.Fatal(err)
		}
	}
}

// baseRecords is a small run; every test copies it and edits the copy.
func baseRecords() []Record {
	return []Record{
		{Key: "c=0.1", Seed: 1, Params: map[string]any{"c": 0.1}, Metrics: map[string]float64{"mse": 1, "snr": math.Inf(1), "rho": math.NaN()}, Arrays: map[string][]float64{"z": {1, 2}}, Status: StatusOK},
		{Key: "c=1", Seed: 2, Params: map[string]any{"c": 1}, Metrics: map[string]float64{"mse": 0}, Status: StatusPartial, Error: "2 rows failed"},
	}
}

func baseClaims() []claimJSON {
	return []claimJSON{
		{ID: "c1", Status: verdictPass, Evidence: "ρ = 1"},
		{ID: "c2", Status: verdictNotEvaluated, Evidence: "no cell"},
	}
}

// cloneRecords deep-copies the maps that the tests edit.
func cloneRecords(recs []Record) []Record {
	out := make([]Record, len(recs))
	for i, r := range recs {
		r.Metrics = clone(r.Metrics)
		r.Arrays = clone(r.Arrays)
		out[i] = r
	}
	return out
}

func clone[V any](m map[string]V) map[string]V {
	if m == nil {
		return nil
	}
	c := make(map[string]V, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// compareEdited writes baseRecords and baseClaims as the old run and their
// edited copies as the new run, in two run directories named "run", and
// compares them.
func compareEdited(t *testing.T, o CompareOptions, edit func(recs *[]Record, cl *[]claimJSON)) []Change {
	t.Helper()
	root := t.TempDir()
	oldDir, newDir := filepath.Join(root, "old", "run"), filepath.Join(root, "new", "run")
	writeCompareRun(t, oldDir, baseRecords(), baseClaims())
	recs, cl := cloneRecords(baseRecords()), baseClaims()
	if edit != nil {
		edit(&recs, &cl)
	}
	writeCompareRun(t, newDir, recs, cl)
	ch, err := CompareResults(oldDir, newDir, o)
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

func checkChanges(t *testing.T, got, want []Change) {
	t.Helper()
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if !reflect.DeepEqual(coreChanges(got), want) {
		t.Errorf("changes:\n%s\nwant:\n%s", changeLines(got), changeLines(want))
	}
}

// coreChanges returns ch with only what each change says (config, key,
// what, old, new): the cell label, the numbers and a claim's moved
// metrics are the views' (compare_view_test.go tests them).
func coreChanges(ch []Change) []Change {
	out := make([]Change, len(ch))
	for i, c := range ch {
		out[i] = Change{Config: c.Config, Key: c.Key, What: c.What, Old: c.Old, New: c.New}
	}
	return out
}

func changeLines(ch []Change) string {
	var b strings.Builder
	for _, c := range ch {
		b.WriteString("\t" + c.String() + "\n")
	}
	return b.String()
}

func TestCompareIdentical(t *testing.T) {
	checkChanges(t, compareEdited(t, CompareOptions{}, nil), nil)
	// Arrays are figure data, not compared.
	ch := compareEdited(t, CompareOptions{}, func(recs *[]Record, _ *[]claimJSON) {
		(*recs)[0].Arrays["z"][0] = 99
		(*recs)[0].Seed = 7
	})
	checkChanges(t, ch, nil)
}

func TestCompareTolerance(t *testing.T) {
	// Old mse of c=0.1 is 1 and of c=1 is 0. Thresholds worked by hand
	// from |new − old| > AbsTol + RelTol·|old|.
	cases := []struct {
		name     string
		o        CompareOptions
		new01    float64 // new mse at c=0.1 (old 1)
		new1     float64 // new mse at c=1 (old 0)
		flag01   bool
		flagged1 bool
	}{
		{"exact, unchanged", CompareOptions{}, 1, 0, false, false},
		{"exact, tiny move", CompareOptions{}, 1 + 1e-15, 1e-300, true, true},
		{"relative 1e-6: 2e-6 moved, 0 absolute slack", CompareOptions{RelTol: 1e-6}, 1 + 2e-6, 1e-12, true, true},
		{"relative 1e-6: 5e-7 within", CompareOptions{RelTol: 1e-6}, 1 - 5e-7, 0, false, false},
		{"absolute 1e-8: 1e-9 within", CompareOptions{AbsTol: 1e-8}, 1 + 1e-9, -1e-9, false, false},
		{"absolute 1e-8: 2e-8 moved", CompareOptions{AbsTol: 1e-8}, 1 + 2e-8, 2e-8, true, true},
		{"both: 1e-8 + 1e-3·1", CompareOptions{RelTol: 1e-3, AbsTol: 1e-8}, 1.0009, 5e-9, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ch := compareEdited(t, tc.o, func(recs *[]Record, _ *[]claimJSON) {
				(*recs)[0].Metrics["mse"] = tc.new01
				(*recs)[1].Metrics["mse"] = tc.new1
			})
			var want []Change
			if tc.flag01 {
				want = append(want, Change{Config: "run", Key: "c=0.1", What: "metric mse", Old: "1", New: FormatFloat(tc.new01, -1)})
			}
			if tc.flagged1 {
				want = append(want, Change{Config: "run", Key: "c=1", What: "metric mse", Old: "0", New: FormatFloat(tc.new1, -1)})
			}
			checkChanges(t, ch, want)
		})
	}
}

func TestCompareNonFinite(t *testing.T) {
	// Old c=0.1 has rho NaN and snr +Inf.
	big := CompareOptions{RelTol: 1, AbsTol: math.MaxFloat64}
	checkChanges(t, compareEdited(t, big, nil), nil) // NaN == NaN, +Inf == +Inf
	ch := compareEdited(t, big, func(recs *[]Record, _ *[]claimJSON) {
		(*recs)[0].Metrics["rho"] = 0.5
		(*recs)[0].Metrics["snr"] = 1e300
		(*recs)[1].Metrics["mse"] = math.NaN()
	})
	checkChanges(t, ch, []Change{
		{Config: "run", Key: "c=0.1", What: "metric rho", Old: "NaN", New: "0.5"},
		{Config: "run", Key: "c=0.1", What: "metric snr", Old: "+Inf", New: "1e+300"},
		{Config: "run", Key: "c=1", What: "metric mse", Old: "0", New: "NaN"},
	})
	ch = compareEdited(t, big, func(recs *[]Record, _ *[]claimJSON) {
		(*recs)[0].Metrics["snr"] = math.Inf(-1)
	})
	checkChanges(t, ch, []Change{{Config: "run", Key: "c=0.1", What: "metric snr", Old: "+Inf", New: "-Inf"}})
}

func TestCompareCells(t *testing.T) {
	ch := compareEdited(t, CompareOptions{}, func(recs *[]Record, _ *[]claimJSON) {
		r := &(*recs)[1]
		r.Status, r.Error = StatusFailed, "panic: boom"
		delete((*recs)[0].Metrics, "rho")
		(*recs)[0].Metrics["psnr"] = 20
	})
	checkChanges(t, ch, []Change{
		{Config: "run", Key: "c=0.1", What: "metric psnr", Old: "absent", New: "20"},
		{Config: "run", Key: "c=0.1", What: "metric rho", Old: "NaN", New: "absent"},
		{Config: "run", Key: "c=1", What: "error", Old: "2 rows failed", New: "panic: boom"},
		{Config: "run", Key: "c=1", What: "status", Old: "partial", New: "failed"},
	})

	ch = compareEdited(t, CompareOptions{}, func(recs *[]Record, _ *[]claimJSON) {
		*recs = append((*recs)[1:], Record{Key: "c=10", Metrics: map[string]float64{"mse": 3}, Status: StatusOK})
	})
	checkChanges(t, ch, []Change{
		{Config: "run", Key: "c=0.1", What: "missing in new", Old: "ok", New: "absent"},
		{Config: "run", Key: "c=10", What: "new cell", Old: "absent", New: "ok"},
	})
}

func TestCompareClaims(t *testing.T) {
	ch := compareEdited(t, CompareOptions{}, func(_ *[]Record, cl *[]claimJSON) {
		(*cl)[0].Status = verdictFail
		(*cl)[1].Evidence = "other evidence, same verdict"
		*cl = append(*cl, claimJSON{ID: "c3", Status: verdictPass})
	})
	checkChanges(t, ch, []Change{
		{Config: "run", Key: "", What: "claim c1", Old: "PASS", New: "FAIL"},
		{Config: "run", Key: "", What: "claim c3", Old: "absent", New: "PASS"},
	})

	// No claims.json on the new side: every old claim is absent.
	root := t.TempDir()
	oldDir, newDir := filepath.Join(root, "a"), filepath.Join(root, "b")
	writeCompareRun(t, oldDir, baseRecords(), baseClaims())
	writeCompareRun(t, newDir, baseRecords(), nil)
	got, err := CompareResults(oldDir, newDir, CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Single-directory mode names the run after the new directory.
	checkChanges(t, got, []Change{
		{Config: "b", Key: "", What: "claim c1", Old: "PASS", New: "absent"},
		{Config: "b", Key: "", What: "claim c2", Old: "NOT-EVALUATED", New: "absent"},
	})
}

func TestCompareRoots(t *testing.T) {
	oldRoot, newRoot := t.TempDir(), t.TempDir()
	writeCompareRun(t, filepath.Join(oldRoot, "fig-a"), baseRecords(), baseClaims())
	writeCompareRun(t, filepath.Join(oldRoot, "fig-b"), baseRecords(), baseClaims())
	writeCompareRun(t, filepath.Join(oldRoot, ".hidden"), baseRecords(), nil)
	changed := cloneRecords(baseRecords())
	changed[0].Metrics["mse"] = 2
	writeCompareRun(t, filepath.Join(newRoot, "fig-b"), changed, baseClaims())
	writeCompareRun(t, filepath.Join(newRoot, "fig-c"), baseRecords(), nil)
	// A subdirectory without records.jsonl is not a run.
	if err := WriteFileAtomic(filepath.Join(newRoot, "fig-a", "manifest.json"), []byte("{}")); err != nil {
		t.Fatal(err)
	}

	want := []Change{
		{Config: "fig-a", Key: "", What: "missing run", Old: "present", New: "absent"},
		{Config: "fig-b", Key: "c=0.1", What: "metric mse", Old: "1", New: "2"},
		{Config: "fig-c", Key: "", What: "new run", Old: "absent", New: "present"},
	}
	got, err := CompareResults(oldRoot, newRoot, CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkChanges(t, got, want)

	// The same root against itself, and one run of it against itself.
	if got, err := CompareResults(oldRoot, oldRoot, CompareOptions{}); err != nil || len(got) != 0 {
		t.Errorf("root against itself: %v, %v", got, err)
	}
	if got, err := CompareResults(filepath.Join(newRoot, "fig-b"), filepath.Join(newRoot, "fig-b"), CompareOptions{}); err != nil || len(got) != 0 {
		t.Errorf("run against itself: %v, %v", got, err)
	}
	// A run directory against a results root is ambiguous.
	if _, err := CompareResults(filepath.Join(oldRoot, "fig-b"), newRoot, CompareOptions{}); err == nil {
		t.Error("no error comparing a run directory with a results root")
	}
}

func TestCompareErrors(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "run")
	writeCompareRun(t, dir, baseRecords(), nil)
	for _, o := range []CompareOptions{{RelTol: -1}, {AbsTol: math.NaN()}} {
		if _, err := CompareResults(dir, dir, o); err == nil {
			t.Errorf("no error for tolerances %+v", o)
		}
	}
	if _, err := CompareResults(filepath.Join(root, "absent"), dir, CompareOptions{}); err == nil {
		t.Error("no error for a missing directory")
	}
	dup := filepath.Join(root, "dup")
	writeCompareRun(t, dup, append(baseRecords(), baseRecords()[0]), nil)
	if _, err := CompareResults(dir, dup, CompareOptions{}); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("duplicate key: error %v", err)
	}
	bad := filepath.Join(root, "bad")
	writeCompareRun(t, bad, baseRecords(), nil)
	if err := WriteFileAtomic(filepath.Join(bad, "claims.json"), []byte("[{")); err != nil {
		t.Fatal(err)
	}
	if _, err := CompareResults(dir, bad, CompareOptions{}); err == nil || !strings.Contains(err.Error(), "claims.json") {
		t.Errorf("malformed claims.json: error %v", err)
	}
}

func TestChangeString(t *testing.T) {
	for _, tc := range []struct {
		c    Change
		want string
	}{
		{Change{Config: "fig3", Key: "c=0.1", What: "metric mse", Old: "1", New: "2"}, "fig3 c=0.1: metric mse: 1 → 2"},
		{Change{Config: "fig3", Key: "", What: "claim c1", Old: "PASS", New: "FAIL"}, "fig3: claim c1: PASS → FAIL"},
		{Change{Config: "fig3", Key: "c=1", What: "error", Old: "", New: "boom"}, "fig3 c=1: error: — → boom"},
	} {
		if got := tc.c.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
}

func TestChangesTable(t *testing.T) {
	tb := ChangesTable([]Change{
		{Config: "fig3", Key: "", What: "claim c1", Old: "PASS", New: "FAIL"},
		{Config: "fig3", Key: "c=1", What: "error", Old: "", New: "a|b"},
	})
	var md bytes.Buffer
	if err := tb.RenderMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	doc := parseTablesMarkdown(md.String())
	if len(doc.Tables) != 1 {
		t.Fatalf("rendered:\n%s", md.String())
	}
	want := [][]string{{"fig3", "", "claim c1", "PASS", "FAIL", Dash, Dash, Dash}, {"fig3", "c=1", "error", Dash, "a|b", Dash, Dash, Dash}}
	if got := doc.Tables[0].Rows; !reflect.DeepEqual(got, want) {
		t.Errorf("rows %q, want %q", got, want)
	}
	if got := ChangesTable(nil).Caption; got != "No changes." {
		t.Errorf("empty caption %q", got)
	}
}

// A partial run (a subset of the baseline's configs) compares only what
// it ran; a run the baseline lacks is still reported.
func TestComparePartial(t *testing.T) {
	recs := []Record{{Key: "k=1", Params: map[string]any{"k": 1}, Metrics: map[string]float64{"m": 1}, Status: "ok"}}
	old, now := t.TempDir(), t.TempDir()
	for _, name := range []string{"a", "b", "c"} {
		writeCompareRun(t, filepath.Join(old, name), recs, nil)
	}
	writeCompareRun(t, filepath.Join(now, "b"), recs, nil)
	writeCompareRun(t, filepath.Join(now, "d"), recs, nil)
	full, err := CompareResults(old, now, CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(full) != 3 { // a, c missing in new; d missing in old
		t.Errorf("full comparison: %d changes, want 3: %v", len(full), full)
	}
	part, err := CompareResults(old, now, CompareOptions{Partial: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(part) != 1 || part[0].Config != "d" || part[0].What != "new run" || part[0].Old != "absent" {
		t.Errorf("partial comparison: %v, want only d as a new run", part)
	}
}

// A --with folder compared with the results it sits in: a run the old
// results lack in which every --with estimator was skipped added nothing,
// so it is named as not compared rather than listed as a change; one
// that took an estimator is a new run.
func TestCompareWithSkipped(t *testing.T) {
	recs := []Record{{Key: "k=1", Params: map[string]any{"k": 1}, Metrics: map[string]float64{"m": 1}, Status: "ok"}}
	old, now := t.TempDir(), t.TempDir()
	writeCompareRun(t, filepath.Join(old, "a"), recs, nil)
	writeCompareRun(t, filepath.Join(now, "a"), recs, nil)
	for name, skipped := range map[string]string{"skipped": "kind local-minima needs a pre-image estimator", "added": ""} {
		writeCompareRun(t, filepath.Join(now, name), recs, nil)
		m := Manifest{With: []WithSpec{{Spec: "learned", Estimator: "learned", Label: "Learned", Skipped: skipped}}}
		b, err := m.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if err := WriteFileAtomic(filepath.Join(now, name, "manifest.json"), b); err != nil {
			t.Fatal(err)
		}
	}
	c, err := Compare(old, now, CompareOptions{Partial: true})
	if err != nil {
		t.Fatal(err)
	}
	checkChanges(t, c.Changes, []Change{{Config: "added", Key: "", What: "new run", Old: "absent", New: "present"}})
	if len(c.NotCompared) != 1 || c.NotCompared[0] != "skipped" {
		t.Errorf("not compared %v, want [skipped]", c.NotCompared)
	}
}
