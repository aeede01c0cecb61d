package config

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

const minimal = "title: t\npaper: p\nkind: k\ndataset: {name: d}\n"

// TestFileNamesConfined: every name that becomes a path under --out is a
// plain name, refused with file:line otherwise.
func TestFileNamesConfined(t *testing.T) {
	for _, tc := range []struct {
		file, src, want string
	}{
		{"...yaml", minimal, "...yaml:1: the file name gives the result folder name \"..\""},
		{"dir/..yaml", minimal, "dir/..yaml:1: the file name gives the result folder name \".\""},
		{".cache.yaml", minimal, "starts with a dot"},
		{"f.yaml", minimal + "experiment:\n  figure_name: ../../../x\n", "f.yaml:6: experiment.figure_name: \"../../../x\" holds a path separator"},
		{"f.yaml", minimal + "experiment:\n  figure_name: ..\n", "f.yaml:6: experiment.figure_name: \"..\" is not a name"},
		{"f.yaml", minimal + "experiment:\n  figure_name: \"\\\"><img src=x onerror=alert(1)>\"\n", "f.yaml:6: experiment.figure_name: \"\\\"><img src=x onerror=alert(1)>\" holds '\"'; want letters, digits"},
		{"f.yaml", minimal + "outputs:\n  dir: /tmp/x\n", "f.yaml:6: outputs.dir: \"/tmp/x\" is absolute"},
		{"f.yaml", minimal + "outputs:\n  dir: ../x\n", "f.yaml:6: outputs.dir: \"..\" is not a name"},
		{"f.yaml", minimal + "outputs:\n  dir: a/../../x\n", "outputs.dir"},
		{"f.yaml", minimal + "outputs:\n  dir: .\n", "outputs.dir"},
		{"f.yaml", minimal + "outputs:\n  dir: .cache\n", "starts with a dot"},
	} {
		_, err := Parse(tc.file, []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %q: err %v, want %q", tc.file, tc.src, err, tc.want)
		}
	}
	for _, src := range []string{minimal + "outputs:\n  dir: sub/run-1\n", minimal + "experiment:\n  figure_name: fig-7_a\n"} {
		if _, err := Parse("ok.yaml", []byte(src)); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
}

// TestAliasBomb: a "billion laughs" document of under 4 KB, ten levels
// of nine aliases each (9¹⁰ ≈ 3.5·10⁹ scalars once expanded), fails fast
// in the config package, under experiment: and under a method's params:.
func TestAliasBomb(t *testing.T) {
	// The anchors live inside the section that expands them, so the
	// document is valid YAML and the bomb goes off in the walker.
	src := minimal + "experiment:\n  a0: &a0 [x, x, x, x, x, x, x, x, x]\n"
	for i := 1; i <= 9; i++ {
		src += fmt.Sprintf("  a%d: &a%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d, ", i-1), 9), ", "))
	}
	if len(src) > 4096 {
		t.Fatalf("bomb is %d bytes", len(src))
	}
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, err := Parse("bomb.yaml", []byte(src))
	if err == nil || !strings.Contains(err.Error(), "YAML nodes") {
		t.Fatalf("alias bomb: err %v", err)
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 200<<20 {
		t.Errorf("allocated %d MB", grew>>20)
	}
	// The same under a method's params.
	m := strings.Replace(src, "experiment:\n", "methods:\n  - name: mika\n    params:\n", 1)
	m = strings.ReplaceAll(m, "\n  a", "\n      a")
	if _, err := Parse("bomb.yaml", []byte(m)); err == nil || !strings.Contains(err.Error(), "YAML nodes") {
		t.Errorf("alias bomb in params: err %v", err)
	}
}

func TestYAMLErrorsHaveLines(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{minimal + "---\n" + minimal, "f.yaml:5: a second YAML document"},
		{minimal + "---\n", ""},
		{"title: x\n  paper: p\n", "f.yaml:2: not valid YAML"},
		{minimal + "experiment:\n  point: [.nan, .inf]\n", "f.yaml:6: experiment.point: .nan is not a finite number"},
		{minimal + "methods:\n  - name: mika\n    params:\n      max_iter: 9223372036854775807\n", "f.yaml:8: methods[0].params.max_iter: integer 9223372036854775807 out of range"},
		{minimal + "outputs:\n  width: 1e308\n", "f.yaml:6: outputs.width: 1e+308 is impossible, want a size in cm in (0, 100]"},
		{minimal + "outputs:\n  height: 10000\n", "outputs.height: 10000 is impossible"},
	} {
		_, err := Parse("f.yaml", []byte(tc.src))
		if tc.want == "" {
			// "---" followed by nothing is a second, empty document:
			// yaml.v3 reports it as a null document, still refused.
			if err == nil {
				t.Errorf("%q: accepted a trailing document marker", tc.src)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err %v, want %q", tc.src, err, tc.want)
		}
	}
}

func TestIntIn(t *testing.T) {
	c, err := Parse("f.yaml", []byte(minimal+"experiment:\n  columns: 1000000000\n"))
	if err != nil {
		t.Fatal(err)
	}
	r := c.Experiment.Reader("experiment")
	r.IntIn("columns", 0, 0, 400)
	if err := r.Err(); err == nil || !strings.Contains(err.Error(), "f.yaml:6: experiment.columns: 1000000000 is too large") {
		t.Errorf("err %v", err)
	}
}

func TestCheckFileName(t *testing.T) {
	for _, ok := range []string{"fig7-examples", "a.b", "x_1", "résumé"} {
		if err := CheckFileName(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", ".", "..", "a/b", `a\b`, "/abs", ".hidden", "a\x00b", "a\nb",
		// Markup, not file names: each would be live in REPORT.md or a page.
		"\"><img src=x onerror=alert(1)>", "a b", "[x](javascript:alert(1))", "a|b", "a*b*", "`x`", "a<b"} {
		if err := CheckFileName(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestLoadTooLarge(t *testing.T) {
	p := t.TempDir() + "/big.yaml"
	b := []byte(minimal + "notes: \"" + strings.Repeat("x", MaxFileBytes) + "\"\n")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(p); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("err %v", err)
	}
}
