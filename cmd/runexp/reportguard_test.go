//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/runexp/runexp/internal/report/reporttest"
	"github.com/runexp/runexp/internal/suite"
)

// reportPaper is the paper the report tests build: its four configs are
// the fewest of any paper's.
const reportPaper = "nguyen-delatorre-robust-kpca"

// copyResults copies the committed baseline's folders of reportPaper's
// configs into a new results root and returns it.
func copyResults(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "results")
	for _, name := range []string{"nguyen-fig5", "nguyen-table1", "nguyen-table1-observed-fixed", "nguyen-table2"} {
		copyModule(t, filepath.Join("../../baseline", name), filepath.Join(root, name))
	}
	return root
}

// TestReportRefusesHostileResults is issue #46's runexp report under the
// run's rules: each file it reads is a regular file of bounded size, read
// only inside the results root, and the report is never written through
// a link. Every case exits 2 at once naming the file, and writes nothing
// where the link leads. Before: /dev/zero ran out of memory (exit 4 at 4
// GB), a FIFO blocked forever, a 2 GB sparse claims.json took 2.1 GB, a
// claims.json linked out of the root was quoted into the report, and a
// link at reports/ or OUT/PAPER put the report where it led.
func TestReportRefusesHostileResults(t *testing.T) {
	if _, err := suite.FindPaperValues("../../configs", ""); err != nil {
		t.Skipf("no paper values beside the checkout: %v", err)
	}
	secret := filepath.Join(t.TempDir(), "claims.json")
	if err := os.WriteFile(secret, []byte(`[{"id":"secret-text-outside-the-root","status":"PASS"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		// plant changes the results root; it returns the folder a
		// write must not reach ("" for none).
		plant func(t *testing.T, root string) string
		want  string
	}{
		{"records.jsonl linked to /dev/zero", func(t *testing.T, root string) string {
			link(t, "/dev/zero", filepath.Join(root, "nguyen-table2", "records.jsonl"))
			return ""
		}, "leads to /dev/zero, outside"},
		{"claims.json linked to /dev/zero", func(t *testing.T, root string) string {
			link(t, "/dev/zero", filepath.Join(root, "nguyen-table2", "claims.json"))
			return ""
		}, "leads to /dev/zero, outside"},
		{"manifest.json a FIFO", func(t *testing.T, root string) string {
			p := filepath.Join(root, "nguyen-table2", "manifest.json")
			os.Remove(p)
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Skip(err)
			}
			return ""
		}, "a named pipe"},
		{"claims.json 2 GB sparse", func(t *testing.T, root string) string {
			p := filepath.Join(root, "nguyen-table2", "claims.json")
			if err := os.Truncate(p, 2<<30); err != nil {
				t.Skip(err)
			}
			return ""
		}, "more than the"},
		{"records.jsonl 2 GB sparse", func(t *testing.T, root string) string {
			p := filepath.Join(root, "nguyen-table2", "records.jsonl")
			if err := os.Truncate(p, 2<<30); err != nil {
				t.Skip(err)
			}
			return ""
		}, "records.jsonl: the records file is 2147483648 bytes"},
		{"claims.json linked out of the root", func(t *testing.T, root string) string {
			p := filepath.Join(root, "nguyen-table2", "claims.json")
			os.Remove(p)
			link(t, secret, p)
			return ""
		}, "outside"},
		{"a config's folder linked out of the root", func(t *testing.T, root string) string {
			out := t.TempDir()
			copyModule(t, filepath.Join(root, "nguyen-table2"), out)
			os.WriteFile(filepath.Join(out, "claims.json"), []byte(`[{"id":"secret-text-outside-the-root","status":"PASS"}]`), 0o644)
			os.RemoveAll(filepath.Join(root, "nguyen-table2"))
			link(t, out, filepath.Join(root, "nguyen-table2"))
			return ""
		}, "outside"},
		{"reports/ linked elsewhere", func(t *testing.T, root string) string {
			target := t.TempDir()
			link(t, target, filepath.Join(root, "reports"))
			return target
		}, "is a symbolic link"},
		{"reports/PAPER linked elsewhere", func(t *testing.T, root string) string {
			target := t.TempDir()
			os.MkdirAll(filepath.Join(root, "reports"), 0o755)
			link(t, target, filepath.Join(root, "reports", reportPaper))
			return target
		}, "is a symbolic link"},
		{"absurd manifest values", func(t *testing.T, root string) string {
			p := filepath.Join(root, "nguyen-table2", "manifest.json")
			os.WriteFile(p, []byte(`{"revision":"`+strings.Repeat("a", 8<<20)+`","gomaxprocs":9223372036854775807}`), 0o644)
			return ""
		}, "revision is 8388608 bytes long"},
		{"manifest.json GOMAXPROCS 2⁶³−1", func(t *testing.T, root string) string {
			p := filepath.Join(root, "nguyen-table2", "manifest.json")
			os.WriteFile(p, []byte(`{"revision":"abc","gomaxprocs":9223372036854775807}`), 0o644)
			return ""
		}, "gomaxprocs is 9223372036854775807"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := copyResults(t)
			guarded := tc.plant(t, root)
			done := make(chan struct{})
			var code int
			var stdout, stderr string
			start := time.Now()
			go func() {
				defer close(done)
				code, stdout, stderr = runCLI("report", "--configs", "../../configs", "--results", root, reportPaper)
			}()
			select {
			case <-done:
			case <-time.After(time.Minute):
				t.Fatalf("runexp report still running after a minute (blocked on a FIFO?)")
			}
			if code != exitUsage || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 saying %q", code, stderr, tc.want)
			}
			if strings.Contains(stdout+stderr, "secret-text-outside-the-root") {
				t.Errorf("text from outside the root was quoted: %s", stdout+stderr)
			}
			if guarded != "" {
				if ents, _ := os.ReadDir(guarded); len(ents) > 0 {
					t.Errorf("%d files written where the link leads (%s)", len(ents), guarded)
				}
			}
			t.Logf("refused in %v", time.Since(start))
		})
	}
}

// TestReportSetReplacedWhole: a report's files are replaced as one
// set (a staging folder swapped in), stray temporaries of an interrupted
// run are swept, and a second run writes the same bytes.
func TestReportSetReplacedWhole(t *testing.T) {
	if _, err := suite.FindPaperValues("../../configs", ""); err != nil {
		t.Skipf("no paper values beside the checkout: %v", err)
	}
	root := copyResults(t)
	run := func() {
		t.Helper()
		if code, _, stderr := runCLI("report", "--configs", "../../configs", "--results", root, reportPaper); code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
	}
	run()
	dir := filepath.Join(root, "reports", reportPaper)
	first, _ := os.ReadFile(filepath.Join(dir, "REPORT.md"))
	// What an interruption leaves: a temporary file inside, a staging
	// folder beside.
	os.WriteFile(filepath.Join(dir, ".REPORT.md.tmp-123"), []byte("x"), 0o644)
	os.MkdirAll(filepath.Join(root, "reports", "."+reportPaper+".staging-9"), 0o755)
	run()
	ents, _ := os.ReadDir(filepath.Join(root, "reports"))
	for _, e := range ents {
		if e.Name() != reportPaper {
			t.Errorf("left beside the report: %s", e.Name())
		}
	}
	files, _ := os.ReadDir(dir)
	var names []string
	for _, f := range files {
		// A figure is copied in as CONFIG--FILE.png from the results
		// root, which keeps it (baseline/ does for figures its records
		// cannot redraw).
		if cfg, file, ok := strings.Cut(f.Name(), "--"); ok && strings.HasSuffix(file, ".png") {
			if _, err := os.Stat(filepath.Join(root, cfg, file)); err == nil {
				continue
			}
		}
		names = append(names, f.Name())
	}
	if strings.Join(names, " ") != "APPENDIX.md REPORT.md appendix.html bibliography.bib metadata.yaml report.html" {
		t.Errorf("the report's folder holds %v", names)
	}
	if again, _ := os.ReadFile(filepath.Join(dir, "REPORT.md")); string(again) != string(first) {
		t.Errorf("a second report differs from the first")
	}
}

// TestReportEscapesMarkdown: REPORT.md quotes a config's title, its
// claims' ids and evidence and the manifest's CPU model and revision as
// text: the fixture of tables.md's test opens no tag in it.
func TestReportEscapesMarkdown(t *testing.T) {
	if _, err := suite.FindPaperValues("../../configs", ""); err != nil {
		t.Skipf("no paper values beside the checkout: %v", err)
	}
	root := copyResults(t)
	p := filepath.Join(root, "nguyen-table2", "claims.json")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	inj := strings.ReplaceAll(reporttest.InjectionTitle+" "+reporttest.InjectionNotes, `"`, `\"`)
	b = []byte(strings.Replace(string(b), `"evidence":"`, `"evidence":"`+inj+` `, 1))
	os.WriteFile(p, b, 0o644)
	// The baseline has no manifests: one whose CPU model is the fixture.
	m := filepath.Join(root, "nguyen-table2", "manifest.json")
	os.WriteFile(m, []byte(`{"config":"configs/nguyen-table2.yaml","revision":"abc","goos":"linux","goarch":"amd64","gomaxprocs":2,"cells":1,"machine":{"cpu_model":"`+inj+`","cores":2,"backend":"gonum"}}`), 0o644)
	if code, _, stderr := runCLI("report", "--configs", "../../configs", "--results", root, reportPaper); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	md, err := os.ReadFile(filepath.Join(root, "reports", reportPaper, "REPORT.md"))
	if err != nil {
		t.Fatal(err)
	}
	if tag := reporttest.RawTag(string(md)); tag != "" {
		t.Errorf("REPORT.md holds %q raw", tag)
	}
}

func link(t *testing.T, target, at string) {
	t.Helper()
	os.RemoveAll(at)
	if err := os.Symlink(target, at); err != nil {
		t.Fatal(err)
	}
}
