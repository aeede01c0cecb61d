package runexp

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSourcesEmbedded fails when the embedded sources, and so the code
// fingerprints of cached cells, do not match the module's source files:
// every .go file of the module on disk (outside testdata/) must be
// embedded with the same bytes, and nothing else. A new package directory
// deeper than the embed patterns reach fails here until the patterns in
// sources.go cover it.
func TestSourcesEmbedded(t *testing.T) {
	onDisk := map[string]bool{}
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch n := d.Name(); {
			case p != "." && (strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_")),
				n == "testdata", n == "results", n == "bin":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		p = filepath.ToSlash(p)
		onDisk[p] = true
		want, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		got, err := fs.ReadFile(Sources, p)
		if err != nil {
			t.Errorf("%s is not embedded: extend the //go:embed patterns in sources.go", p)
			return nil
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: embedded bytes differ from the file", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	fs.WalkDir(Sources, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !onDisk[p] {
			t.Errorf("%s is embedded but not a library source file on disk", p)
		}
		return nil
	})
	if len(onDisk) < 100 {
		t.Errorf("only %d source files found: is the test running at the module root?", len(onDisk))
	}
}

// TestSourcePatterns checks that SourcePatterns are the patterns of
// sources.go's go:embed line, in order, and match what is embedded.
func TestSourcePatterns(t *testing.T) {
	src, err := os.ReadFile("sources.go")
	if err != nil {
		t.Fatal(err)
	}
	var line string
	for _, l := range strings.Split(string(src), "\n") {
		if rest, ok := strings.CutPrefix(l, "//go:embed "); ok {
			line = rest
		}
	}
	if got := strings.Join(SourcePatterns, " "); got != line {
		t.Errorf("SourcePatterns %q, the go:embed line %q", got, line)
	}
	n := 0
	for _, p := range SourcePatterns {
		m, err := fs.Glob(Sources, p)
		if err != nil {
			t.Fatal(err)
		}
		n += len(m)
	}
	all := 0
	fs.WalkDir(Sources, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			all++
		}
		return nil
	})
	if n != all || n == 0 {
		t.Errorf("the patterns match %d files, %d are embedded", n, all)
	}
}
