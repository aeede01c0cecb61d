package runner_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// fileKind reads one data file in Start and records, per cell, its byte
// sum plus the cell's c: the record depends on the file's content.
type fileKind struct{ sum float64 }

func (k fileKind) Run(cell *runner.Cell, rec *report.Record) error {
	c, _ := cell.Params["c"].(float64)
	rec.Metrics["v"] = k.sum + c
	return nil
}

func (fileKind) Report(*runner.Output, []report.Record) error { return nil }

func init() {
	runner.RegisterKind(runner.Kind{
		Name: "file-test",
		Doc:  "reads data/x.txt",
		Start: func(env *runner.Env, _ any) (runner.Instance, error) {
			d, err := env.LoadData()
			if err != nil {
				return nil, err
			}
			return fileKind{sum: d.Train.X.At(0, 0)}, nil
		},
	})
	runner.RegisterDataset(runner.DatasetSpec{
		Name:      "file-test",
		NeedsRoot: true,
		Load: func(env *runner.Env, root *datasets.Root, _ any) (*runner.Data, error) {
			b, err := root.ReadFile("x.txt")
			if err != nil {
				return nil, err
			}
			s := 0.0
			for _, c := range b {
				s += float64(c)
			}
			x, _ := datasetsSet(s)
			return &runner.Data{Train: x}, nil
		},
	})
}

const fileConfig = `title: file
paper: none
kind: file-test
seed: 1
dataset:
  name: file-test
model:
  kernel: gaussian
  c: [1, 2, 3]
claims:
  - id: positive
    check: {type: value, metric: v, where: {c: 1}, op: ">", value: 0}
`

// writeRoot writes a data root holding x.txt with content and a matching
// SHA256SUMS.
func writeRoot(t *testing.T, dir, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "x.txt"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	h := sha256.Sum256([]byte(content))
	sums := hex.EncodeToString(h[:]) + "  ./x.txt\n"
	if err := os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte(sums), 0o644); err != nil {
		t.Fatal(err)
	}
}

func runFile(t *testing.T, data, out, cache string, log *slog.Logger) *runner.Summary {
	t.Helper()
	c := parse(t, fileConfig)
	c.Outputs.Dir = out
	s, err := runner.Run(context.Background(), c, runner.Options{DataDir: data, CacheDir: cache, Workers: 1, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A data file replaced (its checksum updated in SHA256SUMS) and rerun into
// the same cache recomputes every cell that read it (issue 14).
func TestCacheRecomputesOnDataChange(t *testing.T) {
	data, out, cache := t.TempDir(), t.TempDir(), t.TempDir()
	writeRoot(t, data, "abc")
	if s := runFile(t, data, out, cache, nil); s.Computed != 3 {
		t.Fatalf("first run computed %d cells, want 3", s.Computed)
	}
	if s := runFile(t, data, out, cache, nil); s.Cached != 3 {
		t.Fatalf("unchanged rerun reused %d cells, want 3", s.Cached)
	}
	writeRoot(t, data, "abd")
	s := runFile(t, data, out, cache, nil)
	if s.Computed != 3 || s.CacheRejected != 3 {
		t.Fatalf("after replacing the data: computed %d (rejected %d), want 3 (3)", s.Computed, s.CacheRejected)
	}
	recs, err := report.ReadJSONL(filepath.Join(out, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	// 'a'+'b'+'d' = 97+98+100 = 295, plus c = 1.
	if got := recs[0].Metrics["v"]; got != 296 {
		t.Errorf("cell c=1 after the data change: v = %v, want 296 (computed on the new file)", got)
	}
}

// cacheFiles returns the cache's entry files, sorted.
func cacheFiles(t *testing.T, cache string) []string {
	t.Helper()
	fs, err := filepath.Glob(filepath.Join(cache, "cells", "*", "*.json"))
	if err != nil || len(fs) == 0 {
		t.Fatalf("no cache entries in %s (%v)", cache, err)
	}
	return fs
}

// An entry whose content was edited, or another cell's entry placed under
// a key, is recomputed with a warning, never used (issue 14).
func TestCacheRejectsEditedAndMisplacedEntries(t *testing.T) {
	data, out, cache := t.TempDir(), t.TempDir(), t.TempDir()
	writeRoot(t, data, "abc")
	runFile(t, data, out, cache, nil)
	want, err := os.ReadFile(filepath.Join(out, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	files := cacheFiles(t, cache)
	if len(files) != 3 {
		t.Fatalf("%d cache entries, want 3", len(files))
	}

	// One number edited inside an entry (the checksum left as it was).
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	num := regexp.MustCompile(`"v":(\d+)`)
	edited := num.ReplaceAllString(string(b), `"v":1000$1`)
	if edited == string(b) {
		t.Fatalf("no metric found in %s", b)
	}
	if err := os.WriteFile(files[0], []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	s := runFile(t, data, out, cache, log)
	if s.Computed != 1 || s.CacheRejected != 1 {
		t.Errorf("edited entry: computed %d, rejected %d; want 1, 1", s.Computed, s.CacheRejected)
	}
	if !strings.Contains(logs.String(), "level=WARN") || !strings.Contains(logs.String(), "checksum mismatch") {
		t.Errorf("no warning for the edited entry; log:\n%s", logs.String())
	}
	got, _ := os.ReadFile(filepath.Join(out, "records.jsonl"))
	if !bytes.Equal(got, want) {
		t.Error("the edited number reached the records")
	}

	// Another cell's entry (intact, with its own checksum) under a key.
	other, err := os.ReadFile(files[1])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(files[2], other, 0o644); err != nil {
		t.Fatal(err)
	}
	logs.Reset()
	s = runFile(t, data, out, cache, log)
	if s.Computed != 1 || s.CacheRejected != 1 || !strings.Contains(logs.String(), "another cell's record") {
		t.Errorf("misplaced entry: computed %d, rejected %d; log:\n%s", s.Computed, s.CacheRejected, logs.String())
	}
	got, _ = os.ReadFile(filepath.Join(out, "records.jsonl"))
	if !bytes.Equal(got, want) {
		t.Error("another cell's record reached the records")
	}
	if s := runFile(t, data, out, cache, nil); s.Cached != 3 {
		t.Errorf("after the repairs, a rerun reused %d cells, want 3", s.Cached)
	}
}

// Shards of two different configs, or from before a config edit, are
// refused by merge, saying which (issue 14).
func TestMergeRefusesForeignShards(t *testing.T) {
	out, cache := t.TempDir(), t.TempDir()
	shard := func(src string, i int) {
		c := parse(t, src)
		c.Outputs.Dir = out
		if _, err := runner.Run(context.Background(), c, runner.Options{Workers: 1, CacheDir: cache, Shard: runner.Shard{Index: i, Count: 2}}); err != nil {
			t.Fatal(err)
		}
	}
	merge := func(src string) error {
		c := parse(t, src)
		c.Outputs.Dir = out
		_, err := runner.MergeShards(c, runner.Options{})
		return err
	}
	other := strings.Replace(fakeConfig, "seed: 7", "seed: 8", 1)
	shard(fakeConfig, 0)
	shard(other, 1)
	err := merge(fakeConfig)
	if err == nil || !strings.Contains(err.Error(), "shards disagree on the config") || !strings.Contains(err.Error(), "shard-1-of-2") {
		t.Errorf("shards of two configs: merge error %v", err)
	}

	// Both shards of one config, then the config edited (a title edit
	// changes no cell, but the merged report would carry the new
	// config's hash over records of the old one).
	shard(fakeConfig, 1)
	if err := merge(fakeConfig); err != nil {
		t.Fatalf("shards of one config: %v", err)
	}
	edited := strings.Replace(fakeConfig, "title: fake", "title: edited", 1)
	if err := merge(edited); err == nil || !strings.Contains(err.Error(), "the config changed since") {
		t.Errorf("shards from before a config edit: merge error %v", err)
	}

	// A shard's records replaced behind its provenance's back.
	f := filepath.Join(out, "shards", "shard-0-of-2.jsonl")
	b, _ := os.ReadFile(f)
	if err := os.WriteFile(f, append(b, b[:bytes.IndexByte(b, '\n')+1]...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := merge(fakeConfig); err == nil || !strings.Contains(err.Error(), "does not hold the records") {
		t.Errorf("edited shard records: merge error %v", err)
	}
	// A shard without provenance (an older runexp).
	if err := os.Remove(filepath.Join(out, "shards", "shard-0-of-2.provenance.json")); err != nil {
		t.Fatal(err)
	}
	if err := merge(fakeConfig); err == nil || !strings.Contains(err.Error(), "has no provenance") {
		t.Errorf("shard without provenance: merge error %v", err)
	}
}

func datasetsSet(v float64) (*datasets.Set, error) {
	return &datasets.Set{Name: "x", X: mat.NewDense(1, 1, []float64{v})}, nil
}

// An external estimator's cells are keyed on its script's content too
// (methods.ExternalFingerprint): code outside the module.
func TestCellKeyCoversExternalScripts(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "est.py")
	if err := os.WriteFile(script, []byte("print(1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(fakeConfig, "  - name: mika\n    params:\n      max_iter: [10, 20]\n",
		"  - name: external\n    params: {command: \"python3 "+script+"\"}\n", 1)
	before := firstCellKey(t, src)
	if before.MethodExternal == "" {
		t.Fatal("no external fingerprint in the key")
	}
	if err := os.WriteFile(script, []byte("print(2)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if after := firstCellKey(t, src); after.MethodExternal == before.MethodExternal || after.Hash() == before.Hash() {
		t.Error("editing the external script kept the cell's key")
	}
}

// A cell computed by the other build (pure Go or OpenBLAS: the same
// embedded sources, so the same code fingerprints, but other arithmetic)
// is never served: the key names the backend. The entries are re-signed
// under a key that differs only in Backend, which are sound in every other
// respect: re-signed with the key unchanged, they are all reused.
func TestCacheKeepsBuildsApart(t *testing.T) {
	data, out, cache := t.TempDir(), t.TempDir(), t.TempDir()
	writeRoot(t, data, "abc")
	runFile(t, data, out, cache, nil)
	if key := firstCellKey(t, fileConfig); key.Backend == "" {
		t.Fatal("the cell key names no backend")
	}

	resign := func(backend string) string {
		dir := t.TempDir()
		for _, f := range cacheFiles(t, cache) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var e struct {
				Key    runner.CellKey   `json:"key"`
				Data   []report.FileSum `json:"data"`
				Record report.Record    `json:"record"`
			}
			if err := json.Unmarshal(b, &e); err != nil {
				t.Fatal(err)
			}
			if backend != "" {
				e.Key.Backend = backend
			}
			if err := (&runner.Cache{Dir: dir}).Put(e.Key, e.Data, e.Record); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	if s := runFile(t, data, out, resign(""), nil); s.Cached != 3 || s.Computed != 0 {
		t.Fatalf("re-signed with the key unchanged: cached %d, computed %d; want 3, 0", s.Cached, s.Computed)
	}
	// The other builds, and "openblas", the name of OpenBLAS entries
	// from before one thread per call was the rule, whose last bits
	// depended on the cells running at once.
	own := firstCellKey(t, fileConfig).Backend
	for _, other := range []string{"gonum", "openblas", "openblas-1-thread", "openblas-2-threads"} {
		if other == own {
			continue
		}
		if s := runFile(t, data, out, resign(other), nil); s.Cached != 0 || s.Computed != 3 {
			t.Errorf("entries of the %s build: cached %d, computed %d; want 0, 3", other, s.Cached, s.Computed)
		}
	}
}

// firstCellKey returns the key of the first cell of the config src.
func firstCellKey(t *testing.T, src string) runner.CellKey {
	t.Helper()
	c := parse(t, src)
	plan, err := runner.Validate(c)
	if err != nil {
		t.Fatal(err)
	}
	k, err := runner.NewCellKey(c, plan.Kind, plan.Cells[0])
	if err != nil {
		t.Fatal(err)
	}
	return k
}
