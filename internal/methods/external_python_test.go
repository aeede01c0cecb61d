package methods_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The Python tests run the examples in python/ through the real protocol.
// They need a python3 with NumPy (Debian's python3-numpy): RUNEXP_PYTHON
// names it, as .ci/run does, and then its absence is a failure; otherwise
// python3 on PATH and /usr/bin/python3 are tried and the tests skip when
// neither imports numpy.

var (
	pyOnce sync.Once
	pyPath string
	pyMods = map[string]bool{}
	pyMu   sync.Mutex
)

// python returns an interpreter that imports every module in mods, or
// skips the test (fails it when RUNEXP_PYTHON is set and numpy is asked
// for).
func python(t *testing.T, mods ...string) string {
	t.Helper()
	pyOnce.Do(func() {
		cands := []string{"python3", "/usr/bin/python3"}
		if env := os.Getenv("RUNEXP_PYTHON"); env != "" {
			cands = []string{env}
		}
		for _, c := range cands {
			if p, err := exec.LookPath(c); err == nil && exec.Command(p, "-c", "import numpy").Run() == nil {
				pyPath = p
				return
			}
		}
	})
	if pyPath == "" {
		if os.Getenv("RUNEXP_PYTHON") != "" {
			t.Fatalf("RUNEXP_PYTHON=%s does not import numpy", os.Getenv("RUNEXP_PYTHON"))
		}
		t.Skip("no python3 with NumPy (apt-get install python3-numpy, or set RUNEXP_PYTHON): the external estimator's Python tests are skipped")
	}
	for _, m := range mods {
		pyMu.Lock()
		ok, seen := pyMods[m]
		if !seen {
			ok = exec.Command(pyPath, "-c", "import "+m).Run() == nil
			pyMods[m] = ok
		}
		pyMu.Unlock()
		if !ok {
			t.Skipf("%s cannot import %s (Debian: apt-get install python3-%s): skipped", pyPath, m, m)
		}
	}
	return pyPath
}

// examplePython returns the command line running python/examples/name with
// the arguments args.
func examplePython(t *testing.T, name string, args ...string) string {
	t.Helper()
	py := python(t)
	script, err := filepath.Abs(filepath.Join("..", "..", "python", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(append([]string{py, script}, args...), " ")
}
