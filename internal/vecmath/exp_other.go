//go:build !amd64 || noasm || gccgo || safe

package vecmath

const haveAsm = false

var expKernel, expName = expGo, "go"

func asmKernels() []expKernelFunc { return nil }

var sqdistKernel sqdistKernelFunc = sqdistGo

func asmSqdist() []sqdistKernelFunc { return nil }
