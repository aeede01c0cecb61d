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
	m.Revision = strings.TrimSpace(string(rev))
	// Only tracked files count as modifications, as with vcs.modified.
	st, err := exec.CommandContext(ctx, "git", "-C", dir, "status", "--porcelain", "--untracked-files=no").Output()
	if err == nil {
		m.Modified = len(strings.TrimSpace(string(st))) > 0
	}
}
