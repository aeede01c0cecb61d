package safefs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckInside: a file reached through links that stay inside the
// root is read; one a link leads out of the root (at the file or at a
// folder above it) is refused naming both ends; a missing file is
// fs.ErrNotExist; the root's own link is the user's.
func TestCheckInside(t *testing.T) {
	base := t.TempDir()
	real := filepath.Join(base, "real")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(real, "a"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(real, "a", "f"), []byte("in"), 0o644)
	os.WriteFile(filepath.Join(outside, "f"), []byte("out"), 0o644)
	root := filepath.Join(base, "root")
	if err := os.Symlink(real, root); err != nil { // the user's link
		t.Fatal(err)
	}
	os.Symlink(filepath.Join(real, "a", "f"), filepath.Join(real, "abs-in")) // absolute, inside
	os.Symlink(filepath.Join("a", "f"), filepath.Join(real, "rel-in"))       // relative, inside
	os.Symlink(filepath.Join(outside, "f"), filepath.Join(real, "a", "out")) // a file out
	os.Symlink(outside, filepath.Join(real, "dir-out"))                      // a folder out
	for _, p := range []string{"a/f", "abs-in", "rel-in"} {
		if b, err := ReadFileIn(root, filepath.Join(root, p), 10); err != nil || string(b) != "in" {
			t.Errorf("%s: %q, %v", p, b, err)
		}
	}
	for _, p := range []string{"a/out", "dir-out/f"} {
		var oe *OutsideError
		_, err := ReadFileIn(root, filepath.Join(root, p), 10)
		if !errors.As(err, &oe) || !strings.Contains(err.Error(), filepath.Join(root, p)) || !strings.Contains(err.Error(), outside) {
			t.Errorf("%s: %v, want an *OutsideError naming it and %s", p, err, outside)
		}
	}
	if _, err := ReadFileIn(root, filepath.Join(root, "missing"), 10); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
	if err := CheckInside(root, filepath.Join(root, "..", "outside", "f")); err == nil {
		t.Error("a path climbing out with .. passed")
	}
}
