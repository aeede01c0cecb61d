//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package runner

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// lockFile creates the lock file at path exclusively (O_EXCL). Without
// flock the kernel does not release a lock whose holder died: such a
// lock stays held (named in the error) until someone removes it, rather
// than being taken over by guessing from its contents.
func lockFile(path string) (f *os.File, held bool, err error) {
	f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o644)
	if err == nil {
		return f, false, nil
	}
	if !errors.Is(err, fs.ErrExist) {
		return nil, false, err
	}
	f, err = os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, false, err
	}
	return f, true, nil
}
