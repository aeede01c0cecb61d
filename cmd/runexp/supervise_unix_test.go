//go:build unix

package main

import (
	"bytes"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// TestWorkerKilledNamesSignal: a worker killed by a signal is named by
// the signal's name, as kill(1) writes it: "killed by SIGKILL", where the
// C library's description gave "killed by killed".
func TestWorkerKilledNamesSignal(t *testing.T) {
	for sig, want := range map[syscall.Signal]string{
		syscall.SIGKILL: "the worker process was killed by SIGKILL (the kernel's out-of-memory killer, or kill -9); exit status 4",
		syscall.SIGSEGV: "the worker process was killed by SIGSEGV; exit status 4",
	} {
		cmd := exec.Command("sleep", "30")
		if err := cmd.Start(); err != nil {
			t.Skip(err)
		}
		cmd.Process.Signal(sig)
		err := cmd.Wait()
		var buf bytes.Buffer
		if code := workerStatus(err, nil, &buf); code != exitCrash || !strings.Contains(buf.String(), want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", sig, code, buf.String(), exitCrash, want)
		}
	}
}
