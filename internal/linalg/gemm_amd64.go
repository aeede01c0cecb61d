//go:build !noasm && !gccgo && !safe && !openblas

package linalg

import (
	"unsafe"

	"golang.org/x/sys/cpu"

	"github.com/runexp/runexp/internal/vecmath"
)

// tile6x8AVX2 is implemented in gemm_amd64.s.
//
//go:noescape
func tile6x8AVX2(kc int, a, b, c *float64, ldc int, load bool)

// tile8x24AVX512 is implemented in gemm_amd64.s.
//
//go:noescape
func tile8x24AVX512(kc int, a, b, c *float64, ldc int, load bool)

// avx512Kernel is the AVX-512 micro-kernel, 8×24.
var avx512Kernel = microKernel{mr: 8, nr: 24, name: "avx512", pools: newKernelPools(8, 24), tile: func(kc int, a, b, c []float64, ldc int, load bool) {
	_, _, _ = a[8*kc-1], b[24*kc-1], c[7*ldc+23]
	tile8x24AVX512(kc, unsafe.SliceData(a), unsafe.SliceData(b), unsafe.SliceData(c), ldc, load)
}}

// avx2Kernel is the AVX2/FMA micro-kernel, 6×8.
var avx2Kernel = microKernel{mr: 6, nr: 8, name: "avx2", pools: newKernelPools(6, 8), tile: func(kc int, a, b, c []float64, ldc int, load bool) {
	// The bounds the assembly reads and writes.
	_, _, _ = a[6*kc-1], b[8*kc-1], c[5*ldc+7]
	tile6x8AVX2(kc, unsafe.SliceData(a), unsafe.SliceData(b), unsafe.SliceData(c), ldc, load)
}}

// symvRowAVX512 and symvRowAVX2 are implemented in gemm_amd64.s; n is a
// positive multiple of 8.
//
//go:noescape
func symvRowAVX512(n int, a, x, y *float64, xv float64, lanes *[symvLanes]float64)

//go:noescape
func symvRowAVX2(n int, a, x, y *float64, xv float64, lanes *[symvLanes]float64)

func symvRowAsm512(a, x, y []float64, xv float64) (lanes [symvLanes]float64) {
	if n := len(a) &^ (symvLanes - 1); n > 0 {
		_, _ = x[n-1], y[n-1]
		symvRowAVX512(n, unsafe.SliceData(a), unsafe.SliceData(x), unsafe.SliceData(y), xv, &lanes)
	}
	return lanes
}

func symvRowAsm2(a, x, y []float64, xv float64) (lanes [symvLanes]float64) {
	if n := len(a) &^ (symvLanes - 1); n > 0 {
		_, _ = x[n-1], y[n-1]
		symvRowAVX2(n, unsafe.SliceData(a), unsafe.SliceData(x), unsafe.SliceData(y), xv, &lanes)
	}
	return lanes
}

// rotSweepAVX512 is implemented in gemm_amd64.s: rotPanel on a panel of
// rotRows = 32 rows.
//
//go:noescape
func rotSweepAVX512(p *float64, col, mm int, cs *float64, forward bool)

func init() {
	if hasAVX512 && !noAsm {
		rotPanel32 = func(p []float64, op rotOp, cs []float64) {
			if op.mm < 2 {
				return
			}
			_, _ = p[(op.col+op.mm)*rotRows-1], cs[op.off+2*(op.mm-1)-1]
			rotSweepAVX512(&p[0], op.col, op.mm, &cs[op.off], op.forward)
		}
	}
}

// hasAVX2 reports whether the CPU has the AVX2 and FMA instructions the
// assembly kernels use, and the operating system saves their registers.
var hasAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// hasAVX512 reports whether the CPU has AVX-512 Foundation and the
// operating system saves its registers.
var hasAVX512 = hasAVX2 && cpu.X86.HasAVX512F

func init() {
	if NoAsm() {
		return
	}
	switch {
	case hasAVX512:
		gemmKernel, symvRow = avx512Kernel, symvRowAsm512
	case hasAVX2:
		gemmKernel, symvRow = avx2Kernel, symvRowAsm2
	}
}

// noAsm is RUNEXP_NOASM, read once by package vecmath.
var noAsm = vecmath.NoAsm()

// asmSymvRows lists the assembly row kernels of symv this CPU can run.
func asmSymvRows() []symvRowKernel {
	return vecmath.Runnable[symvRowKernel](symvRowAsm2, symvRowAsm512)
}

// asmKernels lists the assembly micro-kernels this CPU can run.
func asmKernels() []microKernel { return vecmath.Runnable(avx2Kernel, avx512Kernel) }
