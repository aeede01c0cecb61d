package main

import (
	"os"
	"path/filepath"
	"regexp"
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
	for _, f := range []string{"REPORT.md", "metadata.yaml", "report.html", "bibliography.bib", "APPENDIX.md"} {
		p := filepath.Join(out, "zheng-lpkpca", f)
		if fi, err := os.Stat(p); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", p, err)
		}
		if !strings.Contains(stdout, f) {
			t.Errorf("stdout %q lacks %s", stdout, f)
		}
	}
	// The headline and its counts, then the page to open.
	if !regexp.MustCompile(`^\[(Re|¬Re|Re\?)\] zheng-lpkpca: `).MatchString(stdout) || !strings.Contains(stdout, " claims reproduced") ||
		!strings.Contains(stdout, "\n    "+filepath.Join(out, "zheng-lpkpca", "report.html")+"\n") || !strings.Contains(stdout, " figures") {
		t.Errorf("stdout:\n%s\nwant the paper's headline with its counts, its page and its other files", stdout)
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

// TestReportNoMachinePaths (issue #45): a report names its results, its
// configs and the paper values the way a reader can follow them from
// the report's folder or by name, never by the absolute path of the
// machine that wrote it. The results root, the output folder and the
// paper values sit under temporary folders here, and the working folder
// is the checkout: none of those absolute paths may appear in any of
// the report's files.
func TestReportNoMachinePaths(t *testing.T) {
	pv, err := suite.FindPaperValues("../../configs", "")
	if err != nil {
		t.Skipf("no paper values beside the checkout: %v", err)
	}
	root := copyResults(t)
	out := filepath.Join(t.TempDir(), "reports")
	code, _, stderr := runCLI("report", "--configs", "../../configs", "--results", root, "--out", out, reportPaper)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	absPV, err := filepath.Abs(pv)
	if err != nil {
		t.Fatal(err)
	}
	checkout := filepath.Dir(filepath.Dir(cwd))
	forbidden := []string{root, out, checkout + "/", absPV, os.TempDir() + "/"}
	ents, err := os.ReadDir(filepath.Join(out, reportPaper))
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) < 3 {
		t.Fatalf("the report's folder holds %d files", len(ents))
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(out, reportPaper, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range forbidden {
			if strings.Contains(string(b), p) {
				t.Errorf("%s names the machine's path %s", e.Name(), p)
			}
		}
	}
}
