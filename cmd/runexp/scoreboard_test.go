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
	// The paper's claim c1, the unit the scoreboard counts; the row is its
	// evidence, counted apart.
	pv := filepath.Join(dir, "pv")
	if err := os.MkdirAll(pv, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pv, "p.yaml"), []byte("claims:\n  - id: c1\n    statement: s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	md, page := filepath.Join(dir, "R.md"), filepath.Join(dir, "s.html")
	var out, errb bytes.Buffer
	if code := run([]string{"scoreboard", "--configs", cfgs, "--paper-values", pv, "--out", md, "--html", page, root}, &out, &errb); code != exitOK {
		t.Fatalf("status %d, want 0; stderr %s", code, errb.String())
	}
	for _, want := range []string{"all papers: paper claims 1: 1 reproduced as stated", "rows: 1: 1 reproduced as stated"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("stdout %q lacks %q", out.String(), want)
		}
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
	if want := "set (2 configs): 4 config checks (the rows paper claims are judged on): 2 PASS, 0 FAIL, 0 INCONCLUSIVE, 0 NOT-EVALUATED; 1 as expected; not run: 1 of the 2 configs"; !strings.Contains(stdout, want) {
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

// TestScoreboardFindsPaperValues checks item 5 of issue 39: configs that
// cite paper-values/p.yaml find it in shared/paper-values beside the
// checkout, beside a folder above it, or beside $RUNEXP_DATA; without it
// the scoreboard stops with exit 2 naming what it tried, rather than
// print totals over fewer claims.
func TestScoreboardFindsPaperValues(t *testing.T) {
	cfg := "title: t\npaper: p\nkind: k\ndataset: {name: d}\nclaims:\n  - id: c1\n    source: paper-values/p.yaml#claims/c1\n    check: {type: value, metric: m, op: \"<\", value: 1}\n"
	pvFile := "citation:\n  title: The Paper\nclaims:\n  - id: c1\n    statement: s\n"
	setup := func(t *testing.T) (top, cfgs, root string) {
		top = t.TempDir()
		cfgs, root = filepath.Join(top, "deep", "clone", "configs"), filepath.Join(top, "results")
		for _, d := range []string{cfgs, filepath.Join(root, "a")} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		os.WriteFile(filepath.Join(cfgs, "a.yaml"), []byte(cfg), 0o644)
		os.WriteFile(filepath.Join(root, "a", "claims.json"), []byte(`[{"id": "c1", "status": "PASS", "as_expected": true}]`), 0o644)
		return top, cfgs, root
	}
	writePV := func(t *testing.T, dir string) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "p.yaml"), []byte(pvFile), 0o644)
	}
	t.Run("missing", func(t *testing.T) {
		t.Setenv("RUNEXP_DATA", "")
		top, cfgs, root := setup(t)
		code, stdout, stderr := runCLI("scoreboard", "--configs", cfgs, "--out", filepath.Join(top, "R.md"), root)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, "paper values not found: the configs of "+cfgs+" cite p.yaml, missing from ") {
			t.Errorf("exit %d, stdout %q, stderr %q; want 2 and the files missing", code, stdout, stderr)
		}
		if _, err := os.Stat(filepath.Join(top, "R.md")); err == nil {
			t.Error("R.md written without the paper values")
		}
		// --paper-values naming a folder without the file is the same.
		code, _, stderr = runCLI("scoreboard", "--configs", cfgs, "--paper-values", top, "--out", filepath.Join(top, "R.md"), root)
		if code != exitUsage || !strings.Contains(stderr, "missing from "+top+" ") {
			t.Errorf("--paper-values without p.yaml: exit %d, stderr %q", code, stderr)
		}
	})
	for _, where := range []string{"above", "data"} {
		t.Run(where, func(t *testing.T) {
			top, cfgs, root := setup(t)
			t.Setenv("RUNEXP_DATA", "")
			if where == "above" {
				writePV(t, filepath.Join(top, "shared", "paper-values"))
			} else {
				writePV(t, filepath.Join(top, "elsewhere", "paper-values"))
				t.Setenv("RUNEXP_DATA", filepath.Join(top, "elsewhere", "data"))
			}
			code, stdout, stderr := runCLI("scoreboard", "--configs", cfgs, "--out", filepath.Join(top, "R.md"), root)
			md, _ := os.ReadFile(filepath.Join(top, "R.md"))
			if code != exitOK || stderr != "" || !bytes.Contains(md, []byte("The Paper")) {
				t.Errorf("exit %d, stdout %q, stderr %q; want the title found in R.md", code, stdout, stderr)
			}
		})
	}
}
