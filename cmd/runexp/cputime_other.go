//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package main

// processCPU is not measured on this system.
func processCPU() float64 { return 0 }
