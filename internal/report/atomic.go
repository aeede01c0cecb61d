package report

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"

	"github.com/runexp/runexp/internal/safefs"
)

// WriteFileAtomic writes data to path so that a reader (or a run resumed
// after a kill) sees either the old file or the complete new one, never a
// prefix. It creates the parent directories (0o777 less the umask, as
// os.MkdirAll does), writes a temporary file in the same directory (a
// rename is only atomic within one file system) with mode 0o666 less the
// umask, as os.Create would (0o644 under umask 022), syncs and closes it
// and renames it over path. The temporary file is removed on any error.
//
// Every writer in this package renders into memory first and then calls
// WriteFileAtomic.
func WriteFileAtomic(path string, data []byte) (err error) {
	dir, base := filepath.Split(path)
	if base == "" {
		return fmt.Errorf("report: write %q: empty file name", path)
	}
	if dir == "" {
		dir = "."
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	f, err := createTemp(dir, "."+base+".tmp-")
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close() // Already closed on the success path; the error is moot here.
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("report: write %s: %w", path, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("report: sync %s: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("report: close %s: %w", path, err)
	}
	if err = os.Rename(tmp, path); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	syncDir(dir)
	return nil
}

// syncDir makes a completed rename durable. It is best effort: some
// platforms and file systems cannot sync a directory, and the file itself is
// already complete, so failure here is not reported.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	d.Sync()
	d.Close()
}

// createTemp creates a new file in dir named prefix and a suffix naming
// its writer (safefs.Writer) and a random part, for writing, with mode 0o666
// less the umask: os.CreateTemp's 0o600 would keep results from the group
// and the web server a nightly job publishes them through.
func createTemp(dir, prefix string) (*os.File, error) {
	for range 10000 {
		name := filepath.Join(dir, prefix+safefs.Writer+"-"+strconv.FormatUint(rand.Uint64(), 36))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, fmt.Errorf("report: no unused temporary name for %s* in %s", prefix, dir)
}

// MkdirTemp creates a new folder in parent named prefix and a random
// suffix, with mode 0o777 less the umask, as os.Mkdir would (0o755 under
// umask 022; os.MkdirTemp's 0o700 would keep a result folder staged
// there from the group and the web server that publish it), and returns
// its path.
func MkdirTemp(parent, prefix string) (string, error) {
	for range 10000 {
		name := filepath.Join(parent, prefix+strconv.FormatUint(rand.Uint64(), 36))
		err := os.Mkdir(name, 0o777)
		if err == nil {
			return name, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", fmt.Errorf("report: %w", err)
		}
	}
	return "", fmt.Errorf("report: no unused temporary name for %s* in %s", prefix, parent)
}

// FileSHA256 returns the hex-encoded SHA-256 of the file at path, for
// [Manifest.ConfigSHA256] and [FileSum].
func FileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("report: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("report: hash %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
