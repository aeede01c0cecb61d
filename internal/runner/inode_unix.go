//go:build unix

package runner

import (
	"io/fs"
	"syscall"
)

// inodeOf is fi's inode number: with the size and the modification time,
// it tells a file replaced by another (a rename over it) from itself.
func inodeOf(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}
