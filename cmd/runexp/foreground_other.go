//go:build unix && !linux

package main

// inForeground cannot tell here: signals are always forwarded (a
// terminal's Ctrl-C may then reach the worker twice, which interrupts it
// the same way).
func inForeground() bool { return false }
