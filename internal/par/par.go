package par

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Lender holds the cores of a worker pool that no task uses: the pool
// offers each idle worker's core, Run borrows them for helpers, and the
// pool takes them back, asking helpers to leave when it has a task and
// every idle core is lent.
type Lender struct {
	mu   sync.Mutex
	free int // idle cores, neither lent nor taken back
	lent int // cores lent to helpers
	want int // lent cores the pool wants back
	// freed is signalled (without blocking) when a lent core comes back.
	freed chan struct{}
	// avail mirrors free for the lock-free check in Run's fast path.
	avail atomic.Int64
}

// NewLender returns a lender with no cores.
func NewLender() *Lender { return &Lender{freed: make(chan struct{}, 1)} }

// Offer makes the core of a worker that just went idle lendable.
func (l *Lender) Offer() {
	l.mu.Lock()
	l.free++
	l.sync()
	l.mu.Unlock()
}

// Take takes back an idle core for a task, reporting whether one was
// free (not lent).
func (l *Lender) Take() bool { return l.take(false) }

// take takes a free core, lending it to a helper when lend is set, and
// reports whether one was free.
func (l *Lender) take(lend bool) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.free == 0 {
		return false
	}
	l.free--
	if lend {
		l.lent++
	}
	l.sync()
	return true
}

// Want asks for n lent cores back (0 cancels): as many helpers leave
// after their current item. A core that comes back signals Freed.
func (l *Lender) Want(n int) {
	l.mu.Lock()
	l.want = max(0, min(n, l.lent))
	l.mu.Unlock()
}

// Lent returns the number of cores lent to helpers now.
func (l *Lender) Lent() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lent
}

// Freed is signalled when a lent core comes back.
func (l *Lender) Freed() <-chan struct{} { return l.freed }

func (l *Lender) sync() { l.avail.Store(int64(l.free)) }

// borrow lends a free core to a helper.
func (l *Lender) borrow() bool {
	if l.avail.Load() <= 0 {
		return false
	}
	return l.take(true)
}

// leave reports whether the pool wants a core back; a helper that is told
// so stops taking items.
func (l *Lender) leave() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.want == 0 {
		return false
	}
	l.want--
	return true
}

// giveBack returns a helper's core. A helper that ran out of items also
// answers a pending want: the core it frees is one the pool asked for.
func (l *Lender) giveBack(asked bool) {
	l.mu.Lock()
	l.lent--
	l.free++
	if !asked && l.want > 0 {
		l.want--
	}
	l.want = min(l.want, l.lent)
	l.sync()
	l.mu.Unlock()
	select {
	case l.freed <- struct{}{}:
	default:
	}
}

// Account gathers the CPU time of one cell's helpers, and what the
// cell's parallel loops were: how much of the cell's CPU time ran inside
// Run (on its own thread or a helper's) and how many items the widest
// Run had. The suite's prediction (package suite) lends idle cores to a
// cell by these.
type Account struct {
	lender *Lender
	cpu    atomic.Int64 // helpers' CPU time, nanoseconds
	inRun  atomic.Int64 // the bound thread's CPU time inside its outermost Runs
	width  atomic.Int64 // the most items of one Run
}

// NewAccount returns an account whose helpers borrow from l.
func (l *Lender) NewAccount() *Account { return &Account{lender: l} }

// HelperCPU returns the CPU time the account's helpers used.
func (a *Account) HelperCPU() time.Duration { return time.Duration(a.cpu.Load()) }

// ParallelCPU returns the CPU time spent inside Run: the helpers' and
// the bound thread's own within its outermost calls.
func (a *Account) ParallelCPU() time.Duration {
	return time.Duration(a.cpu.Load() + a.inRun.Load())
}

// Width returns the number of items of the account's widest Run (0 when
// it called none).
func (a *Account) Width() int { return int(a.width.Load()) }

func (a *Account) noteWidth(n int) {
	for {
		w := a.width.Load()
		if int64(n) <= w || a.width.CompareAndSwap(w, int64(n)) {
			return
		}
	}
}

// binding is an OS thread's account, and how deep the thread is in
// calls of Run (only the thread itself changes it).
type binding struct {
	a     *Account
	depth int
}

// bound maps an OS thread to the binding of the cell running on it.
var bound = struct {
	sync.RWMutex
	m map[int]*binding
}{m: map[int]*binding{}}

// Bind makes a the account of the calling goroutine, which must be locked
// to its OS thread (runtime.LockOSThread) until it calls the returned
// unbind: Run called from it, or from the helpers it starts, borrows from
// a's lender and adds the helpers' CPU time to a.
func Bind(a *Account) (unbind func()) { return bind(a, 0) }

// bind is Bind at a depth in Run: a helper's thread is inside its Run
// from the start.
func bind(a *Account, depth int) (unbind func()) {
	tid := threadID()
	if tid == 0 {
		return func() {}
	}
	bound.Lock()
	prev := bound.m[tid]
	bound.m[tid] = &binding{a: a, depth: depth}
	bound.Unlock()
	return func() {
		bound.Lock()
		if prev == nil {
			delete(bound.m, tid)
		} else {
			bound.m[tid] = prev
		}
		bound.Unlock()
	}
}

func current() *binding {
	tid := threadID()
	if tid == 0 {
		return nil
	}
	bound.RLock()
	defer bound.RUnlock()
	return bound.m[tid]
}

// Run calls body on the calling goroutine and on helper goroutines; each
// body takes item indexes from next until next reports false, and every
// index in [0, n) is handed out exactly once. Run returns when every body
// has returned.
//
// Called from a cell of a pool (Bind), Run starts a helper only while the
// pool has an idle core, at any point while two or more items are left,
// and a helper leaves after its current item when the pool wants its core
// back. Called anywhere else it runs min(GOMAXPROCS, n) bodies at once.
//
// A body must not depend on which goroutine runs it or which items it
// gets: store each item's result by its index. A panic is raised again on
// the calling goroutine once every body has returned: the panic of the
// lowest item that panicked, the same value whichever goroutine ran it.
func Run(n int, body func(next func() (int, bool))) {
	if n <= 0 {
		return
	}
	var idx atomic.Int64
	take := func() (int, bool) {
		i := int(idx.Add(1) - 1)
		return i, i < n
	}
	var wg sync.WaitGroup
	var panicked firstPanic
	b := current()
	if b == nil {
		for range min(runtime.GOMAXPROCS(0), n) - 1 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				panicked.run(body, take)
			}()
		}
		panicked.run(body, take)
		wg.Wait()
		panicked.rethrow()
		return
	}
	a := b.a
	a.noteWidth(n)
	if b.depth == 0 {
		t0 := ThreadCPU()
		defer func() {
			if t1 := ThreadCPU(); t0 >= 0 && t1 >= t0 {
				a.inRun.Add(int64(t1 - t0))
			}
		}()
	}
	b.depth++
	defer func() { b.depth-- }()
	next := func() (int, bool) {
		i, ok := take()
		// Two or more items left besides this one: lend an idle core.
		if ok && int(idx.Load()) < n-1 && a.lender.borrow() {
			wg.Add(1)
			go a.help(&wg, &panicked, body, take)
		}
		return i, ok
	}
	panicked.run(body, next)
	wg.Wait()
	panicked.rethrow()
}

// help runs body on a borrowed core, locked to its thread so that its CPU
// time can be read and nested Runs find the account.
func (a *Account) help(wg *sync.WaitGroup, panicked *firstPanic, body func(func() (int, bool)), take func() (int, bool)) {
	defer wg.Done()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	unbind := bind(a, 1)
	t0 := ThreadCPU()
	asked := false
	defer func() {
		if t1 := ThreadCPU(); t0 >= 0 && t1 >= t0 {
			a.cpu.Add(int64(t1 - t0))
		}
		unbind()
		a.lender.giveBack(asked)
	}()
	panicked.run(body, func() (int, bool) {
		if a.lender.leave() {
			asked = true
			return 0, false
		}
		return take()
	})
}

// firstPanic keeps the panic of the lowest item that panicked, whichever
// goroutine ran it, so that Run raises the same value at any number of
// helpers and in any schedule: items are handed out in order and every
// body stops only at an item that panics, so the lowest such item always
// runs. (Raising the first panic caught instead, or marking a helper's,
// made a failed cell's record depend on which goroutine ran the item.)
type firstPanic struct {
	mu   sync.Mutex
	item int
	v    any
	set  bool
}

// run calls body with next, noting the item a panic leaves it in.
func (p *firstPanic) run(body func(func() (int, bool)), next func() (int, bool)) {
	item := -1
	defer func() {
		if v := recover(); v != nil {
			p.mu.Lock()
			defer p.mu.Unlock()
			if !p.set || item < p.item {
				p.item, p.v, p.set = item, v, true
			}
		}
	}()
	body(func() (int, bool) {
		i, ok := next()
		if ok {
			item = i
		}
		return i, ok
	})
}

// rethrow raises the kept panic, if any, once no body runs: no item is
// left running after the call that started it (its CPU time uncounted,
// its result written after the caller has moved on).
func (p *firstPanic) rethrow() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.set {
		panic(p.v)
	}
}
