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

// killBatchProcesses cannot read other processes' environments here (no
// /proc): what the process group holds is killed by the reaper, and a
// process that left it is not found.
func killBatchProcesses(dir string) int { return 0 }
