package runexp

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines bounds the length of a function anywhere in the module
// (issues 12 and 30): a function reads as a list of named steps, and a
// step that needs more is a helper of its own.
const maxFuncLines = 80

// longFuncs are the functions allowed above maxFuncLines, each with the
// reason. The list can only shrink: TestNoLongFunctions fails when a
// listed function is gone or fits maxFuncLines, so an entry leaves with
// the change that shortens it. At most maxLongFuncs of them may be
// numerical kernels kept whole.
var longFuncs = map[string]string{
	// Numerical kernels: one equation block each, which splitting would
	// scatter away from the paper it follows.
	"internal/methods/ppca.go PPCA.Denoise":                "PPCA by EM on incomplete data (Ilin & Raiko §3.2): the E- and M-steps share every per-row quantity",
	"internal/methods/rkpca_impute.go RKPCAImpute.Denoise": "Nguyen & De la Torre's Algorithm 1 (RKPCA for missing data): the outer loop over partitions as the paper gives it",
	"internal/datasets/gist.go GIST.Descriptor":            "Oliva & Torralba's LMgist: prefilter, Gabor bank and block averages in one pass over reused buffers",
	"internal/methods/robustpca.go RobustPCA.Denoise":      "de la Torre & Black's IRLS with an annealed scale (eq. 8): weights, σ and coefficients update together",
	"internal/methods/kwoktsang.go KwokTsang.PreImage":     "Kwok & Tsang's distance-constraint pre-image: neighbours, distance inversion, thin SVD and eq. 16 per row",
	"internal/classify/logreg.go tron":                     "LIBLINEAR's TRON::tron, the trust-region Newton method, kept line by line beside its C++ original",
	"internal/stats/bootstrap.go Bootstrap":                "Efron's BCa interval: resampling, bias correction and jackknife acceleration (Efron 1987 eq. 6.6) in order",
}

// maxLongFuncs bounds the numerical kernels longFuncs may keep whole.
const maxLongFuncs = 12

// TestNoLongFunctions keeps every non-test function of the module within
// maxFuncLines lines, counted from its func keyword to its closing brace,
// except those longFuncs allows, and keeps longFuncs from growing stale.
func TestNoLongFunctions(t *testing.T) {
	if len(longFuncs) > maxLongFuncs {
		t.Errorf("longFuncs allows %d long numerical kernels, at most %d", len(longFuncs), maxLongFuncs)
	}
	seen := map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != "." && (strings.HasPrefix(n, ".") || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			key := filepath.ToSlash(p) + " " + funcName(fd)
			n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
			_, allowed := longFuncs[key]
			switch {
			case allowed && n <= maxFuncLines:
				t.Errorf("%s: %s is %d lines now: remove it from longFuncs", fset.Position(fd.Pos()), key, n)
			case !allowed && n > maxFuncLines:
				t.Errorf("%s: %s is %d lines, more than %d: split it into named steps", fset.Position(fd.Pos()), key, n, maxFuncLines)
			}
			seen[key] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for key := range longFuncs {
		if !seen[key] {
			t.Errorf("longFuncs lists %s, which no longer exists: remove it", key)
		}
	}
}

// funcName is a function's name, with its receiver's type for a method
// (RKPCA.Denoise).
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if ix, ok := t.(*ast.IndexExpr); ok { // a generic receiver, T[E]
		t = ix.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}
