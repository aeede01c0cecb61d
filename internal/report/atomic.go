package report

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// WriteFileAtomic writes data to path so that a reader (or a run resumed
// after a kill) sees either the old file or the complete new one, never a
// prefix. It creates the parent directories (0o755), writes a temporary file
// in the same directory (a rename is only atomic within one file system),
// syncs and closes it, sets its mode to 0o644 and renames it over path. The
// temporary file is removed on any error.
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
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
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
	// CreateTemp makes the file 0o600; results are meant to be shared.
	if err = f.Chmod(0o644); err != nil {
		return fmt.Errorf("report: chmod %s: %w", path, err)
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
