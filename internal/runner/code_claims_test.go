package runner_test

import (
	"strings"
	"testing"

	_ "github.com/runexp/runexp/experiments" // the kinds
	"github.com/runexp/runexp/internal/runner"
)

// TestClaimsNotInFingerprints: the kinds that declare per-item statistics
// (Kind.Items) reach package claims through those declarations, yet no
// record depends on the claims, which are judged anew on every run: a
// kind's code fingerprint covers none of its files, so changing a check
// recomputes no cell. The kind's own files still count.
func TestClaimsNotInFingerprints(t *testing.T) {
	for _, name := range []string{"denoise", "lgdenoise", "classify", "missing", "robust", "stability"} {
		k, ok := runner.LookupKind(name)
		if !ok || k.Items == nil {
			t.Fatalf("kind %s declares no per-item statistics", name)
		}
		files, err := runner.CodeFiles(k.File)
		if err != nil {
			t.Fatal(err)
		}
		own := false
		for _, f := range files {
			if strings.HasPrefix(f, "internal/claims/") {
				t.Errorf("kind %s: its fingerprint covers %s", name, f)
			}
			if strings.HasPrefix(f, "experiments/"+name+"/") {
				own = true
			}
		}
		if !own {
			t.Errorf("kind %s: its fingerprint covers none of its own files: %v", name, files)
		}
	}
}
