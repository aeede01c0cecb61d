package main

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// treeState lists every file and folder under dir with its size, mode,
// modification time and content checksum.
func treeState(t *testing.T, dir string) map[string]string {
	t.Helper()
	st := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		v := fmt.Sprintf("%v %d %d", fi.Mode(), fi.Size(), fi.ModTime().UnixNano())
		if fi.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			v += fmt.Sprintf(" %x", sha256.Sum256(b))
		}
		st[p] = v
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestRunLeavesCheckoutAlone: a run whose config lies in a git checkout
// reads the checkout's revision and status, and changes nothing under it
// (issue #38: git status rewrote .git/index through .git/index.lock,
// a write outside --out that can collide with the user's git commands).
func TestRunLeavesCheckoutAlone(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.email=a@b", "-c", "user.name=a"}, args...)...)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, b)
		}
	}
	git("init", "-q")
	cfg := writeNap(t, repo, "1, 2", "")
	git("add", ".")
	git("commit", "-q", "-m", "x")
	// The same content with a new time: the index's stat data is stale,
	// which git status refreshes (and writes) when it may.
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(cfg, later, later); err != nil {
		t.Fatal(err)
	}
	before := treeState(t, repo)
	t.Setenv("RUNEXP_DATA", "")
	if code, _, stderr := runCLI("--out", t.TempDir(), "-q", cfg); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	after := treeState(t, repo)
	for p, v := range after {
		if before[p] != v {
			t.Errorf("%s changed during the run: %q, was %q", p, v, before[p])
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			t.Errorf("%s removed during the run", p)
		}
	}
}
