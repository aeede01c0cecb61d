package runner

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/runexp/runexp/internal/safefs"
)

// maxLockBytes bounds a lock file: one line of JSON, under 200 bytes.
const maxLockBytes = 4 << 10

// SupervisorPID is the pid of the process a user or a scheduler sees when
// this process is runexp's supervised worker (cmd/runexp sets it), or 0.
// The lock names both, so that a message about a held lock names a
// process the user can find.
var SupervisorPID int

// lockWait is how long acquireLock waits for a lock whose holder's
// supervisor is gone: the worker is being killed with it (cmd/runexp's
// supervise) and the kernel releases its lock when it has died.
var lockWait = 5 * time.Second

// lockInfo is what a lock file holds: who writes the results folder.
// PID is the process that holds the lock; Supervisor, when not 0, the
// runexp process that started it as its worker.
type lockInfo struct {
	PID        int       `json:"pid"`
	Supervisor int       `json:"supervisor,omitempty"`
	Host       string    `json:"host"`
	Start      time.Time `json:"start"`
}

// LockError reports a results folder held by another live run.
type LockError struct {
	Dir, File string
	Holder    lockInfo
}

func (e *LockError) Error() string {
	h := e.Holder
	if h.PID == 0 {
		return fmt.Sprintf("%s is being written by another run that has not yet named itself in its lock %s; wait for that run", e.Dir, e.File)
	}
	who := fmt.Sprintf("pid %d", h.PID)
	if h.Supervisor != 0 {
		who = fmt.Sprintf("pid %d (the worker of runexp pid %d)", h.PID, h.Supervisor)
	}
	return fmt.Sprintf("%s is being written by %s on %s since %s (lock %s); wait for that run, or stop it",
		e.Dir, who, h.Host, h.Start.Format(time.RFC3339), e.File)
}

// lockPath is the lock of a result directory: a hidden sibling, so that
// replacing the directory as a whole leaves it in place.
func lockPath(dir string) string {
	return filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+".lock")
}

// acquireLock makes this process the one writer of dir. The lock is held
// on an open descriptor (lockFile: flock where the system has it), so it
// is atomic by construction and the kernel releases it when its holder
// dies, however it dies: a lock is never taken over by reading a file,
// so a lock file its holder has not yet written is still held. The file
// names the holder (pid, supervisor, host, start) for the message of a
// run that finds it held. The returned release removes the lock.
func acquireLock(top, dir string) (release func(), err error) {
	path := lockPath(dir)
	if err := safefs.MkdirUnder(top, filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("results lock: %w", err)
	}
	host, _ := os.Hostname()
	me := lockInfo{PID: os.Getpid(), Supervisor: SupervisorPID, Host: host, Start: time.Now().UTC()}
	b, err := json.Marshal(me)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(lockWait)
	for {
		f, held, err := lockFile(path)
		if err != nil {
			return nil, fmt.Errorf("results lock %s: %w", path, err)
		}
		if held {
			holder := readHolder(f)
			f.Close()
			// A holder whose supervisor is gone is dying with it.
			if holder.Supervisor != 0 && holder.Host == host && !alive(holder.Supervisor) && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
				continue
			}
			return nil, &LockError{Dir: dir, File: path, Holder: holder}
		}
		if err := f.Truncate(0); err == nil {
			_, err = f.WriteAt(append(b, '\n'), 0)
		}
		if err != nil {
			os.Remove(path)
			f.Close()
			return nil, fmt.Errorf("results lock %s: %w", path, err)
		}
		// Removed before it is unlocked: a run that opened the file
		// before the removal and locks it after finds it unlinked and
		// opens the path again (lockFile).
		return func() { os.Remove(path); f.Close() }, nil
	}
}

// readHolder reads the lock file f's holder; a lock not yet written
// names none (PID 0).
func readHolder(f *os.File) lockInfo {
	var li lockInfo
	b, err := io.ReadAll(io.LimitReader(io.NewSectionReader(f, 0, maxLockBytes), maxLockBytes))
	if err == nil {
		json.Unmarshal(b, &li)
	}
	return li
}

// sameFile reports whether f is still the file at path (not unlinked or
// replaced since it was opened).
func sameFile(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Lstat(path)
	return err == nil && os.SameFile(a, b)
}

// alive reports whether a process of this host with the given pid exists.
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
