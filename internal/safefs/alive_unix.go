//go:build unix

package safefs

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// ProcessAlive reports whether a process with id pid runs on this host
// (signal 0 checks without sending; EPERM means it exists as another
// user's). A zombie, dead but not yet reaped by its parent (a killed
// process whose parent was killed too waits for init), is not alive:
// where /proc tells, it says so.
func ProcessAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	if err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
		s := string(b)
		if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) && (s[i+2] == 'Z' || s[i+2] == 'X') {
			return false
		}
	}
	return true
}
