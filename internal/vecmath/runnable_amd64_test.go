//go:build !noasm && !gccgo && !safe

package vecmath

import (
	"testing"

	"golang.org/x/sys/cpu"
)

// TestRunnable checks that the lists of assembly kernels the agreement
// tests run are those the CPU has, in the order AVX2, AVX-512: an empty
// list would let every agreement test pass without running a kernel.
func TestRunnable(t *testing.T) {
	got := Runnable("avx2", "avx512")
	var want []string
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		want = append(want, "avx2")
		if cpu.X86.HasAVX512F {
			want = append(want, "avx512")
		}
	}
	if len(got) != len(want) {
		t.Fatalf("Runnable = %v on this CPU, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("Runnable = %v on this CPU, want %v", got, want)
		}
	}
	if len(asmKernels()) != len(want) || len(asmSqdist()) != len(want) {
		t.Errorf("%d exp and %d sqdist kernels listed, want %d", len(asmKernels()), len(asmSqdist()), len(want))
	}
}
