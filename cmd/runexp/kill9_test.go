package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// napKind's cells each take 150 ms: long enough for a kill to land in
// the middle of a run, short enough for a loop of them in `make test`.
type napKind struct{}

func (napKind) Run(cell *runner.Cell, rec *report.Record) error {
	time.Sleep(150 * time.Millisecond)
	rec.Metrics["draw"] = cell.Rand().Float64()
	return nil
}

func (napKind) Report(out *runner.Output, recs []report.Record) error { return nil }

func init() {
	runner.RegisterKind(runner.Kind{
		Name:  "nap-test",
		Doc:   "test kind whose cells take 150 ms each",
		Start: func(*runner.Env, any) (runner.Instance, error) { return napKind{}, nil },
	})
}

// writeNap writes DIR/nap.yaml, a nap-test config with the widths cs
// (its cells) under the header lines head (its title and notes; "title:
// t" when empty), and returns its path.
func writeNap(t *testing.T, dir, cs, head string) string {
	t.Helper()
	if head == "" {
		head = "title: t\n"
	}
	f := filepath.Join(dir, "nap.yaml")
	src := head + "paper: p\nkind: nap-test\nseed: 5\ndataset: {name: two-rings}\nmodel: {kernel: gaussian, c: [" + cs + "]}\n"
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// killStarts is the number of starts TestKill9ParentRerun kills: a few
// in `make test`, RUNEXP_STRESS_KILLS (make stress) more.
func killStarts() int {
	if n, err := strconv.Atoi(os.Getenv("RUNEXP_STRESS_KILLS")); err == nil && n > 0 {
		return n
	}
	return 3
}

// resultFiles reads every file of a result folder but the manifest and
// the page that quotes it (they hold times), by name.
func resultFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if e.IsDir() || e.Name() == "manifest.json" || e.Name() == "index.html" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = b
	}
	return out
}

// procGone reports whether pid has exited (a zombie waiting for init to
// reap it counts as gone: it computes nothing and holds no lock).
func procGone(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return syscall.Kill(pid, 0) != nil
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] == 'Z' || s[i+2] == 'X'
	}
	return false
}

// TestKill9ParentRerun is issue #38's kill -9: runexp runs as a
// supervisor and its worker; a user or a scheduler sees, and kills, the
// supervisor. Killed with SIGKILL at a random moment of a start, the
// worker must end with it (it held the results lock and went on
// computing, so the rerun was refused in 11 of 12 trials), and the rerun
// must succeed at once with outputs byte-identical to a clean run's.
func TestKill9ParentRerun(t *testing.T) {
	dir := t.TempDir()
	cfg := writeNap(t, dir, "1, 2, 3, 4, 5, 6, 7, 8", "")
	t.Setenv("RUNEXP_DATA", "")
	clean := filepath.Join(dir, "clean")
	if code, _, stderr := runCLI("--out", clean, "-j", "1", "-q", cfg); code != exitOK {
		t.Fatalf("clean run: exit %d: %s", code, stderr)
	}
	want := resultFiles(t, filepath.Join(clean, "nap"))
	rnd := rand.New(rand.NewPCG(38, 9))
	for i := 0; i < killStarts(); i++ {
		out := filepath.Join(dir, fmt.Sprint("run", i))
		cmd := exec.Command(os.Args[0], "--out", out, "-j", "1", "-q", cfg)
		cmd.Env = append(os.Environ(), "RUNEXP_TEST_AS_MAIN=supervised")
		// A file, not a pipe: Wait would wait for a pipe's every writer,
		// the orphaned worker included.
		logf, err := os.Create(filepath.Join(dir, fmt.Sprint("log", i)))
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdout, cmd.Stderr = logf, logf
		err = cmd.Start()
		logf.Close()
		if err != nil {
			t.Fatal(err)
		}
		// Anywhere from the worker's start to the middle of the cells.
		time.Sleep(time.Duration(rnd.IntN(900)) * time.Millisecond)
		var holder struct{ PID, Supervisor int }
		if b, err := os.ReadFile(filepath.Join(out, ".nap.lock")); err == nil {
			json.Unmarshal(b, &holder)
		}
		cmd.Process.Kill()
		cmd.Wait()
		// At once, as a user or a scheduler would.
		code, _, errs := runCLI("--out", out, "-j", "1", "-q", cfg)
		if code != exitOK {
			t.Fatalf("start %d (lock held by %+v): rerun after kill -9: exit %d: %s", i, holder, code, errs)
		}
		if holder.PID != 0 {
			if holder.Supervisor != cmd.Process.Pid {
				t.Errorf("start %d: the lock names supervisor %d, the process started was %d", i, holder.Supervisor, cmd.Process.Pid)
			}
			deadline := time.Now().Add(time.Second)
			for !procGone(holder.PID) && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if !procGone(holder.PID) {
				syscall.Kill(holder.PID, syscall.SIGKILL)
				t.Errorf("start %d: the worker %d outlived its killed supervisor and the rerun by 1 s", i, holder.PID)
			}
		}
		got := resultFiles(t, filepath.Join(out, "nap"))
		if len(got) != len(want) {
			t.Errorf("start %d: %d files after the rerun, %d after a clean run", i, len(got), len(want))
		}
		for name, b := range want {
			if !bytes.Equal(got[name], b) {
				t.Errorf("start %d: %s differs from a clean run's", i, name)
			}
		}
	}
}
