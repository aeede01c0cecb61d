package main

import (
	"os/exec"
	"syscall"
)

// dieWithParent has the kernel SIGKILL the worker when the supervisor
// dies (PR_SET_PDEATHSIG). os/exec arms it in the child before exec and
// then checks that its parent is still the supervisor, and
// watchSupervisor checks again, so a supervisor killed while the worker
// starts does not leave the worker running.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// parentDeath has nothing to do here: the kernel signals the worker.
func parentDeath(int) {}
