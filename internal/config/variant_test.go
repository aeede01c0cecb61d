package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/config"
)

// TestVariantOf checks that variant_of names an existing file beside the
// config and that a bad value is an error at its line.
func TestVariantOf(t *testing.T) {
	dir := t.TempDir()
	const head = "title: t\npaper: p\nkind: k\ndataset: {name: d}\n"
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("base.yaml", head)
	c, err := config.Load(write("v.yaml", head+"variant_of: base.yaml\ndiagnostic: true\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.VariantOf != "base.yaml" || !c.Diagnostic {
		t.Errorf("parsed variant_of %q diagnostic %v, want base.yaml true", c.VariantOf, c.Diagnostic)
	}
	if c, err := config.Load(filepath.Join(dir, "base.yaml")); err != nil || c.VariantOf != "" || c.Diagnostic {
		t.Errorf("base: %v, variant_of %q diagnostic %v", err, c.VariantOf, c.Diagnostic)
	}
	for _, tc := range []struct{ body, want string }{
		{"variant_of: missing.yaml\n", "v.yaml:5: variant_of: no config missing.yaml beside this one"},
		{"variant_of: ../base.yaml\n", "v.yaml:5: variant_of:"},
		{"variant_of: v.yaml\n", "v.yaml:5: variant_of: v.yaml names this config itself"},
		{"variant_of: [a]\n", "v.yaml:5: variant_of: want a string"},
		{"diagnostic: true\n", "v.yaml:5: diagnostic: true needs variant_of"},
		{"variant_of: base.yaml\ndiagnostic: maybe\n", "v.yaml:6: diagnostic: want true or false"},
	} {
		_, err := config.Load(write("v.yaml", head+tc.body))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.body, err, tc.want)
		}
	}
}
