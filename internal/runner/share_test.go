package runner_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// shareKind counts how often each cell runs, across configs: cells of
// two configs with the same context have the same cache key. A cell draws
// from its stream (as fakeKind), fails at c = 17, and, while hold is
// set, the cell c = 1 waits for hold.release before it returns.
var shareKind struct {
	once sync.Once
	mu   sync.Mutex
	runs map[string]int
	hold *holdCell
}

// holdCell keeps the cell c = 1 running until the cells of release have
// run, or gives up after a while: a pool that blocked a worker on the held
// cell instead of giving it other work would wait for ever. Then it calls
// stop, if set.
type holdCell struct {
	release map[string]bool
	ran     chan string
	stop    func()
}

type shareInstance struct{}

func (shareInstance) Run(cell *runner.Cell, rec *report.Record) error {
	h := countRun(cell.Key)
	if h != nil && cell.Params["c"] == 1.0 {
		left := len(h.release)
		for left > 0 {
			select {
			case k := <-h.ran:
				if h.release[k] {
					left--
				}
			case <-time.After(20 * time.Second):
				return errors.New("held cell: the other cells never ran")
			}
		}
		if h.stop != nil {
			h.stop()
		}
	} else if h != nil {
		h.ran <- cell.Key
	}
	rec.Metrics["draw"] = cell.Rand().Float64()
	if cell.Params["c"] == 17.0 {
		return errors.New("singular system")
	}
	return nil
}

// countRun counts a run of the cell key and returns the hold, if any.
func countRun(key string) *holdCell {
	shareKind.mu.Lock()
	defer shareKind.mu.Unlock()
	if shareKind.runs == nil {
		shareKind.runs = map[string]int{}
	}
	shareKind.runs[key]++
	return shareKind.hold
}

func (shareInstance) Report(out *runner.Output, recs []report.Record) error {
	return fakeKind{}.Report(out, recs)
}

// shareConfig is a config of the share-test kind with the widths cs. The
// title and the claims are the report's: they leave the cells' keys as
// they are.
func shareConfig(t *testing.T, name, cs string) *config.Config {
	t.Helper()
	shareKind.once.Do(func() {
		runner.RegisterKind(runner.Kind{Name: "share-test", Doc: "counts its cells' runs",
			Start: func(*runner.Env, any) (runner.Instance, error) { return shareInstance{}, nil }})
	})
	src := "title: " + name + "\npaper: none\nkind: share-test\nseed: 7\ndataset: {name: none-test}\n" +
		"model: {kernel: gaussian, c: [" + cs + "]}\n" +
		"claims:\n  - {id: " + name + ", check: {type: value, metric: draw, where: {c: " + strings.Split(cs, ",")[0] + "}, op: '>', value: 0}}\n"
	c, err := config.Parse(name+".yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	c.Outputs.Dir = filepath.Join(t.TempDir(), name)
	return c
}

// runPool runs the configs in one pool and returns their summaries, in
// the configs' order.
func runPool(t *testing.T, o runner.Options, cs ...*config.Config) []*runner.Summary {
	t.Helper()
	sums, _, err := runPoolCtx(t, context.Background(), o, cs...)
	if err != nil {
		t.Fatal(err)
	}
	return sums
}

// runPoolCtx is runPool under ctx, returning the jobs and Run's error.
func runPoolCtx(t *testing.T, ctx context.Context, o runner.Options, cs ...*config.Config) ([]*runner.Summary, []*runner.Job, error) {
	t.Helper()
	var jobs []*runner.Job
	at := map[*runner.Job]int{}
	for i, c := range cs {
		j, err := runner.Prepare(c, o)
		if err != nil {
			t.Fatal(err)
		}
		jobs, at[j] = append(jobs, j), i
	}
	sums := make([]*runner.Summary, len(cs))
	p := &runner.Pool{Workers: o.Workers, Grace: o.Grace, Done: func(j *runner.Job, s *runner.Summary, err error) {
		if err != nil {
			t.Error(err)
		}
		sums[at[j]] = s
	}}
	err := p.Run(ctx, jobs)
	return sums, jobs, err
}

func resetRuns() map[string]int {
	shareKind.mu.Lock()
	defer shareKind.mu.Unlock()
	runs := shareKind.runs
	shareKind.runs = map[string]int{}
	return runs
}

// Two configs in one pool whose cells c = 3, 4 and 17 have the same cache
// keys: c = 3 and 4 run once, and the config that did not compute them is
// served them (Shared, with the time the other measured); c = 17 fails,
// and a failure is never served, so each config computes it and records
// its own. The outputs are those of each config run alone on a cold
// cache, with the cache on or off, on one worker or two. Before the pool
// shared cells, every config computed its own: c = 3 and 4 ran twice.
func TestPoolComputesSharedCellsOnce(t *testing.T) {
	alone := func(name, cs string) string {
		c := shareConfig(t, name, cs)
		if _, err := runner.Run(context.Background(), c, runner.Options{Workers: 1, CacheDir: t.TempDir()}); err != nil {
			t.Fatal(err)
		}
		return c.Outputs.Dir
	}
	wantA, wantB := alone("a", "1, 2, 3, 4, 17"), alone("b", "3, 4, 5, 17")
	for _, workers := range []int{1, 2} {
		for _, noCache := range []bool{false, true} {
			name := fmt.Sprintf("-j %d, no cache %v", workers, noCache)
			resetRuns()
			a, b := shareConfig(t, "a", "1, 2, 3, 4, 17"), shareConfig(t, "b", "3, 4, 5, 17")
			sums := runPool(t, runner.Options{Workers: workers, CacheDir: t.TempDir(), NoCache: noCache}, a, b)
			runs := resetRuns()
			for k, n := range runs {
				want := 1
				if strings.HasPrefix(k, "c=17,") {
					want = 2
				}
				if n != want {
					t.Errorf("%s: cell %s ran %d times, want %d", name, k, n, want)
				}
			}
			if len(runs) != 6 {
				t.Errorf("%s: %d distinct cells ran, want 6", name, len(runs))
			}
			var computed, shared int
			for i, s := range sums {
				computed += s.Computed
				shared += s.Shared
				if s.Cached != 0 || s.Failed != 1 || s.Computed+s.Shared != s.Cells || len(s.Times) != s.Computed || len(s.SharedTimes) != s.Shared {
					t.Errorf("%s: config %d: %d cells, %d computed, %d cached, %d shared, %d failed, %d times, %d shared times",
						name, i, s.Cells, s.Computed, s.Cached, s.Shared, s.Failed, len(s.Times), len(s.SharedTimes))
				}
				for _, ct := range s.SharedTimes {
					if !ct.Shared || ct.Cached || !strings.HasPrefix(ct.Key, "c=3,") && !strings.HasPrefix(ct.Key, "c=4,") {
						t.Errorf("%s: config %d: shared time %+v, want c = 3 or 4 marked shared", name, i, ct)
					}
				}
			}
			if computed != 7 || shared != 2 {
				t.Errorf("%s: %d cells computed and %d shared, want 7 (c = 1…5, and c = 17 twice) and 2 (c = 3, 4)", name, computed, shared)
			}
			sameOutputs(t, wantA, a.Outputs.Dir)
			sameOutputs(t, wantB, b.Outputs.Dir)
		}
	}
}

// A config that takes a cell another config is computing sets it aside,
// and its worker computes its other cells meanwhile: the held cell c = 1
// of a returns only once b's cells c = 2 and 3 have run, which on two
// workers they can only do if b's worker did not wait on c = 1. The
// estimates put c = 1 first in both configs.
func TestPoolDefersCellBeingComputed(t *testing.T) {
	resetRuns()
	a, b := shareConfig(t, "a", "1"), shareConfig(t, "b", "1, 2, 3")
	shareKind.mu.Lock()
	shareKind.hold = &holdCell{release: map[string]bool{"c=2,kernel=gaussian": true, "c=3,kernel=gaussian": true}, ran: make(chan string, 8)}
	shareKind.mu.Unlock()
	defer func() {
		shareKind.mu.Lock()
		shareKind.hold = nil
		shareKind.mu.Unlock()
	}()
	est := func(key string) (float64, bool) {
		if strings.HasPrefix(key, "c=1,") {
			return 10, true
		}
		return 1, true
	}
	sums := runPool(t, runner.Options{Workers: 2, NoCache: true, Estimate: est}, a, b)
	runs := resetRuns()
	if len(runs) != 3 || runs["c=1,kernel=gaussian"] != 1 {
		t.Errorf("cells ran %v, want c = 1, 2, 3 once each", runs)
	}
	if s := sums[0].Failed + sums[1].Failed; s != 0 {
		t.Errorf("%d cells failed, want none (the held cell gave up: a worker waited on it)", s)
	}
	if sums[0].Shared+sums[1].Shared != 1 {
		t.Errorf("shared %d + %d cells, want c = 1 once", sums[0].Shared, sums[1].Shared)
	}
}

// A pool stopped while a config has set aside a cell another config is
// computing: the computation lands within the grace, and serves the
// waiting config, whose suite line then counts it shared (Interrupted);
// the rerun finds every cell in the cache. The c = 1 computed holds a
// worker until b's c = 2 has run, then stops the pool and returns; the
// other config's c = 1 waits on it.
func TestPoolStopsWithCellSetAside(t *testing.T) {
	resetRuns()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	shareKind.mu.Lock()
	shareKind.hold = &holdCell{release: map[string]bool{"c=2,kernel=gaussian": true}, ran: make(chan string, 8), stop: cancel}
	shareKind.mu.Unlock()
	est := func(key string) (float64, bool) {
		if strings.HasPrefix(key, "c=1,") {
			return 10, true
		}
		return 1, true
	}
	a, b := shareConfig(t, "a", "1"), shareConfig(t, "b", "1, 2")
	o := runner.Options{Workers: 2, CacheDir: t.TempDir(), Estimate: est}
	_, jobs, err := runPoolCtx(t, ctx, o, a, b)
	shareKind.mu.Lock()
	shareKind.hold = nil
	shareKind.mu.Unlock()
	var ie *runner.InterruptedError
	if !errors.As(err, &ie) || ie.Done != 3 || ie.Total != 3 {
		t.Fatalf("Run returned %v, want interrupted with 3 of 3 cells done", err)
	}
	// Whichever config's Start lands first computes c = 1.
	var computed, shared int
	for i, j := range jobs {
		s := j.Interrupted()
		if s.Computed+s.Shared != s.Cells || len(s.SharedTimes) != s.Shared || len(s.Times) != s.Computed {
			t.Errorf("config %d: %d of %d cells computed, %d shared (%d and %d times); want every cell", i, s.Computed, s.Cells, s.Shared, len(s.Times), len(s.SharedTimes))
		}
		computed += s.Computed
		shared += s.Shared
	}
	if computed != 2 || shared != 1 {
		t.Errorf("%d cells computed, %d shared; want c = 1 and 2 computed, c = 1 shared", computed, shared)
	}
	resetRuns()
	sums := runPool(t, o, shareConfig(t, "a", "1"), shareConfig(t, "b", "1, 2"))
	if runs := resetRuns(); len(runs) != 0 {
		t.Errorf("the rerun ran %v, want nothing", runs)
	}
	if sums[0].Cached != 1 || sums[1].Cached != 2 {
		t.Errorf("rerun: a %d of %d cached, b %d of %d; want all", sums[0].Cached, sums[0].Cells, sums[1].Cached, sums[1].Cells)
	}
}
