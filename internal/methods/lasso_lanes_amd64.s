//go:build !noasm && !gccgo && !safe

#include "textflag.h"

// func dot4LanesAVX512(n int, w, x0, x1, x2, x3 *float64, c *[4][8]float64)
//
// lasso_lanes.go's chains of Σ w_n x_k,n for k = 0…3 over the first n
// terms (n a positive multiple of 8): lane l of Z0…Z3 is chain l of
// column k, one VFMADD231PD per block of eight; the chains are stored in c.
TEXT ·dot4LanesAVX512(SB), NOSPLIT, $0-56
	MOVQ n+0(FP), CX
	MOVQ w+8(FP), SI
	MOVQ x0+16(FP), R8
	MOVQ x1+24(FP), R9
	MOVQ x2+32(FP), R10
	MOVQ x3+40(FP), R11
	MOVQ c+48(FP), AX
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	XORQ   DX, DX

d4l512:
	VMOVUPD     (SI)(DX*8), Z4
	VFMADD231PD (R8)(DX*8), Z4, Z0
	VFMADD231PD (R9)(DX*8), Z4, Z1
	VFMADD231PD (R10)(DX*8), Z4, Z2
	VFMADD231PD (R11)(DX*8), Z4, Z3
	ADDQ        $8, DX
	CMPQ        DX, CX
	JL          d4l512

	VMOVUPD Z0, (AX)
	VMOVUPD Z1, 64(AX)
	VMOVUPD Z2, 128(AX)
	VMOVUPD Z3, 192(AX)
	VZEROUPPER
	RET

// func dot4LanesAVX2(n int, w, x0, x1, x2, x3 *float64, c *[4][8]float64)
//
// dot4LanesAVX512 with chains 0–3 of column k in Y(2k) and 4–7 in Y(2k+1).
TEXT ·dot4LanesAVX2(SB), NOSPLIT, $0-56
	MOVQ n+0(FP), CX
	MOVQ w+8(FP), SI
	MOVQ x0+16(FP), R8
	MOVQ x1+24(FP), R9
	MOVQ x2+32(FP), R10
	MOVQ x3+40(FP), R11
	MOVQ c+48(FP), AX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	XORQ   DX, DX

d4l2:
	VMOVUPD     (SI)(DX*8), Y8
	VMOVUPD     32(SI)(DX*8), Y9
	VFMADD231PD (R8)(DX*8), Y8, Y0
	VFMADD231PD 32(R8)(DX*8), Y9, Y1
	VFMADD231PD (R9)(DX*8), Y8, Y2
	VFMADD231PD 32(R9)(DX*8), Y9, Y3
	VFMADD231PD (R10)(DX*8), Y8, Y4
	VFMADD231PD 32(R10)(DX*8), Y9, Y5
	VFMADD231PD (R11)(DX*8), Y8, Y6
	VFMADD231PD 32(R11)(DX*8), Y9, Y7
	ADDQ        $8, DX
	CMPQ        DX, CX
	JL          d4l2

	VMOVUPD Y0, 0(AX)
	VMOVUPD Y1, 32(AX)
	VMOVUPD Y2, 64(AX)
	VMOVUPD Y3, 96(AX)
	VMOVUPD Y4, 128(AX)
	VMOVUPD Y5, 160(AX)
	VMOVUPD Y6, 192(AX)
	VMOVUPD Y7, 224(AX)
	VZEROUPPER
	RET

// func weightsLanesAVX512(n int, w, e *float64, f float64, c *[3][8]float64)
//
// lasso_lanes.go's weight update over the first n weights (n a positive
// multiple of 8): w ← (w·e)·f, and lane l of Z0, Z1, Z2 is chain l of
// Σ w, Σ |w| and Σ |w − old w|, which it stores in c.
TEXT ·weightsLanesAVX512(SB), NOSPLIT, $0-40
	MOVQ n+0(FP), CX
	MOVQ w+8(FP), SI
	MOVQ e+16(FP), DI
	VBROADCASTSD f+24(FP), Z7
	MOVQ c+32(FP), AX
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPTERNLOGQ $0xff, Z6, Z6, Z6
	VPSRLQ     $1, Z6, Z6 // 0x7fff…: clears the sign bit
	XORQ       DX, DX

wl512:
	VMOVUPD (SI)(DX*8), Z3
	VMULPD  (DI)(DX*8), Z3, Z4
	VMULPD  Z7, Z4, Z4
	VMOVUPD Z4, (SI)(DX*8)
	VSUBPD  Z3, Z4, Z5
	VPANDQ  Z6, Z5, Z5
	VADDPD  Z5, Z2, Z2
	VADDPD  Z4, Z0, Z0
	VPANDQ  Z6, Z4, Z4
	VADDPD  Z4, Z1, Z1
	ADDQ    $8, DX
	CMPQ    DX, CX
	JL      wl512

	VMOVUPD Z0, (AX)
	VMOVUPD Z1, 64(AX)
	VMOVUPD Z2, 128(AX)
	VZEROUPPER
	RET

// func weightsLanesAVX2(n int, w, e *float64, f float64, c *[3][8]float64)
//
// weightsLanesAVX512 with chains 0–3 in Y0, Y2, Y4 and 4–7 in Y1, Y3, Y5.
TEXT ·weightsLanesAVX2(SB), NOSPLIT, $0-40
	MOVQ n+0(FP), CX
	MOVQ w+8(FP), SI
	MOVQ e+16(FP), DI
	VBROADCASTSD f+24(FP), Y15
	MOVQ c+32(FP), AX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VPCMPEQQ Y14, Y14, Y14
	VPSRLQ   $1, Y14, Y14
	XORQ     DX, DX

wl2:
	VMOVUPD (SI)(DX*8), Y6
	VMULPD  (DI)(DX*8), Y6, Y7
	VMULPD  Y15, Y7, Y7
	VMOVUPD Y7, (SI)(DX*8)
	VSUBPD  Y6, Y7, Y8
	VANDPD  Y14, Y8, Y8
	VADDPD  Y8, Y4, Y4
	VADDPD  Y7, Y0, Y0
	VANDPD  Y14, Y7, Y7
	VADDPD  Y7, Y2, Y2
	VMOVUPD 32(SI)(DX*8), Y6
	VMULPD  32(DI)(DX*8), Y6, Y7
	VMULPD  Y15, Y7, Y7
	VMOVUPD Y7, 32(SI)(DX*8)
	VSUBPD  Y6, Y7, Y8
	VANDPD  Y14, Y8, Y8
	VADDPD  Y8, Y5, Y5
	VADDPD  Y7, Y1, Y1
	VANDPD  Y14, Y7, Y7
	VADDPD  Y7, Y3, Y3
	ADDQ $8, DX
	CMPQ DX, CX
	JL   wl2

	VMOVUPD Y0, 0(AX)
	VMOVUPD Y1, 32(AX)
	VMOVUPD Y2, 64(AX)
	VMOVUPD Y3, 96(AX)
	VMOVUPD Y4, 128(AX)
	VMOVUPD Y5, 160(AX)
	VZEROUPPER
	RET
