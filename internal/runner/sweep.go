package runner

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/runexp/runexp/internal/safefs"
)

// processStart is when this process began, for sweepTemps.
var processStart = time.Now()

// tempGrace is how much older than this process a temporary file of the
// cache must be to be taken as stray: an entry is written (a few
// kilobytes) and renamed into place within milliseconds, so a runexp
// sharing the cache is never this long in the middle of one.
const tempGrace = 2 * time.Second

// swept holds the cache folders this process has swept.
var swept sync.Map

// sweepTemps removes, once per process and cache folder, the temporary
// files of the cache's entries, remembered keys and code digests
// (cells/, last/, code/: .NAME.tmp-*, report.WriteFileAtomic's) that no
// process is writing: one written on this host by a process that is gone
// (a run killed while writing, however recently), and any older than
// this process. Such a file is never used by a later run, and nothing
// else would remove it.
func (c *Cache) sweepTemps() {
	if _, done := swept.LoadOrStore(c.Dir, true); done {
		return
	}
	before := processStart.Add(-tempGrace)
	for _, top := range []string{"cells", "last", "code"} {
		subs, err := os.ReadDir(filepath.Join(c.Dir, top))
		if err != nil {
			continue
		}
		for _, sub := range subs {
			if !sub.IsDir() || sub.Type()&os.ModeSymlink != 0 {
				continue
			}
			dir := filepath.Join(c.Dir, top, sub.Name())
			ents, err := os.ReadDir(dir)
			if err != nil {
				continue
			}
			for _, e := range ents {
				name := e.Name()
				i := strings.Index(name, ".tmp-")
				if !e.Type().IsRegular() || !strings.HasPrefix(name, ".") || i < 0 {
					continue
				}
				fi, err := e.Info()
				if err != nil {
					continue
				}
				if strayTemp(name, name[:i+len(".tmp-")], fi.ModTime(), before) {
					os.Remove(filepath.Join(dir, name))
				}
			}
		}
	}
}

// strayTemp reports whether the temporary file name (of prefix, last
// modified at mod) is no process's: its writer, named in it, ran on this
// host and is gone; or it is older than before, when any writer would
// long have renamed it.
func strayTemp(name, prefix string, mod, before time.Time) bool {
	return safefs.Gone(strings.TrimPrefix(name, prefix)) || mod.Before(before)
}
