package report

import (
	"context"
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
	rev, err := exec.CommandContext(ctx, "git", "-C", dir, "rev-parse", "HEAD").Output()
	if err != nil {
		return
	}
	m.Revision, m.RevisionFrom = strings.TrimSpace(string(rev)), "git"
	// A changed tracked file, or an untracked source file (a new
	// estimator not yet added), means the revision alone does not name
	// the code that ran. Untracked outputs (results/, bin/) do not count.
	st, err := exec.CommandContext(ctx, "git", "-C", dir, "status", "--porcelain", "--untracked-files=all").Output()
	if err == nil {
		m.Modified = statusModified(string(st))
	}
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
