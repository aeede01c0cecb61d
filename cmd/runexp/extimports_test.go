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
