package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/runexp/runexp/internal/report/reporttest"
)

// TestStrayCacheTempsRemoved: a temporary file of a cache entry older
// than the run (left by a run killed while writing it) is removed at the
// next start; one being written now by a run sharing the cache is not
// (issue #38: a SIGKILL left .json.tmp-* files no run ever removed).
func TestStrayCacheTempsRemoved(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	dir := t.TempDir()
	cfg := writeNap(t, dir, "1", "")
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

	// A run killed with kill -9 and rerun at once: its temporary files
	// are new, but their writer, named in them, is gone from this host,
	// so the rerun removes them, wherever in the cache they are; one
	// whose writer lives stays.
	host, _ := os.Hostname()
	h := sha256.Sum256([]byte(host))
	tag := hex.EncodeToString(h[:4])
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Skip(err)
	}
	live := exec.Command("sleep", "60")
	if err := live.Start(); err != nil {
		t.Skip(err)
	}
	defer live.Process.Kill()
	var dead, alive []string
	for _, d := range []string{"cells/cd", "last/ef", "code/01"} {
		sub := filepath.Join(out, ".cache", filepath.FromSlash(d))
		os.MkdirAll(sub, 0o755)
		f := filepath.Join(sub, fmt.Sprintf(".x.json.tmp-%s-%d-abc", tag, gone.Process.Pid))
		os.WriteFile(f, []byte(`{"half":`), 0o644)
		dead = append(dead, f)
		f = filepath.Join(sub, fmt.Sprintf(".y.json.tmp-%s-%d-abc", tag, live.Process.Pid))
		os.WriteFile(f, []byte(`{"half":`), 0o644)
		alive = append(alive, f)
	}
	// The rerun is a new process, as after a kill (a process sweeps a
	// cache once).
	rerun := exec.Command(os.Args[0], "--out", out, "-q", cfg)
	rerun.Env = append(os.Environ(), "RUNEXP_TEST_AS_MAIN=1")
	if b, err := rerun.CombinedOutput(); err != nil {
		t.Fatalf("rerun: %v: %s", err, b)
	}
	for _, f := range dead {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("%s, left by a process that is gone, is still there after the rerun", f)
		}
	}
	for _, f := range alive {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("%s, being written by a live process, was removed: %v", f, err)
		}
	}
}

// TestMarkdownEscapesHTML: a title with an HTML tag reaches tables.md as
// text, not as a tag a Markdown viewer would render, and the run's page
// still shows it as written (issue #38: titles and names went raw into
// tables.md and scoreboard.md).
func TestMarkdownEscapesHTML(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	dir := t.TempDir()
	cfg := writeNap(t, dir, "1", "title: \""+reporttest.InjectionTitle+"\"\nnotes: \""+reporttest.InjectionNotes+"\"\n")
	out := filepath.Join(dir, "out")
	if code, _, stderr := runCLI("--out", out, "-q", cfg); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	md, err := os.ReadFile(filepath.Join(out, "nap", "tables.md"))
	if err != nil {
		t.Fatal(err)
	}
	if tag := reporttest.RawTag(string(md)); tag != "" {
		t.Errorf("tables.md holds %q raw:\n%s", tag, md)
	}
	if !strings.Contains(string(md), "# &lt;script>alert(1)&lt;/script> & co") {
		t.Errorf("tables.md does not carry the title escaped:\n%s", md)
	}
	page, err := os.ReadFile(filepath.Join(out, "nap", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(page), "<script>alert") || !strings.Contains(string(page), "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co") {
		t.Errorf("the page does not show the title as written")
	}
}

// TestCacheWriteFailureKeepsResults: a cache that cannot take the
// entries of cells already computed (a full disk; here its cells folder
// is a file) costs no result: they are written, and the run exits 3
// (incomplete), naming the cells not cached (issue #38: exit 2, "nothing
// was run", and no results). Every folder an entry could go in
// (cells/00 … cells/ff) is a file here.
func TestCacheWriteFailureKeepsResults(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	dir := t.TempDir()
	cfg := writeNap(t, dir, "1, 2, 3", "")
	cache := filepath.Join(dir, "cache")
	os.MkdirAll(filepath.Join(cache, "cells"), 0o755)
	for i := 0; i < 256; i++ {
		os.WriteFile(filepath.Join(cache, "cells", fmt.Sprintf("%02x", i)), []byte("not a folder"), 0o644)
	}
	out := filepath.Join(dir, "out")
	code, stdout, stderr := runCLI("--out", out, "--cache", cache, "-q", cfg)
	if code != exitIncomplete || !strings.Contains(stdout+stderr, "3 computed cells not written to the cache") {
		t.Errorf("exit %d, want %d naming the 3 cells not cached:\n%s%s", code, exitIncomplete, stdout, stderr)
	}
	want := map[string]bool{"records.jsonl": true, "tables.md": true, "manifest.json": true}
	for f := range want {
		if _, err := os.Stat(filepath.Join(out, "nap", f)); err != nil {
			t.Errorf("%s not written: %v", f, err)
		}
	}
}
