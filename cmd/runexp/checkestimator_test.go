package main

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// TestCheckEstimator runs the kit through the CLI: a registered estimator
// passes with its known tolerance (exit 0, a PASS per check), and an
// external command that always fails gets FAIL verdicts with the reason
// and exit 1; usage errors exit 2.
func TestCheckEstimator(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"check-estimator", "learned"}, &out, &errb); code != exitOK {
		t.Fatalf("learned: exit %d\n%s%s", code, out.String(), errb.String())
	}
	for _, want := range []string{"PASS  spec", "PASS  Denoiser/exact", "PASS  Denoiser/generic/linear", "ok: 5 checks passed", "exact tolerance 0.02"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("learned: output lacks %q:\n%s", want, out.String())
		}
	}

	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	out.Reset()
	errb.Reset()
	code := run([]string{"check-estimator", "--command", `sh -c 'echo "no estimator here" >&2; exit 4'`, "--param", "does=de-noise"}, &out, &errb)
	if code != exitClaim {
		t.Fatalf("failing command: exit %d, want %d\n%s%s", code, exitClaim, out.String(), errb.String())
	}
	for _, want := range []string{"FAIL  Denoiser/exact", "no estimator here", "exit status 4", "PASS  Denoiser/wrong-dimension", "checks failed"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("failing command: output lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "PreImager") {
		t.Errorf("does=de-noise still checked the PreImager:\n%s", out.String())
	}

	for _, args := range [][]string{
		{"check-estimator"},
		{"check-estimator", "learned", "--command", "true"},
		{"check-estimator", "no-such-estimator"},
		{"check-estimator", "learned", "--param", "alpha=-1"},
	} {
		out.Reset()
		errb.Reset()
		if code := run(args, &out, &errb); code != exitUsage {
			t.Errorf("%q: exit %d, want %d", args, code, exitUsage)
		}
	}
}
