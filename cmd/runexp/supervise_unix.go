//go:build unix

package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// supervise starts this executable again as the worker with args and
// waits for it (see mainStatus). ok is false when the worker could not be
// started; nothing has run then.
func supervise(args []string, stderr io.Writer) (code int, ok bool) {
	exe, err := os.Executable()
	if err != nil {
		return 0, false
	}
	r, w, err := os.Pipe()
	if err != nil {
		return 0, false
	}
	defer r.Close()
	cmd := exec.Command(exe, args...)
	cmd.Args[0] = os.Args[0]
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.ExtraFiles = []*os.File{w} // descriptor 3
	cmd.Env = append(os.Environ(), supervisedEnv+"=3", supervisorEnv+"="+strconv.Itoa(os.Getpid()))
	// The worker dies with this process, whatever kills it (kill -9 of
	// the pid a user or a scheduler sees included): otherwise it would
	// go on computing and holding the results lock, and the rerun would
	// be refused. Linux's parent-death signal is sent when the thread
	// that started the worker ends, so that thread stays this
	// goroutine's until the worker is done.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	dieWithParent(cmd)
	// Signals are caught before the worker exists, so none is lost in
	// between.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	if err := cmd.Start(); err != nil {
		w.Close()
		return 0, false
	}
	w.Close()
	crash := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(io.LimitReader(r, 1<<20))
		crash <- b
		io.Copy(io.Discard, r)
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	werr := forward(cmd, sigs, done)
	var report []byte
	select {
	case report = <-crash:
	case <-time.After(time.Second):
		// A process the worker started holds the pipe; the runtime
		// writes its report before the worker exits, so it is complete.
		r.Close()
		report = <-crash
	}
	return workerStatus(werr, report, stderr), true
}

// forward passes the signals the supervisor gets on to the worker until
// the worker exits, and returns what its Wait returned.
func forward(cmd *exec.Cmd, sigs <-chan os.Signal, done <-chan error) error {
	for {
		select {
		case s := <-sigs:
			// An interrupt sent to the supervisor alone (kill PID,
			// timeout(1), docker stop) must reach the worker; one sent to
			// the process group or to every process of a job (Ctrl-C, a
			// scheduler) reaches the worker too. It is passed on as
			// forwardedInterrupt, which the worker takes as the same
			// interrupt as a SIGINT or SIGTERM it got within a second
			// (interrupts), so an interrupt is never counted twice.
			if s == syscall.SIGQUIT {
				cmd.Process.Signal(s)
				continue
			}
			cmd.Process.Signal(forwardedInterrupt)
		case werr := <-done:
			return werr
		}
	}
}

// workerStatus is runexp's exit status for a worker that ended with werr,
// having written report (a runtime crash report, or nothing) to the
// supervisor's pipe.
func workerStatus(werr error, report []byte, stderr io.Writer) int {
	var ee *exec.ExitError
	switch {
	case werr == nil:
		return crashStatus(exitOK, report, stderr)
	case errors.As(werr, &ee):
		ws, _ := ee.Sys().(syscall.WaitStatus)
		if ws.Signaled() {
			switch sig := ws.Signal(); sig {
			case syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, forwardedInterrupt:
				return exitInterrupted
			default:
				why := ""
				if sig == syscall.SIGKILL {
					why = " (the kernel's out-of-memory killer, or kill -9)"
				}
				fmt.Fprintf(stderr, "runexp: the worker process was killed by %s%s; exit status 4 (docs/exit-status.md)\n", signalName(sig), why)
				return exitCrash
			}
		}
		return crashStatus(ee.ExitCode(), report, stderr)
	}
	fmt.Fprintln(stderr, "runexp:", werr)
	return exitCrash
}

// signalName names sig as the shell and kill(1) do ("SIGKILL"): its
// String is the C library's description ("killed"), which read as
// "killed by killed".
func signalName(sig syscall.Signal) string {
	if n := unix.SignalName(sig); n != "" {
		return n
	}
	return fmt.Sprintf("signal %d (%v)", int(sig), sig)
}

// forwardedInterrupt is the signal the supervisor passes an interrupt on
// as (see supervise).
var forwardedInterrupt os.Signal = syscall.SIGUSR2

// crashFile returns descriptor fd (a decimal number) as a file if it is
// open and a pipe, marked close-on-exec.
func crashFile(fd string) *os.File {
	n, err := strconv.Atoi(fd)
	if err != nil || n < 3 {
		return nil
	}
	var st syscall.Stat_t
	if syscall.Fstat(n, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
		return nil
	}
	syscall.CloseOnExec(n)
	return os.NewFile(uintptr(n), "runexp-crash-report")
}

// watchSupervisor makes the worker end with its supervisor, whose pid is
// ppid: at once if the supervisor is already gone (it died before the
// parent-death signal was armed, or the worker was started where there is
// none), and afterwards through parentDeath.
func watchSupervisor(ppid int) {
	if os.Getppid() != ppid {
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
	}
	parentDeath(ppid)
}
