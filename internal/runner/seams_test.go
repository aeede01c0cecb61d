package runner_test

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/runner"
)

var memoRuns atomic.Int32

// TestMemoOnce: however many goroutines ask for one key, fn runs once and
// every caller gets its value; an error is remembered like a value; a key
// holding another type is an error, not a panic.
func TestMemoOnce(t *testing.T) {
	// The memo is the process's: each run of the test (-count=2) asks
	// for keys of its own.
	run := memoRuns.Add(1)
	once, failing := fmt.Sprintf("seams-test|once|%d", run), fmt.Sprintf("seams-test|err|%d", run)
	var calls atomic.Int32
	var wg sync.WaitGroup
	got := make([]int, 16)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := runner.Memo(nil, once, func() (int, error) {
				calls.Add(1)
				return 42, nil
			})
			if err != nil {
				t.Error(err)
			}
			got[i] = v
		}()
	}
	wg.Wait()
	if calls.Load() != 1 {
		t.Errorf("fn ran %d times, want 1", calls.Load())
	}
	for i, v := range got {
		if v != 42 {
			t.Errorf("caller %d got %d", i, v)
		}
	}
	boom := errors.New("boom")
	for range 2 {
		if _, err := runner.Memo(nil, failing, func() (int, error) { calls.Add(1); return 0, boom }); !errors.Is(err, boom) {
			t.Errorf("err = %v, want boom", err)
		}
	}
	if calls.Load() != 2 {
		t.Errorf("failing fn ran %d times in all, want once", calls.Load()-1)
	}
	if _, err := runner.Memo(nil, once, func() (string, error) { return "", nil }); err == nil {
		t.Error("an int key read as a string without error")
	}
}

// TestDefineTyped: the options Parse returned reach Start with their type.
func TestDefineTyped(t *testing.T) {
	type opts struct{ n int }
	var seen opts
	k := runner.Define("seams-typed", "test",
		func(*config.Config) (opts, error) { return opts{n: 7}, nil },
		func(_ *runner.Env, o opts) (runner.Instance, error) { seen = o; return nil, nil })
	o, err := k.Parse(nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.Start(nil, o); err != nil || seen.n != 7 {
		t.Errorf("Start saw %+v, %v; want n 7", seen, err)
	}
	if _, err := k.Start(nil, "wrong"); err == nil {
		t.Error("options of the wrong type accepted")
	}
}

// TestGaussianWidths: the three parameterisations give one kernel;
// exp(−d²/c) with c = 2 equals γ = 0.5 and σ = √2.
func TestGaussianWidths(t *testing.T) {
	for _, tc := range []struct {
		p string
		w float64
	}{{"c", 2}, {"gamma", 0.5}, {"sigma", 1.4142135623730951}} {
		g, err := kernel.NewGaussian(tc.p, tc.w)
		if err != nil || (g.C-2) > 1e-15 || (2-g.C) > 1e-15 {
			t.Errorf("%s = %v: C = %v, %v; want 2", tc.p, tc.w, g.C, err)
		}
	}
	for _, bad := range []struct {
		p string
		w float64
	}{{"c", 0}, {"c", -1}, {"beta", 1}} {
		if _, err := kernel.NewGaussian(bad.p, bad.w); err == nil {
			t.Errorf("%s = %v accepted", bad.p, bad.w)
		}
	}
	cell := &runner.Cell{Model: config.ModelPoint{Kernel: "gaussian", WidthName: "gamma", Width: 1}}
	c2, err := cell.WithWidth(0.25)
	if err != nil {
		t.Fatal(err)
	}
	if g := c2.Kernel.(kernel.Gaussian); g.C != 4 || cell.Model.Width != 1 || c2.Model.Width != 0.25 {
		t.Errorf("WithWidth(0.25) gave %v (model %v), original %v", g, c2.Model, cell.Model)
	}
}
