//go:build unix

package safefs

import "syscall"

// nonBlock keeps an open of a FIFO from waiting for a writer.
const nonBlock = syscall.O_NONBLOCK
