package runner_test

import (
	"io/fs"
	"slices"
	"testing"

	"github.com/runexp/runexp"
	_ "github.com/runexp/runexp/experiments"
	"github.com/runexp/runexp/internal/codefp/codefptest"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/runner"
)

// editedSources returns the module's sources with old replaced by new in
// file.
func editedSources(t *testing.T, file, old, new string) fs.FS {
	return codefptest.Edited(t, runexp.Sources, file, old, new)
}

// changedFingerprints returns the registered estimators, kinds and
// datasets whose code fingerprint differs between the sources and the
// sources with the edit.
func changedFingerprints(t *testing.T, file, old, new string) []string {
	t.Helper()
	before, err := runner.NewCodeIndex(runexp.Sources)
	if err != nil {
		t.Fatal(err)
	}
	after, err := runner.NewCodeIndex(editedSources(t, file, old, new))
	if err != nil {
		t.Fatal(err)
	}
	var changed []string
	check := func(what, f string) {
		p, ok := before.Resolve(f)
		if !ok {
			return
		}
		a, err := before.Fingerprint(p)
		if err != nil {
			t.Fatal(err)
		}
		b, err := after.Fingerprint(p)
		if err != nil {
			t.Fatal(err)
		}
		if a != b {
			changed = append(changed, what)
		}
	}
	for _, s := range methods.All() {
		check("method "+s.Name, s.File)
	}
	for _, k := range runner.Kinds() {
		check("kind "+k.Name, k.File)
	}
	for _, d := range runner.Datasets() {
		check("dataset "+d.Name, d.File)
	}
	return changed
}

// TestCodeFingerprintPerDeclaration is case 9 of issue #28: editing
// internal/methods/kwoktsang.go recomputed the cells of every estimator
// (its file was part of every method's fingerprint, through a name the
// package's shared code uses), where docs/nightly.md promises that an
// estimator's edit recomputes its own cells. Fingerprints now follow
// declarations: an edit to Kwok–Tsang's PreImage changes Kwok–Tsang's
// fingerprint only, as an edit to Honeine–Richard's does; an edit to
// shared code that every estimator calls changes all of them.
func TestCodeFingerprintPerDeclaration(t *testing.T) {
	for _, tc := range []struct {
		file, old, new string
		want           []string
	}{
		{"internal/methods/kwoktsang.go", "func (kt *KwokTsang) PreImage(dst *mat.Dense, p *Problem) ([]Status, error) {\n", "func (kt *KwokTsang) PreImage(dst *mat.Dense, p *Problem) ([]Status, error) {\n\t_ = 0\n", []string{"method kwok-tsang"}},
		{"internal/methods/honeinerichard.go", "func (hr *HoneineRichard) PreImage(dst *mat.Dense, p *Problem) ([]Status, error) {\n", "func (hr *HoneineRichard) PreImage(dst *mat.Dense, p *Problem) ([]Status, error) {\n\t_ = 0\n", []string{"method honeine-richard"}},
	} {
		got := changedFingerprints(t, tc.file, tc.old, tc.new)
		if !slices.Equal(got, tc.want) {
			t.Errorf("editing %s changed %v, want %v", tc.file, got, tc.want)
		}
	}
	// A comment changes nothing.
	if got := changedFingerprints(t, "internal/methods/kwoktsang.go", "func (kt *KwokTsang) PreImage(", "// A comment.\nfunc (kt *KwokTsang) PreImage("); len(got) != 0 {
		t.Errorf("a comment changed %v", got)
	}
	// Shared code every estimator runs (the problem's validation)
	// changes every estimator that calls it.
	got := changedFingerprints(t, "internal/methods/estimator.go", "func CheckFinite(z *mat.Dense, st []Status) {\n", "func CheckFinite(z *mat.Dense, st []Status) {\n\t_ = 0\n")
	if !slices.Contains(got, "method mika") || !slices.Contains(got, "method kwok-tsang") {
		t.Errorf("editing CheckFinite changed only %v", got)
	}
}
