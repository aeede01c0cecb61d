//go:build unix && !linux

package methods

import (
	"os/exec"
	"syscall"
)

// dieWithThread does nothing where there is no parent-death signal: the
// reaper polls for its parent instead (reaperPoll).
func dieWithThread(*syscall.SysProcAttr, syscall.Signal) (unlock func()) { return func() {} }

// dieWithCaller does nothing where there is no parent-death signal.
func dieWithCaller(*exec.Cmd) (unlock func()) { return func() {} }
