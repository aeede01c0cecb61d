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
	// receiver type for methods) to the files declaring it.
	decl    map[string]map[string][]*file
	owned   map[string]bool
	ignored map[string]bool

	mu   sync.Mutex
	memo map[string]string
}

type file struct {
	path, dir string
	pkg       string // package name
	sum       [sha256.Size]byte
	refs      map[string]bool
	// quals maps an imported module package directory to the names used
	// through it (pkg.Name).
	quals map[string]map[string]bool
	ast   *ast.File
	fset  *token.FileSet
	// init is true when the file has an init function, which runs
	// whether or not its names are used.
	init bool
}

// New parses every non-test .go file of fsys (a module's tree, paths
// relative to its root) whose import paths start with module. owned lists
// the root files (module-relative) that must not count as shared code of
// their package: each estimator's, kind's and dataset's registering file.
func New(fsys fs.FS, module string, owned []string) (*Index, error) {
	ix := &Index{
		module: module,
		files:  map[string]*file{},
		pkgs:   map[string][]*file{},
		decl:   map[string]map[string][]*file{},
		owned:  map[string]bool{},
		memo:   map[string]string{},
	}
	for _, o := range owned {
		ix.owned[o] = true
	}
	type parsed struct {
		f   *file
		ast *ast.File
	}
	var all []parsed
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
		// Parsed for the names it declares and uses; scanned for the
		// fingerprint; the //go: directives, which are code, added.
		af, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("codefp: %w", err)
		}
		h := sha256.New()
		// The token stream, without comments and semicolons (most
		// are inserted at line ends, so they follow the layout), is
		// the code whatever its layout.
		var sc scanner.Scanner
		sc.Init(fset.AddFile(p, -1, len(src)), src, nil, 0)
		for {
			_, tok, lit := sc.Scan()
			if tok == token.EOF {
				break
			}
			if tok == token.SEMICOLON {
				continue
			}
			fmt.Fprintf(h, "%d %s\x00", tok, lit)
		}
		for _, line := range strings.Split(string(src), "\n") {
			if l := strings.TrimSpace(line); strings.HasPrefix(l, "//go:") {
				h.Write([]byte("\x00" + l))
			}
		}
		f := &file{path: p, dir: path.Dir(p), pkg: af.Name.Name, refs: map[string]bool{}, quals: map[string]map[string]bool{}, fset: fset}
		h.Sum(f.sum[:0])
		ix.files[p] = f
		ix.pkgs[f.dir] = append(ix.pkgs[f.dir], f)
		all = append(all, parsed{f, af})
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, fs := range ix.pkgs {
		sort.Slice(fs, func(i, j int) bool { return fs[i].path < fs[j].path })
	}
	for _, p := range all {
		ix.scan(p.f, p.ast)
		p.f.ast = p.ast
	}
	return ix, nil
}

// scan records what f declares and uses.
func (ix *Index) scan(f *file, af *ast.File) {
	declare := func(name string) {
		if name == "_" || name == "" || name == "init" {
			return
		}
		m := ix.decl[f.dir]
		if m == nil {
			m = map[string][]*file{}
			ix.decl[f.dir] = m
		}
		m[name] = append(m[name], f)
	}
	for _, d := range af.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name == "init" {
				f.init = true
			}
			if d.Recv != nil && len(d.Recv.List) > 0 {
				declare(receiverType(d.Recv.List[0].Type))
			} else {
				declare(d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					declare(s.Name.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						declare(n.Name)
					}
				}
			}
		}
	}
	// Imports of the module by the name they are used under. Blank
	// imports only run init functions (registrations), so they add no
	// code a result can depend on.
	local := map[string]string{}
	for _, im := range af.Imports {
		p, err := strconv.Unquote(im.Path.Value)
		if err != nil || !(p == ix.module || strings.HasPrefix(p, ix.module+"/")) {
			continue
		}
		dir := strings.TrimPrefix(strings.TrimPrefix(p, ix.module), "/")
		if dir == "" {
			dir = "."
		}
		name := ""
		if im.Name != nil {
			name = im.Name.Name
		} else if fs := ix.pkgs[dir]; len(fs) > 0 {
			name = fs[0].pkg
		} else {
			name = path.Base(p)
		}
		switch name {
		case "_":
			continue
		case ".":
			// Every name of a dot import is unqualified: take the package.
			f.quals[dir] = map[string]bool{"*": true}
			continue
		}
		local[name] = dir
		if f.quals[dir] == nil {
			f.quals[dir] = map[string]bool{}
		}
	}
	ast.Inspect(af, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok {
				if dir, ok := local[id.Name]; ok {
					f.quals[dir][n.Sel.Name] = true
					return false
				}
			}
		case *ast.Ident:
			f.refs[n.Name] = true
		}
		return true
	})
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

// Files returns the module-relative paths of the files the root file's
// fingerprint covers, sorted. The root must be a file of the index.
func (ix *Index) Files(root string) ([]string, error) {
	rf, ok := ix.files[root]
	if !ok {
		return nil, fmt.Errorf("codefp: %s is not a non-test source file of the module", root)
	}
	seen := map[*file]bool{}
	var queue []*file
	add := func(f *file) {
		if !seen[f] && (!ix.ignored[f.path] || f == rf) {
			seen[f] = true
			queue = append(queue, f)
		}
	}
	shared := func(dir string) {
		for _, f := range ix.pkgs[dir] {
			if !ix.owned[f.path] {
				add(f)
			}
		}
	}
	add(rf)
	shared(rf.dir)
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		for name := range f.refs {
			for _, g := range ix.decl[f.dir][name] {
				add(g)
			}
		}
		for dir, names := range f.quals {
			// An imported package counts by the names used through
			// it (and what they reach), plus its init functions.
			for _, g := range ix.pkgs[dir] {
				if g.init && !ix.owned[g.path] {
					add(g)
				}
			}
			if names["*"] {
				for _, g := range ix.pkgs[dir] {
					add(g)
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
	out := make([]string, 0, len(seen))
	for f := range seen {
		out = append(out, f.path)
	}
	sort.Strings(out)
	return out, nil
}

// Fingerprint returns the hex SHA-256 of the normalised text of every file
// Files(root) lists, with their paths.
func (ix *Index) Fingerprint(root string) (string, error) {
	ix.mu.Lock()
	fp, ok := ix.memo[root]
	ix.mu.Unlock()
	if ok {
		return fp, nil
	}
	paths, err := ix.Files(root)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, p := range paths {
		fmt.Fprintf(h, "%s\x00%x\n", p, ix.files[p].sum)
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
