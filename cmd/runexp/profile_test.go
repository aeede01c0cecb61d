package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/runexp/runexp/internal/suite"
)

// TestCPUProfilePerConfig runs the suite on the fig3 config with
// --cpuprofile and checks that a profile named after the config is
// written (pprof's format is gzip-compressed protocol buffers) and that
// suite.json records the config's CPU seconds.
func TestCPUProfilePerConfig(t *testing.T) {
	noDataWithPaperValues(t) // the suite writes the scoreboard, which reads them
	out, prof := t.TempDir(), filepath.Join(t.TempDir(), "profiles")
	code, _, stderr := runCLI("suite", "--configs", "../../configs", "--out", out, "--cpuprofile", prof, "-q", "abrahamsen-hansen-fig3")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(prof, "abrahamsen-hansen-fig3.pprof"))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("profile is not gzip: %v", err)
	}
	if raw, err := io.ReadAll(zr); err != nil || len(raw) == 0 {
		t.Fatalf("profile empty or corrupt: %d bytes, %v", len(raw), err)
	}
	var rep suite.Report
	js, err := os.ReadFile(filepath.Join(out, "suite.json"))
	if err == nil {
		err = json.Unmarshal(js, &rep)
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Runs) != 1 || !(rep.Runs[0].CPUSeconds > 0) {
		t.Errorf("suite.json runs %+v: want one run with CPU seconds > 0", rep.Runs)
	}
}

// TestCPUProfileBadDir: a profile directory that cannot be created is a
// usage error before any config runs.
func TestCPUProfileBadDir(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	code, _, stderr := runCLI("--out", out, "--cpuprofile", filepath.Join(file, "sub"), "../../configs/abrahamsen-hansen-fig3.yaml")
	if code != exitUsage {
		t.Fatalf("exit %d, want %d: %s", code, exitUsage, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "abrahamsen-hansen-fig3")); err == nil {
		t.Error("the config ran despite the bad --cpuprofile")
	}
}
