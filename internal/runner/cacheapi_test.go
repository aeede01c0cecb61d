package runner_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// key is a cache key of cell c (its other fields are what NewCellKey
// fills in from a config; here they only need to differ).
func key(c string) runner.CellKey {
	return runner.CellKey{Format: "test", Kind: "k", Dataset: "d", Backend: "gonum", Context: "ctx", Cell: c}
}

func okRecord(cell string, v float64) report.Record {
	return report.Record{Key: cell, Params: map[string]any{"c": 1}, Status: report.StatusOK, Metrics: map[string]float64{"v": v}}
}

// noData is the data-sum function of a run that read no file.
func noData(string) (string, bool) { return "", false }

// TestCachePutGet checks the cache's contract through its API: a record
// put is got back as it was; a failed record is never stored (rerunning
// retries it); a key never put is a plain miss; Delete removes an entry
// and deleting twice is no error; the time put beside a record is read
// back whether or not the entry is still usable.
func TestCachePutGet(t *testing.T) {
	c := &runner.Cache{Dir: filepath.Join(t.TempDir(), "cache")}
	k := key("c=1")
	if _, ok, rej := c.Get(k, noData); ok || rej != nil {
		t.Fatalf("empty cache: ok %t, rejected %v", ok, rej)
	}
	want := okRecord("c=1", 2.5)
	if err := c.PutTimed(k, nil, want, &runner.CellTime{Key: "c=1", Seconds: 3, CPUSeconds: 5}); err != nil {
		t.Fatal(err)
	}
	got, ok, rej := c.Get(k, noData)
	if !ok || rej != nil || got.Key != want.Key || got.Metrics["v"] != 2.5 || got.Status != report.StatusOK {
		t.Errorf("Get: %+v, ok %t, rejected %v", got, ok, rej)
	}
	if tm, ok := c.RecordedTime(k); !ok || tm.Seconds != 3 || tm.CPUSeconds != 5 || tm.Cost() != 5 {
		t.Errorf("recorded time %+v, %t; want 3 s wall, 5 s CPU, cost 5", tm, ok)
	}
	if _, ok := c.RecordedTime(key("c=2")); ok {
		t.Error("a time for a cell never put")
	}
	// The checksum leaves the time out, so a time no run could have
	// measured is not read back: the record still serves, the time does
	// not reach the pool's order or a prediction.
	for _, bad := range []runner.CellTime{{Seconds: 1e300}, {CPUSeconds: -1}, {Seconds: 1, ParallelCPUSeconds: 1e8}} {
		kb := key("c=absurd")
		bad.Key = "c=absurd"
		if err := c.PutTimed(kb, nil, okRecord("c=absurd", 1), &bad); err != nil {
			t.Fatal(err)
		}
		if tm, ok := c.RecordedTime(kb); ok {
			t.Errorf("recorded time %+v read back", tm)
		}
		if _, ok, rej := c.Get(kb, noData); !ok || rej != nil {
			t.Errorf("entry with an absurd time: ok %t, rejected %v; want its record served", ok, rej)
		}
	}

	failed := okRecord("c=2", 0)
	failed.Status, failed.Error = report.StatusFailed, "singular"
	if err := c.Put(key("c=2"), nil, failed); err != nil {
		t.Fatal(err)
	}
	if _, ok, rej := c.Get(key("c=2"), noData); ok || rej != nil {
		t.Errorf("a failed record was cached: ok %t, rejected %v", ok, rej)
	}

	if err := c.Delete(k); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := c.Get(k, noData); ok {
		t.Error("an entry survived Delete")
	}
	if err := c.Delete(k); err != nil {
		t.Errorf("deleting a missing entry: %v", err)
	}
}

// TestCacheStaleData checks that an entry computed on a data file is used
// only while the data root holds the same file: another checksum, or no
// such file, makes it stale (recomputed, its reason naming the file),
// never used.
func TestCacheStaleData(t *testing.T) {
	c := &runner.Cache{Dir: t.TempDir()}
	k := key("c=1")
	data := []report.FileSum{{Path: "usps/train.gz", SHA256: strings.Repeat("ab", 32)}}
	if err := c.Put(k, data, okRecord("c=1", 1)); err != nil {
		t.Fatal(err)
	}
	same := func(p string) (string, bool) { return strings.Repeat("ab", 32), p == "usps/train.gz" }
	if _, ok, rej := c.Get(k, same); !ok || rej != nil {
		t.Fatalf("same data: ok %t, rejected %v", ok, rej)
	}
	for name, sum := range map[string]func(string) (string, bool){
		"other checksum": func(string) (string, bool) { return strings.Repeat("cd", 32), true },
		"file gone":      noData,
	} {
		_, ok, rej := c.Get(k, sum)
		if ok || rej == nil || !rej.Stale || !strings.Contains(rej.Reason, "computed on usps/train.gz with SHA-256 abababababab") {
			t.Errorf("%s: ok %t, rejected %+v", name, ok, rej)
		}
	}
}

// TestCacheRejectsDamage checks entries that must never be used: a file
// that is not JSON, and a record stored under another cell's key (a
// misplaced file), each with a reason and not stale.
func TestCacheRejectsDamage(t *testing.T) {
	dir := t.TempDir()
	c := &runner.Cache{Dir: dir}
	if err := c.Put(key("c=1"), nil, okRecord("c=1", 1)); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "cells", "*", "*.json"))
	if len(files) != 1 {
		t.Fatalf("entries %v", files)
	}
	// The entry of c=1 copied to where c=2's belongs.
	k2 := key("c=2")
	dst := filepath.Join(dir, "cells", k2.Hash()[:2], k2.Hash()+".json")
	os.MkdirAll(filepath.Dir(dst), 0o755)
	b, _ := os.ReadFile(files[0])
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok, rej := c.Get(k2, noData); ok || rej == nil || rej.Stale || !strings.Contains(rej.Reason, "another cell's record") {
		t.Errorf("misplaced entry: ok %t, rejected %+v", ok, rej)
	}
	if err := os.WriteFile(files[0], []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok, rej := c.Get(key("c=1"), noData); ok || rej == nil || rej.Stale || !strings.HasPrefix(rej.Reason, "damaged entry") {
		t.Errorf("damaged entry: ok %t, rejected %+v", ok, rej)
	}
	if _, ok := c.RecordedTime(key("c=1")); ok {
		t.Error("a time read from a damaged entry")
	}
}

// TestCacheRefusesLinks checks that the cache follows no symbolic link
// below its folder: a sound entry reachable only through a link (another
// cache's) is neither read nor timed, and Put refuses to write through it.
func TestCacheRefusesLinks(t *testing.T) {
	k := key("c=1")
	other := &runner.Cache{Dir: t.TempDir()}
	if err := other.PutTimed(k, nil, okRecord("c=1", 1), &runner.CellTime{Seconds: 1}); err != nil {
		t.Fatal(err)
	}
	before, _ := filepath.Glob(filepath.Join(other.Dir, "cells", "*", "*.json"))
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(other.Dir, "cells"), filepath.Join(dir, "cells")); err != nil {
		t.Fatal(err)
	}
	c := &runner.Cache{Dir: dir}
	if _, ok, rej := c.Get(k, noData); ok || rej != nil {
		t.Errorf("Get through a link: ok %t, rejected %v", ok, rej)
	}
	if _, ok := c.RecordedTime(k); ok {
		t.Error("RecordedTime read through a link")
	}
	if err := c.Put(key("c=2"), nil, okRecord("c=2", 2)); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("Put through a link: %v", err)
	}
	if after, _ := filepath.Glob(filepath.Join(other.Dir, "cells", "*", "*.json")); len(after) != len(before) {
		t.Errorf("written through the link: %d entries, were %d", len(after), len(before))
	}
}

// TestCellKeyHash checks that a key's hash changes with every field
// (each names something a result depends on) and not otherwise.
func TestCellKeyHash(t *testing.T) {
	base := key("c=1")
	if base.Hash() != key("c=1").Hash() || len(base.Hash()) != 64 {
		t.Fatalf("hash %q not stable", base.Hash())
	}
	seen := map[string]string{base.Hash(): "base"}
	for name, edit := range map[string]func(*runner.CellKey){
		"format": func(k *runner.CellKey) { k.Format = "x" }, "kind": func(k *runner.CellKey) { k.Kind = "x" },
		"kind version": func(k *runner.CellKey) { k.KindVersion = "2" }, "kind code": func(k *runner.CellKey) { k.KindCode = "x" },
		"dataset": func(k *runner.CellKey) { k.Dataset = "x" }, "dataset code": func(k *runner.CellKey) { k.DatasetCode = "x" },
		"method": func(k *runner.CellKey) { k.Method = "x" }, "method version": func(k *runner.CellKey) { k.MethodVersion = "2" },
		"method code": func(k *runner.CellKey) { k.MethodCode = "x" }, "external": func(k *runner.CellKey) { k.MethodExternal = "x" },
		"backend": func(k *runner.CellKey) { k.Backend = "openblas" }, "context": func(k *runner.CellKey) { k.Context = "x" },
		"cell": func(k *runner.CellKey) { k.Cell = "c=2" },
	} {
		k := base
		edit(&k)
		if prev, dup := seen[k.Hash()]; dup {
			t.Errorf("%s: same hash as %s", name, prev)
		}
		seen[k.Hash()] = name
	}
}
