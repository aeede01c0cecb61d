// Package par lends the idle cores of a worker pool to the inner loops of
// the cells it runs, and measures the CPU time each cell uses.
//
// # Why
//
// A suite runs the cells of every config in one pool of -j workers. Most
// of the time every worker has a cell, and a cell that splits its work
// (a config's repetitions, a classifier's splits, the rows of a Lasso
// path) would only oversubscribe the cores. Near the end of a suite, or
// of a run with few cells, workers idle while a few long cells run: then
// those cells should use the idle cores. Run does that: the calling
// goroutine works through the items itself and borrows a core for a
// helper goroutine only while a pool worker is idle, and gives it back as
// soon as the pool has a task for it.
//
// # Determinism
//
// Run hands out item indexes; which goroutine runs an item, and how many
// do, depends on the load. Callers store each item's result by its index
// and combine them in index order afterwards, so their output does not
// depend on it: the code calling Run decides a record's values, Run never
// does.
//
// # CPU time
//
// Go has no CPU clock per goroutine. A pool worker locks its goroutine to
// its OS thread for the length of a cell (runtime.LockOSThread) and reads
// the thread's CPU clock (CLOCK_THREAD_CPUTIME_ID, Linux only) before
// and after; helpers started by Run do the same and add their time to the
// cell's Account. What this misses: goroutines a cell starts on its own
// (gonum's parallel Dgemm splits large products over GOMAXPROCS
// goroutines), the garbage collector's background workers, and anything
// outside the cells. The suite compares the sum of its cells' times with
// the process's CPU time (getrusage) and reports the difference.
package par
