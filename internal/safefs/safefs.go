package safefs

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// NotRegularError reports a path that is not a regular file.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is not a regular file (%s); runexp reads only regular files", e.Path, kind(e.Mode))
}

// modeWords names the file types in words, in the order kind tests them:
// a character device also has fs.ModeDevice set, so it comes first.
var modeWords = []struct {
	bit  fs.FileMode
	name string
}{
	{fs.ModeDir, "a directory"},
	{fs.ModeNamedPipe, "a named pipe"},
	{fs.ModeSocket, "a socket"},
	{fs.ModeCharDevice, "a character device"},
	{fs.ModeDevice, "a block device"},
	{fs.ModeSymlink, "a symbolic link"},
	{fs.ModeIrregular, "an irregular file"},
}

// Kind names a file mode's type in words ("a named pipe", "a directory"),
// "a regular file" for a plain one.
func Kind(m fs.FileMode) string {
	if m.IsRegular() {
		return "a regular file"
	}
	return kind(m)
}

// kind names a file mode's type in words.
func kind(m fs.FileMode) string {
	for _, w := range modeWords {
		if m&w.bit != 0 {
			return w.name
		}
	}
	return "type " + m.Type().String()
}

// TooLargeError reports a file or line beyond its bound.
type TooLargeError struct {
	Path  string
	What  string // "file", "line 3"
	Size  int64  // the size found, or -1 when only "more than Limit" is known
	Limit int64
}

func (e *TooLargeError) Error() string {
	if e.Size < 0 {
		return fmt.Sprintf("%s: %s is longer than %d bytes, the bound for it", e.Path, e.What, e.Limit)
	}
	return fmt.Sprintf("%s: %s is %d bytes, more than the %d bytes it can hold", e.Path, e.What, e.Size, e.Limit)
}

// TooManyLinesError reports a text with more lines than it can hold.
type TooManyLinesError struct {
	Path  string
	Limit int
}

func (e *TooManyLinesError) Error() string {
	return fmt.Sprintf("%s: more than %d lines, blank ones included, the most it can hold", e.Path, e.Limit)
}

// Open opens path for reading if it is a regular file (links followed),
// and returns it with its information. A FIFO is refused before it is
// opened, so Open never blocks on one; a file swapped for one between the
// check and the open is caught by checking the opened file again.
func Open(path string) (*os.File, fs.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, &NotRegularError{Path: path, Mode: fi.Mode()}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err = f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = &NotRegularError{Path: path, Mode: fi.Mode()}
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// ReadFile reads the regular file at path if it holds at most max bytes.
// The size is checked before anything is read, and the read stops at
// max+1 bytes whatever the size said (a file growing meanwhile).
func ReadFile(path string, max int64) ([]byte, error) {
	f, fi, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > max {
		return nil, &TooLargeError{Path: path, What: "the file", Size: fi.Size(), Limit: max}
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, &TooLargeError{Path: path, What: "the file", Size: -1, Limit: max}
	}
	return b, nil
}

// Limit returns a reader of r that fails with a *TooLargeError naming
// path once more than max bytes have been read, rather than ending there
// (io.LimitReader would cut a growing file short without a word).
func Limit(r io.Reader, path string, max int64) io.Reader {
	return &limited{r: r, path: path, left: max, max: max}
}

type limited struct {
	r         io.Reader
	path      string
	left, max int64
}

func (l *limited) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, &TooLargeError{Path: l.path, What: "the file", Size: -1, Limit: l.max}
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return n - 1, &TooLargeError{Path: l.path, What: "the file", Size: -1, Limit: l.max}
	}
	return n, err
}

// Lines calls fn with each line of r (without its line ending, numbered
// from 1), refusing a line longer than maxLine bytes and more than
// maxLines lines, blank ones included. name identifies r in errors. A
// last line without a newline counts. fn's error stops the reading and is
// returned as it is.
func Lines(r io.Reader, name string, maxLine, maxLines int, fn func(n int, line []byte) error) error {
	return LinesAt(r, name, maxLine, maxLines, func(n int, _ int64, line []byte) error { return fn(n, line) })
}

// LinesAt is Lines that also gives fn the offset in r of each line's
// first byte, so that a caller can index a file by line and read a line
// again later (os.File.ReadAt) instead of keeping it.
func LinesAt(r io.Reader, name string, maxLine, maxLines int, fn func(n int, off int64, line []byte) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte
	var off int64
	for n := 1; ; n++ {
		buf = buf[:0]
		var err error
		for {
			var frag []byte
			frag, err = br.ReadSlice('\n')
			// +2: the line ending, "\n" or "\r\n"; the exact bound is
			// checked once the ending is cut off.
			if len(buf)+len(frag) > maxLine+2 {
				return &TooLargeError{Path: name, What: fmt.Sprintf("line %d", n), Size: -1, Limit: int64(maxLine)}
			}
			buf = append(buf, frag...)
			if !errors.Is(err, bufio.ErrBufferFull) {
				break
			}
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("%s: line %d: %w", name, n, err)
		}
		if len(buf) == 0 && err == io.EOF {
			return nil
		}
		if n > maxLines {
			return &TooManyLinesError{Path: name, Limit: maxLines}
		}
		line := bytes.TrimSuffix(bytes.TrimSuffix(buf, []byte("\n")), []byte("\r"))
		if len(line) > maxLine {
			return &TooLargeError{Path: name, What: fmt.Sprintf("line %d", n), Size: -1, Limit: int64(maxLine)}
		}
		if ferr := fn(n, off, line); ferr != nil {
			return ferr
		}
		off += int64(len(buf))
		if err == io.EOF {
			return nil
		}
	}
}

// LinkError reports a symbolic link (or a file where a folder belongs)
// between a root and a folder runexp writes into.
type LinkError struct {
	Root, Path string
	// Link is false when Path is not a folder at all.
	Link bool
}

func (e *LinkError) Error() string {
	if e.Link {
		return fmt.Sprintf("%s is a symbolic link; runexp writes only into real folders under %s and never follows a link out of it (remove the link, or pass its target as --out)", e.Path, e.Root)
	}
	return fmt.Sprintf("%s is not a folder; runexp writes only into real folders under %s", e.Path, e.Root)
}

// components returns root and the successive folders from root down to
// dir, which must be root or lie below it.
func components(root, dir string) ([]string, error) {
	root, dir = filepath.Clean(root), filepath.Clean(dir)
	rel, err := filepath.Rel(root, dir)
	if err != nil || (rel != "." && !filepath.IsLocal(rel)) {
		return nil, fmt.Errorf("%s is not inside %s", dir, root)
	}
	out := []string{}
	if rel == "." {
		return out, nil
	}
	cur := root
	for _, c := range splitPath(rel) {
		cur = filepath.Join(cur, c)
		out = append(out, cur)
	}
	return out, nil
}

func splitPath(rel string) []string {
	var parts []string
	for rel != "." && rel != "" {
		d, b := filepath.Split(rel)
		parts = append([]string{b}, parts...)
		rel = filepath.Clean(d)
		if d == "" {
			break
		}
	}
	return parts
}

// CheckUnder reports an error when a component of dir below root exists
// and is a symbolic link or not a folder. Components that do not exist
// yet are fine (MkdirUnder makes them); root itself is not checked.
func CheckUnder(root, dir string) error {
	comps, err := components(root, dir)
	if err != nil {
		return err
	}
	for _, c := range comps {
		fi, err := os.Lstat(c)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err := checkFolder(root, c, fi, err); err != nil {
			return err
		}
	}
	return nil
}

// checkFolder refuses the component c of a path below root whose Lstat
// gave fi and err: a symbolic link, or not a folder.
func checkFolder(root, c string, fi fs.FileInfo, err error) error {
	switch {
	case err != nil:
		return err
	case fi.Mode()&fs.ModeSymlink != 0:
		return &LinkError{Root: root, Path: c, Link: true}
	case !fi.IsDir():
		return &LinkError{Root: root, Path: c}
	}
	return nil
}

// MkdirUnder creates dir and the folders between root and it (mode 0o777
// less the umask), as os.MkdirAll does, refusing a symbolic link or a file at any component
// below root. root is created if missing.
func MkdirUnder(root, dir string) error {
	comps, err := components(root, dir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(root, 0o777); err != nil {
		return err
	}
	for _, c := range comps {
		fi, err := os.Lstat(c)
		if errors.Is(err, fs.ErrNotExist) {
			if err := os.Mkdir(c, 0o777); err != nil && !errors.Is(err, fs.ErrExist) {
				return err
			}
			fi, err = os.Lstat(c)
		}
		if err := checkFolder(root, c, fi, err); err != nil {
			return err
		}
	}
	return nil
}
