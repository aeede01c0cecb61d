package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
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

// runexpTimed runs this test binary as runexp with args and returns its
// exit status and output, or fails the test if it has not ended within
// limit (a read that blocks on a named pipe).
func runexpTimed(t *testing.T, limit time.Duration, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), "RUNEXP_TEST_AS_MAIN=1", "RUNEXP_DATA=")
	b, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("runexp %v: still running after %v:\n%s", args, limit, b)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	return code, string(b)
}

// TestValidateExternalFiles: validate reads an external method's files
// no further than a stat without --allow-external, and every read is of
// a regular file of bounded size (issue #38: script: /dev/zero ran
// validate out of memory, a named pipe hung it).
func TestValidateExternalFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.py")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	big := filepath.Join(dir, "big.sh")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 64<<20); err != nil { // sparse
		t.Fatal(err)
	}
	ok := filepath.Join(dir, "ok.sh")
	os.WriteFile(ok, []byte("echo\n"), 0o644)
	write := func(params string) string {
		cfg := strings.Replace(tinyConfig, "claims:", "  - name: external\n    label: Ext\n    params: {"+params+"}\nclaims:", 1)
		f := filepath.Join(t.TempDir(), "tiny.yaml")
		os.WriteFile(f, []byte(cfg), 0o644)
		return f
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"validate", write(`command: "python3 ` + fifo + `"`)}, exitUsage, "a named pipe"},
		{[]string{"validate", write(`command: "sh x", script: /dev/zero`)}, exitUsage, "a character device"},
		{[]string{"validate", "--allow-external", write(`command: "sh x", script: /dev/zero`)}, exitUsage, "a character device"},
		{[]string{"validate", "--allow-external", write(`command: "sh x", script: ` + big)}, exitUsage, "more than the 16777216 bytes"},
		{[]string{"validate", write(`command: "sh x", script: ` + big)}, exitOK, "cache keys not compared"},
		{[]string{"validate", "--allow-external", write(`command: "sh x", script: ` + ok)}, exitOK, ": ok ("},
	} {
		code, out := runexpTimed(t, 20*time.Second, tc.args...)
		if code != tc.code || !strings.Contains(out, tc.want) {
			t.Errorf("%v: exit %d, want %d and %q:\n%s", tc.args, code, tc.code, tc.want, out)
		}
	}
}

// TestPaperIsAName: paper: is resolved only inside the paper-values
// folder (issue #38: ../../../../x/secret passed validate, and the
// scoreboard printed that file's title and claims).
func TestPaperIsAName(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"../../../../x/secret", "/etc/passwd", ".hidden", "a/b"} {
		f := filepath.Join(dir, "tiny.yaml")
		os.WriteFile(f, []byte(strings.Replace(tinyConfig, "paper: ", "paper: "+strconv.Quote(p)+" #", 1)), 0o644)
		code, _, stderr := runCLI("validate", f)
		if code != exitUsage || !strings.Contains(stderr, "tiny.yaml:") || !strings.Contains(stderr, "paper:") {
			t.Errorf("paper: %s: exit %d, stderr %q; want 2 and FILE:LINE: paper:", p, code, stderr)
		}
	}
}
