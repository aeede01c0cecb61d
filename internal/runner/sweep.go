package runner

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
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
// files of cache entries (.HASH.json.tmp-*, report.WriteFileAtomic's)
// older than this process: a run killed while writing an entry leaves
// one, which no later run would use or remove.
func (c *Cache) sweepTemps() {
	if _, done := swept.LoadOrStore(c.Dir, true); done {
		return
	}
	cells := filepath.Join(c.Dir, "cells")
	subs, err := os.ReadDir(cells)
	if err != nil {
		return
	}
	before := processStart.Add(-tempGrace)
	for _, sub := range subs {
		if !sub.IsDir() || sub.Type()&os.ModeSymlink != 0 {
			continue
		}
		dir := filepath.Join(cells, sub.Name())
		ents, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if !e.Type().IsRegular() || !strings.HasPrefix(e.Name(), ".") || !strings.Contains(e.Name(), ".json.tmp-") {
				continue
			}
			if fi, err := e.Info(); err == nil && fi.ModTime().Before(before) {
				os.Remove(filepath.Join(dir, e.Name()))
			}
		}
	}
}
