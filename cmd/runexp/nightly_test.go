package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/suite"
)

// tinyConfig runs two estimators on a few synthetic images (about a
// second); its claim holds with the shipped Honeine–Richard (median MSE
// 0.00113 at c = 5) and fails with the edited one below (0.0051).
const tinyConfig = `title: "tiny: two estimators on synthetic images"
paper: none
kind: denoise
seed: 1
dataset:
  name: synthetic-images
  classes: 3
  groups: 2
  per_cell: 4
  width: 6
  height: 6
  test_per_cell: 1
corruption:
  type: gaussian
  std: 0.1
model:
  kernel: gaussian
  c: [5, 20]
  components: 5
methods:
  - name: mika
    label: Mika
  - name: honeine-richard
    label: HR
claims:
  - id: hr-mse
    statement: "Honeine-Richard's median MSE at c = 5 stays below 0.002."
    check: {type: value, metric: mse_median, where: {method: HR, c: 5}, op: "<", value: 0.002}
`

// mikaConfig is a second config, with Mika only: the edit below must not
// touch it.
const mikaConfig = `title: "tiny: Mika only"
paper: none
kind: denoise
seed: 2
dataset:
  name: synthetic-images
  classes: 2
  groups: 2
  per_cell: 4
  width: 6
  height: 6
  test_per_cell: 1
corruption:
  type: gaussian
  std: 0.1
model:
  kernel: gaussian
  c: 5
  components: 4
methods:
  - name: mika
`

// The edit: Honeine–Richard's regulariser gains 1 (ν → ν + 1), which
// changes its pre-images and nothing else.
const (
	hrFile   = "internal/methods/honeinerichard.go"
	hrBefore = "nu := hr.Nu * floats.Sum(vals) / float64(n)"
	hrAfter  = "nu := (hr.Nu + 1) * floats.Sum(vals) / float64(n)"
)

// copyModule copies the module at src to dst without .git, results and
// bin. A worktree's .git is a file naming the repository: copied, it
// would make the copy a second work tree of that repository, and a git
// command run in the copy would change the original's index and branch.
func copyModule(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			switch d.Name() {
			case ".git", "results", "bin":
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() || d.Name() == ".git" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// buildRunexp builds cmd/runexp of the module at dir into out, offline
// (the module cache holds every dependency). -trimpath keeps the build
// cache shared between the two copies, so only the edited package and
// its dependants compile again.
func buildRunexp(t *testing.T, dir, out string) {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		gobin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	cmd := exec.Command(gobin, "build", "-trimpath", "-o", out, "./cmd/runexp")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build in %s: %v\n%s", dir, err, b)
	}
}

func runBin(t *testing.T, bin string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "RUNEXP_DATA=")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String() + errb.String()
}

// TestNightlyDryRun is the nightly job in small, on two builds: the
// module as it is (this test binary) and a copy with one estimator edited,
// built (issue 13).
//
//   - suite → baseline written; suite → compare with the baseline: exit 0,
//     every cell from the cache; a partial suite (--only) compares only
//     what it ran: exit 0.
//   - the edited build, same results folder and cache: the edited
//     estimator's cells recompute, the other estimator's and the other
//     config's come from the cache; exit 1 naming the moved cells and the
//     claim whose verdict changed.
func TestNightlyDryRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds runexp")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	mod := filepath.Join(tmp, "mod")
	copyModule(t, root, mod)
	src, err := os.ReadFile(filepath.Join(mod, hrFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(src, []byte(hrBefore)) {
		t.Fatalf("%s no longer holds %q: update the edit this test makes", hrFile, hrBefore)
	}
	if err := os.WriteFile(filepath.Join(mod, hrFile), bytes.Replace(src, []byte(hrBefore), []byte(hrAfter), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	// The module as it is runs in this process (its code and embedded
	// sources are the module's); the edited copy is built.
	after := filepath.Join(tmp, "runexp-after")
	buildRunexp(t, mod, after)
	t.Setenv("RUNEXP_DATA", "")

	cfgs := filepath.Join(tmp, "configs")
	os.MkdirAll(cfgs, 0o755)
	os.WriteFile(filepath.Join(cfgs, "tiny.yaml"), []byte(tinyConfig), 0o644)
	os.WriteFile(filepath.Join(cfgs, "mika.yaml"), []byte(mikaConfig), 0o644)
	out, base := filepath.Join(tmp, "results"), filepath.Join(tmp, "baseline")
	runSuite := func(bin string, extra ...string) (int, string) {
		args := append([]string{"suite", "--configs", cfgs, "--out", out, "-j", "2"}, extra...)
		if bin == "" {
			code, stdout, stderr := runCLI(args...)
			return code, stdout + stderr
		}
		return runBin(t, bin, args...)
	}
	const before = "" // this process

	code, log := runSuite(before, "--write-baseline", base)
	if code != exitOK {
		t.Fatalf("first suite run: exit %d\n%s", code, log)
	}
	for _, f := range []string{"tiny/records.jsonl", "tiny/claims.json", "mika/records.jsonl"} {
		if _, err := os.Stat(filepath.Join(base, f)); err != nil {
			t.Errorf("baseline: %v", err)
		}
	}
	var rep suite.Report
	if b, err := os.ReadFile(filepath.Join(out, "suite.json")); err != nil || json.Unmarshal(b, &rep) != nil || len(rep.Runs) != 2 {
		t.Errorf("suite.json: %v, %d runs", err, len(rep.Runs))
	}
	if _, err := os.Stat(filepath.Join(out, "index.html")); err != nil {
		t.Errorf("no index page: %v", err)
	}
	// The scoreboard beside the index, linked from it, with both claims'
	// configs counted (tiny's claim as reproduced as stated).
	if b, err := os.ReadFile(filepath.Join(out, "scoreboard.md")); err != nil || !strings.Contains(string(b), "hr-mse") {
		t.Errorf("scoreboard.md: %v\n%s", err, b)
	}
	if b, err := os.ReadFile(filepath.Join(out, "index.html")); err != nil || !strings.Contains(string(b), `href="scoreboard.html"`) {
		t.Errorf("the index page does not link the scoreboard: %v", err)
	}

	code, log = runSuite(before, "--baseline", base)
	if code != exitOK || !strings.Contains(log, "No changes.") || !strings.Contains(log, "tiny: 4 cells (0 computed, 4 cached") {
		t.Fatalf("rerun against the baseline: exit %d\n%s", code, log)
	}
	code, log = runSuite(before, "--baseline", base, "--only", "ti*")
	if code != exitOK || strings.Contains(log, "missing run") || strings.Contains(log, "mika:") {
		t.Fatalf("partial run against the baseline: exit %d\n%s", code, log)
	}

	code, log = runSuite(after, "--baseline", base)
	if code != exitClaim {
		t.Fatalf("after the edit: exit %d, want %d\n%s", code, exitClaim, log)
	}
	for _, want := range []string{
		"tiny: 4 cells (2 computed, 2 cached",           // HR recomputed, Mika reused
		"mika: 1 cells (0 computed, 1 cached",           // the other config untouched
		"claim hr-mse: FAIL, expected PASS",             // the verdict that changed
		"claim hr-mse: PASS → FAIL (moved: mse_median)", // the verdict that changed, and why
	} {
		if !strings.Contains(log, want) {
			t.Errorf("after the edit, the output lacks %q", want)
		}
	}
	if !regexp.MustCompile(`\n  method=HR c=5[^\n]* mse_median +[0-9.e-]+ +[0-9.e-]+ +[-+][0-9.e-]+ +[0-9.]+ +code\n`).MatchString(log) {
		t.Error("the changes do not name a moved cell of HR by its short label, with old, new, delta, ratio and its cause (code)")
	}
	// The changes table, not the summary lines after it, whose critical
	// path may name a Mika cell read from the cache.
	changes, _, _ := strings.Cut(log, "Suite wall time")
	if strings.Contains(changes, "method=Mika") {
		t.Errorf("after editing Honeine–Richard, a Mika cell moved:\n%s", log)
	}
	if t.Failed() {
		t.Log(log)
	}
}
