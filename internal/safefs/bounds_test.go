package safefs

import (
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

// TestLimit checks the reader that a growing records.jsonl is read
// through: exactly max bytes pass, and one more is an error naming the
// file and the bound, not a silent cut (io.LimitReader's behaviour). The
// bytes handed out before the error are the first max, whatever the
// sizes of the underlying reads.
func TestLimit(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      string
		max     int64
		wantErr bool
	}{
		{name: "under", in: "abcd", max: 5},
		{name: "exact", in: "abcde", max: 5},
		{name: "one over", in: "abcdef", max: 5, wantErr: true},
		{name: "far over", in: strings.Repeat("x", 1000), max: 5, wantErr: true},
		{name: "empty", in: "", max: 0},
		{name: "zero bound", in: "a", max: 0, wantErr: true},
	} {
		for _, one := range []bool{false, true} {
			var r io.Reader = strings.NewReader(tc.in)
			if one {
				r = iotest.OneByteReader(r) // the bound crossed inside a read, and at its edge
			}
			got, err := io.ReadAll(Limit(r, "records.jsonl", tc.max))
			if !tc.wantErr {
				if err != nil || string(got) != tc.in {
					t.Errorf("%s (one byte at a time %t): %q, %v; want %q", tc.name, one, got, err, tc.in)
				}
				continue
			}
			var tl *TooLargeError
			if !errors.As(err, &tl) || tl.Limit != tc.max || tl.Size != -1 || tl.Path != "records.jsonl" {
				t.Errorf("%s (one byte at a time %t): error %v, want a *TooLargeError with limit %d", tc.name, one, err, tc.max)
			}
			if want := tc.in[:tc.max]; string(got) != want {
				t.Errorf("%s (one byte at a time %t): handed out %q before the error, want %q", tc.name, one, got, want)
			}
		}
	}
}

// TestLimitStaysFailed checks that a reader past its bound keeps failing:
// a caller that retries after the error must not get more bytes.
func TestLimitStaysFailed(t *testing.T) {
	l := Limit(strings.NewReader("abcdefgh"), "f", 3)
	if _, err := io.ReadAll(l); err == nil {
		t.Fatal("no error past the bound")
	}
	p := make([]byte, 8)
	n, err := l.Read(p)
	var tl *TooLargeError
	if n != 0 || !errors.As(err, &tl) {
		t.Errorf("read after the error: %d bytes, %v; want 0 and a *TooLargeError", n, err)
	}
}

// TestTooLargeErrorMessages checks the two wordings a user sees: the size
// when it is known from the file's information, "longer than" when the
// reading stopped at the bound.
func TestTooLargeErrorMessages(t *testing.T) {
	for _, tc := range []struct {
		err  *TooLargeError
		want string
	}{
		{&TooLargeError{Path: "a.csv", What: "the file", Size: 12, Limit: 10},
			"a.csv: the file is 12 bytes, more than the 10 bytes it can hold"},
		{&TooLargeError{Path: "a.csv", What: "line 3", Size: -1, Limit: 10},
			"a.csv: line 3 is longer than 10 bytes, the bound for it"},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

// TestReadFileBoundary checks ReadFile at the bound: max bytes read, max-1
// refused with the file's size in the error, and an empty file is fine.
func TestReadFileBoundary(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := os.WriteFile(p, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(p, 10); err != nil || len(b) != 10 {
		t.Errorf("bound 10 on 10 bytes: %d bytes, %v", len(b), err)
	}
	_, err := ReadFile(p, 9)
	want := p + ": the file is 10 bytes, more than the 9 bytes it can hold"
	if err == nil || err.Error() != want {
		t.Errorf("bound 9 on 10 bytes: %v, want %q", err, want)
	}
	e := filepath.Join(dir, "empty")
	if err := os.WriteFile(e, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(e, 0); err != nil || len(b) != 0 {
		t.Errorf("empty file, bound 0: %q, %v", b, err)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing"), 10); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v, want an error that is os.ErrNotExist", err)
	}
}

// TestOpenRefusesSocket checks that a Unix socket, which a user could
// name as a data file, is refused by name before any read.
func TestOpenRefusesSocket(t *testing.T) {
	// A short path: socket names are limited to about 100 bytes.
	dir, err := os.MkdirTemp("", "sfs")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	p := filepath.Join(dir, "s")
	l, err := net.Listen("unix", p)
	if err != nil {
		t.Skipf("no Unix sockets here: %v", err)
	}
	defer l.Close()
	f, _, err := Open(p)
	if f != nil {
		f.Close()
	}
	var nr *NotRegularError
	if !errors.As(err, &nr) || !strings.Contains(err.Error(), "a socket") {
		t.Errorf("Open of a socket: %v, want a *NotRegularError saying a socket", err)
	}
	if _, err := ReadFile(p, 10); !errors.As(err, &nr) {
		t.Errorf("ReadFile of a socket: %v", err)
	}
}

// TestOpenRegular checks that Open hands back the file and its size.
func TestOpenRegular(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, fi, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, _ := io.ReadAll(f)
	if fi.Size() != 3 || string(b) != "abc" {
		t.Errorf("size %d, contents %q", fi.Size(), b)
	}
}

// TestLinesBounds checks the bounds of Lines at their edges: a line of
// exactly maxLine bytes passes whatever its line ending, one byte more
// does not, and exactly maxLines lines pass.
func TestLinesBounds(t *testing.T) {
	count := func(in string, maxLine, maxLines int) (int, error) {
		n := 0
		err := Lines(strings.NewReader(in), "in", maxLine, maxLines, func(int, []byte) error {
			n++
			return nil
		})
		return n, err
	}
	for _, tc := range []struct {
		name, in          string
		maxLine, maxLines int
		lines             int
		what              string // "" for no error, else the TooLargeError's What
	}{
		{name: "exact, LF", in: "abc\nabc\n", maxLine: 3, maxLines: 2, lines: 2},
		{name: "exact, CRLF", in: "abc\r\nabc\r\n", maxLine: 3, maxLines: 2, lines: 2},
		{name: "exact, no final newline", in: "abc\nabc", maxLine: 3, maxLines: 2, lines: 2},
		{name: "one over, LF", in: "abc\nabcd\n", maxLine: 3, maxLines: 2, what: "line 2"},
		{name: "one over, CRLF", in: "abc\r\nabcd\r\n", maxLine: 3, maxLines: 2, what: "line 2"},
		{name: "one over, last line", in: "abc\nabcd", maxLine: 3, maxLines: 2, what: "line 2"},
		{name: "empty input", in: "", maxLine: 3, maxLines: 0, lines: 0},
	} {
		n, err := count(tc.in, tc.maxLine, tc.maxLines)
		if tc.what == "" {
			if err != nil || n != tc.lines {
				t.Errorf("%s: %d lines, %v; want %d lines", tc.name, n, err, tc.lines)
			}
			continue
		}
		var tl *TooLargeError
		if !errors.As(err, &tl) || tl.What != tc.what || tl.Limit != int64(tc.maxLine) {
			t.Errorf("%s: %v, want a *TooLargeError for %s", tc.name, err, tc.what)
		}
	}
	if _, err := count("a\nb\nc\n", 3, 2); err == nil || err.Error() != "in: more than 2 lines, blank ones included, the most it can hold" {
		t.Errorf("three lines, bound two: %v", err)
	}
}

// TestLinesStops checks that fn's error is returned as it is and ends the
// reading: the lines after it are not read.
func TestLinesStops(t *testing.T) {
	stop := errors.New("stop")
	var seen []int
	err := Lines(strings.NewReader("a\nb\nc\n"), "in", 10, 10, func(n int, _ []byte) error {
		seen = append(seen, n)
		if n == 2 {
			return stop
		}
		return nil
	})
	if err != stop {
		t.Errorf("error %v, want fn's own error", err)
	}
	if len(seen) != 2 {
		t.Errorf("fn called for lines %v, want 1 and 2 only", seen)
	}
}

// TestLinesReadError checks that a failing reader's error is wrapped with
// the name and the line it stopped in.
func TestLinesReadError(t *testing.T) {
	boom := errors.New("disk on fire")
	r := io.MultiReader(strings.NewReader("a\nb"), iotest.ErrReader(boom))
	err := Lines(r, "data.txt", 10, 10, func(int, []byte) error { return nil })
	if !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "data.txt: line 2: ") {
		t.Errorf("%v, want data.txt: line 2: wrapping the reader's error", err)
	}
}

// TestLinkErrorMessage checks that the refusal of a link says what to do.
func TestLinkErrorMessage(t *testing.T) {
	e := &LinkError{Root: "/out", Path: "/out/a", Link: true}
	for _, want := range []string{"/out/a is a symbolic link", "under /out", "--out"} {
		if !strings.Contains(e.Error(), want) {
			t.Errorf("%q lacks %q", e.Error(), want)
		}
	}
	e.Link = false
	if got, want := e.Error(), "/out/a is not a folder; runexp writes only into real folders under /out"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestMkdirUnderRoot checks the cases at the root: the root is created
// when missing, dir may be the root itself, and a dir that climbs out of
// the root with .. is refused whatever exists there.
func TestMkdirUnderRoot(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "new", "root")
	if err := MkdirUnder(root, root); err != nil {
		t.Fatalf("MkdirUnder(root, root) with root missing: %v", err)
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		t.Fatalf("root not made: %v", err)
	}
	if err := CheckUnder(root, root); err != nil {
		t.Errorf("CheckUnder(root, root): %v", err)
	}
	for _, dir := range []string{
		filepath.Join(root, ".."),
		filepath.Join(root, "a", "..", "..", "escape"),
		base,
	} {
		if err := MkdirUnder(root, dir); err == nil || !strings.Contains(err.Error(), "is not inside") {
			t.Errorf("MkdirUnder(%s, %s): %v, want a refusal", root, dir, err)
		}
		if err := CheckUnder(root, dir); err == nil {
			t.Errorf("CheckUnder(%s, %s) accepted", root, dir)
		}
	}
	if _, err := os.Stat(filepath.Join(base, "new", "escape")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a folder was made outside the root: %v", err)
	}
}

// TestCheckUnderMissing checks that CheckUnder accepts a path whose
// components do not exist yet, but refuses a link above the missing part.
func TestCheckUnderMissing(t *testing.T) {
	root := t.TempDir()
	if err := CheckUnder(root, filepath.Join(root, "x", "y", "z")); err != nil {
		t.Errorf("missing components: %v", err)
	}
	if err := os.Symlink(t.TempDir(), filepath.Join(root, "x")); err != nil {
		t.Fatal(err)
	}
	var le *LinkError
	if err := CheckUnder(root, filepath.Join(root, "x", "y", "z")); !errors.As(err, &le) || !le.Link {
		t.Errorf("link above missing components: %v, want a *LinkError", err)
	}
}
