//go:build !unix

package runner

// processAlive cannot tell here: every process is taken as alive, so a
// temporary file is removed only once it is older than the run.
func processAlive(pid int) bool { return true }
