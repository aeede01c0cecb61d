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
	// The claim cites paper claim c1 (a row that cites none is listed
	// apart, never counted).
	cfg := "title: t\npaper: p\nkind: k\ndataset: {name: d}\nclaims:\n  - id: c1\n    source: \"pv.yaml#c1\"\n    check: {type: value, metric: m, op: \"<\", value: 1}\n"
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

// The scoreboard says when it cannot find the paper values (papers are
// then headed by their ids), and counts each collection of configs in a
// section of its own.
func TestScoreboardWarnsAndSets(t *testing.T) {
	dir := t.TempDir()
	cfgs, root, pv := filepath.Join(dir, "configs"), filepath.Join(dir, "results"), filepath.Join(dir, "pv")
	for _, d := range []string{cfgs, filepath.Join(root, "a"), pv} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg := "title: t\npaper: p\nkind: k\ndataset: {name: d}\nclaims:\n  - id: c1\n    source: \"pv.yaml#c1\"\n    check: {type: value, metric: m, op: \"<\", value: 1}\n  - id: c2\n    source: \"pv.yaml#c2\"\n    expect: fail\n    because: measured\n    check: {type: value, metric: m, op: \"<\", value: 1}\n"
	for path, body := range map[string]string{
		filepath.Join(cfgs, "a.yaml"):           cfg,
		filepath.Join(cfgs, "b.yaml"):           cfg,
		filepath.Join(cfgs, "set.yaml"):         "title: a and b\ncollection: [a, b]\n",
		filepath.Join(root, "a", "claims.json"): `[{"id": "c1", "status": "PASS", "as_expected": true}, {"id": "c2", "status": "PASS", "as_expected": false}]`,
		filepath.Join(pv, "p.yaml"):             "citation:\n  title: The Paper\n",
	} {
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	md := filepath.Join(dir, "R.md")
	code, stdout, stderr := runCLI("scoreboard", "--configs", cfgs, "--out", md, root)
	if code != exitOK || !strings.Contains(stderr, "runexp scoreboard: warning: no paper title for 1 papers, headed by their ids instead") {
		t.Errorf("no paper values: exit %d, stderr %q; want a warning", code, stderr)
	}
	// a: 2 claims, PASS twice, one as expected; b not run.
	if want := "set (2 configs): 4 claims: 2 PASS, 0 FAIL, 0 INCONCLUSIVE, 0 NOT-EVALUATED; 1 as expected; not run: 1 of the 2 configs"; !strings.Contains(stdout, want) {
		t.Errorf("stdout %q lacks %q", stdout, want)
	}
	b, _ := os.ReadFile(md)
	for _, want := range []string{"## Collections", "### `set`", "| `a` | 2 | 2 | 0 | 0 | 0 | 1 |", "| `b` | 2 | not run |"} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("%s lacks %q", md, want)
		}
	}
	code, _, stderr = runCLI("scoreboard", "--configs", cfgs, "--paper-values", pv, "--out", md, root)
	if code != exitOK || stderr != "" {
		t.Errorf("with paper values: exit %d, stderr %q", code, stderr)
	}
}
