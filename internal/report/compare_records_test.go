package report

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/safefs"
)

// TestCompareRecordFiles checks the indexed comparison against what it
// must find whatever the order of the records: nothing for the same
// records in another order (or with another code fingerprint, which is
// provenance, not a result), each moved metric, a cell on one side only,
// a key twice in a file, and a records file linked out of its folder.
func TestCompareRecordFiles(t *testing.T) {
	var recs []Record
	for i := 0; i < 200; i++ {
		recs = append(recs, Record{Key: fmt.Sprintf("k=%d", i), Params: map[string]any{"k": i},
			Metrics: map[string]float64{"m": float64(i)}, Status: StatusOK, Code: "aaaa"})
	}
	write := func(rs []Record) string {
		t.Helper()
		dir := filepath.Join(t.TempDir(), "run")
		if err := WriteJSONL(filepath.Join(dir, "records.jsonl"), rs); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	changes := func(a, b string) []Change {
		t.Helper()
		ch, err := CompareResults(a, b, CompareOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return ch
	}
	old := write(recs)
	rev := make([]Record, len(recs))
	for i, r := range recs {
		r.Code = "bbbb"
		rev[len(recs)-1-i] = r
	}
	if ch := changes(old, write(rev)); len(ch) != 0 {
		t.Errorf("the same records reversed: %v", ch)
	}
	moved := append([]Record(nil), recs[1:]...) // k=0 missing
	moved[10] = Record{Key: moved[10].Key, Params: moved[10].Params, Metrics: map[string]float64{"m": -1}, Status: StatusOK}
	moved = append(moved, Record{Key: "k=new", Status: StatusFailed, Error: "x"})
	got := changes(old, write(moved))
	var lines []string
	for _, c := range got {
		lines = append(lines, c.String())
	}
	want := "run k=0: missing in new: ok → absent|run k=11: metric m: 11 → -1|run k=new: new cell: absent → failed"
	if strings.Join(lines, "|") != want {
		t.Errorf("changes:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.ReplaceAll(want, "|", "\n"))
	}
	dup := write(append(append([]Record(nil), recs...), recs[5]))
	if _, err := CompareResults(old, dup, CompareOptions{}); err == nil || !strings.Contains(err.Error(), `key "k=5" appears twice`) {
		t.Errorf("a key twice: %v", err)
	}
	linked := filepath.Join(t.TempDir(), "run")
	os.MkdirAll(linked, 0o755)
	if err := os.Symlink(filepath.Join(old, "records.jsonl"), filepath.Join(linked, "records.jsonl")); err != nil {
		t.Fatal(err)
	}
	var oe *safefs.OutsideError
	if _, err := CompareResults(old, linked, CompareOptions{}); !errors.As(err, &oe) {
		t.Errorf("records.jsonl linked out of its run: %v, want a refusal", err)
	}
}
