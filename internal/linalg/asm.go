package linalg

// NoAsm reports whether runexp's assembly kernels are switched off for
// this process: RUNEXP_NOASM set to anything but "" or "0" when it
// started, or a build without them (the noasm tag, another architecture).
// Their pure-Go fallbacks give the same bits; the switch exists to show
// it (scripts/refresh-check.sh runs the suite both ways).
func NoAsm() bool { return noAsm }
