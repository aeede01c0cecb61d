// Package codefptest helps tests edit the module's sources without
// rebuilding: the code fingerprints (package codefp) are computed from
// the sources embedded in the binary, so a test that changes an
// estimator's code hands the fingerprinting an edited copy of them.
package codefptest

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

// Edited returns a copy of fsys (a module tree) with the first old in
// file replaced by new; the test fails when file does not hold old.
func Edited(t testing.TB, fsys fs.FS, file, old, new string) fs.FS {
	t.Helper()
	m := fstest.MapFS{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		if p == file {
			if !strings.Contains(string(b), old) {
				t.Fatalf("%s does not hold %q", file, old)
			}
			b = []byte(strings.Replace(string(b), old, new, 1))
		}
		m[p] = &fstest.MapFile{Data: b}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}
