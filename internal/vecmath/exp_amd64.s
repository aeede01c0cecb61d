//go:build !noasm && !gccgo && !safe

#include "textflag.h"

// Four copies of each constant of exp.go, for AVX2 memory operands and
// broadcasts; bias is 1023<<52.
DATA expc_log2e<>+0(SB)/8, $0x3ff71547652b82fe
DATA expc_log2e<>+8(SB)/8, $0x3ff71547652b82fe
DATA expc_log2e<>+16(SB)/8, $0x3ff71547652b82fe
DATA expc_log2e<>+24(SB)/8, $0x3ff71547652b82fe
GLOBL expc_log2e<>(SB), RODATA|NOPTR, $32
DATA expc_ln2hi<>+0(SB)/8, $0x3fe62e42fefa39ef
DATA expc_ln2hi<>+8(SB)/8, $0x3fe62e42fefa39ef
DATA expc_ln2hi<>+16(SB)/8, $0x3fe62e42fefa39ef
DATA expc_ln2hi<>+24(SB)/8, $0x3fe62e42fefa39ef
GLOBL expc_ln2hi<>(SB), RODATA|NOPTR, $32
DATA expc_ln2lo<>+0(SB)/8, $0x3c7abc9e3b39803f
DATA expc_ln2lo<>+8(SB)/8, $0x3c7abc9e3b39803f
DATA expc_ln2lo<>+16(SB)/8, $0x3c7abc9e3b39803f
DATA expc_ln2lo<>+24(SB)/8, $0x3c7abc9e3b39803f
GLOBL expc_ln2lo<>(SB), RODATA|NOPTR, $32
DATA expc_magic<>+0(SB)/8, $0x4338000000000000
DATA expc_magic<>+8(SB)/8, $0x4338000000000000
DATA expc_magic<>+16(SB)/8, $0x4338000000000000
DATA expc_magic<>+24(SB)/8, $0x4338000000000000
GLOBL expc_magic<>(SB), RODATA|NOPTR, $32
DATA expc_c0<>+0(SB)/8, $0x3ff0000000000000
DATA expc_c0<>+8(SB)/8, $0x3ff0000000000000
DATA expc_c0<>+16(SB)/8, $0x3ff0000000000000
DATA expc_c0<>+24(SB)/8, $0x3ff0000000000000
GLOBL expc_c0<>(SB), RODATA|NOPTR, $32
DATA expc_c1<>+0(SB)/8, $0x3ff0000000000000
DATA expc_c1<>+8(SB)/8, $0x3ff0000000000000
DATA expc_c1<>+16(SB)/8, $0x3ff0000000000000
DATA expc_c1<>+24(SB)/8, $0x3ff0000000000000
GLOBL expc_c1<>(SB), RODATA|NOPTR, $32
DATA expc_c2<>+0(SB)/8, $0x3fe0000000000000
DATA expc_c2<>+8(SB)/8, $0x3fe0000000000000
DATA expc_c2<>+16(SB)/8, $0x3fe0000000000000
DATA expc_c2<>+24(SB)/8, $0x3fe0000000000000
GLOBL expc_c2<>(SB), RODATA|NOPTR, $32
DATA expc_c3<>+0(SB)/8, $0x3fc5555555555555
DATA expc_c3<>+8(SB)/8, $0x3fc5555555555555
DATA expc_c3<>+16(SB)/8, $0x3fc5555555555555
DATA expc_c3<>+24(SB)/8, $0x3fc5555555555555
GLOBL expc_c3<>(SB), RODATA|NOPTR, $32
DATA expc_c4<>+0(SB)/8, $0x3fa5555555555555
DATA expc_c4<>+8(SB)/8, $0x3fa5555555555555
DATA expc_c4<>+16(SB)/8, $0x3fa5555555555555
DATA expc_c4<>+24(SB)/8, $0x3fa5555555555555
GLOBL expc_c4<>(SB), RODATA|NOPTR, $32
DATA expc_c5<>+0(SB)/8, $0x3f81111111111111
DATA expc_c5<>+8(SB)/8, $0x3f81111111111111
DATA expc_c5<>+16(SB)/8, $0x3f81111111111111
DATA expc_c5<>+24(SB)/8, $0x3f81111111111111
GLOBL expc_c5<>(SB), RODATA|NOPTR, $32
DATA expc_c6<>+0(SB)/8, $0x3f56c16c16c16c17
DATA expc_c6<>+8(SB)/8, $0x3f56c16c16c16c17
DATA expc_c6<>+16(SB)/8, $0x3f56c16c16c16c17
DATA expc_c6<>+24(SB)/8, $0x3f56c16c16c16c17
GLOBL expc_c6<>(SB), RODATA|NOPTR, $32
DATA expc_c7<>+0(SB)/8, $0x3f2a01a01a01a01a
DATA expc_c7<>+8(SB)/8, $0x3f2a01a01a01a01a
DATA expc_c7<>+16(SB)/8, $0x3f2a01a01a01a01a
DATA expc_c7<>+24(SB)/8, $0x3f2a01a01a01a01a
GLOBL expc_c7<>(SB), RODATA|NOPTR, $32
DATA expc_c8<>+0(SB)/8, $0x3efa01a01a01a01a
DATA expc_c8<>+8(SB)/8, $0x3efa01a01a01a01a
DATA expc_c8<>+16(SB)/8, $0x3efa01a01a01a01a
DATA expc_c8<>+24(SB)/8, $0x3efa01a01a01a01a
GLOBL expc_c8<>(SB), RODATA|NOPTR, $32
DATA expc_c9<>+0(SB)/8, $0x3ec71de3a556c734
DATA expc_c9<>+8(SB)/8, $0x3ec71de3a556c734
DATA expc_c9<>+16(SB)/8, $0x3ec71de3a556c734
DATA expc_c9<>+24(SB)/8, $0x3ec71de3a556c734
GLOBL expc_c9<>(SB), RODATA|NOPTR, $32
DATA expc_c10<>+0(SB)/8, $0x3e927e4fb7789f5c
DATA expc_c10<>+8(SB)/8, $0x3e927e4fb7789f5c
DATA expc_c10<>+16(SB)/8, $0x3e927e4fb7789f5c
DATA expc_c10<>+24(SB)/8, $0x3e927e4fb7789f5c
GLOBL expc_c10<>(SB), RODATA|NOPTR, $32
DATA expc_c11<>+0(SB)/8, $0x3e5ae64567f544e4
DATA expc_c11<>+8(SB)/8, $0x3e5ae64567f544e4
DATA expc_c11<>+16(SB)/8, $0x3e5ae64567f544e4
DATA expc_c11<>+24(SB)/8, $0x3e5ae64567f544e4
GLOBL expc_c11<>(SB), RODATA|NOPTR, $32
DATA expc_c12<>+0(SB)/8, $0x3e21eed8eff8d898
DATA expc_c12<>+8(SB)/8, $0x3e21eed8eff8d898
DATA expc_c12<>+16(SB)/8, $0x3e21eed8eff8d898
DATA expc_c12<>+24(SB)/8, $0x3e21eed8eff8d898
GLOBL expc_c12<>(SB), RODATA|NOPTR, $32
DATA expc_c13<>+0(SB)/8, $0x3de6124613a86d09
DATA expc_c13<>+8(SB)/8, $0x3de6124613a86d09
DATA expc_c13<>+16(SB)/8, $0x3de6124613a86d09
DATA expc_c13<>+24(SB)/8, $0x3de6124613a86d09
GLOBL expc_c13<>(SB), RODATA|NOPTR, $32
DATA expc_bias<>+0(SB)/8, $0x3ff0000000000000
DATA expc_bias<>+8(SB)/8, $0x3ff0000000000000
DATA expc_bias<>+16(SB)/8, $0x3ff0000000000000
DATA expc_bias<>+24(SB)/8, $0x3ff0000000000000
GLOBL expc_bias<>(SB), RODATA|NOPTR, $32
DATA expc_lo<>+0(SB)/8, $0xc086180000000000
DATA expc_lo<>+8(SB)/8, $0xc086180000000000
DATA expc_lo<>+16(SB)/8, $0xc086180000000000
DATA expc_lo<>+24(SB)/8, $0xc086180000000000
GLOBL expc_lo<>(SB), RODATA|NOPTR, $32
DATA expc_hi<>+0(SB)/8, $0x4086280000000000
DATA expc_hi<>+8(SB)/8, $0x4086280000000000
DATA expc_hi<>+16(SB)/8, $0x4086280000000000
DATA expc_hi<>+24(SB)/8, $0x4086280000000000
GLOBL expc_hi<>(SB), RODATA|NOPTR, $32

// func expAVX512(n int, dst, x *float64) int
//
// exp.go's fast path on eight elements at a time (n a multiple of 8),
// block by block until a block holds an argument outside [fastLo,
// fastHi] (or NaN), which it leaves unwritten: it returns the number of
// elements done, and ExpTo does that block in Go. Same operations as reduce and Exp, in the same
// order: t = x·log2e; k = round to nearest even (VRNDSCALEPD $0);
// r = fma(−k, ln2hi, x); r = fma(−k, ln2lo, r); Horner's rule from c13
// down to c0, one fma each; then p·2^k with 2^k built from k's bits
// (k + 1.5·2^52 holds k in its low mantissa bits; shifted by 52 and added
// to 1023<<52 it is 2^k).
TEXT ·expAVX512(SB), NOSPLIT, $0-32
	MOVQ n+0(FP), CX
	MOVQ dst+8(FP), DI
	MOVQ x+16(FP), SI
	VBROADCASTSD expc_log2e<>(SB), Z10
	VBROADCASTSD expc_ln2hi<>(SB), Z11
	VBROADCASTSD expc_ln2lo<>(SB), Z12
	VBROADCASTSD expc_magic<>(SB), Z13
	VBROADCASTSD expc_bias<>(SB), Z14
	VBROADCASTSD expc_lo<>(SB), Z29
	VBROADCASTSD expc_hi<>(SB), Z30
	XORQ         R8, R8
	VBROADCASTSD expc_c0<>(SB), Z15
	VBROADCASTSD expc_c1<>(SB), Z16
	VBROADCASTSD expc_c2<>(SB), Z17
	VBROADCASTSD expc_c3<>(SB), Z18
	VBROADCASTSD expc_c4<>(SB), Z19
	VBROADCASTSD expc_c5<>(SB), Z20
	VBROADCASTSD expc_c6<>(SB), Z21
	VBROADCASTSD expc_c7<>(SB), Z22
	VBROADCASTSD expc_c8<>(SB), Z23
	VBROADCASTSD expc_c9<>(SB), Z24
	VBROADCASTSD expc_c10<>(SB), Z25
	VBROADCASTSD expc_c11<>(SB), Z26
	VBROADCASTSD expc_c12<>(SB), Z27
	VBROADCASTSD expc_c13<>(SB), Z28
	SHRQ $3, CX
	JZ   exp512done

exp512loop:
	VMOVUPD      (SI), Z0
	VMAXPD       Z29, Z0, Z5
	VMINPD       Z30, Z5, Z5
	VCMPPD       $4, Z0, Z5, K1
	KORTESTB     K1, K1
	JNZ          exp512done
	VMULPD       Z10, Z0, Z1
	VRNDSCALEPD  $0, Z1, Z1
	VMOVAPD      Z0, Z2
	VFNMADD231PD Z11, Z1, Z2
	VFNMADD231PD Z12, Z1, Z2
	VMOVAPD      Z28, Z3
	VFMADD213PD  Z27, Z2, Z3
	VFMADD213PD  Z26, Z2, Z3
	VFMADD213PD  Z25, Z2, Z3
	VFMADD213PD  Z24, Z2, Z3
	VFMADD213PD  Z23, Z2, Z3
	VFMADD213PD  Z22, Z2, Z3
	VFMADD213PD  Z21, Z2, Z3
	VFMADD213PD  Z20, Z2, Z3
	VFMADD213PD  Z19, Z2, Z3
	VFMADD213PD  Z18, Z2, Z3
	VFMADD213PD  Z17, Z2, Z3
	VFMADD213PD  Z16, Z2, Z3
	VFMADD213PD  Z15, Z2, Z3
	VADDPD       Z13, Z1, Z4
	VPSLLQ       $52, Z4, Z4
	VPADDQ       Z14, Z4, Z4
	VMULPD       Z4, Z3, Z3
	VMOVUPD      Z3, (DI)
	ADDQ         $64, SI
	ADDQ         $64, DI
	ADDQ         $8, R8
	DECQ         CX
	JNZ          exp512loop

exp512done:
	MOVQ         R8, ret+24(FP)
	VZEROUPPER
	RET

// func expAVX2(n int, dst, x *float64) int
//
// expAVX512 on four elements at a time (n a multiple of 4), the
// polynomial's coefficients as memory operands.
TEXT ·expAVX2(SB), NOSPLIT, $0-32
	MOVQ n+0(FP), CX
	MOVQ dst+8(FP), DI
	MOVQ x+16(FP), SI
	VMOVUPD expc_log2e<>(SB), Y10
	VMOVUPD expc_ln2hi<>(SB), Y11
	VMOVUPD expc_ln2lo<>(SB), Y12
	VMOVUPD expc_magic<>(SB), Y13
	VMOVUPD expc_bias<>(SB), Y14
	VMOVUPD expc_c13<>(SB), Y15
	XORQ    R8, R8
	SHRQ $2, CX
	JZ   exp2done

exp2loop:
	VMOVUPD      (SI), Y0
	VMAXPD       expc_lo<>(SB), Y0, Y5
	VMINPD       expc_hi<>(SB), Y5, Y5
	VCMPPD       $4, Y0, Y5, Y5
	VMOVMSKPD    Y5, AX
	TESTQ        AX, AX
	JNZ          exp2done
	VMULPD       Y10, Y0, Y1
	VROUNDPD     $0, Y1, Y1
	VMOVAPD      Y0, Y2
	VFNMADD231PD Y11, Y1, Y2
	VFNMADD231PD Y12, Y1, Y2
	VMOVAPD      Y15, Y3
	VFMADD213PD  expc_c12<>(SB), Y2, Y3
	VFMADD213PD  expc_c11<>(SB), Y2, Y3
	VFMADD213PD  expc_c10<>(SB), Y2, Y3
	VFMADD213PD  expc_c9<>(SB), Y2, Y3
	VFMADD213PD  expc_c8<>(SB), Y2, Y3
	VFMADD213PD  expc_c7<>(SB), Y2, Y3
	VFMADD213PD  expc_c6<>(SB), Y2, Y3
	VFMADD213PD  expc_c5<>(SB), Y2, Y3
	VFMADD213PD  expc_c4<>(SB), Y2, Y3
	VFMADD213PD  expc_c3<>(SB), Y2, Y3
	VFMADD213PD  expc_c2<>(SB), Y2, Y3
	VFMADD213PD  expc_c1<>(SB), Y2, Y3
	VFMADD213PD  expc_c0<>(SB), Y2, Y3
	VADDPD       Y13, Y1, Y4
	VPSLLQ       $52, Y4, Y4
	VPADDQ       Y14, Y4, Y4
	VMULPD       Y4, Y3, Y3
	VMOVUPD      Y3, (DI)
	ADDQ         $32, SI
	ADDQ         $32, DI
	ADDQ         $4, R8
	DECQ         CX
	JNZ          exp2loop

exp2done:
	MOVQ         R8, ret+24(FP)
	VZEROUPPER
	RET
