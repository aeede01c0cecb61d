package suite

import (
	"math"
	"sort"
)

// simulate returns the wall time of w on a pool of n workers, replaying
// runner.Pool's choices (pool.go's scheduler) on the recorded costs, with
// the idle workers' cores lent to running tasks as package par lends them.
//
// Every step lands at least one task, so the loop ends after as many
// steps as there are tasks; on times Workload.Check refuses (not finite)
// it could not, and the bound makes it return NaN instead of spinning.
func simulate(w Workload, n int) float64 {
	s := newSim(w, n)
	steps := 16
	for _, l := range w {
		steps += 2*len(l.Cells) + 4
	}
	for ; ; steps-- {
		s.dispatch()
		if len(s.running) == 0 {
			break
		}
		if steps <= 0 || math.IsInf(s.now, 0) || math.IsNaN(s.now) {
			return math.NaN()
		}
		s.lend()
		s.step()
	}
	return s.now
}

type simPhase int

const (
	simQueued simPhase = iota
	simStarting
	simOpen
	simFinishing
	simFinished
)

// simConfig is one config's state, as a jobState's in the pool.
type simConfig struct {
	l       *ConfigWork
	order   int
	phase   simPhase
	pending []int // ready units, longest first
	blocked []int // units whose cell has an earlier stage running
	running int
	left    map[string][]int // per cell, units not yet done by stage
}

// ready reports whether unit k's earlier stages are done.
func (c *simConfig) ready(k int) bool {
	u := c.l.unit(k)
	left := c.left[u.Cell]
	for st := 0; st < u.Stage && st < len(left); st++ {
		if left[st] > 0 {
			return false
		}
	}
	return true
}

func (c *simConfig) longest() float64 {
	if len(c.pending) == 0 {
		return 0
	}
	return c.l.Cells[c.pending[0]]
}

func (c *simConfig) sortPending() {
	sort.SliceStable(c.pending, func(a, b int) bool {
		ea, eb := c.l.Cells[c.pending[a]], c.l.Cells[c.pending[b]]
		return ea > eb || ea == eb && c.pending[a] < c.pending[b]
	})
}

// simTask is a task running on a worker: work is its cost left, at one
// core; cores the worker's and those lent to it.
type simTask struct {
	cfg   *simConfig
	kind  int // 0 Start, 1 unit, 2 report
	unit  int
	work  float64
	shape Shape
	cores int
}

// rate is the task's progress per second on its cores: Amdahl's law over
// its parallel fraction, its parallel loops on up to Width cores.
func (t *simTask) rate() float64 {
	c := min(t.cores, max(t.shape.Width, 1))
	if c <= 1 || t.shape.Parallel <= 0 {
		return 1
	}
	return 1 / ((1 - t.shape.Parallel) + t.shape.Parallel/float64(c))
}

type sim struct {
	workers, ahead int
	configs        []*simConfig
	queue          []*simConfig // not started, longest unit first
	started        int
	running        []*simTask
	now            float64
}

func newSim(w Workload, n int) *sim {
	s := &sim{workers: n, ahead: 1}
	for i := range w {
		c := &simConfig{l: &w[i], order: i, left: map[string][]int{}}
		for k := range w[i].Cells {
			u := c.l.unit(k)
			for len(c.left[u.Cell]) <= u.Stage {
				c.left[u.Cell] = append(c.left[u.Cell], 0)
			}
			c.left[u.Cell][u.Stage]++
		}
		for k := range w[i].Cells {
			if c.ready(k) {
				c.pending = append(c.pending, k)
			} else {
				c.blocked = append(c.blocked, k)
			}
		}
		c.sortPending()
		s.configs = append(s.configs, c)
		s.queue = append(s.queue, c)
	}
	sort.SliceStable(s.queue, func(a, b int) bool { return s.queue[a].longest() > s.queue[b].longest() })
	return s
}

// pick is the pool's pickOnce: a report first, then a Start when the
// started configs cannot keep every worker busy, then the longest unit.
func (s *sim) pick() *simTask {
	for _, c := range s.configs {
		if c.phase == simOpen && len(c.pending) == 0 && len(c.blocked) == 0 && c.running == 0 {
			c.phase = simFinishing
			return &simTask{cfg: c, kind: 2, work: c.l.Report, shape: c.l.ReportShape}
		}
	}
	var units, promised int
	for _, c := range s.configs {
		switch c.phase {
		case simOpen:
			units += len(c.pending)
		case simStarting:
			promised += len(c.pending)
		}
	}
	if len(s.queue) > 0 && s.started < s.workers+s.ahead && units+promised < s.workers {
		c := s.queue[0]
		s.queue = s.queue[1:]
		c.phase = simStarting
		s.started++
		return &simTask{cfg: c, kind: 0, work: c.l.Start, shape: c.l.StartShape}
	}
	var best *simConfig
	for _, c := range s.configs {
		if c.phase != simOpen || len(c.pending) == 0 {
			continue
		}
		if best == nil || c.longest() > best.longest() {
			best = c
		}
	}
	if best == nil {
		return nil
	}
	k := best.pending[0]
	best.pending = best.pending[1:]
	return &simTask{cfg: best, kind: 1, unit: k, work: best.l.Cells[k], shape: best.l.unit(k).Shape}
}

// dispatch gives every free worker a task, as long as one can start;
// tasks of no work end at once.
func (s *sim) dispatch() {
	for {
		for len(s.running) < s.workers {
			t := s.pick()
			if t == nil {
				break
			}
			t.cfg.running++
			s.running = append(s.running, t)
		}
		if !s.finishZero() {
			return
		}
	}
}

// finishZero ends the running tasks of no work left and reports whether
// any did.
func (s *sim) finishZero() bool {
	done := false
	kept := s.running[:0]
	for _, t := range s.running {
		if t.work <= 1e-12 {
			s.land(t)
			done = true
			continue
		}
		kept = append(kept, t)
	}
	s.running = kept
	return done
}

// lend gives the cores of idle workers, one at a time, to the running
// task with parallel loops that has the longest time left at its cores.
func (s *sim) lend() {
	for _, t := range s.running {
		t.cores = 1
	}
	for idle := s.workers - len(s.running); idle > 0; idle-- {
		var best *simTask
		for _, t := range s.running {
			if t.shape.Parallel <= 0 || t.cores >= t.shape.Width {
				continue
			}
			if best == nil || t.work/t.rate() > best.work/best.rate() {
				best = t
			}
		}
		if best == nil {
			return
		}
		best.cores++
	}
}

// step advances to the next task's end and lands it.
func (s *sim) step() {
	dt := math.Inf(1)
	for _, t := range s.running {
		dt = min(dt, t.work/t.rate())
	}
	s.now += dt
	kept := s.running[:0]
	var ended []*simTask
	for _, t := range s.running {
		t.work -= dt * t.rate()
		if t.work <= 1e-9*max(1, dt) {
			ended = append(ended, t)
			continue
		}
		kept = append(kept, t)
	}
	s.running = kept
	for _, t := range ended {
		s.land(t)
	}
}

// land records a task that ended.
func (s *sim) land(t *simTask) {
	c := t.cfg
	c.running--
	switch t.kind {
	case 0:
		c.phase = simOpen
	case 1:
		u := c.l.unit(t.unit)
		c.left[u.Cell][u.Stage]--
		kept := c.blocked[:0]
		for _, k := range c.blocked {
			if c.ready(k) {
				c.pending = append(c.pending, k)
			} else {
				kept = append(kept, k)
			}
		}
		c.blocked = kept
		c.sortPending()
	case 2:
		c.phase = simFinished
		s.started--
	}
}
