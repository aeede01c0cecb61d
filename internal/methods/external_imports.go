package methods

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/runexp/runexp/internal/safefs"
)

// An external estimator's cell is keyed by what it runs, and a Python
// script runs the modules it imports as well as itself: a helper edited
// so that it halves the result must recompute the cell. ExternalFingerprint
// therefore hashes, besides each script, the files its imports name that
// lie in the folders a Python estimator of this project imports from —
// the script's own folder, each folder of PYTHONPATH, and every python/
// folder of the folders above the script and above the working directory
// (the project's python/, which holds runexp_estimator.py) — and the
// modules those import in turn. The imports are read statically, line by
// line: `import a.b, c as d`, `from a import b` (b may be a module),
// relative `from . import x` and `from ..p import y`, wherever they stand
// (inside a function, an if or a try: a module that may be imported
// counts). A module found in none of these folders (numpy, the standard
// library) is not hashed: it is the environment's, not the estimator's.
// Neither is a module imported by a computed name (importlib,
// __import__) nor a file read at run time; an estimator that has such
// files names them in the script parameter.

// maxImportedFiles bounds the files one fingerprint follows imports to:
// an estimator's own modules are a handful.
const maxImportedFiles = 1000

// pyImports hashes the project modules a Python script imports.
type pyImports struct {
	roots []string          // the folders absolute imports are found in, in order
	seen  map[string]bool   // files already read (absolute paths)
	sums  map[string]string // candidate name → SHA-256
}

// newPyImports returns the search folders for the scripts: each script's
// own folder is added per script (scriptRoots); these are the folders
// shared by all of them.
func newPyImports() *pyImports {
	ix := &pyImports{seen: map[string]bool{}, sums: map[string]string{}}
	for _, d := range filepath.SplitList(os.Getenv("PYTHONPATH")) {
		if d != "" {
			ix.roots = append(ix.roots, d)
		}
	}
	if wd, err := os.Getwd(); err == nil {
		ix.roots = append(ix.roots, pythonFolders(wd)...)
	}
	return ix
}

// pythonFolders lists the python/ folders of dir and of every folder
// above it, nearest first.
func pythonFolders(dir string) []string {
	var out []string
	for d := dir; ; d = filepath.Dir(d) {
		if fi, err := os.Stat(filepath.Join(d, "python")); err == nil && fi.IsDir() {
			out = append(out, filepath.Join(d, "python"))
		}
		if filepath.Dir(d) == d {
			return out
		}
	}
}

// script follows the imports of the script at path (as the command
// names it), whose own folder and the python/ folders above it are
// searched first.
func (ix *pyImports) script(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	roots := append([]string{filepath.Dir(abs)}, pythonFolders(filepath.Dir(abs))...)
	roots = append(roots, ix.roots...)
	ix.seen[abs] = true
	return ix.follow(abs, roots)
}

// follow reads the file at path (already hashed by its caller) for its
// imports and hashes each project module it names, recursively.
func (ix *pyImports) follow(path string, roots []string) error {
	b, err := safefs.ReadFile(path, MaxScriptBytes)
	if err != nil {
		return fmt.Errorf("external: fingerprinting %s: %w", path, err)
	}
	for _, im := range parsePyImports(string(b)) {
		for _, cand := range ix.candidates(path, im, roots) {
			if err := ix.add(cand.name, cand.file, roots); err != nil {
				return err
			}
		}
	}
	return nil
}

// pyCandidate is a file an import may load, with the name it is hashed
// under: the module's dotted name and the rank of its folder in the
// search, or the importing file's name for a relative import. Absolute
// paths stay out of the name, so that two checkouts of one project give
// one fingerprint.
type pyCandidate struct{ name, file string }

// candidates lists the files of the search folders (or, for a relative
// import, of the importing file's package) that import im may load.
func (ix *pyImports) candidates(from string, im pyImport, roots []string) []pyCandidate {
	var out []pyCandidate
	if im.dots > 0 {
		base := filepath.Dir(from)
		for i := 1; i < im.dots; i++ {
			base = filepath.Dir(base)
		}
		for _, f := range moduleFiles(base, im.module, im.names) {
			out = append(out, pyCandidate{name: fmt.Sprintf("%s: %s%s → %s", filepath.Base(from), strings.Repeat(".", im.dots), im.module, relTo(base, f)), file: f})
		}
		return out
	}
	for i, r := range roots {
		for _, f := range moduleFiles(r, im.module, im.names) {
			out = append(out, pyCandidate{name: fmt.Sprintf("%s (search folder %d) → %s", im.module, i, relTo(r, f)), file: f})
		}
	}
	return out
}

func relTo(base, f string) string {
	if r, err := filepath.Rel(base, f); err == nil {
		return filepath.ToSlash(r)
	}
	return filepath.Base(f)
}

// moduleFiles lists the files under base that importing the dotted
// module (and, for a from-import, each of names as a submodule) may run:
// each package's __init__.py on the way and the module's own .py file or
// package.
func moduleFiles(base, module string, names []string) []string {
	var out []string
	add := func(p string) {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	dir := base
	if module != "" {
		parts := strings.Split(module, ".")
		for _, p := range parts[:len(parts)-1] {
			dir = filepath.Join(dir, p)
			add(filepath.Join(dir, "__init__.py"))
		}
		last := parts[len(parts)-1]
		add(filepath.Join(dir, last+".py"))
		dir = filepath.Join(dir, last)
		add(filepath.Join(dir, "__init__.py"))
	}
	for _, n := range names {
		add(filepath.Join(dir, n+".py"))
		add(filepath.Join(dir, n, "__init__.py"))
	}
	return out
}

// add hashes the file under name and follows its imports, once per file.
func (ix *pyImports) add(name, file string, roots []string) error {
	b, err := safefs.ReadFile(file, MaxScriptBytes)
	if err != nil {
		return fmt.Errorf("external: fingerprinting %s: %w", file, err)
	}
	ix.sums[name] = fmt.Sprintf("%x", sha256.Sum256(b))
	abs, err := filepath.Abs(file)
	if err != nil || ix.seen[abs] {
		return err
	}
	ix.seen[abs] = true
	if len(ix.seen) > maxImportedFiles {
		return fmt.Errorf("external: fingerprinting: the scripts import more than %d files of the project; name the files the estimator runs in the script parameter", maxImportedFiles)
	}
	// A module's own imports are searched from its own folder first (a
	// sibling module), then as the script's are.
	return ix.follow(abs, append([]string{filepath.Dir(abs)}, roots...))
}

// pyImport is one imported module: its dotted name ("" for `from .
// import x`), the leading dots of a relative import, and the names a
// from-import takes from it (each possibly a submodule).
type pyImport struct {
	module string
	dots   int
	names  []string
}

// parsePyImports reads the import statements of Python source, wherever
// they stand, joining bracketed and backslash-continued lines.
func parsePyImports(src string) []pyImport {
	var out []pyImport
	for _, stmt := range pyStatements(src) {
		f := strings.Fields(stmt)
		switch {
		case len(f) >= 2 && f[0] == "import":
			for _, part := range strings.Split(strings.Join(f[1:], " "), ",") {
				if m := pyName(strings.Fields(part)); m != "" {
					out = append(out, pyImport{module: m})
				}
			}
		case len(f) >= 4 && f[0] == "from" && f[2] == "import":
			mod := f[1]
			dots := len(mod) - len(strings.TrimLeft(mod, "."))
			im := pyImport{module: mod[dots:], dots: dots}
			if im.module != "" && !pyDotted(im.module) {
				continue
			}
			rest := strings.Trim(strings.Join(f[3:], " "), "()")
			for _, part := range strings.Split(rest, ",") {
				if n := pyName(strings.Fields(part)); n != "" && !strings.Contains(n, ".") {
					im.names = append(im.names, n)
				}
			}
			out = append(out, im)
		}
	}
	return out
}

// pyName is the module of an import clause's words ("a.b", "as", "c").
func pyName(words []string) string {
	if len(words) == 0 || !pyDotted(words[0]) {
		return ""
	}
	return words[0]
}

// pyDotted reports whether s is a dotted Python name.
func pyDotted(s string) bool {
	for _, p := range strings.Split(s, ".") {
		if p == "" {
			return false
		}
		for i, r := range p {
			if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0x80 || i > 0 && r >= '0' && r <= '9') {
				return false
			}
		}
	}
	return true
}

// pyStatements returns the import statements of source as logical
// lines: comments cut, semicolons split, and an import continued over
// lines (a backslash, or its names in brackets) joined.
func pyStatements(src string) []string {
	var out []string
	var cur strings.Builder
	open, depth := false, 0
	for _, line := range strings.Split(src, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimRight(line, " \t\r")
		cont := strings.HasSuffix(line, "\\")
		line = strings.TrimSuffix(line, "\\")
		if !open {
			parts := strings.Split(line, ";")
			for _, p := range parts[:len(parts)-1] {
				if p = strings.TrimSpace(p); isImportStmt(p) {
					out = append(out, p)
				}
			}
			line = strings.TrimSpace(parts[len(parts)-1])
			if !isImportStmt(line) {
				continue
			}
			cur.Reset()
			depth = 0
		}
		cur.WriteString(line + " ")
		depth += strings.Count(line, "(") - strings.Count(line, ")")
		if open = cont || depth > 0; !open {
			out = append(out, strings.TrimSpace(cur.String()))
		}
	}
	return out
}

func isImportStmt(s string) bool {
	return strings.HasPrefix(s, "import ") || strings.HasPrefix(s, "from ")
}

// lines returns the hashed modules, one a line, sorted.
func (ix *pyImports) lines() []string {
	out := make([]string, 0, len(ix.sums))
	for name, sum := range ix.sums {
		out = append(out, fmt.Sprintf("imports %q %s", name, sum))
	}
	slices.Sort(out)
	return out
}
