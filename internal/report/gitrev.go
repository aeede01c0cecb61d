package report

import (
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"slices"
	"strings"
	"sync"
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
	git := gitIn(ctx, dir)
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

// gitIn returns a runner of git commands in the repository dir lies in,
// with fsmonitor off and no optional locks: the repository is the
// config's, which may come from anyone, and git status would otherwise
// rewrite .git/index, a write into the user's checkout.
func gitIn(ctx context.Context, dir string) func(args ...string) ([]byte, error) {
	return func(args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, "git", append([]string{"-c", "core.fsmonitor=false", "-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
		return cmd.Output()
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

// CheckSources fills in Code, the SHA-256 of the sources the binary
// embeds (sources, the files matching patterns: runexp.Sources and
// runexp.SourcePatterns), and, when the revision did not come from the
// build's own VCS stamp (a build with -buildvcs=false, as GOFLAGS may set
// it, whose revision came from the linker flags of make build or from git
// at run time), checks the embedded sources against that revision in the
// checkout dir lies in: a source file that differs from the commit, or
// one the commit has and the binary lacks, sets Modified, and
// RevisionFrom says what was compared. Without a checkout holding the
// revision nothing is compared, and RevisionFrom says so. The comparison
// is made once per checkout and revision in a process.
func (m *Manifest) CheckSources(dir string, sources fs.FS, patterns []string) {
	sum, blobs := sourceSums(sources, patterns)
	m.Code = sum
	if m.Revision == "unknown" || m.Revision == "" {
		m.Revision = "unknown"
		m.RevisionFrom = "unknown: the binary carries no VCS stamp and no revision from make build, and the config's folder" +
			" is in no git checkout; code_sha256 is the SHA-256 of every source file the binary was built from"
		return
	}
	if m.RevisionFrom == "build" {
		return
	}
	key := dir + "\x00" + m.Revision
	v, ok := sourceChecks.Load(key)
	if !ok {
		v = compareSources(dir, m.Revision, blobs, patterns)
		sourceChecks.Store(key, v)
	}
	c := v.(sourceCheck)
	switch {
	case !c.compared:
		m.RevisionFrom += " (the binary's sources not compared with it: " + c.why + ")"
	case c.differ != "":
		m.Modified = true
		m.RevisionFrom += " (the binary's sources differ from that commit: " + c.differ + ")"
	default:
		m.RevisionFrom += " (the binary's sources are that commit's)"
	}
}

// sourceChecks memoises compareSources by checkout and revision.
var sourceChecks sync.Map

// sourceCheck is what compareSources found.
type sourceCheck struct {
	compared bool
	why      string // why not compared
	differ   string // the first file that differs, "" when none
}

// sourceSums returns the SHA-256 of the embedded sources (every file's
// path and SHA-256, in path order) and each file's git blob id in SHA-1
// and SHA-256 repositories.
func sourceSums(sources fs.FS, patterns []string) (string, map[string][2]string) {
	blobs := map[string][2]string{}
	var paths []string
	for _, p := range patterns {
		m, _ := fs.Glob(sources, p)
		paths = append(paths, m...)
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	h := sha256.New()
	for _, p := range paths {
		b, err := fs.ReadFile(sources, p)
		if err != nil {
			continue
		}
		fmt.Fprintf(h, "%s\x00%x\n", p, sha256.Sum256(b))
		head := fmt.Sprintf("blob %d\x00", len(b))
		s1, s2 := sha1.New(), sha256.New()
		s1.Write([]byte(head))
		s1.Write(b)
		s2.Write([]byte(head))
		s2.Write(b)
		blobs[p] = [2]string{hex.EncodeToString(s1.Sum(nil)), hex.EncodeToString(s2.Sum(nil))}
	}
	return hex.EncodeToString(h.Sum(nil)), blobs
}

// compareSources compares the embedded sources' blob ids with the files
// matching patterns in revision rev of the repository dir lies in (git
// ls-tree, which runs no hook or filter).
func compareSources(dir, rev string, blobs map[string][2]string, patterns []string) sourceCheck {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	git := gitIn(ctx, dir)
	if _, err := git("rev-parse", "--verify", "--quiet", rev+"^{commit}"); err != nil {
		return sourceCheck{why: "no checkout holding the commit beside the config"}
	}
	alg := 0
	if f, err := git("rev-parse", "--show-object-format"); err == nil && strings.TrimSpace(string(f)) == "sha256" {
		alg = 1
	}
	out, err := git("ls-tree", "-r", "--full-tree", rev)
	if err != nil {
		return sourceCheck{why: "git ls-tree failed"}
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		meta, p, ok := strings.Cut(line, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 || f[1] != "blob" || !matchesAny(p, patterns) {
			continue
		}
		seen[p] = true
		if b, ok := blobs[p]; !ok {
			return sourceCheck{compared: true, differ: p + " is in the commit, not in the binary"}
		} else if b[alg] != f[2] {
			return sourceCheck{compared: true, differ: p}
		}
	}
	for _, p := range sortedKeys(blobs) {
		if !seen[p] {
			return sourceCheck{compared: true, differ: p + " is in the binary, not in the commit"}
		}
	}
	return sourceCheck{compared: true}
}

// matchesAny reports whether the slash-separated path p matches one of
// the glob patterns.
func matchesAny(p string, patterns []string) bool {
	for _, pat := range patterns {
		if ok, _ := path.Match(pat, p); ok {
			return true
		}
	}
	return false
}
