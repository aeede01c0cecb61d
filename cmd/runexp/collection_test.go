package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// collectionConfigs writes tiny, mika and the collection set listing both
// into a fresh configs folder.
func collectionConfigs(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "configs")
	os.MkdirAll(dir, 0o755)
	for name, src := range map[string]string{
		"tiny": tinyConfig,
		"mika": mikaConfig,
		"set":  "title: the two tiny configs\ncollection:\n  - tiny\n  - mika\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name+".yaml"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// A collection runs each of its configs into its own folder, then writes
// one index and one scoreboard, whose section for the set is the line
// printed last; validate lists the members.
func TestCollectionRun(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	dir := collectionConfigs(t)
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := runCLI("--configs", dir, "--out", out, "-q", "set")
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	for _, f := range []string{"tiny/records.jsonl", "mika/records.jsonl", "index.html", "scoreboard.md", "scoreboard.html"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	want := "set (2 configs): 1 config checks (the rows paper claims are judged on): 1 PASS, 0 FAIL, 0 INCONCLUSIVE, 0 NOT-EVALUATED; 1 as expected → " + filepath.Join(out, "scoreboard.html")
	// The configs share one pool: each is reported as it completes, in
	// either order.
	if len(lines) != 3 || lines[2] != want || !(strings.HasPrefix(lines[0], "tiny: ") && strings.HasPrefix(lines[1], "mika: ") ||
		strings.HasPrefix(lines[0], "mika: ") && strings.HasPrefix(lines[1], "tiny: ")) {
		t.Errorf("stdout:\n%s\nwant a line per config, then %q", stdout, want)
	}
	md, _ := os.ReadFile(filepath.Join(out, "scoreboard.md"))
	if !bytes.Contains(md, []byte("### `set`")) || !bytes.Contains(md, []byte("| `tiny` | 1 | 1 | 0 | 0 | 0 | 1 |")) {
		t.Errorf("scoreboard.md has no section for the set:\n%s", md)
	}

	code, stdout, stderr = runCLI("validate", filepath.Join(dir, "set.yaml"))
	if code != exitOK || !strings.Contains(stdout, "collection set, 2 configs:") || !strings.Contains(stdout, "  "+filepath.Join(dir, "tiny.yaml")+": ok") || !strings.Contains(stdout, "  "+filepath.Join(dir, "mika.yaml")+": ok") {
		t.Errorf("validate set: exit %d\n%s%s", code, stdout, stderr)
	}
}

// The shards of a collection merge, member by member, into what one run
// writes; --with adds the estimator to every member, into OUT/with-SLUG,
// and compare lists the added cells alone.
func TestCollectionShardsAndWith(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	dir := collectionConfigs(t)
	set := filepath.Join(dir, "set.yaml")
	whole, sharded := filepath.Join(t.TempDir(), "whole"), filepath.Join(t.TempDir(), "sharded")
	if code, stdout, stderr := runCLI("-q", "--out", whole, set); code != exitOK {
		t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, s := range []string{"0/2", "1/2"} {
		if code, stdout, stderr := runCLI(set, "-q", "--out", sharded, "--shard", s); code != exitOK || !strings.Contains(stdout, "tiny: shard "+s) || !strings.Contains(stdout, "mika: shard "+s) {
			t.Fatalf("shard %s: exit %d\n%s%s", s, code, stdout, stderr)
		}
	}
	code, stdout, stderr := runCLI("merge", "--out", sharded, set)
	if code != exitOK || !strings.Contains(stdout, "tiny: merged 4 cells") || !strings.Contains(stdout, "mika: merged 1 cells") || !strings.Contains(stdout, "set (2 configs)") {
		t.Fatalf("merge: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, name := range []string{"tiny", "mika"} {
		for _, f := range []string{"records.jsonl", "tables.txt", "claims.json"} {
			a, err := os.ReadFile(filepath.Join(whole, name, f))
			if os.IsNotExist(err) && f == "claims.json" {
				continue // mika states no claim
			}
			b, err := os.ReadFile(filepath.Join(sharded, name, f))
			if err != nil || !bytes.Equal(a, b) {
				t.Errorf("%s/%s: the merged shards differ from one run (%v)", name, f, err)
			}
		}
	}

	code, stdout, stderr = runCLI("-q", "--out", whole, "--with", "tikhonov:lambda=0.01", set)
	if code != exitOK {
		t.Fatalf("--with: exit %d\n%s%s", code, stdout, stderr)
	}
	withs, _ := filepath.Glob(filepath.Join(whole, "with-*"))
	if len(withs) != 1 {
		t.Fatalf("--with folders %v, want one", withs)
	}
	for _, name := range []string{"tiny", "mika"} {
		recs, err := os.ReadFile(filepath.Join(withs[0], name, "records.jsonl"))
		if err != nil || !bytes.Contains(recs, []byte(`"method":"Tikhonov"`)) {
			t.Errorf("%s: no Tikhonov records in the --with folder (%v)", name, err)
		}
	}
	code, stdout, _ = runCLI("compare", whole, withs[0])
	if code != exitClaim || !strings.Contains(stdout, "new cell") || strings.Contains(stdout, "missing") || strings.Contains(stdout, "new run") || strings.Contains(stdout, "metric") {
		t.Errorf("compare OUT OUT/with-SLUG: exit %d, want the added cells alone\n%s", code, stdout)
	}
}

// A member that does not exist and a cycle are errors at their line.
func TestCollectionErrorsCLI(t *testing.T) {
	dir := collectionConfigs(t)
	os.WriteFile(filepath.Join(dir, "broken.yaml"), []byte("title: t\ncollection:\n  - tiny\n  - mikka\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "loop.yaml"), []byte("title: t\ncollection:\n  - tiny\n  - loop2\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "loop2.yaml"), []byte("title: t\ncollection:\n  - loop\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"validate", filepath.Join(dir, "broken.yaml")}, filepath.Join(dir, "broken.yaml") + ":4: collection[1]: no config mikka beside this collection"},
		{[]string{"--configs", dir, "broken"}, "did you mean mika?"},
		{[]string{"--configs", dir, "loop"}, filepath.Join(dir, "loop2.yaml") + ":3: collection[0]: loop forms a cycle: loop → loop2 → loop"},
		{[]string{"suite", "--configs", dir, "--only", "loop"}, "loop forms a cycle"},
	} {
		code, _, stderr := runCLI(tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %q", tc.args, code, stderr, tc.want)
		}
	}
}
