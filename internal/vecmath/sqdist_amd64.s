//go:build !noasm && !gccgo && !safe

#include "textflag.h"

// func sqdist4AVX512(n int, x, y0, y1, y2, y3 *float64, c *[4][8]float64)
//
// sqdist.go's chains of ‖x − y_k‖² over the first n elements (n a
// positive multiple of 8): lane l of Z0…Z3 is chain l of y_k, one
// subtraction and one VFMADD231PD per block of eight.
TEXT ·sqdist4AVX512(SB), NOSPLIT, $0-56
	MOVQ n+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ y0+16(FP), R8
	MOVQ y1+24(FP), R9
	MOVQ y2+32(FP), R10
	MOVQ y3+40(FP), R11
	MOVQ c+48(FP), AX
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	XORQ   DX, DX

sd512:
	VMOVUPD     (SI)(DX*8), Z4
	VSUBPD      (R8)(DX*8), Z4, Z5
	VFMADD231PD Z5, Z5, Z0
	VSUBPD      (R9)(DX*8), Z4, Z6
	VFMADD231PD Z6, Z6, Z1
	VSUBPD      (R10)(DX*8), Z4, Z7
	VFMADD231PD Z7, Z7, Z2
	VSUBPD      (R11)(DX*8), Z4, Z8
	VFMADD231PD Z8, Z8, Z3
	ADDQ        $8, DX
	CMPQ        DX, CX
	JL          sd512

	VMOVUPD Z0, (AX)
	VMOVUPD Z1, 64(AX)
	VMOVUPD Z2, 128(AX)
	VMOVUPD Z3, 192(AX)
	VZEROUPPER
	RET

// func sqdist4AVX2(n int, x, y0, y1, y2, y3 *float64, c *[4][8]float64)
//
// sqdist4AVX512 with chains 0–3 of y_k in Y(2k) and 4–7 in Y(2k+1).
TEXT ·sqdist4AVX2(SB), NOSPLIT, $0-56
	MOVQ n+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ y0+16(FP), R8
	MOVQ y1+24(FP), R9
	MOVQ y2+32(FP), R10
	MOVQ y3+40(FP), R11
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

sd2:
	VMOVUPD     (SI)(DX*8), Y8
	VMOVUPD     32(SI)(DX*8), Y9
	VSUBPD      (R8)(DX*8), Y8, Y10
	VFMADD231PD Y10, Y10, Y0
	VSUBPD      32(R8)(DX*8), Y9, Y11
	VFMADD231PD Y11, Y11, Y1
	VSUBPD      (R9)(DX*8), Y8, Y10
	VFMADD231PD Y10, Y10, Y2
	VSUBPD      32(R9)(DX*8), Y9, Y11
	VFMADD231PD Y11, Y11, Y3
	VSUBPD      (R10)(DX*8), Y8, Y10
	VFMADD231PD Y10, Y10, Y4
	VSUBPD      32(R10)(DX*8), Y9, Y11
	VFMADD231PD Y11, Y11, Y5
	VSUBPD      (R11)(DX*8), Y8, Y10
	VFMADD231PD Y10, Y10, Y6
	VSUBPD      32(R11)(DX*8), Y9, Y11
	VFMADD231PD Y11, Y11, Y7
	ADDQ        $8, DX
	CMPQ        DX, CX
	JL          sd2

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
