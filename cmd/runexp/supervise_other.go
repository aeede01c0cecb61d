//go:build !unix

package main

import (
	"io"
	"os"
)

// supervise is not available here: body runs in the process, and a
// crash the runtime cannot recover from exits with Go's status 2.
func supervise([]string, io.Writer) (int, bool) { return 0, false }

func crashFile(string) *os.File { return nil }

// forwardedInterrupt is nil: there is no supervisor to pass interrupts on.
var forwardedInterrupt os.Signal

// watchSupervisor has no supervisor to watch: there is no worker here.
func watchSupervisor(int) {}
