package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSharedCells: tiny and tiny-hr, tiny's Honeine-Richard cells under
// another title (the same cache keys). validate says which cells one
// suite computes once; the suite computes them once and says so on the
// line of the config that was served them, and suite.json counts them
// shared.
func TestSharedCells(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	dir := filepath.Join(t.TempDir(), "configs")
	os.MkdirAll(dir, 0o755)
	hr := strings.NewReplacer(`title: "tiny: two estimators on synthetic images"`, `title: "tiny: HR alone"`,
		"  - name: mika\n    label: Mika\n", "").Replace(tinyConfig)
	for name, src := range map[string]string{"tiny": tinyConfig, "tiny-hr": hr} {
		if err := os.WriteFile(filepath.Join(dir, name+".yaml"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// tiny-hr.yaml sorts before tiny.yaml.
	code, stdout, stderr := runCLI("validate", filepath.Join(dir, "tiny-hr.yaml"), filepath.Join(dir, "tiny.yaml"))
	if code != exitOK || !strings.Contains(stdout, "\n  2 cells have the cache keys of cells of tiny-hr: one suite computes them once\n") ||
		!strings.HasSuffix(stdout, "\n2 configs, 6 cells with 4 distinct cache keys: in one runexp suite, 2 cells are served from another config's computation\n") {
		t.Errorf("validate: exit %d\n%s%s", code, stdout, stderr)
	}
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr = runCLI("suite", "--configs", dir, "--out", out, "-q", "-j", "2")
	if code != exitOK || strings.Count(stdout, ", 2 shared, 0 failed)") != 1 {
		t.Errorf("suite: exit %d, want one config line with 2 shared cells\n%s%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, "suite.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Runs []struct{ Computed, Shared int } `json:"runs"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	var computed, shared int
	for _, r := range rep.Runs {
		computed += r.Computed
		shared += r.Shared
	}
	if computed != 4 || shared != 2 {
		t.Errorf("suite.json: %d cells computed, %d shared; want 4 and 2", computed, shared)
	}
}
