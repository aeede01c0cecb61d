package safefs

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestNotRegularWords checks the words a refusal uses for each file type
// os.FileMode can carry, so that a message says what the path is.
func TestNotRegularWords(t *testing.T) {
	for _, tc := range []struct {
		mode fs.FileMode
		want string
	}{
		{fs.ModeDir | 0o755, "a directory"},
		{fs.ModeNamedPipe, "a named pipe"},
		{fs.ModeSocket, "a socket"},
		{fs.ModeDevice | fs.ModeCharDevice, "a character device"},
		{fs.ModeDevice, "a block device"},
		{fs.ModeSymlink, "a symbolic link"},
		{fs.ModeIrregular, "an irregular file"},
	} {
		want := "/p is not a regular file (" + tc.want + "); runexp reads only regular files"
		if got := (&NotRegularError{Path: "/p", Mode: tc.mode}).Error(); got != want {
			t.Errorf("mode %v: %q, want %q", tc.mode, got, want)
		}
	}
}

// TestOpenSpecialFiles checks Open on what is no regular file, each
// refused by its type without blocking (a FIFO with no writer would block
// an open for reading): a FIFO, a socket, a folder, a device through a
// link; and a missing file's error as os.Stat gives it.
func TestOpenSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	sock := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("unix socket: %v", err)
	}
	defer l.Close()
	dev := filepath.Join(dir, "null")
	if err := os.Symlink("/dev/null", dev); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, want string
	}{
		{fifo, "a named pipe"},
		{sock, "a socket"},
		{dir, "a directory"},
		{dev, "a character device"},
	} {
		// Blocking on the FIFO would hang here until go test's timeout.
		f, _, err := Open(tc.path)
		if f != nil {
			f.Close()
		}
		var nr *NotRegularError
		if !errors.As(err, &nr) || nr.Path != tc.path || kind(nr.Mode) != tc.want {
			t.Errorf("Open(%s): %v, want it refused as %s", tc.path, err, tc.want)
		}
	}
	if _, _, err := Open(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want fs.ErrNotExist", err)
	}
}
