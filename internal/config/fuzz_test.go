package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFuzzSeedsShipped: every shipped config and collection parses
// (FuzzParse's property on the seeds too large to fuzz from).
func TestFuzzSeedsShipped(t *testing.T) {
	paths, _ := filepath.Glob("../../configs/*.yaml")
	if len(paths) == 0 {
		t.Skip("no configs")
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := ParseAny(p, b); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// FuzzParse: no config panics the parser, every error is a config Error
// naming the file, and what is accepted has a confined name and only
// finite numbers. Seeds: the hostile cases of harden_test.go and a
// small complete config.
func FuzzParse(f *testing.F) {
	// Small seeds only: Go's fuzzer all but stalls on the multi-kilobyte
	// shipped configs (TestFuzzSeedsShipped runs those through Parse).
	for _, s := range []string{
		minimal,
		minimal + "seed: 3\nmodel:\n  kernel: gaussian\n  c: [0.1, 1]\n  components: [2, 5]\nmethods:\n  - name: mika\n    params: {max_iter: [10, 20], tol: 1e-9}\nexperiment: {point: [0, 0], columns: 2}\noutputs: {dir: sub/x, width: 5.5}\nclaims:\n  - id: c1\n    check: {type: value, metric: m, op: \"<\", value: 1}\n",
		minimal + "---\n" + minimal,
		minimal + "experiment:\n  figure_name: ../x\n",
		minimal + "outputs: {dir: /abs, width: 1e308}\n",
		minimal + "experiment:\n  a: &a [1, 2]\n  b: [*a, *a]\n",
		minimal + "experiment: {point: [.nan, .inf]}\n",
		"title: x\n  paper: p\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := Parse("fuzz.yaml", b)
		if err != nil {
			var ce *Error
			if !errors.As(err, &ce) || ce.File != "fuzz.yaml" || !strings.HasPrefix(err.Error(), "fuzz.yaml") {
				t.Fatalf("error %q is not a config Error naming the file", err)
			}
			return
		}
		if c.Outputs.Dir != "" {
			if err := checkRelDir(c.Outputs.Dir); err != nil {
				t.Fatalf("accepted outputs.dir %q: %v", c.Outputs.Dir, err)
			}
		}
		if c.Outputs.Width < 0 || c.Outputs.Width > MaxFigureCm || c.Outputs.Height < 0 || c.Outputs.Height > MaxFigureCm {
			t.Fatalf("accepted figure size %v × %v", c.Outputs.Width, c.Outputs.Height)
		}
	})
}
