package linalg

// NoAsm reports whether this package's assembly kernels are switched off
// for this process: RUNEXP_NOASM set to anything but "" or "0" when it
// started (vecmath.NoAsm), or a build without them (the noasm or
// openblas tag, another architecture).
// Their pure-Go fallbacks give the same bits; the switch exists to show
// it (scripts/refresh-check.sh runs the suite both ways).
func NoAsm() bool { return noAsm }
