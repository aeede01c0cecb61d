//go:build !noasm && !gccgo && !safe

#include "textflag.h"

// The two passes of the GPS bound sweep (lasso_sweep.go) four components
// at a time. Each lane does what sweepLoGo and sweepBitsGo do for one
// component, with the same roundings: products rounded before they are
// added (no FMA), |x| by clearing the sign bit, comparisons that are false
// for NaN. n is a multiple of 4; the caller does the rest.

// func sweepLoAVX2(n, all int, q, coef, p, rz, half, est, bnd *float64, w, a, s, lo float64) float64
TEXT ·sweepLoAVX2(SB), NOSPLIT, $0-112
	MOVQ n+0(FP), DI
	MOVQ all+8(FP), AX
	MOVQ q+16(FP), R8
	MOVQ coef+24(FP), R9
	MOVQ p+32(FP), R10
	MOVQ rz+40(FP), R11
	MOVQ half+48(FP), R12
	MOVQ est+56(FP), R13
	MOVQ bnd+64(FP), BX

	VBROADCASTSD w+72(FP), Y12
	VBROADCASTSD a+80(FP), Y13
	VBROADCASTSD s+88(FP), Y14
	VBROADCASTSD lo+96(FP), Y11
	VPCMPEQQ     Y15, Y15, Y15
	VPSRLQ       $1, Y15, Y15   // 0x7fff…: clears the sign bit

	XORQ SI, SI // j = 0
	CMPQ SI, DI
	JGE  lodone
	TESTQ AX, AX
	JNZ  loall

loterms:
	// est = q + w·coef
	VMOVUPD (R9)(SI*8), Y0
	VMULPD  Y12, Y0, Y0
	VADDPD  (R8)(SI*8), Y0, Y0
	VMOVUPD Y0, (R13)(SI*8)
	// bnd = (p + a·half) + s·rz
	VMOVUPD (R12)(SI*8), Y1
	VMULPD  Y13, Y1, Y1
	VADDPD  (R10)(SI*8), Y1, Y1
	VMOVUPD (R11)(SI*8), Y2
	VMULPD  Y14, Y2, Y2
	VADDPD  Y2, Y1, Y1
	VMOVUPD Y1, (BX)(SI*8)
	// lo = max(lo, |est| − bnd), lo kept where the bound is NaN
	// (VMAXPD returns its second source when either is NaN).
	VANDPD  Y15, Y0, Y3
	VSUBPD  Y1, Y3, Y3
	VMAXPD  Y11, Y3, Y11
	ADDQ    $4, SI
	CMPQ    SI, DI
	JL      loterms
	JMP     lodone

loall:
	VMOVUPD (R13)(SI*8), Y0
	VANDPD  Y15, Y0, Y3
	VSUBPD  (BX)(SI*8), Y3, Y3
	VMAXPD  Y11, Y3, Y11
	ADDQ    $4, SI
	CMPQ    SI, DI
	JL      loall

lodone:
	// The largest of the four lanes; none is NaN.
	VEXTRACTF128 $1, Y11, X0
	VMAXPD       X0, X11, X11
	VPERMILPD    $1, X11, X0
	VMAXSD       X0, X11, X11
	VMOVSD       X11, ret+104(FP)
	VZEROUPPER
	RET

// func sweepBitsAVX2(n int, est, bnd, sg, up *float64, lo float64, cand, s *uint64)
//
// The lanes' bits are gathered in BX (candidates) and DX (S marks) and
// ORed into their words once per 64 components and at the end, not at
// every step: a read-modify-write of the same word at every step made
// each wait for the previous one's store.
TEXT ·sweepBitsAVX2(SB), NOSPLIT, $0-64
	MOVQ n+0(FP), DI
	MOVQ est+8(FP), R8
	MOVQ bnd+16(FP), R9
	MOVQ sg+24(FP), R10
	MOVQ up+32(FP), R11
	MOVQ cand+48(FP), R12
	MOVQ s+56(FP), R13

	VBROADCASTSD lo+40(FP), Y11
	VPCMPEQQ     Y15, Y15, Y15
	VPSRLQ       $1, Y15, Y15

	XORQ SI, SI // j = 0
	XORQ BX, BX
	XORQ DX, DX
	CMPQ SI, DI
	JGE  bitsdone

bits:
	MOVQ SI, CX // the lanes' bits go to bits j%64… of word j/64
	// up = |est| + bnd; candidate when up ≥ lo (GE_OS, false for NaN).
	VMOVUPD   (R8)(SI*8), Y0
	VMOVUPD   (R9)(SI*8), Y1
	VANDPD    Y15, Y0, Y2
	VADDPD    Y1, Y2, Y2
	VMOVUPD   Y2, (R11)(SI*8)
	VCMPPD    $0x0d, Y11, Y2, Y3
	VMOVMSKPD Y3, AX
	SHLQ      CX, AX
	ORQ       AX, BX
	// S test: est·sg < bnd·sg² (LT_OS).
	VMOVUPD   (R10)(SI*8), Y4
	VMULPD    Y4, Y0, Y5
	VMULPD    Y4, Y4, Y6
	VMULPD    Y6, Y1, Y6
	VCMPPD    $0x01, Y6, Y5, Y7
	VMOVMSKPD Y7, AX
	SHLQ      CX, AX
	ORQ       AX, DX
	ADDQ      $4, SI
	TESTQ     $63, SI
	JNZ       bitsnext
	// A word is complete: j = SI − 4 was its last group.
	LEAQ      -4(SI), AX
	SHRQ      $6, AX
	ORQ       BX, (R12)(AX*8)
	ORQ       DX, (R13)(AX*8)
	XORQ      BX, BX
	XORQ      DX, DX

bitsnext:
	CMPQ SI, DI
	JL   bits
	// The last, incomplete word (SI is not a multiple of 64).
	TESTQ $63, SI
	JZ    bitsdone
	MOVQ  SI, AX
	SHRQ  $6, AX
	ORQ   BX, (R12)(AX*8)
	ORQ   DX, (R13)(AX*8)

bitsdone:
	VZEROUPPER
	RET
