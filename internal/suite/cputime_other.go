//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package suite

// ProcessCPU is not measured on this system.
func ProcessCPU() float64 { return 0 }
