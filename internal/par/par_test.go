package par

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// runCounting runs Run over n items and returns how many times each index
// was handed out and how many bodies ran.
func runCounting(n int) (seen []int32, bodies int32) {
	seen = make([]int32, n)
	var b atomic.Int32
	Run(n, func(next func() (int, bool)) {
		b.Add(1)
		for i, ok := next(); ok; i, ok = next() {
			atomic.AddInt32(&seen[i], 1)
			time.Sleep(time.Microsecond)
		}
	})
	return seen, b.Load()
}

func checkOnce(t *testing.T, seen []int32) {
	t.Helper()
	for i, s := range seen {
		if s != 1 {
			t.Fatalf("item %d handed out %d times, want once", i, s)
		}
	}
}

// Outside a pool Run hands every index out exactly once, on up to
// GOMAXPROCS bodies.
func TestRunOutsidePool(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 100} {
		seen, bodies := runCounting(n)
		checkOnce(t, seen)
		if want := int32(min(runtime.GOMAXPROCS(0), n)); bodies != want {
			t.Errorf("n = %d: %d bodies, want %d", n, bodies, want)
		}
	}
}

// inCell runs f on a goroutine locked to its thread and bound to an
// account of l, as a pool worker runs a cell.
func inCell(l *Lender, f func(a *Account)) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		a := l.NewAccount()
		unbind := Bind(a)
		defer unbind()
		f(a)
	}()
	<-done
}

// In a cell of a pool with no idle core Run uses the calling goroutine
// alone; with idle cores it borrows them, and gives every one back.
func TestRunBorrowsIdleCores(t *testing.T) {
	if !Measured {
		t.Skip("no thread ids on this system: Run cannot find the cell")
	}
	l := NewLender()
	inCell(l, func(*Account) {
		seen, bodies := runCounting(50)
		checkOnce(t, seen)
		if bodies != 1 {
			t.Errorf("no idle core: %d bodies, want 1", bodies)
		}
	})
	for range 3 {
		l.Offer()
	}
	inCell(l, func(a *Account) {
		seen, bodies := runCounting(200)
		checkOnce(t, seen)
		if bodies < 2 || bodies > 4 {
			t.Errorf("3 idle cores: %d bodies, want 2 to 4", bodies)
		}
	})
	if l.Lent() != 0 || !l.Take() || !l.Take() || !l.Take() || l.Take() {
		t.Errorf("after Run: %d cores lent, want 0 and the 3 idle cores back", l.Lent())
	}
}

// A helper leaves after its current item when the pool wants its core
// back, and the items it did not take are still done, by the caller.
func TestWantReclaimsHelpers(t *testing.T) {
	if !Measured {
		t.Skip("no thread ids on this system")
	}
	l := NewLender()
	l.Offer()
	const n = 40
	seen := make([]int32, n)
	var helpers sync.Map
	var once sync.Once
	inCell(l, func(*Account) {
		caller := threadID()
		Run(n, func(next func() (int, bool)) {
			for i, ok := next(); ok; i, ok = next() {
				atomic.AddInt32(&seen[i], 1)
				if tid := threadID(); tid != caller {
					helpers.Store(tid, true)
					// The first item a helper runs asks for its core.
					once.Do(func() { l.Want(1) })
				}
				time.Sleep(200 * time.Microsecond)
			}
		})
	})
	checkOnce(t, seen)
	n2 := 0
	helpers.Range(func(any, any) bool { n2++; return true })
	if n2 == 0 {
		t.Fatal("no helper ran on the idle core")
	}
	select {
	case <-l.Freed():
	default:
		t.Error("the core came back without signalling Freed")
	}
	if l.Lent() != 0 || !l.Take() {
		t.Error("the reclaimed core is not free for the pool")
	}
}

// A helper's CPU time goes to the account; a busy locked thread's clock
// advances, a sleeping one's hardly.
func TestThreadCPU(t *testing.T) {
	if !Measured {
		t.Skip("no per-thread CPU clock on this system")
	}
	spin := func(d time.Duration) {
		for t0 := time.Now(); time.Since(t0) < d; {
		}
	}
	inCell(NewLender(), func(*Account) {
		c0 := ThreadCPU()
		time.Sleep(50 * time.Millisecond)
		c1 := ThreadCPU()
		spin(50 * time.Millisecond)
		c2 := ThreadCPU()
		// A 50 ms spin takes at least some CPU even on a loaded machine;
		// sleeping takes almost none.
		if c1-c0 > 10*time.Millisecond || c2-c1 < time.Millisecond || c2-c1 > 60*time.Millisecond {
			t.Errorf("thread CPU: %v while sleeping 50 ms, %v while spinning 50 ms", c1-c0, c2-c1)
		}
	})
	// Items that each burn 20 ms of CPU, on the caller and a helper:
	// the account holds what the helpers burnt.
	burn := func() {
		for c0 := ThreadCPU(); ThreadCPU()-c0 < 20*time.Millisecond; {
		}
	}
	l := NewLender()
	l.Offer()
	inCell(l, func(a *Account) {
		caller := threadID()
		var byHelpers atomic.Int32
		Run(6, func(next func() (int, bool)) {
			for _, ok := next(); ok; _, ok = next() {
				burn()
				if threadID() != caller {
					byHelpers.Add(1)
				}
			}
		})
		h := time.Duration(byHelpers.Load()) * 20 * time.Millisecond
		if got := a.HelperCPU(); got < h || got > h+15*time.Millisecond {
			t.Errorf("helpers ran %d items of 20 ms CPU; the account holds %v", byHelpers.Load(), got)
		}
	})
}

// A panic in a helper is raised on the calling goroutine.
func TestHelperPanic(t *testing.T) {
	defer func() {
		p := recover()
		if s, _ := p.(string); !strings.Contains(s, "boom") {
			t.Errorf("recovered %v, want the helper's panic", p)
		}
	}()
	first := true
	var mu sync.Mutex
	Run(max(runtime.GOMAXPROCS(0), 2), func(next func() (int, bool)) {
		for _, ok := next(); ok; _, ok = next() {
			mu.Lock()
			f := first
			first = false
			mu.Unlock()
			if f {
				panic("boom")
			}
		}
	})
	t.Error("no panic")
}

// A panic on the calling goroutine goes on only once every helper has
// returned: no item runs after Run has (before, the helpers ran on after
// the panic left Run, their results written after the caller moved on).
// In a cell the caller's body starts first and helpers only from its
// calls of next, so the caller is the body that panics.
func TestCallerPanicWaitsForHelpers(t *testing.T) {
	if !Measured {
		t.Skip("no thread ids on this system: Run cannot find the cell")
	}
	l := NewLender()
	l.Offer()
	var running atomic.Int32
	inCell(l, func(*Account) {
		defer func() {
			if p := recover(); p != "caller" {
				t.Errorf("recovered %v, want the caller's panic", p)
			}
		}()
		first := true
		Run(8, func(next func() (int, bool)) {
			caller := first
			first = false
			for _, ok := next(); ok; _, ok = next() {
				if caller {
					time.Sleep(10 * time.Millisecond) // the helper takes an item
					panic("caller")
				}
				running.Add(1)
				time.Sleep(20 * time.Millisecond)
				running.Add(-1)
			}
		})
	})
	if n := running.Load(); n != 0 {
		t.Errorf("%d items still running after Run panicked", n)
	}
}

// TestPanicOfLowestItem: when several items panic, Run raises the panic
// of the lowest one, as it is, whichever goroutine ran it and in every
// schedule. Before, it raised the first panic caught, marked "in a
// helper of par.Run" when a helper had run the item, so a failed cell's
// record read differently from run to run (TestPartsAreTheWholeCell
// failed so under load).
func TestPanicOfLowestItem(t *testing.T) {
	for trial := range 200 {
		func() {
			defer func() {
				if p := recover(); p != "item 3" {
					t.Fatalf("trial %d: recovered %v, want item 3's panic as it was raised", trial, p)
				}
			}()
			Run(16, func(next func() (int, bool)) {
				for i, ok := next(); ok; i, ok = next() {
					if trial%2 == 0 {
						runtime.Gosched()
					}
					if i == 3 || i == 9 || i == 14 {
						panic(fmt.Sprintf("item %d", i))
					}
				}
			})
			t.Fatalf("trial %d: no panic", trial)
		}()
	}
}
