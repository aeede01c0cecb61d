//go:build unix

package methods

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/runexp/runexp/internal/safefs"
)

// The reaper. A batch's command runs in a process group of its own, so
// that a time-out kills everything it started; but a group of its own is
// also out of reach of whatever kills runexp: kill -9 of runexp's pid or
// of its process group, or a SIGTERM on which runexp exits without its
// running cells, left the estimator running (parent 1) and its batch
// folder, with the inputs, in TMPDIR. So the command runs under a reaper:
// runexp's own executable started again (reaperEnv in its environment
// makes this package's init run it instead of runexp), in a process
// group of its own, which the kernel sends SIGTERM when the runexp
// thread that started it ends (Linux's parent-death signal; elsewhere it
// polls its parent every reaperPoll). The reaper starts the command as
// the leader of another group, waits for it, kills what it left in its
// group, and reports how it ended on a pipe. On runexp's time limit
// (reaperStop) it kills the command's group at once; when runexp is gone
// it also removes the batch folder, which nobody else will.

const (
	// reaperEnv holds the batch folder in the reaper's environment.
	reaperEnv = "RUNEXP_EXTERNAL_REAPER"
	// reaperParentEnv holds the pid of the runexp process that started
	// the reaper: a reaper whose parent is another has lost it.
	reaperParentEnv = "RUNEXP_EXTERNAL_REAPER_PARENT"
	// reaperStatusFD is the reaper's descriptor of the status pipe.
	reaperStatusFD = 3
	// reaperPoll is how often the reaper checks for its parent where no
	// parent-death signal is sent, and as a backstop where one is.
	reaperPoll = 200 * time.Millisecond
	// reaperStop is the signal by which runexp, alive, has the reaper
	// stop the batch (its time limit). Any other end — the parent-death
	// signal SIGTERM, a SIGTERM, SIGINT or SIGHUP from anyone, runexp
	// found gone — also removes the batch folder: the parent-death
	// signal comes when the thread that started the reaper dies, which
	// may be before runexp as a whole is gone, so the reaper cannot ask
	// whether its parent lives.
	reaperStop = syscall.SIGUSR1
	// reaperGrace is how long runexp waits for the reaper to report once
	// it asked it to stop, before killing it (its command then dies of
	// its own parent-death signal on Linux).
	reaperGrace = 10 * time.Second
)

func init() {
	if dir := os.Getenv(reaperEnv); dir != "" {
		os.Exit(reap(dir, os.Args[1:]))
	}
}

// runBatch runs the command under a reaper, or directly where the
// reaper cannot start (no executable to start again).
func runBatch(ctx context.Context, name string, args []string, dir string, stderr *os.File) (batchOutcome, error) {
	// The command's own path is resolved here, so that a missing
	// command fails as it always did.
	if _, err := exec.LookPath(name); err != nil {
		return batchOutcome{}, &startError{err}
	}
	out, err := runReaped(ctx, name, args, dir, stderr)
	if errors.Is(err, errNoReaper) {
		return runDirect(ctx, name, args, dir, stderr)
	}
	return out, err
}

var errNoReaper = errors.New("external: the reaper cannot start")

// reaperExecutable is the executable the reaper is started from: this
// process's own image (on Linux /proc/self/exe, which stays valid when the
// binary is replaced, by make build say, during a run).
func reaperExecutable() (string, error) {
	if _, err := os.Stat("/proc/self/exe"); err == nil {
		return "/proc/self/exe", nil
	}
	return os.Executable()
}

// runReaped runs the command under a reaper, which reports how it ended;
// errNoReaper when the reaper could not start.
func runReaped(ctx context.Context, name string, args []string, dir string, stderr *os.File) (batchOutcome, error) {
	self, err := reaperExecutable()
	if err != nil {
		return batchOutcome{}, errNoReaper
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return batchOutcome{}, errNoReaper
	}
	sr, sw, err := os.Pipe()
	if err != nil {
		return batchOutcome{}, errNoReaper
	}
	defer sr.Close()
	cmd := exec.Command(self, append([]string{name}, args...)...)
	cmd.Args[0] = "runexp-external-reaper"
	cmd.Env = append(os.Environ(), "RUNEXP_ESTIMATOR_DIR="+dir, reaperEnv+"="+abs, reaperParentEnv+"="+strconv.Itoa(os.Getpid()))
	cmd.Stderr = stderr
	cmd.ExtraFiles = []*os.File{sw} // descriptor 3
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	unlock := dieWithThread(cmd.SysProcAttr, syscall.SIGTERM)
	defer unlock()
	err = cmd.Start()
	sw.Close()
	if err != nil {
		return batchOutcome{}, errNoReaper
	}
	report := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(io.LimitReader(sr, 1<<20))
		report <- b
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var werr error
	select {
	case werr = <-done:
	case <-ctx.Done():
		// The time limit: the reaper kills the command's group and
		// reports; one that does not is killed.
		cmd.Process.Signal(reaperStop)
		select {
		case werr = <-done:
		case <-time.After(reaperGrace):
			cmd.Process.Kill()
			werr = <-done
		}
	}
	b := <-report
	var out batchOutcome
	if err := json.Unmarshal(b, &out); err != nil || out.State == "" && out.StartErr == "" {
		// The reaper was killed (kill -9 of it alone): its command died
		// of its parent-death signal, but what the command started is
		// in a group nobody will kill, and may still run.
		killBatchProcesses(abs)
		return batchOutcome{}, fmt.Errorf("its reaper (runexp) ended without saying how the command ended (%v)", werr)
	}
	if out.StartErr != "" {
		return out, &startError{errors.New(out.StartErr)}
	}
	return out, nil
}

// reap is the reaper's whole life: run argv with the batch folder dir,
// report how it ended on descriptor reaperStatusFD, and return the
// reaper's exit status.
func reap(dir string, argv []string) int {
	status := os.NewFile(reaperStatusFD, "runexp-reaper-status")
	syscall.CloseOnExec(reaperStatusFD)
	parent, _ := strconv.Atoi(os.Getenv(reaperParentEnv))
	report := func(o batchOutcome) int {
		if status != nil {
			json.NewEncoder(status).Encode(o)
			status.Close()
		}
		return 0
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, reaperStop)
	gone := make(chan os.Signal, 2)
	signal.Notify(gone, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	if len(argv) == 0 {
		return report(batchOutcome{StartErr: "no command"})
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = withoutEnv(os.Environ(), reaperEnv, reaperParentEnv)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithThread(cmd.SysProcAttr, syscall.SIGKILL) // for the reaper's whole life
	if os.Getppid() != parent {
		// runexp died before the parent-death signal was armed.
		removeBatch(dir)
		return report(batchOutcome{StartErr: "runexp ended before the command started"})
	}
	if err := cmd.Start(); err != nil {
		return report(batchOutcome{StartErr: err.Error()})
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	tick := time.NewTicker(reaperPoll)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			out := outcomeOf(err)
			out.Leftover = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) == nil
			return report(out)
		case <-stop:
			return report(stopBatch(cmd, done, dir, false))
		case <-gone:
			return report(stopBatch(cmd, done, dir, true))
		case <-tick.C:
			if os.Getppid() != parent {
				return report(stopBatch(cmd, done, dir, true))
			}
		}
	}
}

// stopBatch kills the command's group and waits for the command; if
// runexp is gone (or going), it removes the batch folder too.
func stopBatch(cmd *exec.Cmd, done <-chan error, dir string, gone bool) batchOutcome {
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	killBatchProcesses(dir) // those that left the group
	out := outcomeOf(<-done)
	if gone {
		removeBatch(dir)
	}
	return out
}

// SweepStaleBatches removes the batch folders in TMPDIR that a runexp
// process on this host made and left when it was killed (the folder's
// name names it: safefs.Writer), killing first every process still
// running in one (killBatchProcesses): when runexp, its worker and the
// reaper are killed together, the estimator's children outlive them all
// and nothing else would. It returns how many folders it removed. runexp
// calls it once as a run starts.
func SweepStaleBatches() int {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), batchPrefix+"*"))
	n := 0
	for _, d := range dirs {
		if fi, err := os.Lstat(d); err != nil || !fi.IsDir() {
			continue
		}
		if !safefs.Gone(strings.TrimPrefix(filepath.Base(d), batchPrefix)) {
			continue
		}
		killBatchProcesses(d)
		if os.RemoveAll(d) == nil {
			n++
		}
	}
	return n
}

// removeBatch removes a batch folder runexp made (os.MkdirTemp's
// runexp-external-*), and nothing else.
func removeBatch(dir string) {
	if strings.HasPrefix(filepath.Base(dir), batchPrefix) && filepath.IsAbs(dir) {
		os.RemoveAll(dir)
	}
}

// outcomeOf is how a command whose Wait returned err ended.
func outcomeOf(err error) batchOutcome {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return batchOutcome{State: exitedOK}
	case errors.As(err, &ee):
		return batchOutcome{State: ee.ProcessState.String(), Code: ee.ExitCode()}
	}
	return batchOutcome{State: err.Error(), Code: -1}
}

// withoutEnv is env without the variables named.
func withoutEnv(env []string, names ...string) []string {
	out := env[:0:0]
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		keep := true
		for _, n := range names {
			if k == n {
				keep = false
			}
		}
		if keep {
			out = append(out, kv)
		}
	}
	return out
}
