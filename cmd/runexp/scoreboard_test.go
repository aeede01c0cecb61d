package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScoreboardExit checks the subcommand's statuses (docs/exit-status.md):
// 0 when the page is written, 2 for a missing root, a bad config or no
// argument.
func TestScoreboardExit(t *testing.T) {
	dir := t.TempDir()
	cfgs, root := filepath.Join(dir, "configs"), filepath.Join(dir, "results")
	for _, d := range []string{cfgs, filepath.Join(root, "a")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg := "title: t\npaper: p\nkind: k\ndataset: {name: d}\nclaims:\n  - id: c1\n    check: {type: value, metric: m, op: \"<\", value: 1}\n"
	if err := os.WriteFile(filepath.Join(cfgs, "a.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "a", "claims.json"), []byte(`[{"id": "c1", "status": "PASS"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	md, page := filepath.Join(dir, "R.md"), filepath.Join(dir, "s.html")
	var out, errb bytes.Buffer
	if code := run([]string{"scoreboard", "--configs", cfgs, "--out", md, "--html", page, root}, &out, &errb); code != exitOK {
		t.Fatalf("status %d, want 0; stderr %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "all: 1 claims: 1 reproduced as stated") {
		t.Errorf("stdout %q", out.String())
	}
	for _, f := range []string{md, page} {
		if b, err := os.ReadFile(f); err != nil || !bytes.Contains(b, []byte("results/a/claims.json")) {
			t.Errorf("%s: %v, no evidence link", f, err)
		}
	}
	if err := os.WriteFile(filepath.Join(cfgs, "b.yaml"), []byte(cfg+"variant_of: none.yaml\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"scoreboard"},
		{"scoreboard", "--configs", cfgs, "--out", md, filepath.Join(dir, "missing")},
		{"scoreboard", "--configs", cfgs, "--out", md, root}, // b.yaml: variant_of names no file
	} {
		out.Reset()
		errb.Reset()
		if code := run(args, &out, &errb); code != exitUsage {
			t.Errorf("%v: status %d, want 2; stderr %s", args, code, errb.String())
		}
	}
}
