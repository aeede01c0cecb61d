//go:build linux

package main

import (
	"syscall"
	"unsafe"
)

// inForeground reports whether this process's group is the foreground
// group of the terminal on standard input, where Ctrl-C reaches every
// member of the group.
func inForeground() bool {
	var pgrp int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, 0, syscall.TIOCGPGRP, uintptr(unsafe.Pointer(&pgrp))); e != 0 {
		return false
	}
	return int(pgrp) == syscall.Getpgrp()
}
