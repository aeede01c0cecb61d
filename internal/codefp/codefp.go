package codefp

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Index is the parsed, normalised sources of one module. It is safe for
// concurrent use.
type Index struct {
	module string
	files  map[string]*file
	// pkgs lists each package directory's files, sorted by path.
	pkgs map[string][]*file
	// decl maps a package directory and a top-level name (a method's
	// receiver type for methods) to the declarations of it.
	decl    map[string]map[string][]*decl
	owned   map[string]bool
	ignored map[string]bool

	mu   sync.Mutex
	memo map[string]string
}

type file struct {
	path, dir string
	pkg       string // package name
	// sum is the normalised text of the whole file (All).
	sum   [sha256.Size]byte
	decls []*decl
	ast   *ast.File
	fset  *token.FileSet
}

// decl is one top-level declaration: a function, a method, or a whole
// var, const, type or import-free group (a const block's iota ties its
// specs together, so a group is one unit).
type decl struct {
	file *file
	// id names it in a fingerprint: its file, its names, its ordinal
	// among the file's declarations of those names.
	id string
	// sum is its token stream without comments, with the //go:
	// directives of its doc comment, the file's package clause and
	// build constraints, and the import path of every package it
	// names, so that a changed import under the same name counts.
	sum  [sha256.Size]byte
	refs map[string]bool
	// quals maps an imported module package directory to the names
	// used through it (pkg.Name).
	quals map[string]map[string]bool
	// init is true for an init function and for a package-level var
	// whose value calls a function: either runs whether or not its
	// names are used.
	init bool
}

// New parses every non-test .go file of fsys (a module's tree, paths
// relative to its root) whose import paths start with module. owned lists
// the root files (module-relative) that must not count as shared code of
// their package: each estimator's, kind's and dataset's registering file,
// whose init functions (the registrations) count only for themselves.
func New(fsys fs.FS, module string, owned []string) (*Index, error) {
	ix := &Index{
		module: module,
		files:  map[string]*file{},
		pkgs:   map[string][]*file{},
		decl:   map[string]map[string][]*decl{},
		owned:  map[string]bool{},
		memo:   map[string]string{},
	}
	for _, o := range owned {
		ix.owned[o] = true
	}
	srcs := map[string][]byte{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		fset := token.NewFileSet()
		af, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution|parser.ParseComments)
		if err != nil {
			return fmt.Errorf("codefp: %w", err)
		}
		f := &file{path: p, dir: path.Dir(p), pkg: af.Name.Name, ast: af, fset: fset}
		ix.files[p] = f
		ix.pkgs[f.dir] = append(ix.pkgs[f.dir], f)
		srcs[p] = src
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, fs := range ix.pkgs {
		sort.Slice(fs, func(i, j int) bool { return fs[i].path < fs[j].path })
	}
	// Imports are used under their package's name, known once every
	// file is parsed.
	for _, p := range sortedKeys(boolKeys(srcs)) {
		ix.scan(ix.files[p], srcs[p])
	}
	return ix, nil
}

func boolKeys[V any](m map[string]V) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

// tok is one token of a file's normalised stream.
type tok struct {
	pos token.Pos
	s   string
}

// scan splits f into declarations and hashes the file and each of them.
func (ix *Index) scan(f *file, src []byte) {
	toks := tokens(f, src)
	header := fileSum(f, src, toks)
	imp := ix.importsOf(f)
	count := map[string]int{}
	for _, d := range f.ast.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			continue
		}
		names, isInit := declNames(d)
		key := strings.Join(names, ",")
		dc := &decl{file: f, id: fmt.Sprintf("%s#%s#%d", f.path, key, count[key]), init: isInit,
			refs: map[string]bool{}, quals: map[string]map[string]bool{}}
		count[key]++
		dc.digest(d, header, toks, imp)
		f.decls = append(f.decls, dc)
		for _, n := range names {
			ix.declare(f.dir, n, dc)
		}
	}
}

// tokens is f's token stream, without comments and semicolons (most are
// inserted at line ends, so they follow the layout): the code whatever
// its layout.
func tokens(f *file, src []byte) []tok {
	var toks []tok
	var sc scanner.Scanner
	tf := f.fset.File(f.ast.Pos())
	sc.Init(tf, src, nil, 0)
	for {
		pos, t, lit := sc.Scan()
		if t == token.EOF {
			break
		}
		if t == token.SEMICOLON {
			continue
		}
		toks = append(toks, tok{pos, fmt.Sprintf("%d %s\x00", t, lit)})
	}
	return toks
}

// fileSum sets f.sum from its tokens and the file-wide code outside
// declarations: the package name and the build constraints (and any
// other //go: line outside a decl's doc, conservatively). It returns the
// header every declaration's digest starts with: the package name and
// the build constraints.
func fileSum(f *file, src []byte, toks []tok) string {
	whole := sha256.New()
	for _, t := range toks {
		whole.Write([]byte(t.s))
	}
	header := "package " + f.pkg + "\n"
	for _, line := range strings.Split(string(src), "\n") {
		if l := strings.TrimSpace(line); strings.HasPrefix(l, "//go:") {
			whole.Write([]byte("\x00" + l))
			if strings.HasPrefix(l, "//go:build") {
				header += l + "\n"
			}
		}
	}
	whole.Sum(f.sum[:0])
	return header
}

// fileImports are a file's imports by the name they are used under.
type fileImports struct {
	path map[string]string // name → import path ("." for a dot import)
	dir  map[string]string // name → package directory, for the module's own
	dots []string          // directories of the module's dot imports
}

// importsOf returns f's imports by the name they are used under: their
// path, and the package directory for the module's own.
func (ix *Index) importsOf(f *file) fileImports {
	imp := fileImports{path: map[string]string{}, dir: map[string]string{}}
	for _, im := range f.ast.Imports {
		p, err := strconv.Unquote(im.Path.Value)
		if err != nil {
			continue
		}
		dir, inModule := "", p == ix.module || strings.HasPrefix(p, ix.module+"/")
		name := path.Base(p)
		if inModule {
			dir = strings.TrimPrefix(strings.TrimPrefix(p, ix.module), "/")
			if dir == "" {
				dir = "."
			}
			if fs := ix.pkgs[dir]; len(fs) > 0 {
				name = fs[0].pkg
			}
		}
		if im.Name != nil {
			name = im.Name.Name
		}
		switch name {
		case "_":
			// Blank imports only run init functions (registrations),
			// so they add no code a result can depend on.
			continue
		case ".":
			if inModule {
				imp.dots = append(imp.dots, dir)
			}
			imp.path["."] = p
			continue
		}
		imp.path[name] = p
		if inModule {
			imp.dir[name] = dir
		}
	}
	return imp
}

// digest sets dc.sum from the file's header, d's //go: directives, its
// tokens and the paths of the imports it uses, and records the
// identifiers it refers to (dc.refs) and the names it takes from the
// module's packages (dc.quals).
func (dc *decl) digest(d ast.Decl, header string, toks []tok, imp fileImports) {
	h := sha256.New()
	h.Write([]byte(header))
	if doc := docOf(d); doc != nil {
		for _, c := range doc.List {
			if strings.HasPrefix(c.Text, "//go:") {
				h.Write([]byte(c.Text + "\n"))
			}
		}
	}
	i := sort.Search(len(toks), func(i int) bool { return toks[i].pos >= d.Pos() })
	for ; i < len(toks) && toks[i].pos < d.End(); i++ {
		h.Write([]byte(toks[i].s))
	}
	used := dc.uses(d, imp)
	for _, name := range sortedKeys(used) {
		fmt.Fprintf(h, "import %s %q\n", name, imp.path[name])
	}
	if imp.path["."] != "" {
		fmt.Fprintf(h, "import . %q\n", imp.path["."])
	}
	for _, dir := range imp.dots {
		// Every name of a dot import is unqualified: take the package.
		dc.quals[dir] = map[string]bool{"*": true}
	}
	h.Sum(dc.sum[:0])
}

// uses records the identifiers d uses in dc.refs and the names it takes
// from the module's packages in dc.quals, and returns the imports it
// uses: a selector on an import's name is a qualified use, whose import
// path is part of the code.
func (dc *decl) uses(d ast.Decl, imp fileImports) map[string]bool {
	used := map[string]bool{}
	ast.Inspect(d, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok {
				if _, ok := imp.path[id.Name]; ok {
					used[id.Name] = true
					if dir, ok := imp.dir[id.Name]; ok {
						if dc.quals[dir] == nil {
							dc.quals[dir] = map[string]bool{}
						}
						dc.quals[dir][n.Sel.Name] = true
					}
					return false
				}
			}
		case *ast.Ident:
			dc.refs[n.Name] = true
			if _, ok := imp.path[n.Name]; ok {
				used[n.Name] = true
			}
		}
		return true
	})
	return used
}

func (ix *Index) declare(dir, name string, d *decl) {
	if name == "_" || name == "" || name == "init" {
		return
	}
	m := ix.decl[dir]
	if m == nil {
		m = map[string][]*decl{}
		ix.decl[dir] = m
	}
	m[name] = append(m[name], d)
}

// declNames returns the names a declaration declares (a method's
// receiver type for a method) and whether it runs unasked: an init
// function, or a var group whose values call functions (`var _ = f()`,
// a registration by side effect).
func declNames(d ast.Decl) ([]string, bool) {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv != nil && len(d.Recv.List) > 0 {
			return []string{receiverType(d.Recv.List[0].Type) + "." + d.Name.Name, receiverType(d.Recv.List[0].Type)}, false
		}
		return []string{d.Name.Name}, d.Name.Name == "init"
	case *ast.GenDecl:
		var names []string
		calls := false
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				names = append(names, s.Name.Name)
			case *ast.ValueSpec:
				for _, n := range s.Names {
					names = append(names, n.Name)
				}
				if d.Tok == token.VAR {
					for _, v := range s.Values {
						ast.Inspect(v, func(n ast.Node) bool {
							if _, ok := n.(*ast.CallExpr); ok {
								calls = true
							}
							return !calls
						})
					}
				}
			}
		}
		return names, calls
	}
	return nil, false
}

func docOf(d ast.Decl) *ast.CommentGroup {
	switch d := d.(type) {
	case *ast.FuncDecl:
		return d.Doc
	case *ast.GenDecl:
		return d.Doc
	}
	return nil
}

func receiverType(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// WithOwned returns an index over the same sources whose owned root files
// are owned (module-relative paths, as Resolve returns them) and whose
// ignored files never count: code that cannot change a result (the cache
// and fingerprint machinery itself), so that editing it does not
// recompute every cell.
func (ix *Index) WithOwned(owned, ignored []string) *Index {
	out := &Index{module: ix.module, files: ix.files, pkgs: ix.pkgs, decl: ix.decl,
		owned: map[string]bool{}, ignored: map[string]bool{}, memo: map[string]string{}}
	for _, o := range owned {
		out.owned[o] = true
	}
	for _, o := range ignored {
		out.ignored[o] = true
	}
	return out
}

// Resolve maps a file name as runtime.Caller reports it (absolute, or
// module-path-prefixed under -trimpath) to its module-relative path.
func (ix *Index) Resolve(name string) (string, bool) {
	name = strings.ReplaceAll(name, "\\", "/")
	best := ""
	for p := range ix.files {
		if (name == p || strings.HasSuffix(name, "/"+p)) && len(p) > len(best) {
			best = p
		}
	}
	return best, best != ""
}

// reach returns the declarations the root file's fingerprint covers:
// every declaration of the root, and from each declaration reached, the
// declarations of the names it uses, in its own package and, through
// imports, in the module's other packages; a type brings its methods
// (declared under its name). Every package reached also brings its init
// functions and side-effecting vars, except those of owned files (other
// registrations) and ignored ones.
func (ix *Index) reach(root string) (map[*decl]bool, error) {
	rf, ok := ix.files[root]
	if !ok {
		return nil, fmt.Errorf("codefp: %s is not a non-test source file of the module", root)
	}
	seen := map[*decl]bool{}
	pkgSeen := map[string]bool{}
	var queue []*decl
	var add func(d *decl)
	pkg := func(dir string) {
		if pkgSeen[dir] {
			return
		}
		pkgSeen[dir] = true
		for _, f := range ix.pkgs[dir] {
			if ix.owned[f.path] && f != rf {
				continue
			}
			for _, d := range f.decls {
				if d.init {
					add(d)
				}
			}
		}
	}
	add = func(d *decl) {
		if seen[d] || (ix.ignored[d.file.path] && d.file != rf) {
			return
		}
		seen[d] = true
		queue = append(queue, d)
		pkg(d.file.dir)
	}
	for _, d := range rf.decls {
		add(d)
	}
	pkg(rf.dir)
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		for name := range d.refs {
			for _, g := range ix.decl[d.file.dir][name] {
				add(g)
			}
		}
		for dir, names := range d.quals {
			pkg(dir)
			if names["*"] {
				for _, f := range ix.pkgs[dir] {
					for _, g := range f.decls {
						add(g)
					}
				}
				continue
			}
			for name := range names {
				for _, g := range ix.decl[dir][name] {
					add(g)
				}
			}
		}
	}
	return seen, nil
}

// Files returns the module-relative paths of the files holding the
// declarations the root file's fingerprint covers, sorted. The root must
// be a file of the index.
func (ix *Index) Files(root string) ([]string, error) {
	seen, err := ix.reach(root)
	if err != nil {
		return nil, err
	}
	set := map[string]bool{}
	for d := range seen {
		set[d.file.path] = true
	}
	return sortedKeys(set), nil
}

// Decls returns the declarations the root file's fingerprint covers, as
// "path#names#ordinal", sorted (for tests and debugging).
func (ix *Index) Decls(root string) ([]string, error) {
	seen, err := ix.reach(root)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(seen))
	for d := range seen {
		out = append(out, d.id)
	}
	sort.Strings(out)
	return out, nil
}

// Fingerprint returns the hex SHA-256 of the normalised text of every
// declaration the root file reaches, with their identities.
func (ix *Index) Fingerprint(root string) (string, error) {
	ix.mu.Lock()
	fp, ok := ix.memo[root]
	ix.mu.Unlock()
	if ok {
		return fp, nil
	}
	seen, err := ix.reach(root)
	if err != nil {
		return "", err
	}
	ds := make([]*decl, 0, len(seen))
	for d := range seen {
		ds = append(ds, d)
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i].id < ds[j].id })
	h := sha256.New()
	for _, d := range ds {
		fmt.Fprintf(h, "%s\x00%x\n", d.id, d.sum)
	}
	fp = hex.EncodeToString(h.Sum(nil))
	ix.mu.Lock()
	ix.memo[root] = fp
	ix.mu.Unlock()
	return fp, nil
}

// All returns the fingerprint of every file of the index: the fallback
// for code registered from outside it (a test's registration).
func (ix *Index) All() string {
	paths := make([]string, 0, len(ix.files))
	for p := range ix.files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	h := sha256.New()
	for _, p := range paths {
		fmt.Fprintf(h, "%s\x00%x\n", p, ix.files[p].sum)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// DeclSums returns the declarations the root file's fingerprint covers
// with the first 16 hex digits of each one's digest, by their identity
// ("path#names#ordinal", as Decls): what a cache stores beside a
// fingerprint so that, when the fingerprint changes, it can name the
// declarations that changed (Diff).
func (ix *Index) DeclSums(root string) (map[string]string, error) {
	seen, err := ix.reach(root)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(seen))
	for d := range seen {
		out[d.id] = hex.EncodeToString(d.sum[:8])
	}
	return out, nil
}

// DeclChange is one declaration that differs between two DeclSums.
type DeclChange struct {
	// File is its module-relative file; Name its names as declared (a
	// method as Type.Method, a group as its names joined by commas).
	File, Name string
	// How is "changed", "added" or "removed".
	How string
}

// String is "internal/methods/mika.go: Mika.PreImage (changed)".
func (c DeclChange) String() string { return c.File + ": " + c.Name + " (" + c.How + ")" }

// Diff returns the declarations that differ between two DeclSums, old
// and now, sorted by file and name.
func Diff(old, now map[string]string) []DeclChange {
	var out []DeclChange
	add := func(id, how string) {
		file, rest, _ := strings.Cut(id, "#")
		name, ord, _ := strings.Cut(rest, "#")
		// A method's names are "Type.Method,Type": the first names it.
		if first, _, ok := strings.Cut(name, ","); ok && strings.Contains(first, ".") {
			name = first
		}
		if ord != "0" && ord != "" {
			name += " #" + ord
		}
		if name == "" {
			name = "init"
		}
		out = append(out, DeclChange{File: file, Name: name, How: how})
	}
	for id, s := range now {
		o, ok := old[id]
		switch {
		case !ok:
			add(id, "added")
		case o != s:
			add(id, "changed")
		}
	}
	for id := range old {
		if _, ok := now[id]; !ok {
			add(id, "removed")
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Name < out[j].Name
	})
	return out
}
