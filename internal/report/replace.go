package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/runexp/runexp/internal/safefs"
)

// A set of outputs that must change together (a run's result folder, a
// paper's report: REPORT.md, report.html and metadata.yaml) is written
// into a hidden staging folder beside its folder, which then replaces the
// folder as a whole (CommitDir): a reader, or an interrupted writer,
// sees the old set or the new one, never a mix. CleanStale, called
// before the next write, puts back or removes what an interruption left.

// StageDir creates the hidden sibling of dir that a set of outputs is
// written into before it replaces dir as a whole (CommitDir), with the
// mode os.Mkdir gives (0o777 less the umask); no folder between top and
// it may be a symbolic link (safefs.MkdirUnder).
func StageDir(top, dir string) (string, error) {
	parent := filepath.Dir(dir)
	if err := safefs.MkdirUnder(top, parent); err != nil {
		return "", err
	}
	return MkdirTemp(parent, "."+filepath.Base(dir)+".staging-")
}

// CheckDir refuses a folder that is a symbolic link (or not a folder):
// writing through it would write outside the folder it lies in.
func CheckDir(dir string) error {
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s is a symbolic link; runexp writes only into real directories under --out (remove the link)", dir)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	return nil
}

// CommitDir replaces dir by stage, so that an interrupted writer leaves
// either the old set of outputs or the new one. The entries of dir named
// in carry (a run's shards/ folder, which is no part of its report) move
// across into the new set. The caller keeps other writers of dir out.
func CommitDir(stage, dir string, carry ...string) error {
	if err := CheckDir(dir); err != nil {
		return err
	}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return os.Rename(stage, dir)
	}
	for _, name := range carry {
		p := filepath.Join(dir, name)
		if fi, err := os.Lstat(p); err == nil && fi.IsDir() {
			if err := os.Rename(p, filepath.Join(stage, name)); err != nil {
				return err
			}
		}
	}
	old := filepath.Join(filepath.Dir(dir), strings.Replace(filepath.Base(stage), ".staging-", ".old-", 1))
	if err := os.Rename(dir, old); err != nil {
		return err
	}
	if err := os.Rename(stage, dir); err != nil {
		// Put the old outputs back rather than leave none.
		os.Rename(old, dir)
		return err
	}
	return os.RemoveAll(old)
}

// CleanStale removes the staging and old folders an interrupted writer
// left beside dir (a temporary file left in dir goes with the old set at
// the next CommitDir). The
// caller keeps other writers of dir out, so none is in use. If a writer
// was killed between moving dir aside and moving its new outputs in, the
// complete old set is put back first; the entries named in carry that
// had moved into a staging folder go back into dir.
func CleanStale(dir string, carry ...string) {
	parent, base := filepath.Dir(dir), filepath.Base(dir)
	ents, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range ents {
		name := e.Name()
		p := filepath.Join(parent, name)
		switch {
		case strings.HasPrefix(name, "."+base+".old-"):
			if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
				if os.Rename(p, dir) == nil {
					continue
				}
			}
			os.RemoveAll(p)
		case strings.HasPrefix(name, "."+base+".staging-"):
			for _, c := range carry {
				moved, home := filepath.Join(p, c), filepath.Join(dir, c)
				if _, err := os.Stat(moved); err == nil {
					if _, err := os.Stat(home); errors.Is(err, fs.ErrNotExist) {
						os.MkdirAll(dir, 0o777)
						os.Rename(moved, home)
					}
				}
			}
			os.RemoveAll(p)
		}
	}
}
