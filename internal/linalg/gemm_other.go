//go:build !amd64 || noasm || gccgo || safe

package linalg

// noAsm is true: this build has no assembly kernels.
const noAsm = true

func asmKernels() []microKernel { return nil }
