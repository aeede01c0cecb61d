//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// testCrash crashes the worker the way the Go runtime ends a process it
// cannot recover: what selects it.
func testCrash(what string) {
	switch what {
	case "oom":
		// The campaign's case: a block the machine cannot hold (there a
		// 320 GB self-Gram, here 32 TiB), "fatal error: out of memory".
		b := make([]float64, 1<<42)
		b[len(b)-1] = 1
	case "goroutine-panic":
		done := make(chan bool)
		go func() {
			var m map[string]int
			m["x"] = 1 // panics outside any recover
			done <- true
		}()
		<-done
	}
}

// supervised runs the test binary as runexp's main, supervisor and all.
func supervised(t *testing.T, crash string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "RUNEXP_TEST_AS_MAIN=supervised", "RUNEXP_TEST_CRASH="+crash, "RUNEXP_DATA=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	return cmd, &stderr
}

// TestCrashExitsFour is the status half of case 4 of issue #28: a run that
// died in the Gaussian self-Gram with the Go runtime's "fatal error: out
// of memory" exited 2, the status of a usage error, where
// docs/exit-status.md gives a crash 4. Every crash the runtime cannot
// recover (out of memory, a panic outside any recover) now exits 4 with a
// line saying so, and the worker's own statuses pass through.
func TestCrashExitsFour(t *testing.T) {
	for _, crash := range []string{"oom", "goroutine-panic"} {
		t.Run(crash, func(t *testing.T) {
			cmd, stderr := supervised(t, crash, "version")
			err := cmd.Run()
			if code := cmd.ProcessState.ExitCode(); code != exitCrash {
				t.Fatalf("exit %d (%v), want 4; stderr:\n%s", code, err, stderr)
			}
			if !strings.Contains(stderr.String(), "runexp: crashed (") || !strings.Contains(stderr.String(), "exit status 4") {
				t.Errorf("stderr does not say what happened:\n%s", stderr)
			}
		})
	}
	for _, tc := range []struct {
		args []string
		want int
	}{{[]string{"version"}, exitOK}, {[]string{"validate", "no-such.yaml"}, exitUsage}, {[]string{"--nope"}, exitUsage}} {
		cmd, stderr := supervised(t, "", tc.args...)
		cmd.Run()
		if code := cmd.ProcessState.ExitCode(); code != tc.want {
			t.Errorf("%v: exit %d, want %d; stderr:\n%s", tc.args, code, tc.want, stderr)
		}
		if strings.Contains(stderr.String(), "crashed") {
			t.Errorf("%v: %s", tc.args, stderr)
		}
	}
}

// TestSupervisorForwardsSignals: SIGTERM to runexp alone (a scheduler's
// kill PID, timeout(1)) reaches the worker, and SIGTERM to its whole
// process group (Ctrl-C, a job's every process) reaches it once, not
// twice: either way the run stops as an interrupted run does, when the
// running cells finish, with status 130 and the finished cells cached.
func TestSupervisorForwardsSignals(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the fig3 config")
	}
	for _, group := range []bool{false, true} {
		out := t.TempDir()
		cmd, stderr := supervised(t, "", "--out", out, "-j", "1", "../../configs/abrahamsen-hansen-fig3.yaml")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(60 * time.Second)
		for countCached(filepath.Join(out, ".cache")) < 1 {
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatal("no cell was cached within 60 s")
			}
			time.Sleep(20 * time.Millisecond)
		}
		if group {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		} else {
			cmd.Process.Signal(syscall.SIGTERM)
		}
		cmd.Wait()
		code := cmd.ProcessState.ExitCode()
		if code == exitOK && countCached(filepath.Join(out, ".cache")) == 7 {
			continue // the run finished before the signal
		}
		if code != exitInterrupted || !strings.Contains(stderr.String(), "stopping:") || strings.Contains(stderr.String(), "second interrupt") {
			t.Errorf("group %v: exit %d, want 130 after one interrupt; stderr:\n%s", group, code, stderr)
		}
	}
}
