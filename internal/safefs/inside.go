package safefs

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// OutsideError reports a path under a root that a symbolic link leads
// out of it: runexp reads results only inside the results root they
// were given, so that a link planted among them cannot make a report
// quote a file from elsewhere.
type OutsideError struct {
	Root, Path string
	// Target is where the links lead.
	Target string
}

func (e *OutsideError) Error() string {
	return fmt.Sprintf("%s leads to %s, outside %s; runexp reads results only inside the folder it was given (remove the link, or copy the file in)", e.Path, e.Target, e.Root)
}

// CheckInside refuses path, a file or folder at or below root, when a
// symbolic link at any of its components leads outside root (root's own
// links are the user's and are resolved first). A path that does not
// exist is an error that is fs.ErrNotExist. As with CheckUnder, a link
// swapped in after the check is not caught.
func CheckInside(root, path string) error {
	if _, err := components(root, path); err != nil {
		return err
	}
	// Absolute first: a link may lead to an absolute path inside root.
	r, err := absEval(root)
	if err != nil {
		return err
	}
	p, err := absEval(path)
	if err != nil {
		return err
	}
	if rel, err := filepath.Rel(r, p); err != nil || (rel != "." && !filepath.IsLocal(rel)) {
		return &OutsideError{Root: root, Path: path, Target: p}
	}
	return nil
}

// OpenIn is Open for a file that must lie inside root (CheckInside).
func OpenIn(root, path string) (*os.File, fs.FileInfo, error) {
	if err := CheckInside(root, path); err != nil {
		return nil, nil, err
	}
	return Open(path)
}

// ReadFileIn is ReadFile for a file that must lie inside root
// (CheckInside).
func ReadFileIn(root, path string, max int64) ([]byte, error) {
	if err := CheckInside(root, path); err != nil {
		return nil, err
	}
	return ReadFile(path, max)
}

// IsLink reports whether path itself is a symbolic link (not followed).
func IsLink(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

// absEval is path made absolute with every link resolved.
func absEval(path string) (string, error) {
	a, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(a)
}
