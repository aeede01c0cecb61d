package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
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

// TestExternalFailuresInARun runs a de-noising config (synthetic images,
// no data root) in which external estimators crash, hang past their time
// limit and write garbage, beside the native learned estimator: the run
// finishes, each failure is its cell's recorded failure with
// its reason, and the other cells are computed.
func TestExternalFailuresInARun(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "ext.yaml")
	if err := os.WriteFile(cfg, []byte(`title: "external estimators that fail"
paper: none
kind: denoise
seed: 1
dataset: {name: synthetic-images, classes: 2, groups: 2, per_cell: 4, test_per_cell: 1}
corruption: {type: gaussian, variance: 0.01}
model: {kernel: gaussian, c: 5, components: 3}
methods:
  - name: learned
    label: Learned
  - name: external
    label: Crash
    params: {command: "sh -c 'echo boom >&2; exit 3' sh"}
  - name: external
    label: Hang
    params: {command: "sh -c 'sleep 60' sh", timeout: 500ms}
  - name: external
    label: Garbage
    params: {command: "sh -c 'echo garbage > \"$1/Z.npy\"' sh"}
experiment: {figure: none}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	code, stdout, stderr := runCLI("--out", out, "--no-cache", "--allow-external", cfg)
	// docs/exit-status.md gives a run with failed cells status 3
	// (incomplete); until that lands it is 0. Either way the run finished.
	if code != exitOK && code != 3 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, "ext", "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"Learned": {`"status":"ok"`},
		"Crash":   {`"status":"failed"`, "exit status 3", "boom"},
		"Hang":    {`"status":"failed"`, "timed out after 500ms (process group killed)"},
		"Garbage": {`"status":"failed"`, "Z.npy is not a valid .npy file"},
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d records, want %d:\n%s", len(lines), len(want), b)
	}
	for _, line := range lines {
		var rec struct {
			Params map[string]any `json:"params"`
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		method, _ := rec.Params["method"].(string)
		for _, w := range want[method] {
			if !strings.Contains(line, w) {
				t.Errorf("%s: record lacks %q:\n%s", method, w, line)
			}
		}
		delete(want, method)
	}
	if len(want) > 0 {
		t.Errorf("no record for %v", want)
	}
}
