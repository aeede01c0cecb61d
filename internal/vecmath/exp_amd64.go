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

// asmKernels lists the assembly kernels this CPU can run.
func asmKernels() []expKernelFunc {
	var ks []expKernelFunc
	if hasAVX2 {
		ks = append(ks, exp2)
	}
	if hasAVX512 {
		ks = append(ks, exp512)
	}
	return ks
}
