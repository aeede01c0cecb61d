//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package main

import "os"

// ttyWidth is unknown here; terminalWidth falls back to COLUMNS or 80.
func ttyWidth(*os.File) int { return 0 }
