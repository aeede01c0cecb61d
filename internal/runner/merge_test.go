package runner_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// TestMergeRefusals checks the merges refused before anything is
// written, each saying what to do: no shard has run; a shard is missing
// (its cells have no record); the shards were run with different --with
// estimators.
func TestMergeRefusals(t *testing.T) {
	out := t.TempDir()
	shard := func(i, n int, with []report.WithSpec) {
		t.Helper()
		c := parse(t, fakeConfig)
		c.Outputs.Dir = out
		if _, err := runner.Run(context.Background(), c, runner.Options{Workers: 1, NoCache: true, With: with, Shard: runner.Shard{Index: i, Count: n}}); err != nil {
			t.Fatal(err)
		}
	}
	merge := func() error {
		c := parse(t, fakeConfig)
		c.Outputs.Dir = out
		_, err := runner.MergeShards(c, runner.Options{})
		return err
	}
	if err := merge(); err == nil || !strings.Contains(err.Error(), "no shard files in ") || !strings.Contains(err.Error(), "run the shards first") {
		t.Errorf("no shards: %v", err)
	}
	shard(0, 3, nil)
	shard(1, 3, nil)
	// 15 widths × 2 sizes × 2 max_iter = 60 cells; shard 2 of 3 holds 20.
	if err := merge(); err == nil || !strings.Contains(err.Error(), "20 of 60 cells have no shard record") || !strings.Contains(err.Error(), "run the missing shards") {
		t.Errorf("a missing shard: %v", err)
	}
	shard(2, 3, []report.WithSpec{{Spec: "tikhonov", Estimator: "tikhonov", Label: "Tikhonov"}})
	err := merge()
	if err == nil || !strings.Contains(err.Error(), "shards disagree on the added estimators") ||
		!strings.Contains(err.Error(), `--with "tikhonov"`) || !strings.Contains(err.Error(), "no --with") {
		t.Errorf("shards with different --with: %v", err)
	}
	shard(2, 3, nil)
	if err := merge(); err != nil {
		t.Errorf("three shards of one run: %v", err)
	}
}

// TestMergeRefusesForgedShards is issue #46's consistent forgery: a shard
// whose records were edited and whose provenance's records_sha256 was
// updated to match merged with exit 0, a copy of a shard-0 cell's record
// appended to shard 2 silently replacing the real one. Merge now refuses
// a record of a cell the shard was not to compute, a cell recorded
// twice, and a record of no cell of the config, each naming the file and
// line.
func TestMergeRefusesForgedShards(t *testing.T) {
	out := t.TempDir()
	c := parse(t, fakeConfig)
	c.Outputs.Dir = out
	for i := 0; i < 3; i++ {
		if _, err := runner.Run(context.Background(), c, runner.Options{Workers: 1, NoCache: true, Shard: runner.Shard{Index: i, Count: 3}}); err != nil {
			t.Fatal(err)
		}
	}
	dir := runner.ResultDir(c, out)
	shard := func(i int) string { return filepath.Join(dir, "shards", fmt.Sprintf("shard-%d-of-3.jsonl", i)) }
	orig := map[int][]byte{}
	for i := 0; i < 3; i++ {
		b, err := os.ReadFile(shard(i))
		if err != nil {
			t.Fatal(err)
		}
		orig[i] = b
	}
	// forge rewrites shard i's records and updates its provenance to
	// match, as a deliberate edit would.
	forge := func(i int, recs []byte) {
		t.Helper()
		if err := os.WriteFile(shard(i), recs, 0o644); err != nil {
			t.Fatal(err)
		}
		pf := strings.TrimSuffix(shard(i), ".jsonl") + ".provenance.json"
		b, err := os.ReadFile(pf)
		if err != nil {
			t.Fatal(err)
		}
		var p map[string]any
		if err := json.Unmarshal(b, &p); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(recs)
		p["records_sha256"] = hex.EncodeToString(sum[:])
		b, _ = json.Marshal(p)
		if err := os.WriteFile(pf, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	merge := func() error {
		_, err := runner.MergeShards(c, runner.Options{})
		return err
	}
	first := strings.SplitAfter(string(orig[0]), "\n")[0]
	var rec report.Record
	if err := json.Unmarshal([]byte(first), &rec); err != nil {
		t.Fatal(err)
	}
	rec.Metrics["forged"] = 1000
	forgedLine, _ := json.Marshal(rec)
	lines := strings.Count(string(orig[2]), "\n")
	for _, tc := range []struct {
		name  string
		shard int
		recs  string
		want  string
	}{
		{"a shard-0 cell copied into shard 2", 2, string(orig[2]) + string(forgedLine) + "\n",
			fmt.Sprintf("shard-2-of-3.jsonl:%d: cell %q is shard 0's of 3, not this shard's", lines+1, rec.Key)},
		{"a cell twice in its own shard", 0, string(orig[0]) + string(forgedLine) + "\n",
			fmt.Sprintf("is recorded a second time (first at %s:1)", shard(0))},
		{"a cell of no config's grid", 1, string(orig[1]) + strings.Replace(string(forgedLine), rec.Key, "c=12345", 1) + "\n",
			`a record of cell "c=12345", which is not a cell of this config's grid`},
	} {
		forge(tc.shard, []byte(tc.recs))
		if err := merge(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want a refusal saying %q", tc.name, err, tc.want)
		}
		if _, err := os.Stat(filepath.Join(dir, "records.jsonl")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: a refused merge wrote records.jsonl", tc.name)
		}
		forge(tc.shard, orig[tc.shard])
	}
	if err := merge(); err != nil {
		t.Errorf("the shards as written: %v", err)
	}
}
