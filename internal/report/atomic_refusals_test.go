package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteFileAtomicRefusals checks the errors of WriteFileAtomic, each
// with nothing left behind: a path naming a folder, a parent that is a
// file, and a rename over a folder; and that a bare file name is written
// in the working folder.
func TestWriteFileAtomicRefusals(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "file"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	mkdir(t, filepath.Join(root, "empty"))
	for _, tc := range []struct {
		path, want string
	}{
		{"out/", `report: write "ROOT/out/": empty file name`},
		// os.MkdirAll's words for a parent that is a file.
		{"file/x.txt", "report: mkdir ROOT/file/: file exists"},
		{"file/sub/x.txt", "report: mkdir ROOT/file: not a directory"},
		{"empty", "report: rename ROOT/.empty.tmp-"},
	} {
		err := WriteFileAtomic(root+"/"+tc.path, []byte("data"))
		if err == nil {
			t.Errorf("%s: no error", tc.path)
			continue
		}
		if got := strings.ReplaceAll(err.Error(), root, "ROOT"); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s:\n got %s\nwant %s", tc.path, got, tc.want)
		}
	}
	if names := listDir(t, root); strings.Join(names, " ") != "empty file" {
		t.Errorf("root holds %q after the refusals, want only what was there", names)
	}
	if names := listDir(t, filepath.Join(root, "empty")); len(names) != 0 {
		t.Errorf("the folder written over holds %q", names)
	}

	t.Chdir(root)
	if err := WriteFileAtomic("bare.txt", []byte("here")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(root, "bare.txt")); err != nil || string(b) != "here" {
		t.Errorf("bare.txt holds %q (%v), want %q", b, err, "here")
	}
}

// TestFileRefusals checks FileSHA256 and MkdirTemp on what they cannot
// read or make: a folder to hash, a staging folder below a file. The
// hash itself is the FIPS 180-2 example: SHA-256("abc").
func TestFileRefusals(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "abc")
	if err := os.WriteFile(p, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	const abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
	if got, err := FileSHA256(p); err != nil || got != abc {
		t.Errorf("FileSHA256(abc) = %s, %v; want %s", got, err, abc)
	}
	if _, err := FileSHA256(root); err == nil || err.Error() != "report: hash "+root+": read "+root+": is a directory" {
		t.Errorf("FileSHA256 of a folder: %v", err)
	}
	if _, err := MkdirTemp(p, ".stage-"); err == nil || !strings.HasPrefix(err.Error(), "report: mkdir "+p+"/.stage-") ||
		!strings.HasSuffix(err.Error(), ": not a directory") {
		t.Errorf("MkdirTemp below a file: %v", err)
	}
}
