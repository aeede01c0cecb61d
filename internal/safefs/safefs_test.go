package safefs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	os.WriteFile(p, []byte("hello"), 0o644)
	if b, err := ReadFile(p, 5); err != nil || string(b) != "hello" {
		t.Fatalf("%q, %v", b, err)
	}
	var tl *TooLargeError
	if _, err := ReadFile(p, 4); !errors.As(err, &tl) || tl.Size != 5 {
		t.Errorf("4-byte bound: %v", err)
	}
	// /dev/zero (the campaign linked records.jsonl to it), a FIFO and a
	// folder are refused by name, without blocking or reading.
	link := filepath.Join(dir, "records.jsonl")
	os.Symlink("/dev/zero", link)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]string{link: "a character device", fifo: "a named pipe", dir: "a directory"} {
		_, err := ReadFile(p, 1<<20)
		var nr *NotRegularError
		if !errors.As(err, &nr) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: %v, want %q", p, err, want)
		}
	}
}

func TestLines(t *testing.T) {
	var got []string
	err := Lines(strings.NewReader("a\r\n\nbc\nd"), "x", 2, 4, func(n int, l []byte) error {
		got = append(got, string(l))
		return nil
	})
	if err != nil || strings.Join(got, "|") != "a||bc|d" {
		t.Fatalf("%q, %v", got, err)
	}
	// A line over the bound, found without reading past it.
	r := &countingReader{left: 1 << 30}
	err = Lines(r, "zeros", 1<<10, 10, func(int, []byte) error { return nil })
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.What != "line 1" {
		t.Errorf("endless line: %v", err)
	}
	if r.read > 1<<20 {
		t.Errorf("read %d bytes of an endless line with a 1 KiB bound", r.read)
	}
	// Blank lines count.
	err = Lines(strings.NewReader(strings.Repeat("\n", 11)), "blank", 10, 10, func(int, []byte) error { return nil })
	var tm *TooManyLinesError
	if !errors.As(err, &tm) || !strings.Contains(err.Error(), "more than 10 lines") {
		t.Errorf("11 blank lines: %v", err)
	}
}

type countingReader struct{ left, read int }

func (c *countingReader) Read(p []byte) (int, error) {
	n := min(len(p), c.left)
	clear(p[:n])
	c.left -= n
	c.read += n
	return n, nil
}

func TestMkdirUnder(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	if err := MkdirUnder(root, filepath.Join(root, "a", "b")); err != nil {
		t.Fatal(err)
	}
	if err := CheckUnder(root, filepath.Join(root, "a", "b", "c")); err != nil {
		t.Fatal(err)
	}
	os.Symlink(outside, filepath.Join(root, "a", "link"))
	for _, d := range []string{filepath.Join(root, "a", "link"), filepath.Join(root, "a", "link", "deeper")} {
		var le *LinkError
		if err := MkdirUnder(root, d); !errors.As(err, &le) || le.Path != filepath.Join(root, "a", "link") {
			t.Errorf("MkdirUnder %s: %v", d, err)
		}
		if err := CheckUnder(root, d); !errors.As(err, &le) {
			t.Errorf("CheckUnder %s: %v", d, err)
		}
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("wrote %v through the link", ents)
	}
	os.WriteFile(filepath.Join(root, "file"), nil, 0o644)
	if err := MkdirUnder(root, filepath.Join(root, "file", "x")); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("file as folder: %v", err)
	}
	if err := MkdirUnder(root, outside); err == nil {
		t.Error("a folder outside the root was made")
	}
	// The root itself may be a link (a user's --out).
	lroot := filepath.Join(outside, "root-link")
	os.Symlink(root, lroot)
	if err := MkdirUnder(lroot, filepath.Join(lroot, "a", "c")); err != nil {
		t.Errorf("root given as a link: %v", err)
	}
}
