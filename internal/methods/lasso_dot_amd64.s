//go:build !noasm && !gccgo && !safe

#include "textflag.h"

// func dot4AVX2(n int, w, x0, x1, x2, x3 *float64) (s0, s1, s2, s3 float64)
//
// Four dot products of w with x0…x3, each summed in the order of gonum's
// amd64 DotUnitary (internal/asm/f64/dot_amd64.s, v0.17.0): chain l takes
// the elements i ≡ l (mod 4) of the blocks of four, the last n mod 4
// elements go to chain 0 in order, and the sum is (c0+c2) + (c1+c3); the
// products are rounded before they are added (no FMA). Lane l of column
// k's accumulator is DotUnitary's chain l, so each result is floats.Dot's
// bit for bit; the four columns' chains are independent, which hides the
// adds' latency that bounds a single DotUnitary.
TEXT ·dot4AVX2(SB), NOSPLIT, $0-80
	MOVQ n+0(FP), DI
	MOVQ w+8(FP), R8
	MOVQ x0+16(FP), R9
	MOVQ x1+24(FP), R10
	MOVQ x2+32(FP), R11
	MOVQ x3+40(FP), R12

	VXORPD Y4, Y4, Y4 // the four chains of x0
	VXORPD Y5, Y5, Y5 // of x1
	VXORPD Y6, Y6, Y6 // of x2
	VXORPD Y7, Y7, Y7 // of x3

	XORQ SI, SI   // i = 0
	SUBQ $4, DI   // n -= 4
	JL   tail     // if n < 0 goto tail

loop:
	VMOVUPD (R8)(SI*8), Y0
	VMULPD  (R9)(SI*8), Y0, Y1
	VADDPD  Y1, Y4, Y4
	VMULPD  (R10)(SI*8), Y0, Y2
	VADDPD  Y2, Y5, Y5
	VMULPD  (R11)(SI*8), Y0, Y3
	VADDPD  Y3, Y6, Y6
	VMULPD  (R12)(SI*8), Y0, Y1
	VADDPD  Y1, Y7, Y7

	ADDQ $4, SI // i += 4
	SUBQ $4, DI // n -= 4
	JGE  loop   // if n >= 0 goto loop

tail:
	// Chains 2 and 3 out first: the VEX.128 scalar operations below
	// zero the upper halves of the accumulators.
	VEXTRACTF128 $1, Y4, X8
	VEXTRACTF128 $1, Y5, X9
	VEXTRACTF128 $1, Y6, X10
	VEXTRACTF128 $1, Y7, X11

	ADDQ $4, DI // n += 4
	JLE  end    // if n <= 0 goto end

onemore:
	// chain 0 += w[i]*x[i] for the remaining 1–3 elements.
	VMOVSD (R8)(SI*8), X0
	VMULSD (R9)(SI*8), X0, X1
	VADDSD X1, X4, X4
	VMULSD (R10)(SI*8), X0, X2
	VADDSD X2, X5, X5
	VMULSD (R11)(SI*8), X0, X3
	VADDSD X3, X6, X6
	VMULSD (R12)(SI*8), X0, X1
	VADDSD X1, X7, X7

	ADDQ $1, SI  // i++
	SUBQ $1, DI  // n--
	JNZ  onemore // if n != 0 goto onemore

end:
	// (c0+c2, c1+c3), then (c0+c2) + (c1+c3).
	VADDPD    X8, X4, X4
	VPERMILPD $1, X4, X0
	VADDSD    X0, X4, X4
	VMOVSD    X4, s0+48(FP)

	VADDPD    X9, X5, X5
	VPERMILPD $1, X5, X0
	VADDSD    X0, X5, X5
	VMOVSD    X5, s1+56(FP)

	VADDPD    X10, X6, X6
	VPERMILPD $1, X6, X0
	VADDSD    X0, X6, X6
	VMOVSD    X6, s2+64(FP)

	VADDPD    X11, X7, X7
	VPERMILPD $1, X7, X0
	VADDSD    X0, X7, X7
	VMOVSD    X7, s3+72(FP)

	VZEROUPPER
	RET
