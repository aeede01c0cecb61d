//go:build unix

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// orphanRounds is the number of starts TestExternalOrphans kills per way
// of killing: one in `make test`, RUNEXP_STRESS_ORPHANS (make stress)
// more.
func orphanRounds() int {
	if n, err := strconv.Atoi(os.Getenv("RUNEXP_STRESS_ORPHANS")); err == nil && n > 0 {
		return n
	}
	return 1
}

// hangScript is an external estimator that never finishes: it records
// its pid and its background child's (in RUNEXP_TEST_PIDS) and waits.
const hangScript = `echo $$ > "$RUNEXP_TEST_PIDS/cmd.$$"
sleep 300 &
echo $! > "$RUNEXP_TEST_PIDS/child.$!"
wait
`

// TestExternalOrphans is issue #46's orphans: runexp runs an external
// estimator (a command with a child of its own) and is killed — kill -9
// of the pid a user sees, kill -9 of its whole process group, SIGTERM —
// while the estimator runs. The estimator, its child and its batch
// folder (runexp-external-* in TMPDIR, with the inputs) must all be gone
// within seconds: before, all three survived every way (parent 1).
func TestExternalOrphans(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "hang.sh")
	if err := os.WriteFile(script, []byte(hangScript), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "hang.yaml")
	if err := os.WriteFile(cfg, []byte(`title: "an external estimator that hangs"
paper: none
kind: denoise
seed: 1
dataset: {name: synthetic-images, classes: 2, groups: 2, per_cell: 4, test_per_cell: 1}
corruption: {type: gaussian, variance: 0.01}
model: {kernel: gaussian, c: 5, components: 3}
methods:
  - name: external
    label: Hang
    params: {command: "sh `+script+`", timeout: 10m}
experiment: {figure: none}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	hows := []string{"kill -9 pid", "kill -9 group", "SIGTERM"}
	if _, err := os.Stat("/proc/self/stat"); err == nil {
		// The three processes by name: the supervisor (the pid a user
		// sees: "kill -9 pid"), its worker, and the reaper the worker
		// runs the estimator under; each alone, and all three at once.
		hows = append(hows, "kill -9 reaper", "kill -9 worker", "kill -9 all three")
	}
	for _, how := range hows {
		for i := 0; i < orphanRounds(); i++ {
			orphanRound(t, dir, cfg, how, i)
		}
	}
}

// orphanRound starts runexp on cfg, kills it the way how says once the
// estimator runs, and checks that nothing of the estimator is left.
func orphanRound(t *testing.T, dir, cfg, how string, i int) {
	t.Helper()
	name := fmt.Sprintf("%s-%d", strings.ReplaceAll(how, " ", ""), i)
	tmp, pids := filepath.Join(dir, name, "tmp"), filepath.Join(dir, name, "pids")
	for _, d := range []string{tmp, pids} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(os.Args[0], "--out", filepath.Join(dir, name, "out"), "--no-cache", "--allow-external", "-q", cfg)
	cmd.Env = append(os.Environ(), "RUNEXP_TEST_AS_MAIN=supervised", "RUNEXP_DATA=", "TMPDIR="+tmp, "RUNEXP_TEST_PIDS="+pids)
	// A group of its own, as a shell gives a job: killing it must not
	// kill the test.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	logf, err := os.Create(filepath.Join(dir, name, "log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	err = cmd.Start()
	logf.Close()
	if err != nil {
		t.Fatal(err)
	}
	// The estimator and its child are running once both wrote their pids.
	var started []int
	deadline := time.Now().Add(2 * time.Minute)
	for len(started) < 2 {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			log, _ := os.ReadFile(filepath.Join(dir, name, "log"))
			t.Fatalf("%s: the estimator did not start within 2 minutes:\n%s", how, log)
		}
		time.Sleep(50 * time.Millisecond)
		started = readPIDs(t, pids)
	}
	worker := childOf(cmd.Process.Pid, "")
	reaper := childOf(worker, "runexp-external-reaper")
	switch how {
	case "kill -9 pid":
		cmd.Process.Signal(syscall.SIGKILL)
	case "kill -9 group":
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	case "SIGTERM":
		cmd.Process.Signal(syscall.SIGTERM)
	case "kill -9 reaper", "kill -9 worker", "kill -9 all three":
		if worker == 0 || reaper == 0 {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("%s: no worker (%d) or reaper (%d) found under runexp %d", how, worker, reaper, cmd.Process.Pid)
		}
		switch how {
		case "kill -9 reaper":
			syscall.Kill(reaper, syscall.SIGKILL)
		case "kill -9 worker":
			syscall.Kill(worker, syscall.SIGKILL)
		default:
			// The reaper first: killed after the worker, it could
			// still act on the worker's death and clean up.
			for _, p := range []int{reaper, worker, cmd.Process.Pid} {
				syscall.Kill(p, syscall.SIGKILL)
			}
		}
	}
	if how == "kill -9 reaper" {
		// runexp lives on: the batch fails, what the estimator started
		// goes with it, and runexp, alive, removes the batch folder
		// itself; then the run is stopped as a user would. Stopping it
		// before it has removed the folder would leave the folder to the
		// next run's sweep, which this round does not start.
		deadline = time.Now().Add(5 * time.Second)
		for time.Now().Before(deadline) && (len(alivePIDs(started)) > 0 || len(batchFolders(tmp)) > 0) {
			time.Sleep(20 * time.Millisecond)
		}
		if left := alivePIDs(started); len(left) > 0 {
			t.Errorf("%s (round %d): processes of the external estimator outlived its reaper by 5 s, runexp alive: %v", how, i, left)
		}
		if left := batchFolders(tmp); len(left) > 0 {
			t.Errorf("%s (round %d): runexp, alive, left its batch folder 5 s after the reaper died: %v", how, i, left)
		}
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	cmd.Wait()
	if how == "kill -9 all three" {
		// Nobody is left to clean up: the next run does, whatever it
		// runs, as it starts.
		next := exec.Command(os.Args[0], "--out", filepath.Join(dir, name, "next"), "--no-cache", "-q", "../../configs/abrahamsen-hansen-fig3.yaml")
		next.Env = append(os.Environ(), "RUNEXP_TEST_AS_MAIN=supervised", "RUNEXP_DATA=", "TMPDIR="+tmp)
		if b, err := next.CombinedOutput(); err != nil {
			t.Errorf("%s: the next run: %v\n%s", how, err, b)
		}
	}
	// Every estimator process, those started after the first too.
	started = readPIDs(t, pids)
	// A few seconds: the reaper acts on runexp's death at once.
	deadline = time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) && (len(alivePIDs(started)) > 0 || len(batchFolders(tmp)) > 0) {
		time.Sleep(20 * time.Millisecond)
	}
	if left := alivePIDs(started); len(left) > 0 {
		for _, p := range left {
			syscall.Kill(p, syscall.SIGKILL)
		}
		t.Errorf("%s (round %d): processes of the external estimator outlived runexp by 5 s: %v", how, i, left)
	}
	if left := batchFolders(tmp); len(left) > 0 {
		t.Errorf("%s (round %d): batch folders left in TMPDIR: %v", how, i, left)
	}
}

// readPIDs reads the pids the hanging estimators wrote.
func readPIDs(t *testing.T, dir string) []int {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, e := range ents {
		if b, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil {
			if p, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				out = append(out, p)
			}
		}
	}
	return out
}

// alivePIDs lists the processes of pids still running (zombies count as
// gone).
func alivePIDs(pids []int) []int {
	var out []int
	for _, p := range pids {
		if !procGone(p) {
			out = append(out, p)
		}
	}
	return out
}

// batchFolders lists the external estimator's batch folders in tmp.
func batchFolders(tmp string) []string {
	m, _ := filepath.Glob(filepath.Join(tmp, "runexp-external-*"))
	return m
}

// childOf returns the pid of a child of parent whose argv[0] is name
// (any child when name is ""), 0 when there is none (from /proc).
func childOf(parent int, name string) int {
	if parent == 0 {
		return 0
	}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(stat)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 2 || f[1] != strconv.Itoa(parent) {
			continue
		}
		if name != "" {
			argv, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
			if a0, _, _ := strings.Cut(string(argv), "\x00"); a0 != name {
				continue
			}
		}
		return pid
	}
	return 0
}
