package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/runexp/runexp"
	"github.com/runexp/runexp/internal/codefp/codefptest"
	"github.com/runexp/runexp/internal/runner"
)

// editConfig is the fixture Oil Flow config of TestEditKindsPredicted:
// two estimators, one with a parameter grid, over two widths; exp is its
// experiment section.
func editConfig(grid, exp string) string {
	return `title: "oil: every kind of edit"
paper: none
kind: denoise
seed: 1
dataset:
  name: oilflow
corruption:
  type: gaussian
  std: 0.1
model:
  kernel: gaussian
  c: [5]
  components: 3
methods:
  - name: linear-pca
    label: PCA
    params: {pca_components: ` + grid + `}
  - name: identity
    label: Base
experiment: {renormalize: false, figure: none` + exp + `}
`
}

var (
	statusLine = regexp.MustCompile(`(?m)^oil: (\d+) cells: (\d+) cached, (\d+) to compute$`)
	runLine    = regexp.MustCompile(`(?m)^oil: (\d+) cells \((\d+) computed, (\d+) cached`)
)

// TestEditKindsPredicted: for each kind of edit a nightly job meets (an
// experiment key, a method's parameter, a new value of the grid, an
// estimator's Go source, a module a Python estimator imports, a --with
// parameter, a data file with and without its SHA256SUMS line updated, the
// data root gone), runexp status and run --dry-run name the change and
// the cells it touches and exit with a status; the run that follows then
// computes exactly those cells and exits with that same status.
func TestEditKindsPredicted(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	data, dir := t.TempDir(), t.TempDir()
	writeOilRoot(t, data, 0)
	cfg := filepath.Join(dir, "oil.yaml")
	set := func(grid, exp string) {
		t.Helper()
		if err := os.WriteFile(cfg, []byte(editConfig(grid, exp)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	set("[0]", "")
	out := filepath.Join(t.TempDir(), "out")
	dataFlag := []string{"--data", data}
	var with []string
	// check runs status and run --dry-run with args, wants each of
	// parts in their output (stdout and stderr), todo cells to compute
	// and the exit status code; then runs, and wants the same status and
	// todo cells computed.
	check := func(edit string, todo, code int, parts ...string) {
		t.Helper()
		args := append(append(append([]string{"--out", out}, dataFlag...), with...), cfg)
		for _, dry := range [][]string{{"status"}, {"run", "--dry-run"}} {
			got, stdout, stderr := runCLI(append(dry, args...)...)
			all := stdout + stderr
			if got != code {
				t.Errorf("%s: runexp %s: exit %d, want %d (what the run gives)\n%s", edit, dry[0], got, code, all)
			}
			if m := statusLine.FindStringSubmatch(stdout); m == nil || m[3] != strconv.Itoa(todo) {
				t.Errorf("%s: runexp %s: want %d cells to compute in\n%s", edit, dry[0], todo, all)
			}
			for _, p := range parts {
				if !strings.Contains(all, p) {
					t.Errorf("%s: runexp %s: no %q in\n%s", edit, dry[0], p, all)
				}
			}
		}
		got, stdout, stderr := runCLI(append([]string{"-q"}, args...)...)
		if got != code {
			t.Fatalf("%s: the run exits %d, status predicted %d\n%s%s", edit, got, code, stdout, stderr)
		}
		if code != exitOK {
			for _, p := range parts {
				if strings.Contains(p, "datasets:") && !strings.Contains(stderr, p) {
					t.Errorf("%s: the run's error lacks %q (status said it):\n%s", edit, p, stderr)
				}
			}
			return
		}
		if m := runLine.FindStringSubmatch(stdout); m == nil || m[2] != strconv.Itoa(todo) {
			t.Errorf("%s: the run computed %v, status predicted %d\n%s", edit, m, todo, stdout)
		}
	}

	check("first run", 2, exitOK, "not in the cache")
	check("nothing changed", 0, exitOK, "nothing to compute", "data: 2 files that the last runs read checked against SHA256SUMS")

	set("[0]", ", examples: 2")
	check("an experiment key", 2, exitOK, "2 cells to compute: config changed: experiment.examples unset → 2")

	set("[2]", ", examples: 2")
	check("a method's parameter", 1, exitOK, "1 cell to compute: config changed: pca_components 0 → 2 (method PCA)", "pca_components=2")

	set("[2, 3]", ", examples: 2")
	check("a new value of the grid", 1, exitOK, "1 cell to compute: not in the cache: a new value of the grid: pca_components 3 (method PCA)")

	restore, err := runner.UseSources(codefptest.Edited(t, runexp.Sources, "internal/methods/identity.go", `"identity: no inputs"`, `"identity: no input"`))
	if err != nil {
		t.Fatal(err)
	}
	check("an estimator's source", 1, exitOK, "1 cell to compute: code changed (estimator identity): internal/methods/identity.go: Identity.Denoise (changed)")
	restore()
	check("the estimator's source back", 0, exitOK, "nothing to compute")

	with = []string{"--with", "learned:alpha=0.01"}
	check("a --with estimator", 1, exitOK, "a new method of the grid, Learned pre-image")
	with = []string{"--with", "learned:alpha=0.02"}
	check("a --with parameter", 1, exitOK, "1 cell to compute: --with changed: alpha 0.01 → 0.02 (method Learned pre-image)")

	py := docPython(t)
	helperDir, err := filepath.Abs("../../python")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PYTHONPATH", helperDir)
	script, util := filepath.Join(dir, "scaled.py"), filepath.Join(dir, "knnutil.py")
	writeFile(t, script, "import knnutil\nimport runexp_estimator as rx\n\n\ndef estimate(p):\n    return p.X0 * knnutil.scale()\n\n\nrx.main(estimate)\n")
	writeFile(t, util, "def scale():\n    return 1.0\n")
	with = []string{"--with", "external:command=" + py + " " + script + ",label=Scaled"}
	check("an external estimator", 1, exitOK, "a new method of the grid, Scaled")
	writeFile(t, util, "def scale():\n    return 0.5\n")
	check("a module the Python estimator imports", 1, exitOK, "1 cell to compute: external estimator's module changed: knnutil.py (import knnutil)")
	with = nil

	writeOilRoot(t, data, 0.5)
	check("a data file and its SHA256SUMS line", 3, exitOK, "3 cells to compute: data changed: computed on oilflow/DataTrn.txt")

	// The file alone: the run stops on its checksum, and so does status.
	trn := filepath.Join(data, "oilflow", "DataTrn.txt")
	b, err := os.ReadFile(trn)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, trn, "1"+string(b[1:]))
	check("a data file without its SHA256SUMS line", 0, exitUsage, "the run would stop before its first cell", "datasets: checksum mismatch for "+trn)
	writeFile(t, trn, string(b))

	dataFlag = []string{"--data", filepath.Join(dir, "no-such-root")}
	// No wall time is predicted for cells the run would never start.
	const none = "predicted wall time: none: the 3 cells to compute belong to configs that would stop on their data before their first cell"
	check("the data root gone", 3, exitUsage, "the run would stop before its first cell", "datasets: data root "+filepath.Join(dir, "no-such-root")+" (from --data) does not exist", none)
	dataFlag = nil
	check("no data root given", 3, exitUsage, "the run would stop before its first cell", "datasets: no data root", none)
}

func writeFile(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
