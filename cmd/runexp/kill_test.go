package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestMain lets the test binary act as runexp itself, so a test can run it
// as a child process and kill it.
func TestMain(m *testing.M) {
	switch os.Getenv("RUNEXP_TEST_AS_MAIN") {
	case "1":
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	case "supervised":
		// As main does, with the crashes of crash_test.go on demand.
		os.Exit(mainStatus(os.Args[1:], os.Stderr, func() int {
			testCrash(os.Getenv("RUNEXP_TEST_CRASH"))
			return run(os.Args[1:], os.Stdout, os.Stderr)
		}))
	}
	os.Exit(m.Run())
}

// countCached counts the cell entries of the cache in dir (its cells/
// folder: beside it, last/ and code/ keep what explanations need).
func countCached(dir string) int {
	n := 0
	filepath.Walk(filepath.Join(dir, "cells"), func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && filepath.Ext(p) == ".json" {
			n++
		}
		return nil
	})
	return n
}

// TestKilledRunResumes kills a run with SIGKILL once some cells are cached,
// resumes it, and checks the outputs equal an uninterrupted run's byte for
// byte, and that the resumed run reused the cells finished before the kill.
func TestKilledRunResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the fig3 config three times")
	}
	t.Setenv("RUNEXP_DATA", "")
	const cfg = "../../configs/abrahamsen-hansen-fig3.yaml"
	straight := t.TempDir()
	if code, _, stderr := runCLI("--out", straight, "-j", "1", cfg); code != exitOK {
		t.Fatalf("uninterrupted run: exit %d: %s", code, stderr)
	}

	out := t.TempDir()
	cache := filepath.Join(out, ".cache")
	cmd := exec.Command(os.Args[0], "--out", out, "-j", "1", cfg)
	cmd.Env = append(os.Environ(), "RUNEXP_TEST_AS_MAIN=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for countCached(cache) < 2 {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no cell was cached within 60 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	cmd.Wait()
	before := countCached(cache)
	if before >= 7 {
		t.Skip("the run finished before it could be killed")
	}

	code, stdout, stderr := runCLI("--out", out, "-j", "1", cfg)
	if code != exitOK {
		t.Fatalf("resumed run: exit %d: %s", code, stderr)
	}
	if bytes.Contains([]byte(stdout), []byte(" 0 cached")) {
		t.Errorf("the resumed run reused no cell: %q", stdout)
	}
	if countCached(cache) != 7 {
		t.Errorf("cache holds %d cells after the resume, want 7", countCached(cache))
	}
	for _, f := range []string{"records.jsonl", "records.csv", "tables.md", "tables.txt", "claims.json", "fig3-preimages.png", "fig3-preimages.svg", "fig3-cost.png", "fig3-cost.svg"} {
		a, err := os.ReadFile(filepath.Join(straight, "abrahamsen-hansen-fig3", f))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(out, "abrahamsen-hansen-fig3", f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between an uninterrupted run and a killed-and-resumed one", f)
		}
	}
	t.Logf("killed with %d of 7 cells cached; the resume reused them", before)
}
