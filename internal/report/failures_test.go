package report_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/report"
)

// TestAddFailure checks how failed rows are counted: by the first line of
// their reason, trimmed, cut at 200 bytes (back to a rune boundary,
// marked "…"), an empty reason named as such, and reasons beyond the eighth
// distinct one counted together, so that a cell of many distinct
// failures keeps a bounded record.
func TestAddFailure(t *testing.T) {
	var r report.Record
	r.AddFailure("pre-image is not finite")
	r.AddFailure("  pre-image is not finite\nat row 7: z = NaN")
	r.AddFailure("")
	long := strings.Repeat("€", 100) // 300 bytes, 3 each: byte 200 is inside the 67th
	r.AddFailure(long)
	want := map[string]int{
		"pre-image is not finite":     2,
		"no reason given":             1,
		strings.Repeat("€", 66) + "…": 1,
	}
	if len(r.Failures) != len(want) {
		t.Fatalf("failures %v, want %d reasons", r.Failures, len(want))
	}
	for k, n := range want {
		if r.Failures[k] != n {
			t.Errorf("%.30q: %d, want %d (all: %v)", k, r.Failures[k], n, r.Failures)
		}
	}
	var m report.Record
	for i := range report.MaxFailureReasons + 3 {
		m.AddFailure(fmt.Sprintf("reason %d", i))
	}
	m.AddFailure("reason 0")
	if len(m.Failures) != report.MaxFailureReasons+1 || m.Failures[report.OtherFailures] != 3 || m.Failures["reason 0"] != 2 {
		t.Errorf("beyond %d reasons: %v", report.MaxFailureReasons, m.Failures)
	}
}

// TestFailureCounts checks the one-line summary of a cell's failed rows:
// the most frequent first, ties by reason, "" without failures.
func TestFailureCounts(t *testing.T) {
	var r report.Record
	if got := r.FailureCounts(); got != "" {
		t.Errorf("no failures: %q", got)
	}
	r.Failures = map[string]int{"b": 2, "a": 2, "c": 5, "d": 1}
	if got, want := r.FailureCounts(), "5 × c; 2 × a; 2 × b; 1 × d"; got != want {
		t.Errorf("FailureCounts = %q, want %q", got, want)
	}
}

// TestCSVFailuresAndParams checks the CSV columns a reader sees: a
// failures column only when some record has failed rows, and every kind
// of parameter value written plainly (lists as JSON).
func TestCSVFailuresAndParams(t *testing.T) {
	plain := []report.Record{{Key: "a", Status: "ok", Params: map[string]any{"s": "x"}}}
	b, err := report.MarshalCSV(plain)
	if err != nil {
		t.Fatal(err)
	}
	if head := strings.SplitN(string(b), "\n", 2)[0]; head != "key,status,error,param.s" {
		t.Errorf("header without failures %q", head)
	}
	recs := []report.Record{
		{Key: "a", Status: "partial", Params: map[string]any{"f": 0.1, "i": 3, "b": true, "l": []any{1, "x"}, "n": nil},
			Failures: map[string]int{"nan": 2}},
		{Key: "b", Status: "ok", Params: map[string]any{"f": 1e-7, "i": -4, "b": false}},
	}
	b, err = report.MarshalCSV(recs)
	if err != nil {
		t.Fatal(err)
	}
	want := "key,status,error,failures,param.b,param.f,param.i,param.l,param.n\n" +
		`a,partial,,2 × nan,true,0.1,3,"[1,""x""]",` + "\n" +
		"b,ok,,,false,1e-07,-4,,\n"
	if string(b) != want {
		t.Errorf("CSV:\n%s\nwant:\n%s", b, want)
	}
}

// TestWriteBaseline checks a baseline refresh of one run: the records
// without their figure arrays (a baseline compares numbers, not
// drawings), claims.json copied, and a stale claims.json removed when the
// run has none.
func TestWriteBaseline(t *testing.T) {
	run, dst := t.TempDir(), filepath.Join(t.TempDir(), "cfg")
	recs := []report.Record{{Key: "a", Status: "ok", Metrics: map[string]float64{"m": 1}, Arrays: map[string][]float64{"x": {1, 2}}}}
	if err := report.WriteJSONL(filepath.Join(run, "records.jsonl"), recs); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(run, "claims.json"), []byte(`[{"id":"c"}]`), 0o644)
	if err := report.WriteBaseline(run, dst, false); err != nil {
		t.Fatal(err)
	}
	back, err := report.ReadJSONL(filepath.Join(dst, "records.jsonl"))
	if err != nil || len(back) != 1 || back[0].Arrays != nil || back[0].Metrics["m"] != 1 {
		t.Errorf("baseline records %+v, %v", back, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dst, "claims.json")); string(b) != `[{"id":"c"}]` {
		t.Errorf("claims.json %q", b)
	}
	os.Remove(filepath.Join(run, "claims.json"))
	if err := report.WriteBaseline(run, dst, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dst, "claims.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a stale claims.json kept: %v", err)
	}
	if err := report.WriteBaseline(t.TempDir(), dst, false); err == nil || !strings.HasPrefix(err.Error(), "report: baseline: ") {
		t.Errorf("a run without records: %v", err)
	}
}

// TestFileSHA256 checks the hash against crypto/sha256 of the same bytes,
// and a missing file's error.
func TestFileSHA256(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	data := []byte("runexp\n")
	os.WriteFile(p, data, 0o644)
	h := sha256.Sum256(data)
	if got, err := report.FileSHA256(p); err != nil || got != hex.EncodeToString(h[:]) {
		t.Errorf("FileSHA256 = %q, %v", got, err)
	}
	if _, err := report.FileSHA256(p + ".missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestMkdirTemp checks a staging folder: new, under parent, named with the
// prefix, its mode 0o777 less the umask (not os.MkdirTemp's 0o700, which
// would hide a published result folder from its group); a parent that
// does not exist is an error.
func TestMkdirTemp(t *testing.T) {
	parent := t.TempDir()
	a, err := report.MkdirTemp(parent, ".stage-")
	if err != nil {
		t.Fatal(err)
	}
	b, err := report.MkdirTemp(parent, ".stage-")
	if err != nil {
		t.Fatal(err)
	}
	if a == b || filepath.Dir(a) != parent || !strings.HasPrefix(filepath.Base(a), ".stage-") {
		t.Errorf("folders %s and %s", a, b)
	}
	probe := filepath.Join(parent, "probe")
	os.Mkdir(probe, 0o777)
	want, _ := os.Stat(probe)
	got, _ := os.Stat(a)
	if got.Mode().Perm() != want.Mode().Perm() {
		t.Errorf("mode %v, want %v (as os.Mkdir under this umask)", got.Mode().Perm(), want.Mode().Perm())
	}
	if _, err := report.MkdirTemp(filepath.Join(parent, "none"), "x"); err == nil || !strings.HasPrefix(err.Error(), "report: ") {
		t.Errorf("missing parent: %v", err)
	}
}

// TestWriteTables checks the pair of files a standalone table goes to,
// both renderings, blank lines between tables.
func TestWriteTables(t *testing.T) {
	dir := t.TempDir()
	a := &report.Table{Title: "A", Header: []string{"x"}, Rows: [][]string{{"1"}}}
	b := &report.Table{Title: "B", Header: []string{"y"}, Rows: [][]string{{"2"}}}
	files, err := report.WriteTables(dir, a, b)
	if err != nil || strings.Join(files, ",") != "table.md,table.txt" {
		t.Fatalf("files %q, %v", files, err)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "table.md"))
	txt, _ := os.ReadFile(filepath.Join(dir, "table.txt"))
	if !strings.HasPrefix(string(md), "### A\n") || !strings.Contains(string(md), "\n\n### B\n") {
		t.Errorf("table.md:\n%s", md)
	}
	if !strings.HasPrefix(string(txt), "A\n") || !strings.Contains(string(txt), "\n\nB\n") {
		t.Errorf("table.txt:\n%s", txt)
	}
}

// TestBaselineRevision: a baseline refresh from a run with a manifest
// records the manifest's revision beside the records, with the records'
// hash; ReadBaselineRevision returns it while the records are those it
// describes and disowns it once they change; a run without a manifest
// leaves no revision.json behind.
func TestBaselineRevision(t *testing.T) {
	root := t.TempDir()
	run, dst := t.TempDir(), filepath.Join(root, "cfg")
	recs := []report.Record{{Key: "a", Status: "ok", Metrics: map[string]float64{"m": 1}}}
	if err := report.WriteJSONL(filepath.Join(run, "records.jsonl"), recs); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(run, "manifest.json"), []byte(`{"revision": "65beb95bece979172c4bb10b5b584e1b0d665c6c", "vcs_modified": true}`), 0o644)
	if err := report.WriteBaseline(run, dst, false); err != nil {
		t.Fatal(err)
	}
	r, err := report.ReadBaselineRevision(root, dst)
	if err != nil || r == nil || r.Revision != "65beb95bece979172c4bb10b5b584e1b0d665c6c" || !r.Modified || len(r.RecordsSHA256) != 64 {
		t.Fatalf("revision %+v, %v", r, err)
	}
	// Records refreshed by a build that does not write revision.json:
	// the old file no longer describes them.
	recs[0].Metrics["m"] = 2
	if err := report.WriteJSONL(filepath.Join(dst, "records.jsonl"), recs); err != nil {
		t.Fatal(err)
	}
	if r, err := report.ReadBaselineRevision(root, dst); err != nil || r != nil {
		t.Errorf("stale revision.json read as %+v, %v", r, err)
	}
	os.Remove(filepath.Join(run, "manifest.json"))
	if err := report.WriteBaseline(run, dst, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dst, report.BaselineRevisionFile)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("revision.json kept for records written without a manifest: %v", err)
	}
}
