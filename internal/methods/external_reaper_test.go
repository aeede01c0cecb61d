//go:build linux

package methods_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestExternalRunsUnderReaper: a batch's command is the child of the
// reaper (runexp's executable started again), not of runexp, so that it
// and its batch folder go when runexp dies (TestExternalOrphans in
// cmd/runexp kills runexp each way); the reaper's variables do not reach
// the command.
func TestExternalRunsUnderReaper(t *testing.T) {
	f := newExtFixture(t)
	out := filepath.Join(t.TempDir(), "parent")
	e := newExternal(t, map[string]any{
		"command": shell(`{ tr '\0' ' ' < /proc/$PPID/cmdline; echo; env | grep -c RUNEXP_EXTERNAL_REAPER; } > ` + out + `; exit 1`),
	})
	var z mat.Dense
	if _, err := e.Denoise(&z, f.input()); err == nil || !strings.Contains(err.Error(), "exit status 1") {
		t.Fatalf("error %v, want the command's exit status 1", err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if !strings.HasPrefix(lines[0], "runexp-external-reaper ") || len(lines) != 2 || lines[1] != "0" {
		t.Errorf("the command's parent and reaper variables: %q; want runexp-external-reaper and none", b)
	}
}
