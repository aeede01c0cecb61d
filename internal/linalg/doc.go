// Package linalg selects the dense linear-algebra backend of runexp and
// measures it.
//
// # Overview
//
// By default every matrix product and decomposition runs on gonum's
// pure-Go BLAS and LAPACK (gonum.org/v1/gonum/blas/gonum,
// gonum.org/v1/gonum/lapack/gonum) with the routines that carry the flops
// replaced (dgemm.go, dsyev.go): Dgemm, Dsymm, Dsyrk and Dsyr2k by a
// packed product (GotoBLAS's blocking, gemm.go) with AVX-512, AVX2/FMA
// and pure-Go micro-kernels, Dsymv by row kernels (symv.go), both under a
// rounding fixed by definition (one FMA chain per element; eight chains
// per row for Dsymv) so that every kernel, every machine and every
// goroutine count gives the same bits; and the symmetric eigensolver's
// QL/QR stage (Dsteqr, and Dsyev through it) applying its rotations a
// block of rows at a time, gonum's results bit for bit (dsteqr.go). A
// large product hands its blocks out through package par, so that inside
// a pool's task it borrows only idle cores and its CPU time counts in the
// task's. RUNEXP_NOASM=1 forces the pure-Go kernels, with the same bits
// (NoAsm). Built with the tag openblas
// (make build-openblas), importing this package registers OpenBLAS
// instead, through gonum's own cgo bindings: blas64.Use with
// gonum.org/v1/netlib/blas/netlib (CBLAS), and lapack64.Use with gonum's
// LAPACK, whose BLAS calls then go to OpenBLAS, except for the symmetric
// eigensolver Dsyev, which is LAPACK's divide-and-conquer dsyevd through
// gonum.org/v1/netlib/lapack/lapacke (the netlib package's own LAPACK
// type predates methods gonum v0.17's lapack.Float64 requires, so it
// cannot be registered whole). Package methods imports linalg, so every
// binary that fits a model gets the backend the build chose.
//
// # Agreement
//
// The two backends compute the same quantities with different rounding
// (the products' contract is this package's, not OpenBLAS's):
// TestBackendAgreement (run under the tag by make test-openblas) checks
// products to 1e-12 relative and eigenvalues to 1e-10 relative to the
// largest, eigenvectors up to sign to 1e-8 (an eigenvector's rounding
// error is ε·‖A‖ over the eigenvalue gap).
//
// # Threads
//
// OpenBLAS runs every call on one thread unless OPENBLAS_NUM_THREADS is
// set: its threaded routines split sums among threads, so a result's
// last bits would depend on the thread count, and runexp's own goroutines
// (cells, rows, splits) already use the cores. Fingerprint names the
// backend and, for OpenBLAS, its thread count, for cache keys. gonum's
// parallel products give the same bits for any GOMAXPROCS.
//
// # Debian
//
// apt-get install libopenblas-dev liblapacke-dev; the Makefile sets
// CGO_LDFLAGS to -lopenblas -llapacke.
package linalg

// Backend names the registered BLAS/LAPACK backend: "gonum" (pure Go)
// or "openblas".
func Backend() string { return backend }
