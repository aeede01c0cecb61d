//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package runner

import (
	"errors"
	"os"
	"syscall"
)

// lockFile opens the lock file at path (creating it, never through a
// link) and takes an exclusive flock on it without waiting. held is true
// (and f open, for reading the holder) when another descriptor holds it.
// A file unlinked by its releasing holder between the open and the lock
// is opened again, so two runs never lock two different files.
func lockFile(path string) (f *os.File, held bool, err error) {
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o644)
		if err != nil {
			return nil, false, err
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return f, true, nil
			}
			f.Close()
			return nil, false, err
		}
		if sameFile(f, path) {
			return f, false, nil
		}
		f.Close()
	}
}
