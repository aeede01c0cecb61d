package report

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGitRevisionRunsNoProgram: a config's repository whose
// configuration names an fsmonitor hook or a clean filter (git status
// would run either) gets its revision recorded without its status being
// asked, and the program never runs (issue #28, case 6: a config received
// from someone else must not run a command without leave).
func TestGitRevisionRunsNoProgram(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	for _, setting := range [][2]string{
		{"core.fsmonitor", "touch MARKER; true"},
		{"filter.evil.clean", "touch MARKER; cat"},
	} {
		dir := t.TempDir()
		marker := filepath.Join(dir, "ran")
		run := func(args ...string) {
			t.Helper()
			cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.email=a@b", "-c", "user.name=a"}, args...)...)
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, b)
			}
		}
		run("init", "-q")
		os.WriteFile(filepath.Join(dir, ".gitattributes"), []byte("*.yaml filter=evil\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "c.yaml"), []byte("x\n"), 0o644)
		run("add", ".")
		run("commit", "-q", "-m", "x")
		run("config", setting[0], strings.ReplaceAll(setting[1], "MARKER", marker))
		// A changed file makes git status look at its content.
		os.WriteFile(filepath.Join(dir, "c.yaml"), []byte("y\n"), 0o644)
		m := &Manifest{Revision: "unknown"}
		m.FillRevisionFromGit(dir)
		if _, err := os.Stat(marker); err == nil {
			t.Errorf("%s: git ran the repository's program", setting[0])
		}
		if len(m.Revision) != 40 || !m.Modified || !strings.Contains(m.RevisionFrom, "not checked") {
			t.Errorf("%s: revision %q, modified %v, from %q", setting[0], m.Revision, m.Modified, m.RevisionFrom)
		}
	}
}
