package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExternalImportEditRecomputes is issue #46's silent wrong result:
// the cache key of an external estimator covered only the script named
// on the command line, so editing python/runexp_estimator.py (the helper
// every Python estimator imports) left the cells cached with the old
// numbers. The key now covers the project modules the script imports:
// an edit of the helper recomputes the estimator's cells, and only them.
func TestExternalImportEditRecomputes(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	py := docPython(t)
	dir := t.TempDir()
	// The project's layout: python/ with the helper, the estimator in a
	// folder of its own that imports it through PYTHONPATH.
	helper, err := os.ReadFile("../../python/runexp_estimator.py")
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile("../../python/examples/feature_neighbours.py")
	if err != nil {
		t.Fatal(err)
	}
	for p, b := range map[string][]byte{"python/runexp_estimator.py": helper, "mine/knn_input.py": script} {
		p = filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PYTHONPATH", filepath.Join(dir, "python"))
	f := writeTiny(t, dir, "")
	out := filepath.Join(dir, "out")
	spec := "external:command=" + py + " " + filepath.Join(dir, "mine", "knn_input.py") + `,params='{"k": 1}',label=Knn`
	run := func(want string) {
		t.Helper()
		code, stdout, stderr := runCLI("-q", "--out", out, "--with", spec, f)
		if code != exitOK || !strings.Contains(stdout, want) {
			t.Fatalf("exit %d, %q; want %q\n%s", code, stdout, want, stderr)
		}
	}
	// tiny: 2 widths × 2 methods, and Knn's 2 cells.
	run("6 cells (6 computed, 0 cached, 0 failed)")
	run("6 cells (0 computed, 6 cached, 0 failed)")
	p := filepath.Join(dir, "python", "runexp_estimator.py")
	if err := os.WriteFile(p, append(helper, []byte("\n# edited: the estimator's cells must run again\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	run("6 cells (2 computed, 4 cached, 0 failed)")
}

// TestExternalLoadedModulesRecompute: the cache key found an external
// estimator's imports by reading its source, and missed every form
// below: editing the module the script imports left its cells cached,
// status saw no change, and --force gave other metrics. The estimator's
// process now lists the modules it actually loaded (the Python helper,
// from sys.modules), each cell's entry keeps their SHA-256, and an edit of
// any of them, however it was imported, recomputes the estimator's cells
// and no other, status naming the module.
func TestExternalLoadedModulesRecompute(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	py := docPython(t)
	helperDir, err := filepath.Abs("../../python")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PYTHONPATH", helperDir)
	const body = `
import runexp_estimator as rx


def estimate(p):
    return p.X0 * scale()


rx.main(estimate)
`
	for _, tc := range []struct {
		name, imp string
		link      bool // the script is named through a link in another folder
	}{
		{"try on one line", "try: import knnutil\nexcept ImportError: raise\nscale = knnutil.scale\n", false},
		{"after if on one line", "if True: import knnutil\nscale = knnutil.scale\n", false},
		{"inside def on one line", "def scale(): import knnutil; return knnutil.scale()\n", false},
		{"from import with a bracket", "from knnutil import(scale)\n", false},
		{"a tab after import", "import\tknnutil\nscale = knnutil.scale\n", false},
		{"a # in a string before ; import", "x = \"#\"; import knnutil\nscale = knnutil.scale\n", false},
		{"a script named through a link", "import knnutil\nscale = knnutil.scale\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			mine := filepath.Join(dir, "mine")
			os.MkdirAll(mine, 0o755)
			script := filepath.Join(mine, "scaled.py")
			if err := os.WriteFile(script, []byte(tc.imp+body), 0o644); err != nil {
				t.Fatal(err)
			}
			util := filepath.Join(mine, "knnutil.py")
			if err := os.WriteFile(util, []byte("def scale():\n    return 1.0\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			named := script
			if tc.link {
				other := filepath.Join(dir, "elsewhere")
				os.MkdirAll(other, 0o755)
				named = filepath.Join(other, "scaled.py")
				if err := os.Symlink(script, named); err != nil {
					t.Skip(err)
				}
			}
			f := writeTiny(t, dir, "")
			out := filepath.Join(dir, "out")
			spec := "external:command=" + py + " " + named + ",label=Scaled"
			run := func(want string) {
				t.Helper()
				code, stdout, stderr := runCLI("-q", "--out", out, "--with", spec, f)
				if code != exitOK || !strings.Contains(stdout, want) {
					t.Fatalf("exit %d, %q; want %q\n%s", code, stdout, want, stderr)
				}
			}
			// tiny: 2 widths × 2 methods, and Scaled's 2 cells.
			run("6 cells (6 computed, 0 cached, 0 failed)")
			run("6 cells (0 computed, 6 cached, 0 failed)")
			if err := os.WriteFile(util, []byte("def scale():\n    return 0.5\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := runCLI("status", "--out", out, "--with", spec, f)
			if code != exitOK || !strings.Contains(stdout, "2 to compute") || !strings.Contains(stdout, "knnutil.py") {
				t.Errorf("status after the edit: exit %d, %q (stderr %q); want 2 cells to compute, naming knnutil.py", code, stdout, stderr)
			}
			run("6 cells (2 computed, 4 cached, 0 failed)")
			run("6 cells (0 computed, 6 cached, 0 failed)")
		})
	}
}
