package methods

import (
	"os/exec"
	"runtime"
	"syscall"
)

// dieWithThread has the kernel send sig to the process started with attr
// when the thread that starts it ends (PR_SET_PDEATHSIG). The calling
// goroutine is locked to its thread until the returned function is
// called, so that the thread ends only when the process does, or when
// runexp itself ends.
func dieWithThread(attr *syscall.SysProcAttr, sig syscall.Signal) (unlock func()) {
	attr.Pdeathsig = sig
	runtime.LockOSThread()
	return runtime.UnlockOSThread
}

// dieWithCaller is dieWithThread for a command run without a reaper: it
// is killed when runexp dies.
func dieWithCaller(cmd *exec.Cmd) (unlock func()) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	return dieWithThread(cmd.SysProcAttr, syscall.SIGKILL)
}
