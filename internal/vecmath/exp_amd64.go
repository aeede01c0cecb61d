//go:build !noasm && !gccgo && !safe

package vecmath

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// expAVX512 and expAVX2 are implemented in exp_amd64.s; n is a multiple
// of 8 (4 for AVX2).
//
//go:noescape
func expAVX512(n int, dst, x *float64) int

//go:noescape
func expAVX2(n int, dst, x *float64) int

const haveAsm = true

var (
	hasAVX2   = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	hasAVX512 = hasAVX2 && cpu.X86.HasAVX512F
)

func exp512(dst, x []float64) (done, block int) {
	n := len(x) &^ 7
	if n == 0 {
		return 0, 8
	}
	_ = dst[n-1]
	return expAVX512(n, unsafe.SliceData(dst), unsafe.SliceData(x)), 8
}

func exp2(dst, x []float64) (done, block int) {
	n := len(x) &^ 3
	if n == 0 {
		return 0, 4
	}
	_ = dst[n-1]
	return expAVX2(n, unsafe.SliceData(dst), unsafe.SliceData(x)), 4
}

// expKernel does a prefix of ExpTo's elements and returns its length.
var expKernel, expName = func() (expKernelFunc, string) {
	switch {
	case noAsm:
	case hasAVX512:
		return exp512, "avx512"
	case hasAVX2:
		return exp2, "avx2"
	}
	return expGo, "go"
}()

// Runnable lists, of a kernel's AVX2 and AVX-512 versions, those this CPU
// can run: the tests compare each with the pure-Go code, whatever
// RUNEXP_NOASM says.
func Runnable[K any](avx2, avx512 K) []K {
	var ks []K
	if hasAVX2 {
		ks = append(ks, avx2)
	}
	if hasAVX512 {
		ks = append(ks, avx512)
	}
	return ks
}

// asmKernels lists the assembly kernels this CPU can run.
func asmKernels() []expKernelFunc { return Runnable[expKernelFunc](exp2, exp512) }

// sqdist4AVX512 and sqdist4AVX2 are implemented in sqdist_amd64.s; n is a
// positive multiple of 8.
//
//go:noescape
func sqdist4AVX512(n int, x, y0, y1, y2, y3 *float64, c *[4][8]float64)

//go:noescape
func sqdist4AVX2(n int, x, y0, y1, y2, y3 *float64, c *[4][8]float64)

func sqdist512(x, y0, y1, y2, y3 []float64, c *[4][8]float64) int {
	n := len(x) &^ 7
	if n > 0 {
		_, _, _, _ = y0[n-1], y1[n-1], y2[n-1], y3[n-1]
		sqdist4AVX512(n, &x[0], &y0[0], &y1[0], &y2[0], &y3[0], c)
	}
	return n
}

func sqdist2(x, y0, y1, y2, y3 []float64, c *[4][8]float64) int {
	n := len(x) &^ 7
	if n > 0 {
		_, _, _, _ = y0[n-1], y1[n-1], y2[n-1], y3[n-1]
		sqdist4AVX2(n, &x[0], &y0[0], &y1[0], &y2[0], &y3[0], c)
	}
	return n
}

// sqdistKernel does the first blocks of eight of SqDist4's chains and
// returns how many elements it did.
var sqdistKernel = func() sqdistKernelFunc {
	switch {
	case noAsm:
	case hasAVX512:
		return sqdist512
	case hasAVX2:
		return sqdist2
	}
	return sqdistGo
}()

// asmSqdist lists the assembly sqdist kernels this CPU can run.
func asmSqdist() []sqdistKernelFunc { return Runnable[sqdistKernelFunc](sqdist2, sqdist512) }
