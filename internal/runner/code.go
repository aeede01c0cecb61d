package runner

import (
	"fmt"
	"io/fs"
	"strings"
	"sync"

	"github.com/runexp/runexp"
	"github.com/runexp/runexp/internal/codefp"
	"github.com/runexp/runexp/internal/methods"
)

// code is the fingerprint index of the binary's own sources, built on
// first use (a run; validate and list never pay for it).
var code struct {
	once sync.Once
	ix   *codefp.Index
	err  error
}

func codeIndex() (*codefp.Index, error) {
	code.once.Do(func() {
		code.ix, code.err = newCodeIndex(runexp.Sources)
	})
	return code.ix, code.err
}

// newCodeIndex indexes the module's sources in fsys, with every
// registered estimator's, kind's and dataset's file owned. Registering
// files are roots, not shared code: an estimator's file counts for its
// own cells only (unless other code uses its names, which the index
// follows, declaration by declaration).
func newCodeIndex(fsys fs.FS) (*codefp.Index, error) {
	var owned []string
	var callers []string
	for _, s := range methods.All() {
		callers = append(callers, s.File)
	}
	for _, k := range Kinds() {
		callers = append(callers, k.File)
	}
	for _, d := range Datasets() {
		callers = append(callers, d.File)
	}
	ix, err := codefp.New(fsys, runexp.Module, nil)
	if err != nil {
		return nil, err
	}
	for _, f := range callers {
		if p, ok := ix.Resolve(f); ok {
			owned = append(owned, p)
		}
	}
	return ix.WithOwned(owned, bookkeeping()), nil
}

// bookkeeping lists the files whose code keys, verifies, schedules and
// ships cells but never computes a record's values: the cell cache and its
// keys, the explanations of why a cell is computed (why.go: runexp
// status), shard provenance, name checks, the fingerprinting itself, and
// package par, which hands a cell's inner items (rows, repetitions,
// splits) to goroutines whose results the caller stores by index. They never count
// in a fingerprint, so improving them does not recompute every cell. Code
// that can change a record's numbers must not live in them.
//
// The claims (package internal/claims) are bookkeeping too: they judge
// records in the report stage, which runs on every run, cached cells or
// not, and never compute a record's value. The kinds reach them only
// through the declarations of their per-item statistics (Kind.Items), so
// without this a change to a check would recompute every cell of every
// kind that declares one.
func bookkeeping() []string {
	out := []string{
		"internal/runner/cache.go", "internal/runner/code.go", "internal/runner/shard.go", "internal/runner/names.go", "internal/runner/why.go", "internal/runner/former.go", "internal/runner/datacheck.go",
		"internal/codefp/codefp.go", "internal/codefp/doc.go",
		"internal/par/par.go", "internal/par/doc.go", "internal/par/cputime_linux.go", "internal/par/cputime_other.go",
	}
	claims, _ := fs.Glob(runexp.Sources, "internal/claims/*.go")
	for _, f := range claims {
		if !strings.HasSuffix(f, "_test.go") {
			out = append(out, f)
		}
	}
	return out
}

// CodeFingerprint returns the fingerprint of the code reached from file,
// a registering file as runtime.Caller names it. Code registered from
// outside the module's library sources (a test) gets the fingerprint of
// all of them, tagged with its file name.
func CodeFingerprint(file string) (string, error) {
	ix, err := codeIndex()
	if err != nil {
		return "", fmt.Errorf("runner: fingerprinting the code: %w", err)
	}
	p, ok := ix.Resolve(file)
	if !ok {
		return "unresolved:" + file + ":" + ix.All(), nil
	}
	return ix.Fingerprint(p)
}

// CodeFiles returns the module-relative source files whose code the
// fingerprint of file covers (for tests and debugging).
func CodeFiles(file string) ([]string, error) {
	ix, err := codeIndex()
	if err != nil {
		return nil, err
	}
	p, ok := ix.Resolve(file)
	if !ok {
		return nil, fmt.Errorf("runner: %s is not a library source file of the module", file)
	}
	return ix.Files(p)
}

// UseSources makes the code fingerprints from the sources in fsys (a
// module tree) instead of the binary's own, until restore is called: for
// tests that change an estimator's code without rebuilding runexp (the
// reasons runexp status gives: Reason). It is not safe to call while
// cells run.
func UseSources(fsys fs.FS) (restore func(), err error) {
	ix, err := newCodeIndex(fsys)
	if err != nil {
		return nil, err
	}
	if _, err := codeIndex(); err != nil {
		return nil, err
	}
	old := code.ix
	code.ix = ix
	return func() { code.ix = old }, nil
}
