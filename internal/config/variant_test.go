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
	c, err := config.Load(write("v.yaml", head+"variant_of: base.yaml\ndiagnostic: \"a graph from the labels\"\nmoves: \"the graph's purity\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.VariantOf != "base.yaml" || !c.Diagnostic || c.Probe != "a graph from the labels" || c.Moves != "the graph's purity" {
		t.Errorf("parsed variant_of %q diagnostic %v %q moves %q", c.VariantOf, c.Diagnostic, c.Probe, c.Moves)
	}
	for body, want := range map[string]string{
		"variant_of: base.yaml\nreads: a3\n":         "a3",
		"variant_of: base.yaml\npost_hoc: \"why\"\n": "",
	} {
		c, err := config.Load(write("v.yaml", head+body))
		if err != nil || c.Reads != want {
			t.Errorf("%q: reads %q, error %v", body, c.Reads, err)
		}
	}
	c, err = config.Load(write("b2.yaml", head+"stand_in: \"faces of another database\"\nambiguities:\n  a1: \"read so\"\n  a10: \"read thus\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.StandIn == "" || strings.Join(c.AmbiguityIDs(), ",") != "a1,a10" || c.AmbiguityLines["a10"] != 8 {
		t.Errorf("stand_in %q, ambiguities %v lines %v", c.StandIn, c.AmbiguityIDs(), c.AmbiguityLines)
	}
	if err := c.CheckAmbiguities([]string{"a1", "a2"}); err == nil || !strings.Contains(err.Error(), "b2.yaml:8: ambiguities: a10 is not an ambiguity of paper p (its paper values list a1, a2)") {
		t.Errorf("unknown ambiguity id: %v", err)
	}
	c, _ = config.Load(write("v.yaml", head+"variant_of: base.yaml\nreads: a9\n"))
	if err := c.CheckAmbiguities([]string{"a1"}); err == nil || !strings.Contains(err.Error(), "v.yaml:6: reads: a9 is not an ambiguity of paper p") {
		t.Errorf("unknown reads id: %v", err)
	}
	if c, err := config.Load(filepath.Join(dir, "base.yaml")); err != nil || c.VariantOf != "" || c.Diagnostic {
		t.Errorf("base: %v, variant_of %q diagnostic %v", err, c.VariantOf, c.Diagnostic)
	}
	for _, tc := range []struct{ body, want string }{
		{"variant_of: missing.yaml\n", "v.yaml:5: variant_of: no config missing.yaml beside this one"},
		{"variant_of: ../base.yaml\n", "v.yaml:5: variant_of:"},
		{"variant_of: v.yaml\n", "v.yaml:5: variant_of: v.yaml names this config itself"},
		{"variant_of: [a]\n", "v.yaml:5: variant_of: want a string"},
		{"diagnostic: \"x\"\n", "v.yaml:5: diagnostic: needs variant_of"},
		{"reads: a1\n", "v.yaml:5: reads: needs variant_of"},
		{"variant_of: base.yaml\n", "v.yaml:5: variant_of: say what this variant is to its base"},
		{"variant_of: base.yaml\ndiagnostic: true\n", "v.yaml:6: diagnostic: want a string saying what the diagnostic probes"},
		{"variant_of: base.yaml\nreads: a1\npost_hoc: \"x\"\n", "v.yaml:7: post_hoc: a variant is one of reads, post_hoc and diagnostic, and this one already says reads"},
		{"variant_of: base.yaml\nreads: ambiguity 3\n", "v.yaml:6: reads: \"ambiguity 3\": want the id of one of the paper's ambiguities"},
		{"variant_of: base.yaml\nreads: a1\nmoves: \"x\"\n", "v.yaml:7: moves: only a diagnostic moves"},
		{"ambiguities: [a1]\n", "v.yaml:5: ambiguities: want a mapping"},
		{"ambiguities: {b1: x}\n", "v.yaml:5: ambiguities: key \"b1\""},
	} {
		_, err := config.Load(write("v.yaml", head+tc.body))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.body, err, tc.want)
		}
	}
}
