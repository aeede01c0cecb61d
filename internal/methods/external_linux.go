package methods

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
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

// killBatchProcesses kills every process of this user whose environment
// names the batch folder dir (RUNEXP_ESTIMATOR_DIR, which the command and
// whatever it starts inherit), but this one, and returns how many it
// killed. It reaches what the process group does not: an estimator's
// child whose reaper was killed (its group then has no one to kill it),
// or one that left the group (setsid).
func killBatchProcesses(dir string) int {
	want := []byte("RUNEXP_ESTIMATOR_DIR=" + dir + "\x00")
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	self := os.Getpid()
	n := 0
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil || pid == self {
			continue
		}
		f, err := os.Open(filepath.Join("/proc", p.Name(), "environ"))
		if err != nil {
			continue // gone, or another user's
		}
		// An environment is at most a few hundred kilobytes (ARG_MAX
		// bounds it with the arguments).
		env, _ := io.ReadAll(io.LimitReader(f, 4<<20))
		f.Close()
		if bytes.HasPrefix(env, want) || bytes.Contains(env, append([]byte{0}, want...)) {
			if syscall.Kill(pid, syscall.SIGKILL) == nil {
				n++
			}
		}
	}
	return n
}
