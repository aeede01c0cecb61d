// Package vecmath evaluates the exponential of many numbers at once, with
// the same bits on every machine.
//
// # Why
//
// The Gaussian kernel's rows, exp(−‖x−y‖²/c) for a point against the
// training set, are what Mika's and RKPCA's fixed points and the kernel
// PCA projections evaluate at every step; after the matrix product (package
// linalg) the exponentials are most of their cost. math.Exp is one
// element at a time, and on amd64 it takes a different instruction
// sequence on CPUs with and without FMA. Exp here is one fixed sequence of
// IEEE 754 operations, written once in Go and once in AVX2 and AVX-512
// assembly that performs the same operations on four or eight elements
// at a time, so every machine and every kernel gives the same bits
// (TestExpKernelsAgree), and RUNEXP_NOASM=1 (read once, like package
// linalg's) or the noasm build tag forces the Go path.
//
// # The algorithm
//
// For x in [−707, 709]: t = x·log₂e rounded; k = t rounded to the nearest
// integer (ties to even); r = fma(−k, ln2_hi, x), then r = fma(−k, ln2_lo,
// r) (Cody & Waite's reduction with ln 2 split in two doubles, |r| ≤ 0.35
// or so); p = the degree-13 Taylor polynomial of e^r with coefficients
// 1/j! rounded to double, by Horner's rule with one fma per degree; and
// the result p·2^k, exact since 2^k and the product are normal there.
// Outside that range (and for NaN and ±Inf) Exp handles x in scalar code:
// +Inf above 709.782712893384 (exp's overflow threshold), +0 below
// −745.1332191019412 (below half the smallest subnormal), and otherwise
// the same reduction and polynomial with 2^k applied in two factors, so
// that a subnormal result is rounded once.
//
// # Accuracy
//
// The truncation error of the polynomial is below |r|¹⁴/14! ≈ 4·10⁻¹⁸ at
// |r| = ln 2/2, far below an ulp; the error is that of the roundings of the
// reduction and of Horner's rule. TestExpAccuracy measures it against an
// exact exponential (math/big at 320 bits) at 40 000 points across the
// range: at most 1 ulp (the bound it tests), where math.Exp, measured at
// the same points on amd64, reaches 1.6 ulp.
package vecmath
