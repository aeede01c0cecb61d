package runner

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/runexp/runexp/internal/safefs"
)

// maxLockBytes bounds a lock file: one line of JSON, under 200 bytes.
const maxLockBytes = 4 << 10

// lockInfo is what a lock file holds: who writes the results folder.
type lockInfo struct {
	PID   int       `json:"pid"`
	Host  string    `json:"host"`
	Start time.Time `json:"start"`
}

// LockError reports a results folder held by another live run.
type LockError struct {
	Dir, File string
	Holder    lockInfo
}

func (e *LockError) Error() string {
	return fmt.Sprintf("%s is being written by pid %d on %s since %s (lock %s); wait for that run, or remove the lock if it is gone",
		e.Dir, e.Holder.PID, e.Holder.Host, e.Holder.Start.Format(time.RFC3339), e.File)
}

// lockPath is the lock of a result directory: a hidden sibling, so that
// replacing the directory as a whole leaves it in place.
func lockPath(dir string) string {
	return filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+".lock")
}

// acquireLock makes this process the one writer of dir. A lock left by a
// process of this host that no longer exists is taken over; a live
// holder (or one on another host, whose liveness cannot be checked) is
// reported with its pid, host and start. The returned release removes the
// lock.
func acquireLock(top, dir string) (release func(), err error) {
	path := lockPath(dir)
	if err := safefs.MkdirUnder(top, filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("results lock: %w", err)
	}
	host, _ := os.Hostname()
	me := lockInfo{PID: os.Getpid(), Host: host, Start: time.Now().UTC()}
	b, err := json.Marshal(me)
	if err != nil {
		return nil, err
	}
	for attempt := 0; attempt < 3; attempt++ {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			_, werr := f.Write(append(b, '\n'))
			cerr := f.Close()
			if werr != nil || cerr != nil {
				os.Remove(path)
				return nil, fmt.Errorf("results lock %s: %v", path, errors.Join(werr, cerr))
			}
			return func() { os.Remove(path) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("results lock: %w", err)
		}
		holder, rerr := readLock(path)
		if rerr != nil {
			if errors.Is(rerr, fs.ErrNotExist) {
				continue // released meanwhile
			}
			// An unreadable or half-written lock (its writer killed
			// between create and write) names no live holder.
			holder = lockInfo{}
		}
		if holder.PID != 0 && (holder.Host != host || alive(holder.PID)) {
			return nil, &LockError{Dir: dir, File: path, Holder: holder}
		}
		// Stale: move it aside under a name of our own, so that of two
		// runs taking it over only one removes it; check that what was
		// moved is the stale lock and not a fresh one.
		aside := path + ".stale-" + strconv.Itoa(os.Getpid())
		if err := os.Rename(path, aside); err != nil {
			continue
		}
		moved, _ := readLock(aside)
		if moved.PID != 0 && moved != holder && (moved.Host != host || alive(moved.PID)) {
			os.Rename(aside, path)
			return nil, &LockError{Dir: dir, File: path, Holder: moved}
		}
		os.Remove(aside)
	}
	return nil, fmt.Errorf("results lock %s: could not be taken", path)
}

func readLock(path string) (lockInfo, error) {
	var li lockInfo
	b, err := safefs.ReadFile(path, maxLockBytes)
	if err != nil {
		return li, err
	}
	err = json.Unmarshal(b, &li)
	return li, err
}

// alive reports whether a process of this host with the given pid exists.
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
