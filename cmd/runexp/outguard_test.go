package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWithDirNotOwnFolders: --with-dir cannot name runexp's own folders
// under --out (issue #38: --with-dir .cache wrote results into the cell
// cache).
func TestWithDirNotOwnFolders(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	f := writeTiny(t, dir, "")
	for _, d := range []string{".cache", ".cache/cells", ".shards", "./.cache"} {
		code, _, stderr := runCLI("-q", "--out", out, "--with", "tikhonov", "--with-dir", d, f)
		if code != exitUsage || !strings.Contains(stderr, "is runexp's own") {
			t.Errorf("--with-dir %s: exit %d, stderr %q; want 2 and a refusal", d, code, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(out, ".cache", "tiny")); err == nil {
		t.Errorf("results written inside the cache")
	}
}

// TestShardsLinkRefused: OUT/.shards goes through the guard of every
// folder under --out (issue #38: a link there put a suite shard's report
// outside --out, exit 0).
func TestShardsLinkRefused(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	dir := t.TempDir()
	cfgs := filepath.Join(dir, "configs")
	os.Mkdir(cfgs, 0o755)
	writeTiny(t, cfgs, "")
	out, elsewhere := filepath.Join(dir, "out"), filepath.Join(dir, "elsewhere")
	os.Mkdir(out, 0o755)
	os.Mkdir(elsewhere, 0o755)
	if err := os.Symlink(elsewhere, filepath.Join(out, ".shards")); err != nil {
		t.Skip(err)
	}
	code, _, stderr := runCLI("suite", "-q", "--configs", cfgs, "--out", out, "--shard", "0/3")
	if code == exitOK || !strings.Contains(stderr, "symbolic link") {
		t.Errorf("exit %d, stderr %q; want a refusal naming the link", code, stderr)
	}
	if es, _ := os.ReadDir(elsewhere); len(es) != 0 {
		t.Errorf("%d files written through the link, outside --out", len(es))
	}
}
