package methods

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestExternalFingerprintImports: the fingerprint covers the project
// modules a Python script imports — a sibling module, a package and its
// __init__.py, a relative import inside the package, a module of a
// PYTHONPATH folder and of the python/ folder above the script, and what
// those import in turn — and not modules found nowhere in the project
// (numpy, json), nor files nothing imports (issue #46: editing
// python/runexp_estimator.py left every cell of an estimator cached).
func TestExternalFingerprintImports(t *testing.T) {
	root := t.TempDir()
	pypath := t.TempDir()
	files := map[string]string{
		"proj/python/helper.py":     "import json\nX = 1\n",
		"proj/mine/est.py":          "import numpy as np, sibling\nfrom pkg import sub\ntry:\n    import helper  # the project's\nexcept ImportError:\n    pass\nfrom frompath import (\n    a,\n    b,\n)\n",
		"proj/mine/sibling.py":      "from . import nothing_here\nimport deep\n",
		"proj/mine/deep.py":         "Y = 2\n",
		"proj/mine/pkg/__init__.py": "",
		"proj/mine/pkg/sub.py":      "from .inner import f\n",
		"proj/mine/pkg/inner.py":    "def f(): pass\n",
		"proj/mine/unrelated.py":    "Z = 3\n",
		"pypath/frompath.py":        "import sys\n",
	}
	write := func(rel, text string) {
		t.Helper()
		base := root
		if filepath.Dir(rel) == "pypath" {
			base, rel = pypath, filepath.Base(rel)
		}
		p := filepath.Join(base, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for rel, text := range files {
		write(rel, text)
	}
	t.Setenv("PYTHONPATH", pypath)
	spec, _ := Lookup("external")
	p, err := spec.Bind(map[string]any{"command": "python3 " + filepath.Join(root, "proj", "mine", "est.py")})
	if err != nil {
		t.Fatal(err)
	}
	fp := func() string {
		t.Helper()
		s, err := ExternalFingerprint(p)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	base := fp()
	for _, rel := range []string{"proj/python/helper.py", "proj/mine/sibling.py", "proj/mine/deep.py", "proj/mine/pkg/__init__.py",
		"proj/mine/pkg/sub.py", "proj/mine/pkg/inner.py", "pypath/frompath.py"} {
		write(rel, files[rel]+"# edited\n")
		if fp() == base {
			t.Errorf("editing %s, which the script imports, left the fingerprint", rel)
		}
		write(rel, files[rel])
		if fp() != base {
			t.Errorf("restoring %s did not restore the fingerprint", rel)
		}
	}
	write("proj/mine/unrelated.py", "Z = 4\n")
	if fp() != base {
		t.Error("editing a module nothing imports changed the fingerprint")
	}
}

// TestParsePyImports checks the static reading of import statements.
func TestParsePyImports(t *testing.T) {
	src := `"""Doc.

    import in_docstring
"""
import a, b.c as d  # comment
from e import f, g as h
from . import i
from ..j.k import (l,
    m)
x = 1; import n
from o import \
    p
if True:
    from q import *
print("import not_a_statement")
`
	got := parsePyImports(src)
	want := []pyImport{
		{module: "in_docstring"},
		{module: "a"}, {module: "b.c"},
		{module: "e", names: []string{"f", "g"}},
		{dots: 1, names: []string{"i"}},
		{module: "j.k", dots: 2, names: []string{"l", "m"}},
		{module: "n"},
		{module: "o", names: []string{"p"}},
		{module: "q"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parsePyImports:\n got %+v\nwant %+v", got, want)
	}
}
