//go:build !openblas

package linalg

import "runtime"

// The pure-Go backend has no threads of its own: gonum's parallel
// products run goroutines on the Go scheduler's GOMAXPROCS threads.
func threads() int { return runtime.GOMAXPROCS(0) }
