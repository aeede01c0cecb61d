package runner_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/runner"
)

// TestPrepare checks what a job knows before it runs: its result
// directory, its cells and how many are left to compute (all on an empty
// cache, none once a run filled it), the estimates of the cells left
// (Options.Estimate's where the cache knows none), and no span until it
// starts; two jobs on one result directory cannot be open at once.
func TestPrepare(t *testing.T) {
	c := parse(t, fakeConfig)
	out, cache := t.TempDir(), t.TempDir()
	c.Outputs.Dir = filepath.Join(out, "fake")
	est := func(key string) (float64, bool) {
		if strings.HasPrefix(key, "c=13,") {
			return 7, true
		}
		return 0, false
	}
	j, err := runner.Prepare(c, runner.Options{Workers: 1, CacheDir: cache, Estimate: est})
	if err != nil {
		t.Fatal(err)
	}
	if j.Dir() != filepath.Join(out, "fake") {
		t.Errorf("Dir %q", j.Dir())
	}
	all, todo := j.Cells()
	if all != 60 || todo != 60 {
		t.Errorf("cells %d, to compute %d; want 60, 60 on an empty cache", all, todo)
	}
	e := j.Estimates()
	if len(e) != 60 || slices.Max(e) != 7 || slices.Min(e) != 0 {
		t.Errorf("estimates %v, want 7 for the c = 13 cells and 0 elsewhere", e)
	}
	n7 := 0
	for _, v := range e {
		if v == 7 {
			n7++
		}
	}
	if n7 != 4 {
		t.Errorf("%d cells estimated 7 s, want the 4 of c = 13", n7)
	}
	if b, en := j.Span(); !b.IsZero() || !en.IsZero() {
		t.Errorf("span before the start: %v to %v", b, en)
	}
	if _, err := runner.Prepare(c, runner.Options{Workers: 1, CacheDir: cache}); err == nil {
		t.Error("a second job on the same result directory was prepared while the first was open")
	}
	j.Close()
	j.Close() // a second Close is harmless

	if _, err := runner.Run(context.Background(), c, runner.Options{Workers: 2, CacheDir: cache}); err != nil {
		t.Fatal(err)
	}
	j, err = runner.Prepare(c, runner.Options{Workers: 1, CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	// The failed cells are never cached: c = 13 panics, 17 errs, 19
	// records a NaN (a failed cell), 4 cells each.
	if all, todo := j.Cells(); all != 60 || todo != 12 {
		t.Errorf("after a run: %d cells, %d to compute; want 60, 12 (the failed ones)", all, todo)
	}
}

// TestPrepareRefusesExternal checks that a config whose own methods run a
// command is refused at Prepare, naming it, unless AllowExternal.
func TestPrepareRefusesExternal(t *testing.T) {
	script := filepath.Join(t.TempDir(), "est.py")
	if err := os.WriteFile(script, []byte("print(1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(fakeConfig, "  - name: mika\n    params:\n      max_iter: [10, 20]\n", "  - name: external\n    params: {command: \"python3 "+script+"\"}\n", 1)
	c := parse(t, src)
	c.Outputs.Dir = t.TempDir()
	_, err := runner.Prepare(c, runner.Options{Workers: 1, NoCache: true})
	var ne *runner.ExternalNotAllowedError
	if !errors.As(err, &ne) || !strings.Contains(err.Error(), `runs the command "python3 `+script+`"`) {
		t.Errorf("error %v, want an ExternalNotAllowedError naming the command", err)
	}
	j, err := runner.Prepare(c, runner.Options{Workers: 1, NoCache: true, AllowExternal: true})
	if err != nil {
		t.Errorf("with AllowExternal: %v", err)
	} else {
		j.Close()
	}
}

// TestInterruptedErrorWords checks what a stopped run says of its cells.
func TestInterruptedErrorWords(t *testing.T) {
	if got := (&runner.InterruptedError{Done: 3, Total: 10}).Error(); got != "interrupted with 3 of 10 cells done; they are cached, so the same command resumes" {
		t.Errorf("%q", got)
	}
	if got := (&runner.InterruptedError{Done: 3, Total: 10, NoCache: true}).Error(); !strings.Contains(got, "nothing was cached (--no-cache)") {
		t.Errorf("%q", got)
	}
	// A 15-cell config computed in parts said "72 of 72 cells done":
	// cells count as cells, parts apart.
	if got := (&runner.InterruptedError{Done: 3, Total: 15, UnitsDone: 72, Units: 80}).Error(); !strings.HasPrefix(got, "interrupted with 3 of 15 cells done (72 of 80 units of work: a cell computed in parts counts each part)") {
		t.Errorf("%q", got)
	}
	if runner.RunningCells() != 0 {
		t.Errorf("%d cells running outside any run", runner.RunningCells())
	}
}
