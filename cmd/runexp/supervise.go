package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/runexp/runexp/internal/runner"
)

// supervisedEnv is set in the environment of the runexp process a
// supervisor starts (see supervise) to the number of the file descriptor
// the Go runtime writes its crash report to.
const supervisedEnv = "RUNEXP_SUPERVISED"

// supervisorEnv is set in the worker's environment to the supervisor's
// pid: the worker ends when that process is gone (watchSupervisor), and
// its results lock names it.
const supervisorEnv = "RUNEXP_SUPERVISOR_PID"

// mainStatus runs body, the command itself, under a supervisor where the
// platform allows one, and returns the exit status: docs/exit-status.md
// gives a crash of runexp status 4, but the Go runtime ends a crash it
// cannot recover from (an unrecovered panic in a goroutine, a fatal error
// such as running out of memory or a concurrent map write) with status 2,
// the status of a usage error. So runexp runs as two processes: the
// supervisor starts itself again as the worker, with the runtime's crash
// report (debug.SetCrashOutput) going to a pipe as well as to standard
// error, forwards the signals it receives, and turns a worker that
// crashed into status 4. Where the worker cannot be started, body runs in
// this process.
func mainStatus(args []string, stderr io.Writer, body func() int) int {
	if os.Getenv(supervisedEnv) == "" {
		if code, ok := supervise(args, stderr); ok {
			return code
		}
	} else {
		armCrashOutput()
	}
	return body()
}

// crashStatus is what the supervisor exits with once the worker is done:
// its own status, or 4 when the runtime reported a crash (whose report is
// already on standard error), with a line saying what it means.
func crashStatus(code int, crash []byte, stderr io.Writer) int {
	if len(crash) == 0 {
		return code
	}
	// The report's headline: "panic: …", or "fatal error: …", which the
	// runtime writes before the copy starts (so only standard error has
	// "fatal error: runtime: out of memory").
	first := "a fatal error of the Go runtime"
	for _, l := range strings.Split(string(crash), "\n") {
		if strings.HasPrefix(l, "fatal error:") || strings.HasPrefix(l, "panic:") {
			first = l
			break
		}
	}
	fmt.Fprintf(stderr, "runexp: crashed (%s): a bug in runexp, or a config beyond what this machine holds that validate did not catch; the Go runtime's report is above; exit status 4 (docs/exit-status.md)\n", first)
	return exitCrash
}

// armCrashOutput makes the runtime copy a crash report to the descriptor
// the supervisor passed, and keeps the descriptor (and the variable)
// from the processes runexp starts (external estimators, git).
func armCrashOutput() {
	fd := os.Getenv(supervisedEnv)
	os.Unsetenv(supervisedEnv)
	if pid, err := strconv.Atoi(os.Getenv(supervisorEnv)); err == nil && pid > 0 {
		runner.SupervisorPID = pid
		watchSupervisor(pid)
	}
	os.Unsetenv(supervisorEnv)
	f := crashFile(fd)
	if f == nil {
		return
	}
	debug.SetCrashOutput(f, debug.CrashOptions{})
	f.Close() // SetCrashOutput keeps its own duplicate
}
