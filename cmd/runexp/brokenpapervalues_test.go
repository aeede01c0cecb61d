package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/suite"
)

// copyTree copies the regular files of src (recursively) into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestBrokenPaperValuesExit2: a paper-values file that is there but
// cannot be read (a YAML syntax error, a file over the size bound, an
// alias bomb) stops the scoreboard with exit 2 naming the file, as its
// help says, and stops a suite's scoreboard too; before, the paper showed
// "[not run]" with 0 claims, the totals dropped from 46 claims to 36,
// and both exited 0 with a warning.
func TestBrokenPaperValuesExit2(t *testing.T) {
	pv, err := suite.FindPaperValues("../../configs", "")
	if err != nil {
		t.Skipf("no paper values beside the checkout: %v", err)
	}
	const paper = "abrahamsen-hansen-regularized-preimage"
	bomb := "a: &a [x, x, x, x, x, x, x, x, x]\n"
	for i, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		prev := string(rune('a' + i))
		bomb += n + ": &" + n + " [*" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + "]\n"
	}
	for _, tc := range []struct {
		name   string
		break_ func(orig []byte) []byte
		want   string
	}{
		{"syntax error", func(b []byte) []byte { return append(b, "\ntitle: [unclosed\n"...) }, "not valid YAML"},
		{"oversized", func(b []byte) []byte { return append(b, "\n# "+strings.Repeat("x", 64<<20)+"\n"...) }, "more than"},
		{"alias bomb", func(b []byte) []byte {
			// The claims become a billion-fold expansion of one list.
			return []byte(bomb + strings.Replace(string(b), "\nclaims:", "\nclaims: *i\nold_claims:", 1))
		}, "alias"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			top := t.TempDir()
			dst := filepath.Join(top, "shared", "paper-values")
			copyTree(t, pv, dst)
			file := filepath.Join(dst, paper+".yaml")
			orig, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, tc.break_(orig), 0o644); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := runCLI("scoreboard", "--configs", "../../configs", "--paper-values", dst, "--out", filepath.Join(top, "R.md"), "../../baseline")
			if code != exitUsage || !strings.Contains(stderr, paper) || !strings.Contains(stderr, tc.want) {
				t.Errorf("scoreboard: exit %d, stderr %q (stdout %.200q); want %d naming %s and %q", code, stderr, stdout, exitUsage, paper, tc.want)
			}
			if _, err := os.Stat(filepath.Join(top, "R.md")); err == nil {
				t.Error("scoreboard written from paper values it could not read")
			}
		})
	}

	// A suite's scoreboard: the configs in a checkout whose shared/
	// paper-values holds the broken file.
	top := t.TempDir()
	copyTree(t, "../../configs", filepath.Join(top, "checkout", "configs"))
	dst := filepath.Join(top, "shared", "paper-values")
	copyTree(t, pv, dst)
	file := filepath.Join(dst, paper+".yaml")
	orig, _ := os.ReadFile(file)
	os.WriteFile(file, append(orig, "\ntitle: [unclosed\n"...), 0o644)
	t.Setenv("RUNEXP_DATA", "")
	code, _, stderr := runCLI("suite", "-q", "--configs", filepath.Join(top, "checkout", "configs"), "--out", filepath.Join(top, "out"), "--only", "abrahamsen-hansen-fig3")
	if code != exitUsage || !strings.Contains(stderr, "not valid YAML") {
		t.Errorf("suite: exit %d, stderr %q; want %d naming the broken paper values", code, stderr, exitUsage)
	}
}
