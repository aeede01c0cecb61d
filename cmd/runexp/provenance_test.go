package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/report"
)

// TestProvenanceWithoutBuildVCS is issue #46's provenance that said the
// tree was clean when it was not: with GOFLAGS=-buildvcs=false the go
// command stamps no VCS information, and make build's linker flag gave
// the revision alone, so a binary built from a tree with an estimator
// edited wrote "vcs_modified": false. The manifest now compares the
// sources the binary embeds with that revision in the checkout: a clean
// build's manifest says so, an edited one's sets vcs_modified and names
// the file, and each carries the sources' SHA-256, which differs between
// the two; every record carries the code fingerprint that keyed it.
func TestProvenanceWithoutBuildVCS(t *testing.T) {
	if testing.Short() {
		t.Skip("builds runexp twice")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	mod := filepath.Join(t.TempDir(), "mod")
	copyModule(t, root, mod)
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.email=t@example.org", "-c", "user.name=t", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = mod
		// The copy's own repository, whatever lies above it.
		cmd.Env = append(os.Environ(), "GIT_DIR="+filepath.Join(mod, ".git"), "GIT_WORK_TREE="+mod, "GIT_CEILING_DIRECTORIES="+filepath.Dir(mod))
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, b)
		}
		return strings.TrimSpace(string(b))
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "copy")
	rev := git("rev-parse", "--short=12", "HEAD")
	// As make build does with GOFLAGS=-buildvcs=false in the environment.
	build := func(out string) {
		t.Helper()
		gobin, err := exec.LookPath("go")
		if err != nil {
			gobin = filepath.Join(runtime.GOROOT(), "bin", "go")
		}
		cmd := exec.Command(gobin, "build", "-trimpath", "-ldflags", "-X github.com/runexp/runexp/internal/report.Revision="+rev, "-o", out, "./cmd/runexp")
		cmd.Dir = mod
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod -buildvcs=false", "GOPROXY=off", "GOWORK=off")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, b)
		}
	}
	cfg := filepath.Join(mod, "tiny.yaml") // in the checkout, as a config of configs/ is
	if err := os.WriteFile(cfg, []byte(tinyConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("RUNEXP_DATA", "")
	run := func(bin, out string) string {
		t.Helper()
		// The edited estimator fails tiny's claim: exit 1 is a result.
		if code, msg := runBin(t, bin, "-q", "--out", out, cfg); code != exitOK && code != 1 {
			t.Fatalf("%s: exit %d: %s", bin, code, msg)
		}
		return filepath.Join(out, "tiny")
	}
	clean := filepath.Join(mod, "bin", "clean")
	build(clean)
	dc := run(clean, filepath.Join(mod, "results", "clean"))
	mc := readManifest(t, dc)
	if mc.Modified || mc.Revision != rev || !strings.Contains(mc.RevisionFrom, "sources are that commit's") || mc.Code == "" {
		t.Errorf("clean build: revision %q, vcs_modified %v, revision_from %q, code %q; want %s, false, the sources compared",
			mc.Revision, mc.Modified, mc.RevisionFrom, mc.Code, rev)
	}
	src, err := os.ReadFile(filepath.Join(mod, hrFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, hrFile), bytes.Replace(src, []byte(hrBefore), []byte(hrAfter), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	edited := filepath.Join(mod, "bin", "edited")
	build(edited)
	de := run(edited, filepath.Join(mod, "results", "edited"))
	me := readManifest(t, de)
	if !me.Modified || !strings.Contains(me.RevisionFrom, hrFile) || me.Code == mc.Code {
		t.Errorf("edited build: vcs_modified %v, revision_from %q, code %q (clean %q); want true, naming %s, another code",
			me.Modified, me.RevisionFrom, me.Code, mc.Code, hrFile)
	}
	// An edit under cmd/ is the binary too: built edited, then the
	// file reverted, the run's manifest names it (cmd/ was not embedded,
	// and such a binary said its sources were the commit's).
	if err := os.WriteFile(filepath.Join(mod, hrFile), src, 0o644); err != nil {
		t.Fatal(err)
	}
	const cmdFile = "cmd/runexp/exit.go"
	cmdSrc, err := os.ReadFile(filepath.Join(mod, cmdFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, cmdFile), append(cmdSrc, "\n// An edit.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	cmdEdited := filepath.Join(mod, "bin", "cmd-edited")
	build(cmdEdited)
	if err := os.WriteFile(filepath.Join(mod, cmdFile), cmdSrc, 0o644); err != nil {
		t.Fatal(err)
	}
	mx := readManifest(t, run(cmdEdited, filepath.Join(mod, "results", "cmd-edited")))
	if !mx.Modified || !strings.Contains(mx.RevisionFrom, cmdFile) {
		t.Errorf("binary built with %s edited: vcs_modified %v, revision_from %q; want true, naming the file", cmdFile, mx.Modified, mx.RevisionFrom)
	}
	// A config outside any checkout, run by a binary that carries no
	// revision (go build, no ldflags): the revision is unknown, and so
	// is whether it is modified: vcs_modified is null, and the manifest
	// says what is known.
	bare := filepath.Join(mod, "bin", "bare")
	{
		gobin, err := exec.LookPath("go")
		if err != nil {
			gobin = filepath.Join(runtime.GOROOT(), "bin", "go")
		}
		cmd := exec.Command(gobin, "build", "-trimpath", "-o", bare, "./cmd/runexp")
		cmd.Dir = mod
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod -buildvcs=false", "GOPROXY=off", "GOWORK=off")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, b)
		}
	}
	away := t.TempDir()
	awayCfg := filepath.Join(away, "tiny.yaml")
	if err := os.WriteFile(awayCfg, []byte(tinyConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, msg := runBin(t, bare, "-q", "--out", filepath.Join(away, "out"), awayCfg); code != exitOK && code != 1 {
		t.Fatalf("bare binary: exit %d: %s", code, msg)
	}
	raw, err := os.ReadFile(filepath.Join(away, "out", "tiny", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(raw, []byte(`"revision": "unknown"`)) || !bytes.Contains(raw, []byte(`"vcs_modified": null`)) ||
		!bytes.Contains(raw, []byte(`"revision_from": "unknown: the binary carries no VCS stamp`)) {
		t.Errorf("outside a checkout, with no revision: manifest\n%s\nwant revision unknown, vcs_modified null, revision_from saying what is known", raw)
	}

	// The records say which code computed them: HR's cells differ,
	// Mika's do not.
	codes := func(dir string) map[string]string {
		t.Helper()
		out := map[string]string{}
		for _, r := range readRecords(t, dir) {
			if r.Code == "" {
				t.Errorf("%s: record %s carries no code fingerprint", dir, r.Key)
			}
			out[r.Key] = r.Code
		}
		return out
	}
	a, b := codes(dc), codes(de)
	for k, ca := range a {
		hr := strings.Contains(k, "method=HR")
		if (ca != b[k]) != hr {
			t.Errorf("cell %s: code %s → %s; want a change only for HR's cells", k, ca, b[k])
		}
	}
}

// readRecords reads dir/records.jsonl.
func readRecords(t *testing.T, dir string) []report.Record {
	t.Helper()
	recs, err := report.ReadJSONL(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}
