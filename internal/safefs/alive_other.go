//go:build !unix

package safefs

// ProcessAlive cannot tell here: every process is taken as alive, so
// nothing a writer left is taken as left over by its process id.
func ProcessAlive(pid int) bool { return true }
