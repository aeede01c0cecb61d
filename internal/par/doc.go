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
// its OS thread for the length of a task (a cell or a part of one, a
// config's Start, a report) and reads the thread's CPU clock
// (CLOCK_THREAD_CPUTIME_ID, Linux only) before and after; helpers started
// by Run do the same and add their time to the task's Account. Every
// parallel loop of runexp goes through Run: a cell's rows, repetitions
// and splits, gonum's Dgemm blocks (package linalg), GIST's images, the
// claims; so a task's time is all the CPU it caused but the garbage
// collector's background work and the runtime's, which the suite reports
// apart (the process's CPU time, getrusage, against its tasks'). An
// Account also records how much of the task's CPU ran inside Run and the
// most items one Run had: how far idle cores could speed the task up,
// which the suite's prediction uses.
package par
