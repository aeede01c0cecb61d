package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/safefs"
)

// checkResultDir refuses a result directory that is a symbolic link (or
// not a directory): following it would write outside the results root.
func checkResultDir(dir string) error {
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

// stageDir creates the hidden sibling of dir that a report is written
// into before it replaces dir as a whole, with the mode os.Mkdir gives
// (0o777 less the umask), like the files written into it; no folder
// between top and it may be a symbolic link.
func stageDir(top, dir string) (string, error) {
	parent := filepath.Dir(dir)
	if err := safefs.MkdirUnder(top, parent); err != nil {
		return "", err
	}
	return report.MkdirTemp(parent, "."+filepath.Base(dir)+".staging-")
}

// commitDir replaces dir by stage, so an interrupted report leaves either
// the old set of outputs or the new one, never a mix. The shards/ folder
// of an array job is not part of a report and moves across. The caller
// holds dir's lock.
func commitDir(stage, dir string) error {
	if err := checkResultDir(dir); err != nil {
		return err
	}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return os.Rename(stage, dir)
	}
	shards := filepath.Join(dir, "shards")
	if fi, err := os.Lstat(shards); err == nil && fi.IsDir() {
		if err := os.Rename(shards, filepath.Join(stage, "shards")); err != nil {
			return err
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

// cleanStale removes the staging and old folders an interrupted report
// left beside dir. The caller holds dir's lock, so none is in use. If a
// run was killed between moving dir aside and moving its new outputs in,
// the newest complete set is put back first.
func cleanStale(dir string) {
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
			// Shards moved into the staging folder just before the kill
			// go back where merge looks for them.
			shards, home := filepath.Join(p, "shards"), filepath.Join(dir, "shards")
			if _, err := os.Stat(shards); err == nil {
				if _, err := os.Stat(home); errors.Is(err, fs.ErrNotExist) {
					os.MkdirAll(dir, 0o777)
					os.Rename(shards, home)
				}
			}
			os.RemoveAll(p)
		}
	}
}
