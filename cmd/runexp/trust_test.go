package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sbinet/npyio/npy"
	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// withExternal is tinyConfig with a third method, an external estimator
// whose command creates marker (and then fails the batch: it writes no
// Z.npy).
func withExternal(t *testing.T, dir, marker string) string {
	t.Helper()
	cfg := strings.Replace(tinyConfig, "claims:", "  - name: external\n    label: Ext\n    params: {command: \"touch "+marker+"\"}\nclaims:", 1)
	f := filepath.Join(dir, "tiny.yaml")
	if err := os.WriteFile(f, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestConfigCommandsNeedOptIn is case 6 of issue #28: a config naming an
// external estimator ran its command with nothing but `runexp CONFIG`,
// and validate said ok. Now validate lists the command, and run and suite
// refuse the config (exit 2, naming FILE:LINE and the command, before
// anything runs) unless --allow-external is given; an external estimator
// typed with --with is its own leave.
func TestConfigCommandsNeedOptIn(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	f := withExternal(t, dir, marker)
	out := filepath.Join(dir, "out")

	code, stdout, stderr := runCLI("validate", f)
	if code != exitOK || !strings.Contains(stdout, `runs the command "touch `+marker+`" (only with --allow-external)`) || !strings.Contains(stdout, "tiny.yaml:") {
		t.Errorf("validate: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	for _, args := range [][]string{{"--out", out, f}, {"suite", "--out", out, "--configs", dir}} {
		code, stdout, stderr = runCLI(args...)
		if code != exitUsage || !strings.Contains(stderr, "tiny.yaml:") || !strings.Contains(stderr, "--allow-external") || !strings.Contains(stderr, "touch "+marker) {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("%v ran the config's command without --allow-external", args)
		}
		if _, err := os.Stat(filepath.Join(out, "tiny")); err == nil {
			t.Errorf("%v wrote results of a refused config", args)
		}
	}
	code, _, stderr = runCLI("--out", out, "--allow-external", "-q", f)
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("--allow-external did not run the command: exit %d, %s", code, stderr)
	}
	if code != exitIncomplete {
		t.Errorf("--allow-external: exit %d, want 3 (the command writes no result): %s", code, stderr)
	}

	// --with external:… needs no further leave.
	marker2 := filepath.Join(dir, "ran-with")
	code, _, stderr = runCLI("--out", out, "-q", "--with", "external:command=touch "+marker2+",label=Typed", writeTiny(t, t.TempDir(), ""))
	if _, err := os.Stat(marker2); err != nil {
		t.Errorf("--with external did not run: exit %d, %s", code, stderr)
	}
}

// TestNoWritesThroughLinks is case 5 of issue #28: a symbolic link at the
// --with-dir folder or anywhere on its path, at the default with-SLUG
// folder, at a result folder's shards/ or at the default cache was
// followed, writing results outside --out. Every one is refused by name
// (exit 2) and nothing lands at the link's target. A --cache folder typed
// on the command line is used as given (the stated policy), links
// included.
func TestNoWritesThroughLinks(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	dir := t.TempDir()
	f := writeTiny(t, dir, "")
	outside := t.TempDir()
	empty := func(t *testing.T) {
		t.Helper()
		ents, _ := os.ReadDir(outside)
		if len(ents) != 0 {
			t.Fatalf("wrote %v through a link", ents)
		}
	}
	link := func(t *testing.T, at string) {
		t.Helper()
		os.MkdirAll(filepath.Dir(at), 0o755)
		if err := os.Symlink(outside, at); err != nil {
			t.Fatal(err)
		}
	}
	refused := func(t *testing.T, at string, args ...string) {
		t.Helper()
		code, _, stderr := runCLI(args...)
		if code != exitUsage || !strings.Contains(stderr, at+" is a symbolic link") {
			t.Errorf("%v: exit %d, stderr %q; want a refusal naming %s", args, code, stderr, at)
		}
		empty(t)
	}

	t.Run("with-dir", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "out")
		link(t, filepath.Join(out, "w"))
		refused(t, filepath.Join(out, "w"), "-q", "--out", out, "--with", "tikhonov", "--with-dir", "w", f)
	})
	t.Run("link on the with-dir path", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "out")
		link(t, filepath.Join(out, "a"))
		refused(t, filepath.Join(out, "a"), "-q", "--out", out, "--with", "tikhonov", "--with-dir", "a/b", f)
	})
	t.Run("with-SLUG", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "out")
		if code, _, stderr := runCLI("-q", "--out", out, "--with", "tikhonov", f); code != exitOK {
			t.Fatalf("first run: exit %d: %s", code, stderr)
		}
		slug := withResultDir(t, out)
		os.RemoveAll(slug)
		link(t, slug)
		refused(t, slug, "-q", "--out", out, "--with", "tikhonov", f)
	})
	t.Run("shards", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "out")
		link(t, filepath.Join(out, "tiny", "shards"))
		refused(t, filepath.Join(out, "tiny", "shards"), "-q", "--out", out, "--shard", "0/2", f)
		refused(t, filepath.Join(out, "tiny", "shards"), "merge", "--out", out, f)
	})
	t.Run("default cache", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "out")
		link(t, filepath.Join(out, ".cache"))
		refused(t, filepath.Join(out, ".cache"), "-q", "--out", out, f)
	})
	t.Run("cache typed on the command line", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "out")
		cache := filepath.Join(t.TempDir(), "cache-link")
		target := t.TempDir()
		if err := os.Symlink(target, cache); err != nil {
			t.Fatal(err)
		}
		if code, _, stderr := runCLI("-q", "--out", out, "--cache", cache, f); code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if ents, _ := os.ReadDir(target); len(ents) == 0 {
			t.Errorf("the --cache link's target holds nothing")
		}
		// Below it, nothing is followed.
		cells := filepath.Join(target, "cells")
		os.RemoveAll(cells)
		os.Symlink(outside, cells)
		code, _, stderr := runCLI("-q", "--out", out, "--cache", cache, "--force", f)
		if code != exitUsage || !strings.Contains(stderr, "cells is a symbolic link") {
			t.Errorf("a link inside --cache: exit %d, %s", code, stderr)
		}
		empty(t)
	})
}

// TestBaselineBounds is case 8 of issue #28: `suite --baseline` with a
// 3 GB records.jsonl without a newline reached 3.3 GB of memory and died
// out of memory; a records.jsonl linked to /dev/zero gave "is a run
// directory but … is a results root". Now the first is refused from its
// size (a sparse file here: nothing is written to disk), a line beyond
// the bound is refused after reading only the bound, and the device is
// refused by name; each exits 2.
func TestBaselineBounds(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	dir := t.TempDir()
	configs := filepath.Join(dir, "configs")
	os.MkdirAll(configs, 0o755)
	writeTiny(t, configs, "")
	out := filepath.Join(dir, "out")
	for name, tc := range map[string]struct {
		make func(string) error
		want string
	}{
		"3 GB":      {func(p string) error { return os.Truncate(p, 3<<30) }, "is 3221225472 bytes, more than the 1073741824"},
		"long line": {func(p string) error { return os.Truncate(p, 80<<20) }, "line 1 is longer than 67108864 bytes"},
		"/dev/zero": {func(p string) error { os.Remove(p); return os.Symlink("/dev/zero", p) }, "records.jsonl is not a regular file (a character device)"},
	} {
		t.Run(name, func(t *testing.T) {
			base := filepath.Join(t.TempDir(), "baseline")
			p := filepath.Join(base, "tiny", "records.jsonl")
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := tc.make(p); err != nil {
				t.Fatal(err)
			}
			code, _, stderr := runCLI("suite", "-q", "--configs", configs, "--out", out, "--baseline", base)
			if code != exitUsage || !strings.Contains(stderr, tc.want) || !strings.Contains(stderr, p) {
				t.Errorf("exit %d, stderr %q; want 2 and %q naming %s", code, stderr, tc.want, p)
			}
			code, _, stderr = runCLI("compare", base, out)
			if code != exitUsage || !strings.Contains(stderr, tc.want) {
				t.Errorf("compare: exit %d, stderr %q", code, stderr)
			}
		})
	}
}

// TestValidateAndRunAgree is case 4 of issue #28: `n: 200000` in the
// two-ring config passed validate and then died in the Gaussian self-Gram
// with Go's fatal out-of-memory; 10⁹ components, a 3-D point and `n: 3`
// passed validate and were refused only by run. The resource estimate
// (runner.Validate) refuses each in validate and, with the same FILE:LINE
// message, in run before anything is loaded or written.
func TestValidateAndRunAgree(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	defer func(m int64) { runner.MaxMemory = m }(runner.MaxMemory)
	runner.MaxMemory = 8 << 30 // the same verdict on any machine
	src, err := os.ReadFile("../../configs/abrahamsen-hansen-fig3.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// The line each message names, found in the config as it stands (the
	// first key of the dataset and of the model, the point), so an edit of
	// the config's description does not break the test.
	at := func(needle string) string {
		i := strings.Index(string(src), needle)
		if i < 0 {
			t.Fatalf("abrahamsen-hansen-fig3.yaml has no %q", needle)
		}
		return fmt.Sprintf(":%d: ", strings.Count(string(src[:i]), "\n")+1)
	}
	for _, tc := range []struct{ name, from, to, want string }{
		{"n200000", "n: 500 ", "n: 200000 ", at("  name: two-rings") + "dataset: 200000 points of 2 values need about 1.7 TiB of memory (the kernel matrix alone, 200000² float64, is 298.0 GiB), more than the 8.0 GiB"},
		{"components", "components: 50 ", "components: 1000000000 ", at("  kernel: gaussian") + "model.components: 1000000000 exceeds the 500 points of the data"},
		{"point", "point: [0, 0]", "point: [0, 0, 0]", at("point: [0, 0]") + "experiment.point: has 3 coordinates, the data has 2"},
		{"n3", "n: 500 ", "n: 3 ", at("  kernel: gaussian") + "model.components: 50 exceeds the 3 points of the data"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := filepath.Join(dir, tc.name+".yaml")
			if err := os.WriteFile(f, []byte(strings.Replace(string(src), tc.from, tc.to, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out-"+tc.name)
			vcode, _, vstderr := runCLI("validate", f)
			rcode, _, rstderr := runCLI("-q", "--out", out, f)
			if vcode != exitUsage || rcode != exitUsage {
				t.Errorf("validate exit %d, run exit %d; want 2 and 2", vcode, rcode)
			}
			if !strings.Contains(vstderr, f+tc.want) {
				t.Errorf("validate: %q, want %q", vstderr, tc.want)
			}
			if !strings.Contains(rstderr, strings.TrimSpace(vstderr)) {
				t.Errorf("run says %q, validate %q", rstderr, vstderr)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("run wrote %s", out)
			}
		})
	}
}

// TestFailedRowReasons is case 10 of issue #28: an estimator returning a
// non-finite pre-image showed `partial | some rows failed` and a count in
// records.jsonl, and "not finite" appeared nowhere. Each failed row's
// reason is now counted in the record ("failures") and shown in the
// failed and partial cells' table.
func TestFailedRowReasons(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	dir := t.TempDir()
	// tiny's test set: 3 classes × 2 groups × 1 image of 6×6; row 0 NaN.
	z := mat.NewDense(6, 36, nil)
	z.Set(0, 0, math.NaN())
	f, err := os.Create(filepath.Join(dir, "Z.npy"))
	if err != nil {
		t.Fatal(err)
	}
	if err := npy.Write(f, z); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out := filepath.Join(dir, "out")
	code, _, stderr := runCLI("-q", "--out", out, "--with-dir", "w", "--with", "external:command=cp "+filepath.Join(dir, "Z.npy")+",label=NaNs", writeTiny(t, dir, ""))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	recs, err := report.ReadJSONL(filepath.Join(out, "w", "tiny", "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range recs {
		if r.Params["method"] != "NaNs" {
			continue
		}
		n++
		if r.Status != report.StatusPartial || r.Failures["pre-image is not finite"] != 1 || len(r.Failures) != 1 {
			t.Errorf("%s: status %s, failures %v; want partial and 1 × pre-image is not finite", r.Key, r.Status, r.Failures)
		}
	}
	if n != 2 {
		t.Fatalf("%d NaNs records, want 2", n)
	}
	// The reason, read in tables.md, whose cells are not wrapped as
	// tables.txt's are at 80 columns.
	tables, err := os.ReadFile(filepath.Join(out, "w", "tiny", "tables.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(tables), "failed rows: 1 × pre-image is not finite") {
		t.Errorf("tables.md does not give the reason:\n%s", tables)
	}
}
