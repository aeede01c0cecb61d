package runner_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

var reportFiles = []string{"records.jsonl", "records.csv", "tables.md", "tables.txt", "claims.json"}

func sameOutputs(t *testing.T, a, b string) {
	t.Helper()
	for _, f := range reportFiles {
		x, err := os.ReadFile(filepath.Join(a, f))
		if err != nil {
			t.Fatal(err)
		}
		y, err := os.ReadFile(filepath.Join(b, f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between %s and %s", f, a, b)
		}
	}
}

func run(t *testing.T, src, out, cache string, o runner.Options) *runner.Summary {
	t.Helper()
	c := parse(t, src)
	c.Outputs.Dir = out
	o.CacheDir = cache
	sum, err := runner.Run(context.Background(), c, o)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// 15 widths × 2 sizes × 2 max_iter = 60 cells, of which the 4 with c = 13
// panic, the 4 with c = 17 fail and the 4 with c = 19 give a NaN metric
// (fakeKind): 12 failures, none of them cached.
const cells, failing = 60, 12

func TestCacheResumesAndNeverKeepsFailures(t *testing.T) {
	cache := t.TempDir()
	first := run(t, fakeConfig, t.TempDir(), cache, runner.Options{Workers: 2})
	if first.Computed != cells || first.Cached != 0 {
		t.Fatalf("first run computed %d, cached %d; want %d, 0", first.Computed, first.Cached, cells)
	}
	second := run(t, fakeConfig, t.TempDir(), cache, runner.Options{Workers: 2})
	// Only the failed cells run again: failures are never cached.
	if second.Computed != failing || second.Cached != cells-failing {
		t.Errorf("second run computed %d, cached %d; want %d, %d", second.Computed, second.Cached, failing, cells-failing)
	}
	forced := run(t, fakeConfig, t.TempDir(), cache, runner.Options{Workers: 2, Force: true})
	if forced.Computed != cells {
		t.Errorf("--force computed %d cells, want %d", forced.Computed, cells)
	}
}

func TestConfigEditRecomputesOnlyAffectedCells(t *testing.T) {
	cache := t.TempDir()
	run(t, fakeConfig, t.TempDir(), cache, runner.Options{Workers: 2})
	// One more width: 2 sizes × 2 max_iter = 4 new cells, plus the 8
	// failing ones that are never cached.
	edited := strings.Replace(fakeConfig, "13, 17, 19]", "13, 17, 19, 23]", 1)
	if s := run(t, edited, t.TempDir(), cache, runner.Options{Workers: 2}); s.Computed != 4+failing {
		t.Errorf("adding a width computed %d cells, want %d", s.Computed, 4+failing)
	}
	// A title or claim edit changes no cell.
	retitled := strings.Replace(edited, "title: fake", "title: renamed", 1)
	if s := run(t, retitled, t.TempDir(), cache, runner.Options{Workers: 2}); s.Computed != failing {
		t.Errorf("a title edit computed %d cells, want %d", s.Computed, failing)
	}
	// A new seed changes every cell.
	reseeded := strings.Replace(edited, "seed: 7", "seed: 8", 1)
	if s := run(t, reseeded, t.TempDir(), cache, runner.Options{Workers: 2}); s.Computed != cells+4 {
		t.Errorf("a seed edit computed %d cells, want %d", s.Computed, cells+4)
	}
}

func TestShardsMergeToTheSameBytes(t *testing.T) {
	single := t.TempDir()
	run(t, fakeConfig, single, t.TempDir(), runner.Options{Workers: 2})

	merged := t.TempDir()
	cache := t.TempDir()
	total := 0
	for i := 0; i < 3; i++ {
		s := run(t, fakeConfig, merged, cache, runner.Options{Workers: 1, Shard: runner.Shard{Index: i, Count: 3}})
		total += s.Cells
	}
	if total != cells {
		t.Fatalf("3 shards ran %d cells, want %d", total, cells)
	}
	if _, err := os.Stat(filepath.Join(merged, "records.jsonl")); err == nil {
		t.Fatal("a shard wrote the full report")
	}
	c := parse(t, fakeConfig)
	c.Outputs.Dir = merged
	if _, err := runner.MergeShards(c, runner.Options{}); err != nil {
		t.Fatal(err)
	}
	sameOutputs(t, single, merged)

	// A missing shard is an error naming what to do.
	if err := os.Remove(filepath.Join(merged, "shards", "shard-1-of-3.jsonl")); err != nil {
		t.Fatal(err)
	}
	if _, err := runner.MergeShards(c, runner.Options{}); err == nil || !strings.Contains(err.Error(), "run the missing shards") {
		t.Errorf("merge with a shard missing: %v", err)
	}
}

// cancelAfter cancels its context once n cells have finished.
type cancelAfter struct {
	fakeKind
	n      int64
	done   atomic.Int64
	cancel context.CancelFunc
}

func (c *cancelAfter) Run(cell *runner.Cell, rec *report.Record) error {
	err := c.fakeKind.Run(cell, rec)
	if c.done.Add(1) == c.n {
		c.cancel()
	}
	return err
}

// cancelKind is the cancel-test kind, registered once, and the instance
// of the test run now using it (go test -count=2 runs it again).
var cancelKind struct {
	sync.Mutex
	once sync.Once
	in   *cancelAfter
}

func TestInterruptedRunResumes(t *testing.T) {
	straight := t.TempDir()
	run(t, fakeConfig, straight, t.TempDir(), runner.Options{Workers: 2})

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cancelKind.Lock()
	defer cancelKind.Unlock()
	cancelKind.in = &cancelAfter{n: 10, cancel: cancel}
	cancelKind.once.Do(func() {
		runner.RegisterKind(runner.Kind{Name: "cancel-test", Start: func(*runner.Env, any) (runner.Instance, error) { return cancelKind.in, nil }})
	})
	src := strings.Replace(fakeConfig, "kind: fake-test", "kind: cancel-test", 1)
	c := parse(t, src)
	resumed := t.TempDir()
	c.Outputs.Dir = resumed
	cache := t.TempDir()
	_, err := runner.Run(ctx, c, runner.Options{Workers: 2, CacheDir: cache})
	var ie *runner.InterruptedError
	if !errors.As(err, &ie) || ie.Done >= cells {
		t.Fatalf("interrupted run returned %v", err)
	}
	if _, err := os.Stat(filepath.Join(resumed, "records.jsonl")); err == nil {
		t.Error("an interrupted run wrote a report")
	}
	s, err := runner.Run(context.Background(), c, runner.Options{Workers: 2, CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	if s.Cached == 0 || s.Computed == cells {
		t.Errorf("resume computed %d and reused %d cells; it should reuse the finished ones", s.Computed, s.Cached)
	}
	// The kind's name differs, so compare everything but the kind-bearing
	// bytes: records and tables depend only on keys and seeds, but for
	// the code fingerprint each record carries (the kind's name is in
	// it).
	code := regexp.MustCompile(`,"code":"[0-9a-f]{16}"`)
	for _, f := range []string{"records.jsonl", "records.csv", "tables.txt"} {
		x, _ := os.ReadFile(filepath.Join(straight, f))
		y, _ := os.ReadFile(filepath.Join(resumed, f))
		if !bytes.Equal(code.ReplaceAll(x, nil), code.ReplaceAll(y, nil)) {
			t.Errorf("%s differs between an uninterrupted and a resumed run", f)
		}
	}
}
