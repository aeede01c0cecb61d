//go:build !amd64 || noasm || gccgo || safe || openblas

package linalg

// noAsm is true: this build has no assembly kernels (the openblas build
// has none because a package using cgo cannot have Go assembly files;
// its products are OpenBLAS's anyway).
const noAsm = true

func asmKernels() []microKernel { return nil }

func asmSymvRows() []symvRowKernel { return nil }
