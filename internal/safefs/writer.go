package safefs

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
)

// Writer names this process in the files and folders runexp creates to
// fill or use and remove later (a temporary file renamed into place, an
// external estimator's batch folder): a short hash of the host's name and
// the process id, "5bce98f7-27955". A later run that finds one its writer
// left can tell whether that writer still runs (ParseWriter,
// ProcessAlive): one written on this host by a process that is gone is
// left over from a kill, and nobody else will remove it.
var Writer = func() string {
	host, _ := os.Hostname()
	h := sha256.Sum256([]byte(host))
	return hex.EncodeToString(h[:4]) + "-" + strconv.Itoa(os.Getpid())
}()

// ParseWriter reads a Writer at the start of s (what follows it, after a
// '-', is ignored): whether it names this host, and its process id. ok is
// false when s does not start with one.
func ParseWriter(s string) (thisHost bool, pid int, ok bool) {
	parts := strings.SplitN(s, "-", 3)
	if len(parts) < 2 || len(parts[0]) != 8 {
		return false, 0, false
	}
	if _, err := hex.DecodeString(parts[0]); err != nil {
		return false, 0, false
	}
	pid, err := strconv.Atoi(parts[1])
	if err != nil || pid <= 0 {
		return false, 0, false
	}
	return strings.HasPrefix(Writer, parts[0]+"-"), pid, true
}

// Gone reports whether the writer named at the start of s ran on this
// host, is not this process, and is no longer running: what it left is
// nobody's.
func Gone(s string) bool {
	here, pid, ok := ParseWriter(s)
	return ok && here && pid != os.Getpid() && !ProcessAlive(pid)
}
