package main

import (
	"sync"

	"github.com/runexp/runexp/internal/runner"

	"github.com/runexp/runexp/internal/config"
)

// progresses holds the progress of each config of a run: the cells of
// every config share one pool, so several configs can be under way at
// once, and each config's Done stops its own.
type progresses struct {
	mu   sync.Mutex
	by   map[*config.Config]*progress
	make func(cf *config.Config) *progress
}

func newProgresses(make func(cf *config.Config) *progress) *progresses {
	return &progresses{by: map[*config.Config]*progress{}, make: make}
}

// of is suite.Options.Progress: cf's progress callback.
func (ps *progresses) of(cf *config.Config) func(done, total int) {
	p := ps.make(cf)
	ps.mu.Lock()
	ps.by[cf] = p
	ps.mu.Unlock()
	return p.update
}

// work is suite.Options.Work: the predicted-cost callback of cf's
// progress (made by of, which the suite calls first).
func (ps *progresses) work(cf *config.Config) func(runner.Work) {
	ps.mu.Lock()
	p := ps.by[cf]
	ps.mu.Unlock()
	if p == nil {
		return nil
	}
	return p.setWork
}

// stop ends cf's progress (nil cf: every one's).
func (ps *progresses) stop(cf *config.Config) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	for c, p := range ps.by {
		if cf == nil || c == cf {
			p.stop()
		}
	}
}
