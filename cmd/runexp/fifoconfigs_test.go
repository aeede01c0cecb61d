//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/runexp/runexp/internal/suite"
)

// runWithin runs the CLI with args and fails the test if it has not
// returned within d: a command that opens a named pipe for reading
// waits for a writer forever.
func runWithin(t *testing.T, d time.Duration, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	type result struct {
		code           int
		stdout, stderr string
	}
	done := make(chan result, 1)
	go func() {
		c, o, e := runCLI(args...)
		done <- result{c, o, e}
	}()
	select {
	case r := <-done:
		return r.code, r.stdout, r.stderr
	case <-time.After(d):
		t.Fatalf("%q still running after %v (blocked opening a named pipe?)", args, d)
		return 0, "", ""
	}
}

// TestFIFOConfigsRefused: a named pipe among the configs (evil.yaml) or
// among the paper values is never opened for reading, by any command
// that reads configs or paper values: each answers within a second,
// naming the pipe, where before every one of them blocked in open()
// forever. list configs lists it as unreadable and goes on.
func TestFIFOConfigsRefused(t *testing.T) {
	pv, err := suite.FindPaperValues("../../configs", "")
	if err != nil {
		t.Skipf("no paper values beside the checkout: %v", err)
	}
	dir := t.TempDir()
	cfgs := filepath.Join(dir, "configs")
	os.MkdirAll(cfgs, 0o755)
	src, err := os.ReadFile("../../configs/abrahamsen-hansen-fig3.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// The copy cites its paper values from beside the checkout.
	if err := os.WriteFile(filepath.Join(cfgs, "abrahamsen-hansen-fig3.yaml"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(cfgs, "evil.yaml"), 0o644); err != nil {
		t.Skip(err)
	}
	results := filepath.Join(dir, "results")
	os.MkdirAll(results, 0o755)
	const limit = 5 * time.Second // a second each on an idle machine; CI's two cores are shared
	for _, args := range [][]string{
		{"validate", "--configs", cfgs, "evil"},
		{"validate", filepath.Join(cfgs, "evil.yaml")},
		{"status", "--configs", cfgs, "--out", results, "evil"},
		{"run", "--dry-run", "--configs", cfgs, "--out", results, "evil"},
		{"suite", "--dry-run", "--configs", cfgs, "--out", results},
		{"scoreboard", "--configs", cfgs, "--paper-values", pv, results},
		{"report", "--configs", cfgs, "--paper-values", pv, "--results", results, "all"},
	} {
		start := time.Now()
		code, _, stderr := runWithin(t, limit, args...)
		if code != exitUsage || !strings.Contains(stderr, "evil.yaml is not a regular file (a named pipe)") {
			t.Errorf("%q: exit %d, stderr %q; want %d naming the pipe", args, code, stderr, exitUsage)
		}
		t.Logf("%q: %v", args, time.Since(start).Round(time.Millisecond))
	}
	code, stdout, stderr := runWithin(t, limit, "list", "configs", "--configs", cfgs)
	if code != exitOK || !strings.Contains(stdout, "evil.yaml is not a regular file (a named pipe)") || !strings.Contains(stdout, "abrahamsen-hansen-fig3") {
		t.Errorf("list configs: exit %d, stdout %q, stderr %q; want the pipe listed as unreadable beside the config", code, stdout, stderr)
	}

	// A named pipe in place of a paper's values.
	pvDir := filepath.Join(dir, "paper-values")
	os.MkdirAll(pvDir, 0o755)
	ents, err := os.ReadDir(pv)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if b, err := os.ReadFile(filepath.Join(pv, e.Name())); err == nil {
			os.WriteFile(filepath.Join(pvDir, e.Name()), b, 0o644)
		}
	}
	pipe := filepath.Join(pvDir, "abrahamsen-hansen-regularized-preimage.yaml")
	os.Remove(pipe)
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skip(err)
	}
	os.Remove(filepath.Join(cfgs, "evil.yaml"))
	for _, args := range [][]string{
		{"validate", "--paper-values", pvDir, filepath.Join(cfgs, "abrahamsen-hansen-fig3.yaml")},
		{"scoreboard", "--configs", cfgs, "--paper-values", pvDir, results},
		{"report", "--configs", cfgs, "--paper-values", pvDir, "--results", results, "all"},
	} {
		code, _, stderr := runWithin(t, limit, args...)
		if code != exitUsage || !strings.Contains(stderr, "abrahamsen-hansen-regularized-preimage.yaml is not a regular file (a named pipe)") {
			t.Errorf("%q: exit %d, stderr %q; want %d naming the pipe", args, code, stderr, exitUsage)
		}
	}
}

// TestCacheNotAFolder: a --cache that is there but no folder (a named
// pipe, a file) is refused by a dry run as by the run, with the same
// words, before any cell; status used to predict 7 cells to compute for
// a run that then stopped on a raw lstat error.
func TestCacheNotAFolder(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	dir := t.TempDir()
	pipe := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skip(err)
	}
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("x"), 0o644)
	const cfg = "../../configs/abrahamsen-hansen-fig3.yaml"
	for cache, kind := range map[string]string{pipe: "a named pipe", file: "a regular file"} {
		want := "cell cache: " + cache + " is " + kind + ", not a folder"
		for _, args := range [][]string{
			{"status", "--cache", cache, "--out", dir, cfg},
			{"run", "--dry-run", "--cache", cache, "--out", dir, cfg},
			{"suite", "--dry-run", "--configs", "../../configs", "--cache", cache, "--out", dir, "--only", "abrahamsen-hansen-fig3"},
			{"run", "-q", "--cache", cache, "--out", dir, cfg},
		} {
			code, stdout, stderr := runWithin(t, 20*time.Second, args...)
			if code != exitUsage || !strings.Contains(stderr, want) || strings.Contains(stdout, "to compute") {
				t.Errorf("%q: exit %d, stdout %q, stderr %q; want %d and %q", args, code, stdout, stderr, exitUsage, want)
			}
		}
	}
}
