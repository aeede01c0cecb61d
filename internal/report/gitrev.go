package report

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"time"
)

// FillRevisionFromGit sets Revision and Modified from git when the binary
// carries no VCS stamp (go run, or builds with -buildvcs=false): a manifest
// that cannot name its commit cannot be reproduced. dir is any directory
// inside the checkout. Nothing changes when git is absent or dir is not in
// a repository.
func (m *Manifest) FillRevisionFromGit(dir string) {
	if m.Revision != "unknown" && m.Revision != "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// The repository is the config's, which may come from anyone: git
	// status runs a configured fsmonitor hook and clean filters, so a
	// repository that configures any is not asked for its status (and
	// fsmonitor is off for every call).
	// GIT_OPTIONAL_LOCKS=0 keeps git status from refreshing the index:
	// it would take .git/index.lock and rewrite .git/index, a write into
	// the user's checkout (outside --out) that can collide with the
	// user's own git commands.
	git := func(args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, "git", append([]string{"-c", "core.fsmonitor=false", "-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
		return cmd.Output()
	}
	rev, err := git("rev-parse", "HEAD")
	if err != nil {
		return
	}
	m.Revision, m.RevisionFrom = strings.TrimSpace(string(rev)), "git"
	if progs, _ := git("config", "--get-regexp", `^(core\.fsmonitor|filter\..*\.(clean|process))$`); gitRunsPrograms(string(progs)) {
		m.Modified = true
		m.RevisionFrom = "git (working tree not checked: the repository's configuration names programs git status would run)"
		return
	}
	// A changed tracked file, or an untracked source file (a new
	// estimator not yet added), means the revision alone does not name
	// the code that ran. Untracked outputs (results/, bin/) do not count.
	st, err := git("status", "--porcelain", "--untracked-files=all")
	if err == nil {
		m.Modified = statusModified(string(st))
	}
}

// gitRunsPrograms reads `git config --get-regexp` output for fsmonitor
// and filter settings: any but a false fsmonitor names a program.
func gitRunsPrograms(cfg string) bool {
	for _, line := range strings.Split(cfg, "\n") {
		k, v, _ := strings.Cut(strings.TrimSpace(line), " ")
		if k == "" || (k == "core.fsmonitor" && (v == "false" || v == "")) {
			continue
		}
		return true
	}
	return false
}

// statusModified reads `git status --porcelain` output: any tracked change,
// or an untracked Go, module or config file.
func statusModified(st string) bool {
	for _, line := range strings.Split(st, "\n") {
		if len(line) < 4 {
			continue
		}
		if !strings.HasPrefix(line, "??") {
			return true
		}
		path := strings.Trim(line[3:], `"`)
		switch {
		case strings.HasSuffix(path, ".go"), strings.HasSuffix(path, ".yaml"), strings.HasSuffix(path, ".yml"),
			path == "go.mod", path == "go.sum", strings.HasSuffix(path, "/go.mod"):
			return true
		}
	}
	return false
}
