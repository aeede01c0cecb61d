package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/methods"
)

// TestNewcomerPath holds issue 37's newcomer path from a folder outside
// any checkout: runexp list configs finds the configs of the checkout
// the binary comes from and says how to run them; a data root that does
// not exist is refused with the data roots that do exist (here, a
// shared/data beside a fake checkout above the working directory); flags
// get suggestions by case and by other tools' names; validate counts in
// the singular.
func TestNewcomerPath(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	elsewhere := t.TempDir()
	t.Chdir(elsewhere)
	code, out, stderr := runCLI("list", "configs")
	want := filepath.Join(repo, "configs")
	if code != exitOK || !strings.Contains(out, "Configs ("+want+", no configs folder here; runexp --configs "+want+" NAME runs one)") || !strings.Contains(out, "abrahamsen-hansen-fig3") {
		t.Errorf("list configs from %s: exit %d\n%s%s", elsewhere, code, out, stderr)
	}

	// A checkout of runexp in top/x with its data root in top/shared/data,
	// and RUNEXP_DATA naming a folder that is not there.
	top := t.TempDir()
	data := filepath.Join(top, "shared", "data")
	if err := os.MkdirAll(data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "SHA256SUMS"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(top, "x")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(work)
	t.Setenv("RUNEXP_DATA", filepath.Join(work, "..", "..", "shared", "data"))
	code, _, stderr = runCLI("run", "-q", "--no-cache", "--out", t.TempDir(), filepath.Join(repo, "configs", "huang-table1.yaml"))
	if code != exitUsage || !strings.Contains(stderr, "does not exist") || !strings.Contains(stderr, "a data root exists at "+data) {
		t.Errorf("missing data root: exit %d, stderr %q; want %d naming %s", code, stderr, exitUsage, data)
	}

	for _, tc := range []struct{ flag, want string }{{"--jobs", "did you mean -j?"}, {"--ouT", "did you mean --out?"}} {
		if code, _, stderr := runCLI(tc.flag, "2", "x.yaml"); code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: exit %d, stderr %q; want %q", tc.flag, code, stderr, tc.want)
		}
	}
}

// TestValidateSingular: one cell is "1 cell".
func TestValidateSingular(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	cfg := filepath.Join(t.TempDir(), "one.yaml")
	src := `title: one
paper: test
kind: denoise
seed: 1
dataset: {name: two-rings, n: 20, radii: [1, 2], noise: 0.05}
corruption: {type: gaussian, std: 0.1}
model: {kernel: gaussian, c: [1], components: [2]}
methods: [{name: identity}]
experiment: {renormalize: false, figure: none}
`
	if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCLI("validate", cfg)
	if code != exitOK || !strings.Contains(out, "(denoise, 1 cell, 0 claims,") {
		t.Errorf("validate: exit %d\n%s%s", code, out, stderr)
	}
}

// TestREADMEListsEveryEstimator: the README's estimator table has a row
// for every registered estimator (honeine-richard-direct had none).
func TestREADMEListsEveryEstimator(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range methods.All() {
		if strings.HasSuffix(s.File, "_test.go") {
			continue
		}
		if !strings.Contains(string(b), "| `"+s.Name+"`") && !strings.Contains(string(b), "`"+s.Name+"`, `") && !strings.Contains(string(b), ", `"+s.Name+"` |") {
			t.Errorf("README.md: no row for the estimator %s", s.Name)
		}
	}
}
