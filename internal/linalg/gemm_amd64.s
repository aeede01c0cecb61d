//go:build !noasm && !gccgo && !safe && !openblas

#include "textflag.h"

// STEP6x8(a, b) is one step of the inner dimension in tile6x8AVX2: the
// packed row of B at b(DI) (8 elements, Y0 and Y1) times each of A's 6
// elements at a(SI) (broadcast into Y2 and Y3 in turn), added by FMA into
// the accumulators Y4–Y15 (row i in Y(4+2i) and Y(5+2i)).
#define STEP6x8(a, b) \
	VMOVUPD b(DI), Y0; VMOVUPD b+32(DI), Y1; \
	VBROADCASTSD a(SI), Y2; VFMADD231PD Y0, Y2, Y4; VFMADD231PD Y1, Y2, Y5; \
	VBROADCASTSD a+8(SI), Y3; VFMADD231PD Y0, Y3, Y6; VFMADD231PD Y1, Y3, Y7; \
	VBROADCASTSD a+16(SI), Y2; VFMADD231PD Y0, Y2, Y8; VFMADD231PD Y1, Y2, Y9; \
	VBROADCASTSD a+24(SI), Y3; VFMADD231PD Y0, Y3, Y10; VFMADD231PD Y1, Y3, Y11; \
	VBROADCASTSD a+32(SI), Y2; VFMADD231PD Y0, Y2, Y12; VFMADD231PD Y1, Y2, Y13; \
	VBROADCASTSD a+40(SI), Y3; VFMADD231PD Y0, Y3, Y14; VFMADD231PD Y1, Y3, Y15

// STEP8x24(a, b) is one step of the inner dimension in tile8x24AVX512:
// the packed row of B at b(DI) (24 elements, Z0–Z2) times each of A's 8
// elements at a(SI) (broadcast into Z3 and Z4 in turn), added by FMA into
// the accumulators Z8–Z31 (row i in Z(8+3i) to Z(10+3i)).
#define STEP8x24(a, b) \
	VMOVUPD b(DI), Z0; VMOVUPD b+64(DI), Z1; VMOVUPD b+128(DI), Z2; \
	VBROADCASTSD a(SI), Z3; VFMADD231PD Z0, Z3, Z8; VFMADD231PD Z1, Z3, Z9; VFMADD231PD Z2, Z3, Z10; \
	VBROADCASTSD a+8(SI), Z4; VFMADD231PD Z0, Z4, Z11; VFMADD231PD Z1, Z4, Z12; VFMADD231PD Z2, Z4, Z13; \
	VBROADCASTSD a+16(SI), Z3; VFMADD231PD Z0, Z3, Z14; VFMADD231PD Z1, Z3, Z15; VFMADD231PD Z2, Z3, Z16; \
	VBROADCASTSD a+24(SI), Z4; VFMADD231PD Z0, Z4, Z17; VFMADD231PD Z1, Z4, Z18; VFMADD231PD Z2, Z4, Z19; \
	VBROADCASTSD a+32(SI), Z3; VFMADD231PD Z0, Z3, Z20; VFMADD231PD Z1, Z3, Z21; VFMADD231PD Z2, Z3, Z22; \
	VBROADCASTSD a+40(SI), Z4; VFMADD231PD Z0, Z4, Z23; VFMADD231PD Z1, Z4, Z24; VFMADD231PD Z2, Z4, Z25; \
	VBROADCASTSD a+48(SI), Z3; VFMADD231PD Z0, Z3, Z26; VFMADD231PD Z1, Z3, Z27; VFMADD231PD Z2, Z3, Z28; \
	VBROADCASTSD a+56(SI), Z4; VFMADD231PD Z0, Z4, Z29; VFMADD231PD Z1, Z4, Z30; VFMADD231PD Z2, Z4, Z31

// func tile6x8AVX2(kc int, a, b, c *float64, ldc int, load bool)
//
// One 6×8 tile of C (row stride ldc, in elements): twelve accumulators of
// four elements each (Y4…Y15, two per row), loaded from C or zeroed, then
// per step l of the inner dimension one broadcast of a[l·6+r] per row r,
// two loads of b[l·8 : l·8+8] and one VFMADD231PD per accumulator: each
// element of C takes one fused multiply-add per step, in the order of l,
// which is gemm.go's contract (the pure-Go kernel's math.FMA gives the
// same bits). The loop is unrolled four times; the remaining kc mod 4
// steps run one at a time. The rows of the next tile down are prefetched
// (a prefetch never faults, so past the end of C is harmless).
TEXT ·tile6x8AVX2(SB), NOSPLIT, $0-41
	MOVQ kc+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ c+24(FP), DX
	MOVQ ldc+32(FP), R8
	SHLQ $3, R8
	LEAQ (DX)(R8*1), R9
	LEAQ (DX)(R8*2), R10
	LEAQ (R9)(R8*2), R11
	LEAQ (DX)(R8*4), R12
	LEAQ (R9)(R8*4), R13
	LEAQ (R13)(R8*1), AX
	PREFETCHT0 (AX)
	PREFETCHT0 56(AX)
	ADDQ R8, AX
	PREFETCHT0 (AX)
	PREFETCHT0 56(AX)
	ADDQ R8, AX
	PREFETCHT0 (AX)
	PREFETCHT0 56(AX)
	ADDQ R8, AX
	PREFETCHT0 (AX)
	PREFETCHT0 56(AX)
	ADDQ R8, AX
	PREFETCHT0 (AX)
	PREFETCHT0 56(AX)
	ADDQ R8, AX
	PREFETCHT0 (AX)
	PREFETCHT0 56(AX)
	MOVBQZX load+40(FP), AX
	TESTQ AX, AX
	JZ    zero
	VMOVUPD (DX), Y4
	VMOVUPD 32(DX), Y5
	VMOVUPD (R9), Y6
	VMOVUPD 32(R9), Y7
	VMOVUPD (R10), Y8
	VMOVUPD 32(R10), Y9
	VMOVUPD (R11), Y10
	VMOVUPD 32(R11), Y11
	VMOVUPD (R12), Y12
	VMOVUPD 32(R12), Y13
	VMOVUPD (R13), Y14
	VMOVUPD 32(R13), Y15
	JMP start

zero:
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11
	VXORPD Y12, Y12, Y12
	VXORPD Y13, Y13, Y13
	VXORPD Y14, Y14, Y14
	VXORPD Y15, Y15, Y15

start:
	MOVQ CX, BX
	SHRQ $2, BX
	JZ   rest

loop4:
	PREFETCHT0 512(DI)
	STEP6x8(0, 0)
	STEP6x8(48, 64)
	STEP6x8(96, 128)
	STEP6x8(144, 192)
	ADDQ $192, SI
	ADDQ $256, DI
	DECQ BX
	JNZ  loop4

rest:
	ANDQ $3, CX
	JZ   store

loop1:
	STEP6x8(0, 0)
	ADDQ $48, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  loop1

store:
	VMOVUPD Y4, (DX)
	VMOVUPD Y5, 32(DX)
	VMOVUPD Y6, (R9)
	VMOVUPD Y7, 32(R9)
	VMOVUPD Y8, (R10)
	VMOVUPD Y9, 32(R10)
	VMOVUPD Y10, (R11)
	VMOVUPD Y11, 32(R11)
	VMOVUPD Y12, (R12)
	VMOVUPD Y13, 32(R12)
	VMOVUPD Y14, (R13)
	VMOVUPD Y15, 32(R13)
	VZEROUPPER
	RET

// func tile8x24AVX512(kc int, a, b, c *float64, ldc int, load bool)
//
// One 8×24 tile of C: twenty-four accumulators of eight elements (Z8…Z31,
// three per row), loaded from C or zeroed; per step l three loads of
// b[l·24 : l·24+24] (Z0…Z2), one broadcast of a[l·8+r] per row r and one
// VFMADD231PD per accumulator. The same one fused multiply-add per
// element and step, in the order of l, as tile6x8AVX2 and the pure-Go
// kernel, so the same bits.
TEXT ·tile8x24AVX512(SB), NOSPLIT, $0-41
	MOVQ kc+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ c+24(FP), DX
	MOVQ ldc+32(FP), R8
	SHLQ $3, R8
	LEAQ (DX)(R8*1), R9
	LEAQ (DX)(R8*2), R10
	LEAQ (R9)(R8*2), R11
	LEAQ (DX)(R8*4), R12
	LEAQ (R9)(R8*4), R13
	LEAQ (R10)(R8*4), BX
	LEAQ (R11)(R8*4), R15
	LEAQ (R15)(R8*1), AX
	PREFETCHT0 (AX)
	PREFETCHT0 184(AX)
	ADDQ R8, AX
	PREFETCHT0 (AX)
	PREFETCHT0 184(AX)
	ADDQ R8, AX
	PREFETCHT0 (AX)
	PREFETCHT0 184(AX)
	ADDQ R8, AX
	PREFETCHT0 (AX)
	PREFETCHT0 184(AX)
	ADDQ R8, AX
	PREFETCHT0 (AX)
	PREFETCHT0 184(AX)
	ADDQ R8, AX
	PREFETCHT0 (AX)
	PREFETCHT0 184(AX)
	ADDQ R8, AX
	PREFETCHT0 (AX)
	PREFETCHT0 184(AX)
	ADDQ R8, AX
	PREFETCHT0 (AX)
	PREFETCHT0 184(AX)
	MOVBQZX load+40(FP), AX
	TESTQ AX, AX
	JZ    zero512
	VMOVUPD 0(DX), Z8
	VMOVUPD 64(DX), Z9
	VMOVUPD 128(DX), Z10
	VMOVUPD 0(R9), Z11
	VMOVUPD 64(R9), Z12
	VMOVUPD 128(R9), Z13
	VMOVUPD 0(R10), Z14
	VMOVUPD 64(R10), Z15
	VMOVUPD 128(R10), Z16
	VMOVUPD 0(R11), Z17
	VMOVUPD 64(R11), Z18
	VMOVUPD 128(R11), Z19
	VMOVUPD 0(R12), Z20
	VMOVUPD 64(R12), Z21
	VMOVUPD 128(R12), Z22
	VMOVUPD 0(R13), Z23
	VMOVUPD 64(R13), Z24
	VMOVUPD 128(R13), Z25
	VMOVUPD 0(BX), Z26
	VMOVUPD 64(BX), Z27
	VMOVUPD 128(BX), Z28
	VMOVUPD 0(R15), Z29
	VMOVUPD 64(R15), Z30
	VMOVUPD 128(R15), Z31
	JMP start512

zero512:
	VPXORQ Z8, Z8, Z8
	VPXORQ Z9, Z9, Z9
	VPXORQ Z10, Z10, Z10
	VPXORQ Z11, Z11, Z11
	VPXORQ Z12, Z12, Z12
	VPXORQ Z13, Z13, Z13
	VPXORQ Z14, Z14, Z14
	VPXORQ Z15, Z15, Z15
	VPXORQ Z16, Z16, Z16
	VPXORQ Z17, Z17, Z17
	VPXORQ Z18, Z18, Z18
	VPXORQ Z19, Z19, Z19
	VPXORQ Z20, Z20, Z20
	VPXORQ Z21, Z21, Z21
	VPXORQ Z22, Z22, Z22
	VPXORQ Z23, Z23, Z23
	VPXORQ Z24, Z24, Z24
	VPXORQ Z25, Z25, Z25
	VPXORQ Z26, Z26, Z26
	VPXORQ Z27, Z27, Z27
	VPXORQ Z28, Z28, Z28
	VPXORQ Z29, Z29, Z29
	VPXORQ Z30, Z30, Z30
	VPXORQ Z31, Z31, Z31

start512:
	MOVQ CX, AX
	SHRQ $2, AX
	JZ   rest512

loop4_512:
	PREFETCHT0 768(DI)
	PREFETCHT0 832(DI)
	PREFETCHT0 896(DI)
	STEP8x24(0, 0)
	STEP8x24(64, 192)
	STEP8x24(128, 384)
	STEP8x24(192, 576)
	ADDQ $256, SI
	ADDQ $768, DI
	DECQ AX
	JNZ  loop4_512

rest512:
	ANDQ $3, CX
	JZ   store512

loop1_512:
	STEP8x24(0, 0)
	ADDQ $64, SI
	ADDQ $192, DI
	DECQ CX
	JNZ  loop1_512

store512:
	VMOVUPD Z8, 0(DX)
	VMOVUPD Z9, 64(DX)
	VMOVUPD Z10, 128(DX)
	VMOVUPD Z11, 0(R9)
	VMOVUPD Z12, 64(R9)
	VMOVUPD Z13, 128(R9)
	VMOVUPD Z14, 0(R10)
	VMOVUPD Z15, 64(R10)
	VMOVUPD Z16, 128(R10)
	VMOVUPD Z17, 0(R11)
	VMOVUPD Z18, 64(R11)
	VMOVUPD Z19, 128(R11)
	VMOVUPD Z20, 0(R12)
	VMOVUPD Z21, 64(R12)
	VMOVUPD Z22, 128(R12)
	VMOVUPD Z23, 0(R13)
	VMOVUPD Z24, 64(R13)
	VMOVUPD Z25, 128(R13)
	VMOVUPD Z26, 0(BX)
	VMOVUPD Z27, 64(BX)
	VMOVUPD Z28, 128(BX)
	VMOVUPD Z29, 0(R15)
	VMOVUPD Z30, 64(R15)
	VMOVUPD Z31, 128(R15)
	VZEROUPPER
	RET

// func symvRowAVX512(n int, a, x, y *float64, xv float64, lanes *[8]float64)
//
// symv.go's row kernel for n a positive multiple of 8: lane l of Z0
// takes fma(a_j, x_j, ·) for j ≡ l (mod 8), in order of j, and
// y_j ← fma(xv, a_j, y_j).
TEXT ·symvRowAVX512(SB), NOSPLIT, $0-48
	MOVQ n+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ x+16(FP), DI
	MOVQ y+24(FP), DX
	VBROADCASTSD xv+32(FP), Z1
	MOVQ lanes+40(FP), AX
	VMOVUPD (AX), Z0
	SHRQ $3, CX

symv512loop:
	VMOVUPD     (SI), Z2
	VMOVUPD     (DX), Z3
	VFMADD231PD (DI), Z2, Z0
	VFMADD231PD Z2, Z1, Z3
	VMOVUPD     Z3, (DX)
	ADDQ        $64, SI
	ADDQ        $64, DI
	ADDQ        $64, DX
	DECQ        CX
	JNZ         symv512loop

	VMOVUPD Z0, (AX)
	VZEROUPPER
	RET

// func symvRowAVX2(n int, a, x, y *float64, xv float64, lanes *[8]float64)
//
// symvRowAVX512 with lanes 0–3 in Y0 and 4–7 in Y4.
TEXT ·symvRowAVX2(SB), NOSPLIT, $0-48
	MOVQ n+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ x+16(FP), DI
	MOVQ y+24(FP), DX
	VBROADCASTSD xv+32(FP), Y1
	MOVQ lanes+40(FP), AX
	VMOVUPD (AX), Y0
	VMOVUPD 32(AX), Y4
	SHRQ $3, CX

symv2loop:
	VMOVUPD     (SI), Y2
	VMOVUPD     32(SI), Y5
	VMOVUPD     (DX), Y3
	VMOVUPD     32(DX), Y6
	VFMADD231PD (DI), Y2, Y0
	VFMADD231PD 32(DI), Y5, Y4
	VFMADD231PD Y2, Y1, Y3
	VFMADD231PD Y5, Y1, Y6
	VMOVUPD     Y3, (DX)
	VMOVUPD     Y6, 32(DX)
	ADDQ        $64, SI
	ADDQ        $64, DI
	ADDQ        $64, DX
	DECQ        CX
	JNZ         symv2loop

	VMOVUPD Y0, (AX)
	VMOVUPD Y4, 32(AX)
	VZEROUPPER
	RET

// func rotSweepAVX512(p *float64, col, mm int, cs *float64, forward bool)
//
// rotations.go's rotPanel on a panel of 32 rows (column j's 32 entries at
// p[32j:]): the rotations j of one recorded Dlasr call, forward (j = 0,
// 1, …) or backward, each y ← c·y − s·x, x ← s·y + c·x with every
// product rounded (VMULPD, then VSUBPD or VADDPD: Dlasr's operations), a
// rotation with c = 1 and s = 0 skipped. The column the next rotation
// shares with this one stays in Z0–Z3 between them.
TEXT ·rotSweepAVX512(SB), NOSPLIT, $0-33
	MOVQ p+0(FP), DI
	MOVQ col+8(FP), AX
	MOVQ mm+16(FP), CX
	MOVQ cs+24(FP), SI
	MOVBQZX forward+32(FP), DX
	DECQ CX           // mm−1 rotations
	JLE  rsdone
	SHLQ $8, AX       // col·32·8 bytes
	ADDQ AX, DI       // DI: column col
	MOVQ $0x3ff0000000000000, R8
	VMOVQ R8, X20      // 1.0
	VXORPD X21, X21, X21
	TESTQ DX, DX
	JZ   rsback

	// forward: carry column j in Z0–Z3; DI walks the columns.
	VMOVUPD 0(DI), Z0
	VMOVUPD 64(DI), Z1
	VMOVUPD 128(DI), Z2
	VMOVUPD 192(DI), Z3

rsfwd:
	VMOVSD (SI), X16          // c
	VMOVSD 8(SI), X17         // s
	VMOVUPD 256(DI), Z4
	VMOVUPD 320(DI), Z5
	VMOVUPD 384(DI), Z6
	VMOVUPD 448(DI), Z7
	VUCOMISD X20, X16
	JNE  rsfwdrot
	JP   rsfwdrot
	VUCOMISD X21, X17
	JNE  rsfwdrot
	JP   rsfwdrot
	// identity: x stays, y becomes the carry
	VMOVUPD Z0, 0(DI)
	VMOVUPD Z1, 64(DI)
	VMOVUPD Z2, 128(DI)
	VMOVUPD Z3, 192(DI)
	VMOVAPD Z4, Z0
	VMOVAPD Z5, Z1
	VMOVAPD Z6, Z2
	VMOVAPD Z7, Z3
	JMP  rsfwdnext

rsfwdrot:
	VBROADCASTSD X16, Z16
	VBROADCASTSD X17, Z17
	VMULPD Z16, Z4, Z8
	VMULPD Z17, Z0, Z12
	VMULPD Z17, Z4, Z4
	VMULPD Z16, Z0, Z0
	VADDPD Z0, Z4, Z0
	VSUBPD Z12, Z8, Z8
	VMULPD Z16, Z5, Z9
	VMULPD Z17, Z1, Z13
	VMULPD Z17, Z5, Z5
	VMULPD Z16, Z1, Z1
	VADDPD Z1, Z5, Z1
	VSUBPD Z13, Z9, Z9
	VMULPD Z16, Z6, Z10
	VMULPD Z17, Z2, Z14
	VMULPD Z17, Z6, Z6
	VMULPD Z16, Z2, Z2
	VADDPD Z2, Z6, Z2
	VSUBPD Z14, Z10, Z10
	VMULPD Z16, Z7, Z11
	VMULPD Z17, Z3, Z15
	VMULPD Z17, Z7, Z7
	VMULPD Z16, Z3, Z3
	VADDPD Z3, Z7, Z3
	VSUBPD Z15, Z11, Z11
	VMOVUPD Z0, 0(DI)
	VMOVUPD Z1, 64(DI)
	VMOVUPD Z2, 128(DI)
	VMOVUPD Z3, 192(DI)
	VMOVAPD Z8, Z0
	VMOVAPD Z9, Z1
	VMOVAPD Z10, Z2
	VMOVAPD Z11, Z3

rsfwdnext:
	ADDQ $256, DI
	ADDQ $16, SI
	DECQ CX
	JNZ  rsfwd
	VMOVUPD Z0, 0(DI)
	VMOVUPD Z1, 64(DI)
	VMOVUPD Z2, 128(DI)
	VMOVUPD Z3, 192(DI)
	VZEROUPPER
	RET

	// backward: j = mm−2 … 0; carry column j+1 in Z0–Z3; DI at column j.
rsback:
	MOVQ CX, AX
	SHLQ $8, AX
	ADDQ AX, DI        // DI: column col+mm−1
	MOVQ CX, AX
	SHLQ $4, AX
	ADDQ AX, SI        // SI: past rotation mm−2
	VMOVUPD 0(DI), Z0
	VMOVUPD 64(DI), Z1
	VMOVUPD 128(DI), Z2
	VMOVUPD 192(DI), Z3

rsbwd:
	SUBQ $256, DI      // column j
	SUBQ $16, SI       // rotation j
	VMOVSD (SI), X16
	VMOVSD 8(SI), X17
	VMOVUPD 0(DI), Z4
	VMOVUPD 64(DI), Z5
	VMOVUPD 128(DI), Z6
	VMOVUPD 192(DI), Z7
	VUCOMISD X20, X16
	JNE  rsbwdrot
	JP   rsbwdrot
	VUCOMISD X21, X17
	JNE  rsbwdrot
	JP   rsbwdrot
	// identity: y (the carry) stays, x becomes the carry
	VMOVUPD Z0, 256(DI)
	VMOVUPD Z1, 320(DI)
	VMOVUPD Z2, 384(DI)
	VMOVUPD Z3, 448(DI)
	VMOVAPD Z4, Z0
	VMOVAPD Z5, Z1
	VMOVAPD Z6, Z2
	VMOVAPD Z7, Z3
	JMP  rsbwdnext

rsbwdrot:
	VBROADCASTSD X16, Z16
	VBROADCASTSD X17, Z17
	VMULPD Z16, Z0, Z8
	VMULPD Z17, Z4, Z12
	VMULPD Z17, Z0, Z0
	VMULPD Z16, Z4, Z4
	VADDPD Z4, Z0, Z0
	VSUBPD Z12, Z8, Z8
	VMULPD Z16, Z1, Z9
	VMULPD Z17, Z5, Z13
	VMULPD Z17, Z1, Z1
	VMULPD Z16, Z5, Z5
	VADDPD Z5, Z1, Z1
	VSUBPD Z13, Z9, Z9
	VMULPD Z16, Z2, Z10
	VMULPD Z17, Z6, Z14
	VMULPD Z17, Z2, Z2
	VMULPD Z16, Z6, Z6
	VADDPD Z6, Z2, Z2
	VSUBPD Z14, Z10, Z10
	VMULPD Z16, Z3, Z11
	VMULPD Z17, Z7, Z15
	VMULPD Z17, Z3, Z3
	VMULPD Z16, Z7, Z7
	VADDPD Z7, Z3, Z3
	VSUBPD Z15, Z11, Z11
	VMOVUPD Z8, 256(DI)
	VMOVUPD Z9, 320(DI)
	VMOVUPD Z10, 384(DI)
	VMOVUPD Z11, 448(DI)

rsbwdnext:
	DECQ CX
	JNZ  rsbwd
	VMOVUPD Z0, 0(DI)
	VMOVUPD Z1, 64(DI)
	VMOVUPD Z2, 128(DI)
	VMOVUPD Z3, 192(DI)

rsdone:
	VZEROUPPER
	RET
