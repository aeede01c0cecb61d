//go:build unix && !linux

package main

import (
	"os"
	"os/exec"
	"syscall"
	"time"
)

// dieWithParent has nothing to arm where the kernel has no parent-death
// signal: the worker polls its parent instead (parentDeath).
func dieWithParent(*exec.Cmd) {}

// parentDeath SIGKILLs the worker within a quarter second of its
// supervisor's death, seen as the worker's parent changing (to init or
// a subreaper).
func parentDeath(ppid int) {
	go func() {
		for range time.Tick(250 * time.Millisecond) {
			if os.Getppid() != ppid {
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
			}
		}
	}()
}
