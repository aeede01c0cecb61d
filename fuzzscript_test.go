//go:build unix

package runexp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeGo is a `go` for scripts/fuzz.sh: each call appends a line to
// calls, and the Nth call (counting from 1) does what outcome's Nth
// word says: "ok" passes, "race" fails as Go 1.26's fuzz coordinator
// does at its deadline, "find" fails saving an input under the target's
// testdata/fuzz folder, "fail" fails otherwise.
const fakeGo = `#!/bin/sh
n=$(($(wc -l < "$FAKE_DIR/calls") + 1))
echo "$*" >> "$FAKE_DIR/calls"
set -- $FAKE_OUTCOMES
shift $((n - 1))
case "$1" in
ok) echo ok; exit 0 ;;
race) printf -- '--- FAIL: FuzzX (5.18s)\n    context deadline exceeded\nFAIL\n'; exit 1 ;;
find) mkdir -p "$FAKE_DIR/pkg/testdata/fuzz/FuzzX"; echo x > "$FAKE_DIR/pkg/testdata/fuzz/FuzzX/$n"; printf -- '--- FAIL: FuzzX\n    fuzz_test.go:9: boom\n'; exit 1 ;;
*) printf -- '--- FAIL: FuzzX\n    fuzz_test.go:9: boom\n'; exit 1 ;;
esac
`

// scripts/fuzz.sh runs a target again when it ends with the deadline
// race and saved no input, up to three tries, and stops at once on a
// finding or any other failure.
func TestFuzzScriptRetries(t *testing.T) {
	script, err := filepath.Abs("scripts/fuzz.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		outcomes string
		ok       bool
		calls    int
	}{
		{"ok ok", true, 2},
		{"race race ok ok", true, 4},
		{"race race race", false, 3},
		{"race find", false, 2},
		{"fail ok", false, 1},
	} {
		dir := t.TempDir()
		goBin := filepath.Join(dir, "go")
		if err := os.WriteFile(goBin, []byte(fakeGo), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "calls"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		// Two targets: the second runs only when the first passed.
		cmd := exec.Command(script, "5s", dir+"/pkg:FuzzX", dir+"/pkg:FuzzY")
		cmd.Env = append(os.Environ(), "GO="+goBin, "FAKE_DIR="+dir, "FAKE_OUTCOMES="+tc.outcomes)
		out, err := cmd.CombinedOutput()
		if (err == nil) != tc.ok {
			t.Errorf("%s: exit %v, want ok %v\n%s", tc.outcomes, err, tc.ok, out)
		}
		b, _ := os.ReadFile(filepath.Join(dir, "calls"))
		if n := strings.Count(string(b), "\n"); n != tc.calls {
			t.Errorf("%s: go test ran %d times, want %d\n%s", tc.outcomes, n, tc.calls, out)
		}
	}
}
