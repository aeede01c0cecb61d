package report

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestGitRunsPrograms checks the reading of a repository's fsmonitor and
// filter settings: any filter program or fsmonitor hook counts, a false
// fsmonitor does not.
func TestGitRunsPrograms(t *testing.T) {
	for _, tc := range []struct {
		cfg  string
		want bool
	}{
		{"", false},
		{"core.fsmonitor false\n", false},
		{"core.fsmonitor true\n", true},
		{"core.fsmonitor .git/hooks/query-watchman\n", true},
		{"filter.lfs.clean git-lfs clean -- %f\n", true},
		{"core.fsmonitor false\nfilter.x.process run\n", true},
	} {
		if got := gitRunsPrograms(tc.cfg); got != tc.want {
			t.Errorf("gitRunsPrograms(%q) = %t, want %t", tc.cfg, got, tc.want)
		}
	}
}

// TestFillRevisionFromGit checks the manifest's revision from git: a
// clean checkout gives its commit unmodified; an untracked output leaves
// it so; an untracked source file or a changed tracked file marks it
// modified; a folder outside any repository, or a binary already stamped
// with its revision, leaves the manifest as it was.
func TestFillRevisionFromGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		b, err := exec.Command("git", append([]string{"-C", dir, "-c", "user.email=a@b", "-c", "user.name=a"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, b)
		}
		return string(b)
	}
	git("init", "-q")
	write := func(name, s string) {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("main.go", "package main\n")
	git("add", ".")
	git("commit", "-q", "-m", "x")
	head := git("rev-parse", "HEAD")[:40]
	fill := func() *Manifest {
		m := &Manifest{Revision: "unknown"}
		m.FillRevisionFromGit(dir)
		return m
	}
	if m := fill(); m.Revision != head || m.Modified || m.RevisionFrom != "git" {
		t.Errorf("clean checkout: %q, modified %t, from %q; want %s", m.Revision, m.Modified, m.RevisionFrom, head)
	}
	write("results/run/records.jsonl", "{}\n")
	if m := fill(); m.Modified {
		t.Error("an untracked result marked the revision modified")
	}
	write("internal/mine.go", "package internal\n")
	if m := fill(); !m.Modified {
		t.Error("an untracked source file did not mark the revision modified")
	}
	os.Remove(filepath.Join(dir, "internal", "mine.go"))
	write("main.go", "package main\n\nfunc main() {}\n")
	if m := fill(); !m.Modified {
		t.Error("a changed tracked file did not mark the revision modified")
	}
	outside := &Manifest{Revision: "unknown"}
	outside.FillRevisionFromGit(t.TempDir())
	if outside.Revision != "unknown" || outside.RevisionFrom != "" || outside.Modified {
		t.Errorf("outside a repository: %+v", outside)
	}
	stamped := &Manifest{Revision: "abc123"}
	stamped.FillRevisionFromGit(dir)
	if stamped.Revision != "abc123" || stamped.Modified {
		t.Errorf("a stamped revision was replaced: %+v", stamped)
	}
}
