package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/suite"
)

// TestReportCommand checks runexp report on the committed baseline: the
// three files per paper, one path a line on stdout, and exit 2 for no
// paper, an unknown paper and paper values that are not there.
func TestReportCommand(t *testing.T) {
	if _, err := suite.FindPaperValues("../../configs", ""); err != nil {
		t.Skipf("no paper values beside the checkout: %v", err)
	}
	out := t.TempDir()
	code, stdout, stderr := runCLI("report", "--configs", "../../configs", "--results", "../../baseline", "--out", out, "zheng-lpkpca")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, f := range []string{"REPORT.md", "metadata.yaml", "report.html"} {
		p := filepath.Join(out, "zheng-lpkpca", f)
		if fi, err := os.Stat(p); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", p, err)
		}
		if !strings.Contains(stdout, p+"\n") {
			t.Errorf("stdout %q lacks %s", stdout, p)
		}
	}
	for _, args := range [][]string{
		{"report", "--configs", "../../configs", "--results", "../../baseline", "--out", out},
		{"report", "--configs", "../../configs", "--results", "../../baseline", "--out", out, "no-such-paper"},
		{"report", "--configs", "../../configs", "--results", "../../baseline", "--paper-values", t.TempDir(), "--out", out, "zheng-lpkpca"},
	} {
		if code, _, stderr := runCLI(args...); code != exitUsage {
			t.Errorf("%v: exit %d, want 2; stderr %s", args[len(args)-1], code, stderr)
		}
	}
}
