package report

import (
	"bufio"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/runexp/runexp/internal/linalg"
)

// Machine describes the computer and the build that ran a config, for the
// compute section of a reproduction report (NeurIPS checklist: compute
// per run). Fields the platform does not expose are left empty.
type Machine struct {
	// CPUModel is the first "model name" of /proc/cpuinfo (Linux); ""
	// elsewhere.
	CPUModel string `json:"cpu_model,omitempty"`
	// Cores is the number of logical CPUs the process may use
	// (runtime.NumCPU).
	Cores int `json:"cores"`
	// MemoryBytes is MemTotal of /proc/meminfo (Linux); 0 elsewhere.
	MemoryBytes uint64 `json:"memory_bytes,omitempty"`
	// Backend is the linear-algebra backend the binary was built with:
	// "gonum" (pure Go, the default) or "openblas" (-tags openblas).
	Backend string `json:"backend"`
	// PeakRSSBytes is the peak resident memory of the process that ran
	// the config, up to the config's end (getrusage; 0 where the
	// platform has none). A suite runs every config in one process, so
	// there it bounds the config's own peak from above.
	PeakRSSBytes uint64 `json:"peak_rss_bytes,omitempty"`
}

// thisMachine returns the Machine running this process, PeakRSSBytes
// not yet filled (Manifest.Finish fills it).
func thisMachine() *Machine {
	m := &Machine{Cores: runtime.NumCPU(), Backend: linalg.Backend()}
	m.CPUModel = procField("/proc/cpuinfo", "model name")
	if v := procField("/proc/meminfo", "MemTotal"); v != "" {
		// "16318412 kB"
		f := strings.Fields(v)
		if n, err := strconv.ParseUint(f[0], 10, 64); err == nil && len(f) == 2 && f[1] == "kB" {
			m.MemoryBytes = n << 10
		}
	}
	return m
}

// procField returns the value of the first "key: value" line of a
// kernel pseudo-file, or "" when the file or the key is missing. The
// files are the kernel's, not user input, and report a size of 0, so
// they are read through a 1 MiB limit rather than safefs's size check.
func procField(path, key string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, 1<<20))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
