package vecmath

import "os"

// NoAsm reports whether the assembly kernels are switched off for this
// process: RUNEXP_NOASM set to anything but "" or "0" when it started, or
// a build without them (the noasm build tag, another architecture). The
// pure-Go code gives the same bits; the switch exists to show it.
func NoAsm() bool { return noAsm || !haveAsm }

var noAsm = os.Getenv("RUNEXP_NOASM") != "" && os.Getenv("RUNEXP_NOASM") != "0"

// KernelName names the exp kernel this process uses: "avx512", "avx2" or
// "go".
func KernelName() string { return expName }
