package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompareRefusals checks each refusal of Compare by its whole message
// (the roots' temporary prefix replaced by ROOT): a file where a folder
// was wanted, records.jsonl that is no regular file at a run's top or
// in a results root, a run against a root (with the path that would
// work), duplicate claim ids, and damaged records in a root's run.
func TestCompareRefusals(t *testing.T) {
	for _, tc := range []struct {
		name     string
		setup    func(t *testing.T, root string)
		old, new string // below root
		want     string
	}{
		{
			name: "a file, not a folder",
			setup: func(t *testing.T, root string) {
				writeCompareRun(t, filepath.Join(root, "run"), baseRecords(), nil)
			},
			old: "run", new: "run/records.jsonl",
			want: "report: compare: ROOT/run/records.jsonl is not a directory",
		},
		{
			name: "records.jsonl a folder",
			setup: func(t *testing.T, root string) {
				writeCompareRun(t, filepath.Join(root, "run"), baseRecords(), nil)
				mkdir(t, filepath.Join(root, "odd", "records.jsonl"))
			},
			old: "run", new: "odd",
			want: "report: compare: ROOT/odd/records.jsonl is not a regular file (a directory); runexp reads only regular files",
		},
		{
			name: "records.jsonl a link to a device, in a root",
			setup: func(t *testing.T, root string) {
				writeCompareRun(t, filepath.Join(root, "a", "fig"), baseRecords(), nil)
				mkdir(t, filepath.Join(root, "b", "fig"))
				if err := os.Symlink("/dev/null", filepath.Join(root, "b", "fig", "records.jsonl")); err != nil {
					t.Fatal(err)
				}
			},
			old: "a", new: "b",
			want: "report: compare: ROOT/b/fig/records.jsonl is not a regular file (a character device); runexp reads only regular files",
		},
		{
			name: "a run against a root",
			setup: func(t *testing.T, root string) {
				writeCompareRun(t, filepath.Join(root, "old", "fig"), baseRecords(), nil)
				writeCompareRun(t, filepath.Join(root, "new", "fig"), baseRecords(), nil)
			},
			old: "new", new: "old/fig",
			want: "report: compare: ROOT/old/fig is a run directory but ROOT/new is a results root; compare ROOT/old/fig with ROOT/new/fig",
		},
		{
			name: "a claim twice",
			setup: func(t *testing.T, root string) {
				writeCompareRun(t, filepath.Join(root, "a"), baseRecords(), baseClaims())
				writeCompareRun(t, filepath.Join(root, "b"), baseRecords(), append(baseClaims(), baseClaims()[1]))
			},
			old: "a", new: "b",
			want: `report: ROOT/b/claims.json: claim "c2" appears twice`,
		},
		{
			name: "damaged records in a root's run",
			setup: func(t *testing.T, root string) {
				writeCompareRun(t, filepath.Join(root, "a", "fig"), baseRecords(), nil)
				mkdir(t, filepath.Join(root, "b", "fig"))
				if err := os.WriteFile(filepath.Join(root, "b", "fig", "records.jsonl"), []byte("{\"key\": 1}\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			},
			old: "a", new: "b",
			want: "report: ROOT/b/fig/records.jsonl:1: json: cannot unmarshal number into Go struct field recordJSON.key of type string",
		},
	} {
		root := t.TempDir()
		tc.setup(t, root)
		_, err := Compare(filepath.Join(root, tc.old), filepath.Join(root, tc.new), CompareOptions{})
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		got := strings.ReplaceAll(err.Error(), root, "ROOT")
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// TestCompareAddedNothing checks which runs only the new root has are set
// aside as adding nothing: those whose manifest lists --with estimators
// all skipped; a manifest missing, unreadable as JSON, without --with or
// with one estimator taken makes the run a new one.
func TestCompareAddedNothing(t *testing.T) {
	recs := baseRecords()
	old, now := t.TempDir(), t.TempDir()
	manifests := map[string]string{
		"none":        "",
		"broken":      "{",
		"no-with":     `{"with": []}`,
		"one-taken":   `{"with": [{"spec": "a", "skipped": "needs X0"}, {"spec": "b"}]}`,
		"all-skipped": `{"with": [{"spec": "a", "skipped": "needs X0"}, {"spec": "b", "skipped": "linear only"}]}`,
	}
	for name, m := range manifests {
		dir := filepath.Join(now, name)
		writeCompareRun(t, dir, recs, nil)
		if m != "" {
			if err := os.WriteFile(filepath.Join(dir, "manifest.json"), []byte(m), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	c, err := Compare(old, now, CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkChanges(t, c.Changes, []Change{
		{Config: "broken", Key: "", What: "new run", Old: "absent", New: "present"},
		{Config: "no-with", Key: "", What: "new run", Old: "absent", New: "present"},
		{Config: "none", Key: "", What: "new run", Old: "absent", New: "present"},
		{Config: "one-taken", Key: "", What: "new run", Old: "absent", New: "present"},
	})
	if len(c.NotCompared) != 1 || c.NotCompared[0] != "all-skipped" {
		t.Errorf("not compared %q, want [all-skipped]", c.NotCompared)
	}
}

func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}
