package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"testing"
	"time"
)

func TestNewManifest(t *testing.T) {
	m := NewManifest()
	if m.GoVersion != runtime.Version() || m.GOOS != runtime.GOOS || m.GOARCH != runtime.GOARCH {
		t.Errorf("runtime fields: %+v", m)
	}
	if m.GOMAXPROCS != runtime.GOMAXPROCS(0) {
		t.Errorf("GOMAXPROCS = %d, want %d", m.GOMAXPROCS, runtime.GOMAXPROCS(0))
	}
	if m.Revision == "" || m.Module == "" || m.Version == "" {
		t.Errorf("empty build fields: module %q version %q revision %q", m.Module, m.Version, m.Revision)
	}
	if m.Start.IsZero() {
		t.Error("Start not set")
	}
}

func TestManifestRevisionFallback(t *testing.T) {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				t.Skip("test binary carries a VCS revision; the fallback is not used")
			}
		}
	}
	defer func(r string) { Revision = r }(Revision)
	Revision = ""
	if got := NewManifest().Revision; got != "unknown" {
		t.Errorf("Revision without build info or ldflags = %q, want unknown", got)
	}
	Revision = "abc123"
	if got := NewManifest().Revision; got != "abc123" {
		t.Errorf("Revision = %q, want the -X value abc123", got)
	}
}

func TestManifestWrite(t *testing.T) {
	m := NewManifest()
	m.Config = "configs/mika-table2.yaml"
	m.Seed = 42
	m.Cells, m.Failed = 10, 1
	m.Outputs = []string{"table.txt", "records.jsonl", "fig.png"}
	m.Data = []FileSum{{Path: "usps/zip.test", SHA256: "b"}, {Path: "usps/zip.train", SHA256: "a"}}
	m.Start = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	m.Finish()
	path := filepath.Join(t.TempDir(), "manifest.json")
	if err := m.Write(path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("manifest is not JSON: %v\n%s", err, b)
	}
	for _, k := range []string{"config", "config_sha256", "module", "version", "revision", "vcs_modified",
		"go_version", "goos", "goarch", "gomaxprocs", "workers", "seed", "data", "cells", "failed",
		"start", "end", "wall_seconds", "outputs"} {
		if _, ok := got[k]; !ok {
			t.Errorf("manifest lacks %q", k)
		}
	}
	if got["start"] != "2026-01-02T03:04:05Z" {
		t.Errorf("start = %v, want RFC 3339", got["start"])
	}
	outs := got["outputs"].([]any)
	if !slices.IsSortedFunc(outs, func(a, b any) int {
		if a.(string) < b.(string) {
			return -1
		}
		return 1
	}) {
		t.Errorf("outputs not sorted: %v", outs)
	}
	if slices.IsSorted(m.Outputs) {
		t.Error("Write sorted the caller's Outputs in place")
	}
	if m.WallSeconds <= 0 {
		t.Errorf("WallSeconds = %v", m.WallSeconds)
	}
}
