package main

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/methods"
)

func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// TestDenoiseMatchesLibrary checks that `runexp denoise` writes the same
// pre-images as calling the library directly: FitKPCA, Project, then the
// estimator's PreImage (Mika started at the noisy input).
func TestDenoiseMatchesLibrary(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 1))
	set, err := datasets.TwoRings(datasets.RingsOptions{N: 60, Radii: [2]float64{1, 2}, Noise: 0.05, ArcEnd: [2]float64{360, 360}}, rnd)
	if err != nil {
		t.Fatal(err)
	}
	noisy := datasets.AddGaussian(set.X.Slice(0, 8, 0, 2).(*mat.Dense), 0.2, rnd)
	dir := t.TempDir()
	train, input, output := filepath.Join(dir, "train.csv"), filepath.Join(dir, "noisy.csv"), filepath.Join(dir, "out.csv")
	if err := datasets.WriteCSVMatrix(train, set.X); err != nil {
		t.Fatal(err)
	}
	if err := datasets.WriteCSVMatrix(input, noisy); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		method string
		args   []string
		params map[string]any
	}{
		{"mika", []string{"--param", "max_iter=200", "--param", "tol=1e-10"}, map[string]any{"max_iter": 200, "tol": 1e-10}},
		{"kwok-tsang", []string{"--param", "neighbors=7"}, map[string]any{"neighbors": 7}},
	} {
		t.Run(tc.method, func(t *testing.T) {
			args := append([]string{"denoise", "--train", train, "--input", input, "--output", output,
				"--kernel", "gaussian", "--c", "0.5", "--components", "12", "--method", tc.method}, tc.args...)
			code, stdout, stderr := runCLI(args...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if !strings.Contains(stdout, "8 pre-images written") {
				t.Errorf("stdout %q", stdout)
			}
			got, err := datasets.ReadCSVMatrix(output)
			if err != nil {
				t.Fatal(err)
			}

			// The library call, spelled out.
			m, err := methods.FitKPCA(set.X, kernel.Gaussian{C: 0.5})
			if err != nil {
				t.Fatal(err)
			}
			est, _, err := methods.New(tc.method, tc.params)
			if err != nil {
				t.Fatal(err)
			}
			proj := m.Project(noisy, 12)
			var want mat.Dense
			if _, err := est.(methods.PreImager).PreImage(&want, methods.NewProblem(m.Basis(), proj.Gamma, noisy)); err != nil {
				t.Fatal(err)
			}
			// The CSV holds the shortest round-trip form of each float, so
			// the comparison is exact.
			if !mat.Equal(got, &want) {
				t.Errorf("CLI pre-images differ from the library's:\n%v\n%v", mat.Formatted(got), mat.Formatted(&want))
			}
		})
	}
}

func TestDenoiseUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"denoise"},
		{"denoise", "--train", "a.csv", "--input", "b.csv", "--output", "c.csv", "--kernel", "gaussian"},
		{"denoise", "--train", "missing.csv", "--input", "b.csv", "--output", "c.csv", "--c", "1"},
	} {
		if code, _, stderr := runCLI(args...); code != exitUsage || stderr == "" {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 with a message", args, code, stderr)
		}
	}
}

func TestValidate(t *testing.T) {
	code, out, errs := runCLI("validate", "../../configs/abrahamsen-hansen-fig2.yaml", "../../configs/abrahamsen-hansen-fig3.yaml")
	if code != exitOK || strings.Count(out, ": ok") != 2 {
		t.Errorf("exit %d, out %q, err %q", code, out, errs)
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("title: x\npaper: p\nkind: local-minima\ndataset: {name: two-rings}\nmodel:\n  kernel: gaussian\n  c: -1\n"), 0o644)
	code, _, errs = runCLI("validate", bad)
	if code != exitUsage || !strings.Contains(errs, "bad.yaml:7: model.c: -1 is impossible") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

func TestListAndVersion(t *testing.T) {
	code, out, _ := runCLI("list")
	for _, want := range []string{"mika", "kwok-tsang", "linear-pca", "local-minima", "distortion", "two-rings", "usps"} {
		if !strings.Contains(out, want) {
			t.Errorf("runexp list does not mention %s", want)
		}
	}
	if code != exitOK {
		t.Errorf("list exit %d", code)
	}
	if code, out, _ := runCLI("version"); code != exitOK || !strings.HasPrefix(out, "runexp ") {
		t.Errorf("version: exit %d, %q", code, out)
	}
	if code, _, _ := runCLI(); code != exitUsage {
		t.Errorf("no arguments: exit %d, want 2", code)
	}
}

func TestRunWritesResults(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	out := t.TempDir()
	code, stdout, stderr := runCLI("--out", out, "-j", "2", "../../configs/abrahamsen-hansen-fig3.yaml")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "3 passed, 0 failed") {
		t.Errorf("stdout does not report the claims: %q", stdout)
	}
	for _, f := range []string{"fig3-preimages.png", "fig3-preimages.svg", "records.jsonl", "records.csv", "manifest.json", "tables.md"} {
		if _, err := os.Stat(filepath.Join(out, "abrahamsen-hansen-fig3", f)); err != nil {
			t.Error(err)
		}
	}
}

// TestCompare runs fig3 once, compares the result with a copy of itself
// (no change, exit 0) and with a copy whose metric was nudged beyond the
// tolerance (flagged, exit 1).
func TestCompare(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	out := t.TempDir()
	if code, _, stderr := runCLI("--out", out, "../../configs/abrahamsen-hansen-fig3.yaml"); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	run := filepath.Join(out, "abrahamsen-hansen-fig3")
	if _, err := os.Stat(filepath.Join(out, "index.html")); err != nil {
		t.Errorf("no results index: %v", err)
	}
	if code, stdout, stderr := runCLI("compare", run, run); code != exitOK {
		t.Errorf("identical results: exit %d\n%s%s", code, stdout, stderr)
	}
	moved := t.TempDir()
	for _, f := range []string{"records.jsonl", "claims.json", "manifest.json"} {
		b, err := os.ReadFile(filepath.Join(run, f))
		if err != nil {
			t.Fatal(err)
		}
		if f == "records.jsonl" {
			// distinct_preimages of the c = 0.05 cell: 28 in our run.
			b = bytes.Replace(b, []byte(`"distinct_preimages":28`), []byte(`"distinct_preimages":29`), 1)
		}
		if err := os.WriteFile(filepath.Join(moved, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, stdout, _ := runCLI("compare", run, moved)
	if code != exitClaim || !strings.Contains(stdout, "distinct_preimages") || !strings.Contains(stdout, "29") {
		t.Errorf("an injected change: exit %d\n%s", code, stdout)
	}
}

// The binary runs the conformance kit (check-estimator) without linking
// package testing: the kit lives in internal/methods/conformance, and only
// its go test adapter, methodtest, imports testing.
func TestBinaryDoesNotLinkTesting(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == "testing" || strings.HasSuffix(p, "/methodtest") {
			t.Errorf("cmd/runexp links %s", p)
		}
	}
}
