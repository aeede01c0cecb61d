package codefp

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

// src is a one-file module tree with file name and contents.
func src(files ...string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for i := 0; i+1 < len(files); i += 2 {
		fsys[files[i]] = &fstest.MapFile{Data: []byte(files[i+1])}
	}
	return fsys
}

// fp is the fingerprint of root in fsys, failing the test on an error.
func fp(t *testing.T, fsys fstest.MapFS, root string, owned ...string) string {
	t.Helper()
	ix, err := New(fsys, mod, owned)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ix.Fingerprint(root)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestFingerprintFileHeader checks the file-wide code outside any
// declaration: a build constraint decides whether the file is compiled,
// and the package clause what its names are, so a change to either is a
// change of every declaration in the file.
func TestFingerprintFileHeader(t *testing.T) {
	base := src("p/p.go", "package p\n\nfunc F() int { return 1 }\n")
	f := fp(t, base, "p/p.go")
	for name, ed := range map[string]fstest.MapFS{
		"build constraint": edit(base, "p/p.go", "package p", "//go:build linux\n\npackage p"),
		"package name":     edit(base, "p/p.go", "package p", "package q"),
	} {
		if fp(t, ed, "p/p.go") == f {
			t.Errorf("adding a %s kept the fingerprint", name)
		}
	}
	// A blank line and a plain comment above the package clause do not.
	if fp(t, edit(base, "p/p.go", "package p", "// Package p does F.\n\npackage p"), "p/p.go") != f {
		t.Error("a package comment changed the fingerprint")
	}
}

// TestFingerprintGenericMethods checks that a method of a generic type,
// whose receiver is written Stack[T] or Pair[K, V], is declared under the
// type's name: using the type brings the method, and editing the method
// changes the user's fingerprint.
func TestFingerprintGenericMethods(t *testing.T) {
	base := src(
		"g/types.go", "package g\n\ntype Stack[T any] struct{ s []T }\n\ntype Pair[K comparable, V any] struct{ k K; v V }\n",
		"g/methods.go", "package g\n\nfunc (s *Stack[T]) Push(v T) { s.s = append(s.s, v) }\n\nfunc (p Pair[K, V]) Key() K { return p.k }\n",
		"g/use.go", "package g\n\nfunc Use() { var s Stack[int]; s.Push(1); var p Pair[string, int]; _ = p }\n",
	)
	ix, err := New(base, mod, nil)
	if err != nil {
		t.Fatal(err)
	}
	decls, err := ix.Decls("g/use.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"g/methods.go#Stack.Push,Stack#0", "g/methods.go#Pair.Key,Pair#0"} {
		if !slices.Contains(decls, want) {
			t.Errorf("Decls(g/use.go) lacks %s: %q", want, decls)
		}
	}
	u := fp(t, base, "g/use.go")
	if fp(t, edit(base, "g/methods.go", "return p.k", "var z K; return z"), "g/use.go") == u {
		t.Error("editing a method of the generic Pair kept its user's fingerprint")
	}
}

// TestFingerprintConstGroup checks that a const block is one declaration:
// with iota, inserting a constant renumbers the ones after it, so a user
// of a later constant must change with an edit of an earlier one.
func TestFingerprintConstGroup(t *testing.T) {
	base := src(
		"c/modes.go", "package c\n\nconst (\n\tNone = iota\n\tFast\n\tSlow\n)\n",
		"c/use.go", "package c\n\nfunc IsSlow(m int) bool { return m == Slow }\n",
	)
	u := fp(t, base, "c/use.go")
	if fp(t, edit(base, "c/modes.go", "\tFast\n", "\tFast\n\tMedium\n"), "c/use.go") == u {
		t.Error("inserting a constant before Slow in its iota block kept the fingerprint of Slow's user")
	}
}

// TestFingerprintDotImport checks that a dot import brings the whole
// imported package: its names are used unqualified, so they cannot be
// told apart from the file's own.
func TestFingerprintDotImport(t *testing.T) {
	base := src(
		"lib/a.go", "package lib\n\nfunc A() int { return 1 }\n",
		"lib/b.go", "package lib\n\nfunc B() int { return 2 }\n",
		"user/u.go", "package user\n\nimport . \"example.com/m/lib\"\n\nfunc U() int { return A() }\n",
	)
	got := files(t, base, "user/u.go")
	if want := []string{"lib/a.go", "lib/b.go", "user/u.go"}; !slices.Equal(got, want) {
		t.Errorf("Files through a dot import = %q, want %q", got, want)
	}
}

// TestFingerprintImportedPackageInit checks that a module package reached
// through an import brings its init functions (they run whether or not
// a name is used), but an owned root of it does not: another estimator's
// registration is not this one's code.
func TestFingerprintImportedPackageInit(t *testing.T) {
	base := src(
		"lib/lib.go", "package lib\n\nvar table map[string]int\n\nfunc Get(k string) int { return table[k] }\n",
		"lib/fill.go", "package lib\n\nfunc init() { table = map[string]int{\"x\": 1} }\n",
		"lib/est.go", "package lib\n\nfunc init() { table[\"est\"] = 2 }\n",
		"user/u.go", "package user\n\nimport \"example.com/m/lib\"\n\nfunc U() int { return lib.Get(\"x\") }\n",
	)
	ix, err := New(base, mod, []string{"lib/est.go", "user/u.go"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := ix.Files("user/u.go")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"lib/fill.go", "lib/lib.go", "user/u.go"}; !slices.Equal(got, want) {
		t.Errorf("Files = %q, want %q (lib's init, not the owned est.go's)", got, want)
	}
	u := fp(t, base, "user/u.go", "lib/est.go", "user/u.go")
	if fp(t, edit(base, "lib/fill.go", `"x": 1`, `"x": 3`), "user/u.go", "lib/est.go", "user/u.go") == u {
		t.Error("editing an init of an imported package kept the fingerprint")
	}
	if fp(t, edit(base, "lib/est.go", `= 2`, `= 4`), "user/u.go", "lib/est.go", "user/u.go") != u {
		t.Error("editing another owned root's init changed the fingerprint")
	}
}

// TestFingerprintStable checks that a fingerprint is a function of the
// sources only: two indexes of the same tree agree, the memo gives the
// same value again, and concurrent callers agree (run with -race to
// check the memo's lock).
func TestFingerprintStable(t *testing.T) {
	base := tree()
	owned := []string{"est/a.go", "est/b.go", "est/c.go", "kind/k.go"}
	ix1, err := New(base, mod, owned)
	if err != nil {
		t.Fatal(err)
	}
	ix2, err := New(base, mod, owned)
	if err != nil {
		t.Fatal(err)
	}
	roots := []string{"est/a.go", "est/b.go", "est/c.go", "kind/k.go"}
	want := map[string]string{}
	for _, r := range roots {
		a, _ := ix1.Fingerprint(r)
		b, _ := ix2.Fingerprint(r)
		if a != b || len(a) != 64 {
			t.Errorf("%s: two indexes give %q and %q", r, a, b)
		}
		want[r] = a
	}
	var wg sync.WaitGroup
	ix3, _ := New(base, mod, owned)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := roots[i%len(roots)]
			if got, _ := ix3.Fingerprint(r); got != want[r] {
				t.Errorf("concurrent %s: %s, want %s", r, got, want[r])
			}
		}()
	}
	wg.Wait()
	// Distinct roots have distinct fingerprints.
	seen := map[string]string{}
	for r, f := range want {
		if o, ok := seen[f]; ok {
			t.Errorf("%s and %s share a fingerprint", r, o)
		}
		seen[f] = r
	}
}

// TestAll checks the fallback fingerprint of the whole module: any code
// change anywhere changes it, a comment or a test file does not.
func TestAll(t *testing.T) {
	all := func(fsys fstest.MapFS) string {
		ix, err := New(fsys, mod, nil)
		if err != nil {
			t.Fatal(err)
		}
		return ix.All()
	}
	base := tree()
	a := all(base)
	if all(base) != a {
		t.Fatal("All is not deterministic")
	}
	if all(edit(base, "other/o.go", "func init() {}", "func init() { _ = 1 }")) == a {
		t.Error("a code edit in an unreached package kept All")
	}
	if all(edit(base, "other/o.go", "func init() {}", "// init does nothing.\nfunc init() {}")) != a {
		t.Error("a comment changed All")
	}
	if all(edit(base, "est/a_test.go", "useB()", "useB() + 1")) != a {
		t.Error("a test file changed All")
	}
	added := edit(base, "other/o.go", "", "")
	added["other/new.go"] = &fstest.MapFile{Data: []byte("package other\n")}
	if all(added) == a {
		t.Error("a new file kept All")
	}
}

// TestNewErrors checks the refusals: a file that does not parse is named
// with its line, and a root that is not a source file of the module (a
// test file, a path outside it) is an error, not an empty fingerprint.
func TestNewErrors(t *testing.T) {
	_, err := New(src("p/bad.go", "package p\n\nfunc F( {\n"), mod, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "codefp: p/bad.go:3:") {
		t.Errorf("a file that does not parse: %v, want codefp: p/bad.go:3:…", err)
	}
	ix, err := New(tree(), mod, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{"est/a_test.go", "est/zz.go", ""} {
		want := "codefp: " + root + " is not a non-test source file of the module"
		if _, err := ix.Fingerprint(root); err == nil || err.Error() != want {
			t.Errorf("Fingerprint(%q): %v, want %q", root, err, want)
		}
		if _, err := ix.Files(root); err == nil {
			t.Errorf("Files(%q) succeeded", root)
		}
	}
}

// TestResolveLongest checks that Resolve prefers the longest match: a
// module with a.go at its root and est/a.go must map the caller's
// .../est/a.go to est/a.go, and a Windows path resolves too.
func TestResolveLongest(t *testing.T) {
	fsys := tree()
	fsys["a.go"] = &fstest.MapFile{Data: []byte("package m\n")}
	ix, err := New(fsys, mod, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"/src/m/est/a.go":        "est/a.go",
		"/src/m/a.go":            "a.go",
		`C:\src\m\est\a.go`:      "est/a.go",
		"example.com/m/est/a.go": "est/a.go",
	} {
		// The index is a map: ask repeatedly, so that a choice that
		// depended on its order would show.
		for range 32 {
			if got, ok := ix.Resolve(name); !ok || got != want {
				t.Errorf("Resolve(%q) = %q, %t; want %q", name, got, ok, want)
				break
			}
		}
	}
}
