package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse: no config panics the parser, every error is a config Error
// naming the file, and what is accepted has a confined name and only
// finite numbers. Seeds: the shipped configs and the hostile cases of
// harden_test.go.
func FuzzParse(f *testing.F) {
	paths, _ := filepath.Glob("../../configs/*.yaml")
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		minimal,
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
