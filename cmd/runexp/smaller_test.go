package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestStrayCacheTempsRemoved: a temporary file of a cache entry older
// than the run (left by a run killed while writing it) is removed at the
// next start; one being written now by a run sharing the cache is not
// (issue #38: a SIGKILL left .json.tmp-* files no run ever removed).
func TestStrayCacheTempsRemoved(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "nap.yaml")
	os.WriteFile(cfg, []byte("title: t\npaper: p\nkind: nap-test\nseed: 5\ndataset: {name: two-rings}\nmodel: {kernel: gaussian, c: [1]}\n"), 0o644)
	out := filepath.Join(dir, "out")
	sub := filepath.Join(out, ".cache", "cells", "ab")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	stray := filepath.Join(sub, ".ab12.json.tmp-3k2j")
	fresh := filepath.Join(sub, ".ab34.json.tmp-9x8y")
	os.WriteFile(stray, []byte(`{"half":`), 0o644)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(stray, old, old)
	os.WriteFile(fresh, []byte(`{"half":`), 0o644)
	if code, _, stderr := runCLI("--out", out, "-q", cfg); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(stray); err == nil {
		t.Errorf("a stray temporary file an hour old is still in the cache")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a temporary file newer than the run was removed: %v", err)
	}
}
