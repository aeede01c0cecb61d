package codefp

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

const mod = "example.com/m"

// tree is a module with a package of two estimators (a.go, b.go, where b
// uses a helper of a), shared code (shared.go, with a method in
// methods.go), and a kind package using the shared code only.
func tree() fstest.MapFS {
	return fstest.MapFS{
		"est/shared.go":  {Data: []byte("package est\n\n// Fit is shared.\nfunc Fit() int { return 1 }\n\ntype Model struct{}\n")},
		"est/methods.go": {Data: []byte("package est\n\nfunc (m *Model) Size() int { return 2 }\n")},
		"est/a.go":       {Data: []byte("package est\n\nfunc init() { Register(\"a\") }\n\nfunc helperA() int { return Fit() }\n")},
		"est/b.go":       {Data: []byte("package est\n\nfunc init() { Register(\"b\") }\n\nfunc useB() int { return helperA() + 1 }\n")},
		"est/c.go":       {Data: []byte("package est\n\nfunc init() { Register(\"c\") }\n\nfunc useC() int { var m Model; return m.Size() }\n")},
		"est/reg.go":     {Data: []byte("package est\n\nfunc Register(string) {}\n")},
		"est/a_test.go":  {Data: []byte("package est\n\nfunc helperTest() int { return useB() }\n")},
		"kind/k.go":      {Data: []byte("package kind\n\nimport (\n\t\"example.com/m/est\"\n\t_ \"example.com/m/other\"\n)\n\nfunc run() int { return est.Fit() }\n")},
		"other/o.go":     {Data: []byte("package other\n\nfunc init() {}\n")},
	}
}

func files(t *testing.T, fsys fstest.MapFS, root string) []string {
	t.Helper()
	ix, err := New(fsys, mod, []string{"est/a.go", "est/b.go", "est/c.go", "kind/k.go"})
	if err != nil {
		t.Fatal(err)
	}
	fs, err := ix.Files(root)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

func TestFilesFollowNames(t *testing.T) {
	for _, tc := range []struct {
		root string
		want []string
	}{
		// a's own file and the shared declarations it uses (Register,
		// Fit), not b or c, nor Model, which a does not use.
		{"est/a.go", []string{"est/a.go", "est/reg.go", "est/shared.go"}},
		// b uses a's helper: a's declaration of it counts for b.
		{"est/b.go", []string{"est/a.go", "est/b.go", "est/reg.go", "est/shared.go"}},
		// c uses Model: the type brings its methods, in methods.go.
		{"est/c.go", []string{"est/c.go", "est/methods.go", "est/reg.go", "est/shared.go"}},
		// The kind reaches est through est.Fit, not the estimators' files
		// nor the unused Register; the blank import adds nothing.
		{"kind/k.go", []string{"est/shared.go", "kind/k.go"}},
	} {
		if got := files(t, tree(), tc.root); !slices.Equal(got, tc.want) {
			t.Errorf("Files(%s) = %v, want %v", tc.root, got, tc.want)
		}
	}
}

func fingerprint(t *testing.T, fsys fstest.MapFS, root string) string {
	t.Helper()
	ix, err := New(fsys, mod, []string{"est/a.go", "est/b.go", "est/c.go", "kind/k.go"})
	if err != nil {
		t.Fatal(err)
	}
	fp, err := ix.Fingerprint(root)
	if err != nil {
		t.Fatal(err)
	}
	return fp
}

func edit(fsys fstest.MapFS, name, old, new string) fstest.MapFS {
	out := fstest.MapFS{}
	for k, v := range fsys {
		out[k] = &fstest.MapFile{Data: v.Data}
	}
	out[name] = &fstest.MapFile{Data: []byte(strings.Replace(string(fsys[name].Data), old, new, 1))}
	return out
}

func TestFingerprintTracksCodeNotComments(t *testing.T) {
	base := tree()
	a, b, c, k := fingerprint(t, base, "est/a.go"), fingerprint(t, base, "est/b.go"), fingerprint(t, base, "est/c.go"), fingerprint(t, base, "kind/k.go")

	// A code change in a: a and b (which uses it) change; c and the
	// kind do not.
	ed := edit(base, "est/a.go", "return Fit()", "return -Fit()")
	if fingerprint(t, ed, "est/a.go") == a || fingerprint(t, ed, "est/b.go") == b {
		t.Error("editing a's code kept a's or b's fingerprint")
	}
	if fingerprint(t, ed, "est/c.go") != c || fingerprint(t, ed, "kind/k.go") != k {
		t.Error("editing a's code changed c's or the kind's fingerprint")
	}
	// A method on a shared type changes every user of the type.
	ed = edit(base, "est/methods.go", "return 2", "return 3")
	if fingerprint(t, ed, "est/c.go") == c {
		t.Error("editing a method of Model kept c's fingerprint")
	}
	// Comments and layout do not count.
	ed = edit(base, "est/a.go", "func helperA() int { return Fit() }", "// helperA returns Fit.\nfunc helperA() int {\n\treturn Fit() // the one fit\n}")
	if fingerprint(t, ed, "est/a.go") != a {
		t.Error("a comment and layout edit changed the fingerprint")
	}
	// A //go: directive is code.
	ed = edit(base, "est/a.go", "func helperA", "//go:noinline\nfunc helperA")
	if fingerprint(t, ed, "est/a.go") == a {
		t.Error("a //go: directive did not change the fingerprint")
	}
	// Test files never count.
	ed = edit(base, "est/a_test.go", "useB()", "useB() + 1")
	if fingerprint(t, ed, "est/b.go") != b {
		t.Error("a test file changed the fingerprint")
	}
}

func TestResolve(t *testing.T) {
	ix, err := New(tree(), mod, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"/home/u/src/m/est/a.go", "example.com/m/est/a.go", "est/a.go"} {
		if p, ok := ix.Resolve(name); !ok || p != "est/a.go" {
			t.Errorf("Resolve(%q) = %q, %v", name, p, ok)
		}
	}
	if _, ok := ix.Resolve("/elsewhere/zz_test.go"); ok {
		t.Error("a file outside the index resolved")
	}
}

func TestIgnoredFilesNeverCount(t *testing.T) {
	ix, err := New(tree(), mod, nil)
	if err != nil {
		t.Fatal(err)
	}
	ix = ix.WithOwned([]string{"est/a.go", "est/b.go", "est/c.go", "kind/k.go"}, []string{"est/reg.go"})
	got, err := ix.Files("est/a.go")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"est/a.go", "est/shared.go"}; !slices.Equal(got, want) {
		t.Errorf("Files with est/reg.go ignored = %v, want %v", got, want)
	}
}

// TestFingerprintPerDeclaration: a fingerprint covers the declarations a
// root reaches, not whole files. An edit to a declaration of a's file
// that b does not use leaves b's fingerprint (the kwok-tsang case of
// issue #28); an edit to the helper b uses does not.
func TestFingerprintPerDeclaration(t *testing.T) {
	base := tree()
	base["est/a.go"] = &fstest.MapFile{Data: []byte(string(base["est/a.go"].Data) + "\nfunc mainA() int { return helperA() * 2 }\n")}
	a, b := fingerprint(t, base, "est/a.go"), fingerprint(t, base, "est/b.go")
	ed := edit(base, "est/a.go", "return helperA() * 2", "return helperA() * 3")
	if fingerprint(t, ed, "est/a.go") == a {
		t.Error("editing a's own code kept a's fingerprint")
	}
	if fingerprint(t, ed, "est/b.go") != b {
		t.Error("editing a declaration b does not use changed b's fingerprint")
	}
	ed = edit(base, "est/a.go", "func helperA() int { return Fit() }", "func helperA() int { return Fit() + 0 }")
	if fingerprint(t, ed, "est/b.go") == b {
		t.Error("editing the helper b uses kept b's fingerprint")
	}
}

// TestFingerprintImports: the package a name is imported from is part of
// the code that uses it, and an init function or a var whose value calls
// a function runs unasked: both count.
func TestFingerprintImports(t *testing.T) {
	base := tree()
	base["est/d.go"] = &fstest.MapFile{Data: []byte("package est\n\nimport m \"math\"\n\nfunc init() { Register(\"d\") }\n\nfunc useD() float64 { return m.Sqrt(2) }\n")}
	base["est/side.go"] = &fstest.MapFile{Data: []byte("package est\n\nvar registered = Register2()\n\nfunc Register2() int { return 1 }\n")}
	ix := func(fsys fstest.MapFS) *Index {
		ix, err := New(fsys, mod, []string{"est/a.go", "est/b.go", "est/c.go", "est/d.go", "kind/k.go"})
		if err != nil {
			t.Fatal(err)
		}
		return ix
	}
	fp := func(fsys fstest.MapFS, root string) string {
		s, err := ix(fsys).Fingerprint(root)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	d := fp(base, "est/d.go")
	if fp(edit(base, "est/d.go", `m "math"`, `m "math/cmplx"`), "est/d.go") == d {
		t.Error("importing m from another package kept the fingerprint")
	}
	a := fp(base, "est/a.go")
	if fp(edit(base, "est/side.go", "return 1", "return 2"), "est/a.go") == a {
		t.Error("a side-effecting package var's code did not count")
	}
	decls, err := ix(base).Decls("est/a.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range decls {
		if strings.HasPrefix(d, "est/d.go#") || strings.HasPrefix(d, "est/b.go#") {
			t.Errorf("a reaches %s, another estimator's declaration", d)
		}
	}
}
