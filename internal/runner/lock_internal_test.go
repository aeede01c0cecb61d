package runner

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestLockHalfWritten holds the lock the way a run does between taking it
// and writing its name (an empty file, locked): acquireLock must refuse,
// not take an unnamed lock for a stale one (issue #38: both runs then
// computed every cell).
func TestLockHalfWritten(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "cfg")
	path := lockPath(dir)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Skip("no flock here:", err)
	}
	release, err := acquireLock(top, dir)
	if err == nil {
		release()
		t.Fatal("a lock held but not yet written was taken over")
	}
	var le *LockError
	if !errors.As(err, &le) || le.Holder.PID != 0 || !strings.Contains(err.Error(), "not yet named itself") {
		t.Errorf("err %v, want a LockError naming no holder", err)
	}
}

// TestLockNamesSupervisor: the message names the worker that holds the
// lock and the supervisor a user sees (issue #38: the pid in the message
// was one ps did not show as the runexp the user started).
func TestLockNamesSupervisor(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "cfg")
	defer func(p int) { SupervisorPID = p }(SupervisorPID)
	SupervisorPID = os.Getppid()
	release, err := acquireLock(top, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	SupervisorPID = 0
	_, err = acquireLock(top, dir)
	want := fmt.Sprintf("pid %d (the worker of runexp pid %d)", os.Getpid(), os.Getppid())
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err %v, want it to name %q", err, want)
	}
}

// lockRacePairs is the number of pairs of processes TestLockRace starts
// at once: a few in `make test`, RUNEXP_STRESS_PAIRS (make stress) more.
func lockRacePairs() int {
	if n, err := strconv.Atoi(os.Getenv("RUNEXP_STRESS_PAIRS")); err == nil && n > 0 {
		return n
	}
	return 12
}

// TestLockRace starts pairs of processes that take the same lock at the
// same instant, each holding it for a while and recording that it holds
// it; at no time may two hold it (issue #38: about 1 pair in 10 did).
func TestLockRace(t *testing.T) {
	if os.Getenv("RUNEXP_LOCK_HELPER") != "" {
		return
	}
	top := t.TempDir()
	dir := filepath.Join(top, "cfg")
	marks := filepath.Join(top, "marks")
	os.Mkdir(marks, 0o755)
	got := 0
	for i := 0; i < lockRacePairs(); i++ {
		at := time.Now().Add(150 * time.Millisecond).UnixNano()
		var wg sync.WaitGroup
		outs := make([]string, 2)
		for k := range outs {
			wg.Add(1)
			go func(k int) {
				defer wg.Done()
				cmd := exec.Command(os.Args[0], "-test.run=^TestLockHelper$")
				cmd.Env = append(os.Environ(), "RUNEXP_LOCK_HELPER="+strings.Join([]string{top, dir, marks, strconv.FormatInt(at, 10)}, "|"))
				b, err := cmd.CombinedOutput()
				outs[k] = string(b)
				if err != nil {
					outs[k] += " ERROR " + err.Error()
				}
			}(k)
		}
		wg.Wait()
		for _, o := range outs {
			if strings.Contains(o, "BOTH") || strings.Contains(o, "ERROR") {
				t.Fatalf("pair %d: %s", i, o)
			}
			if strings.Contains(o, "GOT") {
				got++
			}
		}
	}
	if got < lockRacePairs() {
		t.Fatalf("%d pairs took the lock only %d times: every pair has a first", lockRacePairs(), got)
	}
	t.Logf("%d pairs, %d takes of the lock, never two at once", lockRacePairs(), got)
}

// TestLockHelper is a process of TestLockRace's pairs.
func TestLockHelper(t *testing.T) {
	arg := os.Getenv("RUNEXP_LOCK_HELPER")
	if arg == "" {
		t.Skip("a helper process of TestLockRace")
	}
	p := strings.Split(arg, "|")
	top, dir, marks := p[0], p[1], p[2]
	at, _ := strconv.ParseInt(p[3], 10, 64)
	time.Sleep(time.Until(time.Unix(0, at)))
	release, err := acquireLock(top, dir)
	var le *LockError
	switch {
	case errors.As(err, &le):
		fmt.Println("REFUSED")
		return
	case err != nil:
		fmt.Println("ERROR", err)
		return
	}
	mark := filepath.Join(marks, strconv.Itoa(os.Getpid()))
	os.WriteFile(mark, nil, 0o644)
	time.Sleep(30 * time.Millisecond)
	if es, _ := os.ReadDir(marks); len(es) > 1 {
		fmt.Println("BOTH")
	}
	os.Remove(mark)
	release()
	fmt.Println("GOT")
}
