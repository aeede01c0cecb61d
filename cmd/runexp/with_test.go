package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/methods/methodtest"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/suite"
)

// claimStatuses reads a result directory's claims.json as id → status.
func claimStatuses(t *testing.T, dir string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "claims.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res []struct{ ID, Status string }
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, r := range res {
		m[r.ID] = r.Status
	}
	return m
}

// methodRecords counts the records.jsonl lines whose method param is label.
func methodRecords(t *testing.T, dir, label string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r struct{ Params map[string]any }
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		if r.Params["method"] == label {
			n++
		}
	}
	return n
}

// keepsVerdicts runs config without and with --with spec and checks that
// every claim's status is the same and that the added method's cells are
// in the records.
func keepsVerdicts(t *testing.T, config, spec, label string, extra ...string) {
	t.Helper()
	name := strings.TrimSuffix(filepath.Base(config), ".yaml")
	cache := t.TempDir() // shared: the second run computes only the added cells
	without, with := t.TempDir(), t.TempDir()
	args := append([]string{"run", "-q", "--cache", cache}, extra...)
	code, stdout, stderr := runCLI(append(args, "--out", without, config)...)
	if code != exitOK {
		t.Fatalf("without --with: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCLI(append(args, "--with", spec, "--out", with, config)...)
	if code != exitOK {
		t.Fatalf("--with %s: exit %d\n%s%s", spec, code, stdout, stderr)
	}
	with = withResultDir(t, with)
	before := claimStatuses(t, filepath.Join(without, name))
	after := claimStatuses(t, filepath.Join(with, name))
	if len(before) == 0 {
		t.Fatalf("%s has no claims", name)
	}
	for id, s := range before {
		if after[id] != s {
			t.Errorf("claim %s: %s without --with, %s with --with %s", id, s, after[id], spec)
		}
	}
	if len(after) != len(before) {
		t.Errorf("%d claims with --with, %d without", len(after), len(before))
	}
	if n := methodRecords(t, filepath.Join(with, name), label); n == 0 {
		t.Errorf("--with %s: no records of method %q", spec, label)
	}
	if n := methodRecords(t, filepath.Join(without, name), label); n != 0 {
		t.Errorf("without --with: %d records of method %q", n, label)
	}
}

// Adding an estimator must not change any claim's verdict: before claims
// were scoped to the file's methods, --with tikhonov turned two of
// abrahamsen-hansen-fig3's three claims NOT-EVALUATED.
func TestWithKeepsVerdicts(t *testing.T) {
	keepsVerdicts(t, "../../configs/abrahamsen-hansen-fig3.yaml", "tikhonov", "Tikhonov", "--data", t.TempDir())
}

// The same on real data (zheng-lai-table4, the fastest real-data config
// with methods and claims), when RUNEXP_DATA is set.
func TestWithKeepsVerdictsRealData(t *testing.T) {
	root := os.Getenv("RUNEXP_DATA")
	if root == "" {
		t.Skip("RUNEXP_DATA not set")
	}
	keepsVerdicts(t, "../../configs/zheng-lai-table4.yaml", "learned:label=Learned here", "Learned here", "--data", root)
}

func TestWithSpecErrors(t *testing.T) {
	cfg := "../../configs/abrahamsen-hansen-fig3.yaml"
	for _, tc := range []struct {
		spec string
		want []string
	}{
		{":alpha=1", []string{"want NAME or NAME:key=value"}},
		{"tikhonov:", []string{"no parameters after ':'"}},
		{"tikhonov:alpha", []string{`"alpha" is not key=value`}},
		{"tikhonov:=1", []string{"is not key=value"}},
		{"no-such-estimator", []string{`unknown estimator "no-such-estimator"`, "registered:"}},
		{"tikhonov:no_such_param=1", []string{"parameter no_such_param"}},
		{"tikhonov:label=", []string{"empty label"}},
		{"mika", []string{`already has a method labelled "Mika et al."`}},
	} {
		// mika's title may differ from the file's label; label it to clash.
		spec := tc.spec
		if spec == "mika" {
			spec = "mika:label=Mika et al."
		}
		code, _, stderr := runCLI("run", "-q", "--no-cache", "--out", t.TempDir(), "--with", spec, cfg)
		if code != exitUsage {
			t.Errorf("--with %q: exit %d, want %d (stderr %q)", spec, code, exitUsage, stderr)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("--with %q: stderr %q, want it to contain %q", spec, stderr, w)
			}
		}
	}
	// A value no estimator can honour is refused before any cell runs,
	// by status as by run: an infinite one as a NaN is.
	for _, spec := range []string{"learned:alpha=.inf", "learned:alpha=-.inf", "learned:alpha=.nan"} {
		for _, cmd := range []string{"run", "status"} {
			code, stdout, stderr := runCLI(cmd, "-q", "--no-cache", "--out", t.TempDir(), "--with", spec, cfg)
			if code != exitUsage || !strings.Contains(stderr, "alpha") || strings.Contains(stdout, "to compute") {
				t.Errorf("%s --with %s: exit %d, stdout %q, stderr %q; want exit 2 naming alpha before any cell", cmd, spec, code, stdout, stderr)
			}
		}
	}
	// A value of the wrong type names the parameter.
	code, _, stderr := runCLI("run", "-q", "--no-cache", "--out", t.TempDir(), "--with", "mika:max_iter=many", cfg)
	if code != exitUsage || !strings.Contains(stderr, "max_iter") {
		t.Errorf("--with mika:max_iter=many: exit %d, stderr %q; want exit 2 naming max_iter", code, stderr)
	}
}

// withResultDir returns the one with-* folder a --with run made in out.
func withResultDir(t *testing.T, out string) string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(out, "with-*"))
	if err != nil || len(dirs) != 1 {
		t.Fatalf("with-* folders in %s: %v (err %v), want one", out, dirs, err)
	}
	return dirs[0]
}

// readManifest reads a result directory's manifest.json.
func readManifest(t *testing.T, dir string) report.Manifest {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m report.Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// A --with run writes under OUT/with-SLUG, leaves the configs' own result
// folders alone, reuses their cached cells, records the specs in the
// manifest, and compares with the plain run as new cells only.
func TestWithResultsApart(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	f := writeTiny(t, dir, "")
	if code, _, stderr := runCLI("-q", "--out", out, f); code != exitOK {
		t.Fatalf("plain run: exit %d: %s", code, stderr)
	}
	plain, err := os.ReadFile(filepath.Join(out, "tiny", "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if m := readManifest(t, filepath.Join(out, "tiny")); m.With != nil {
		t.Errorf("plain run's manifest lists --with %+v", m.With)
	}
	code, stdout, stderr := runCLI("-q", "--out", out, "--with", "tikhonov:lambda=0.001", f)
	if code != exitOK {
		t.Fatalf("--with run: exit %d: %s%s", code, stdout, stderr)
	}
	// tiny has 2 widths × 2 methods; tikhonov adds 2 cells, the only
	// ones computed (the cache is OUT/.cache for both runs).
	if !strings.Contains(stdout, "6 cells (2 computed, 4 cached, 0 failed)") {
		t.Errorf("--with run: %q, want 6 cells of which 2 computed", stdout)
	}
	again, err := os.ReadFile(filepath.Join(out, "tiny", "records.jsonl"))
	if err != nil || !bytes.Equal(again, plain) {
		t.Errorf("the --with run changed %s (err %v)", filepath.Join(out, "tiny", "records.jsonl"), err)
	}
	wd := withResultDir(t, out)
	if !strings.HasPrefix(filepath.Base(wd), "with-tikhonov-") {
		t.Errorf("--with folder %s, want with-tikhonov-…", wd)
	}
	if n := methodRecords(t, filepath.Join(wd, "tiny"), "Tikhonov"); n != 2 {
		t.Errorf("%d Tikhonov records under %s, want 2", n, wd)
	}
	// OUT/index.html links the --with folder's own index.
	idx, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if link := `href="` + filepath.Base(wd) + `/index.html"`; !bytes.Contains(idx, []byte(link)) {
		t.Errorf("%s lacks %s", filepath.Join(out, "index.html"), link)
	}
	// ... and the folder's index links back to it.
	if b, err := os.ReadFile(filepath.Join(wd, "index.html")); err != nil {
		t.Error(err)
	} else if !bytes.Contains(b, []byte(`href="../index.html"`)) {
		t.Errorf("%s has no link back to %s", filepath.Join(wd, "index.html"), filepath.Join(out, "index.html"))
	}
	m := readManifest(t, filepath.Join(wd, "tiny"))
	if len(m.With) != 1 {
		t.Fatalf("manifest with = %+v, want one spec", m.With)
	}
	w := m.With[0]
	if w.Spec != "tikhonov:lambda=0.001" || w.Estimator != "tikhonov" || w.Label != "Tikhonov" || w.Skipped != "" {
		t.Errorf("manifest with = %+v", w)
	}
	if w.Params["lambda"] != 0.001 {
		t.Errorf("manifest params %v, want lambda 0.001", w.Params)
	}
	if _, ok := w.Params["max_iter"]; !ok {
		t.Errorf("manifest params %v lack the defaults (max_iter)", w.Params)
	}

	// compare: the added method's cells are new; nothing else moved.
	code, stdout, stderr = runCLI("compare", out, wd)
	if code != exitClaim {
		t.Fatalf("compare plain with --with: exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	var news int
	for _, line := range strings.Split(stdout, "\n") {
		switch {
		case strings.Contains(line, "new cell"):
			news++
			if !strings.Contains(line, "Tikhonov") {
				t.Errorf("new cell of another method: %s", line)
			}
		case strings.HasPrefix(line, "  "):
			// A change is a line indented under its config's.
			t.Errorf("compare reports more than new cells: %s", line)
		}
	}
	if news != 2 {
		t.Errorf("compare: %d new cells, want 2\n%s", news, stdout)
	}
}

func TestWithDir(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	f := writeTiny(t, dir, "")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--with-dir", "x", f}, "--with-dir x: only with --with"},
		{[]string{"--with", "tikhonov", "--with-dir", "../x", f}, "want a folder name inside --out"},
		{[]string{"--with", "tikhonov", "--with-dir", "/tmp", f}, "want a folder name inside --out"},
	} {
		code, _, stderr := runCLI(append([]string{"-q", "--out", out}, tc.args...)...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
	// '.' asks for the configs' own folders.
	if code, _, stderr := runCLI("-q", "--out", out, "--with", "tikhonov", "--with-dir", ".", f); code != exitOK {
		t.Fatalf("--with-dir .: exit %d: %s", code, stderr)
	}
	if n := methodRecords(t, filepath.Join(out, "tiny"), "Tikhonov"); n != 2 {
		t.Errorf("--with-dir .: %d Tikhonov records in %s, want 2", n, filepath.Join(out, "tiny"))
	}
	if m := readManifest(t, filepath.Join(out, "tiny")); len(m.With) != 1 || m.With[0].Spec != "tikhonov" {
		t.Errorf("--with-dir .: manifest with = %+v", m.With)
	}
}

// Shards of a --with run carry the specs; merge needs the same --with
// and refuses shards run with different ones.
func TestMergeWith(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	f := writeTiny(t, dir, "")
	shard := func(i string, args ...string) {
		t.Helper()
		if code, _, stderr := runCLI(append([]string{"-q", "--out", out, "--shard", i}, append(args, f)...)...); code != exitOK {
			t.Fatalf("shard %s %v: exit %d: %s", i, args, code, stderr)
		}
	}
	same := []string{"--with", "tikhonov", "--with-dir", "w"}
	shard("0/2", same...)
	shard("1/2", "--with", "tikhonov:lambda=0.01", "--with-dir", "w")
	code, _, stderr := runCLI("merge", "--out", out, "--with", "tikhonov", "--with-dir", "w", f)
	if code != exitUsage || !strings.Contains(stderr, "shards disagree on the added estimators") || !strings.Contains(stderr, `"tikhonov:lambda=0.01"`) {
		t.Errorf("merge of shards with different --with: exit %d, %s", code, stderr)
	}
	shard("1/2", same...)
	// Without --with (pointed at the shards' folder) or with another.
	for _, args := range [][]string{
		{"--out", filepath.Join(out, "w")},
		{"--out", out, "--with", "tikhonov:lambda=0.01", "--with-dir", "w"},
	} {
		code, _, stderr := runCLI(append(append([]string{"merge"}, args...), f)...)
		if code != exitUsage || !strings.Contains(stderr, `were run with --with "tikhonov"`) || !strings.Contains(stderr, "merge with the same --with") {
			t.Errorf("merge %v: exit %d, %s", args, code, stderr)
		}
	}
	code, stdout, stderr := runCLI(append(append([]string{"merge", "--out", out}, same...), f)...)
	if code != exitOK || !strings.Contains(stdout, "merged 6 cells") {
		t.Fatalf("merge with the shards' --with: exit %d, %s%s", code, stdout, stderr)
	}
	if m := readManifest(t, filepath.Join(out, "w", "tiny")); len(m.With) != 1 || m.With[0].Spec != "tikhonov" {
		t.Errorf("merged manifest with = %+v", m.With)
	}
}

// docPython returns a python3 that imports NumPy, as the Python tests of
// internal/methods pick it: RUNEXP_PYTHON (set by .ci/run, and then its
// absence fails the test), else python3 on PATH or /usr/bin/python3.
func docPython(t *testing.T) string {
	t.Helper()
	return methodtest.Python(t)
}

// The documented path, from docs/external-estimators.md alone: its Python
// example, saved as my_preimage.py, enters a run with the one --with flag
// the page gives, through the real protocol, and every added cell
// succeeds. The page's example rots if this fails.
func TestDocumentedWithExample(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	py := docPython(t)
	page, err := os.ReadFile("../../docs/external-estimators.md")
	if err != nil {
		t.Fatal(err)
	}
	code, ok := between(string(page), "```python\n", "```")
	if !ok {
		t.Fatal("docs/external-estimators.md has no ```python block")
	}
	cmd, ok := between(string(page), "PYTHONPATH=python runexp --out results-mine --with '", "'")
	if !ok {
		t.Fatal("docs/external-estimators.md no longer gives the --with command this test runs")
	}
	helper, err := filepath.Abs("../../python")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "my_preimage.py"), []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	f := writeTiny(t, dir, "")
	// The page runs python3 my_preimage.py from the working directory;
	// here the interpreter found above and the file's full path.
	spec := strings.Replace(cmd, "command=python3 my_preimage.py", "command="+py+" "+filepath.Join(dir, "my_preimage.py"), 1)
	if spec == cmd {
		t.Fatalf("the page's spec %q no longer runs python3 my_preimage.py", cmd)
	}
	t.Setenv("PYTHONPATH", helper)
	out := filepath.Join(dir, "results-mine")
	code2, stdout, stderr := runCLI("-q", "--out", out, "--with", spec, f)
	if code2 != exitOK {
		t.Fatalf("runexp --with %q: exit %d\n%s%s", spec, code2, stdout, stderr)
	}
	if n := methodRecords(t, filepath.Join(withResultDir(t, out), "tiny"), "My pre-image"); n != 2 {
		t.Errorf("%d records of My pre-image, want 2 (one per kernel width)", n)
	}
}

// between returns the text of s after the first from up to the next to.
func between(s, from, to string) (string, bool) {
	_, rest, ok := strings.Cut(s, from)
	if !ok {
		return "", false
	}
	got, _, ok := strings.Cut(rest, to)
	return got, ok
}

// suite --with --baseline compares the configs' own methods only: the
// added method's cells are listed apart, not as changes, so adding an
// estimator that moves nothing else exits 0; a moved cell of the
// config's own methods is still a change.
func TestWithSuiteBaseline(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	dir := t.TempDir()
	configs := filepath.Join(dir, "configs")
	if err := os.Mkdir(configs, 0o755); err != nil {
		t.Fatal(err)
	}
	writeTiny(t, configs, "")
	out, base := filepath.Join(dir, "out"), filepath.Join(dir, "baseline")
	if code, stdout, stderr := runCLI("suite", "-q", "--configs", configs, "--out", out, "--write-baseline", base); code != exitOK {
		t.Fatalf("suite --write-baseline: exit %d\n%s%s", code, stdout, stderr)
	}
	runSuite := func() (int, string, string) {
		return runCLI("suite", "-q", "--configs", configs, "--out", out, "--with", "tikhonov", "--baseline", base)
	}
	code, stdout, stderr := runSuite()
	if code != exitOK {
		t.Fatalf("suite --with --baseline: exit %d, want 0\n%s%s", code, stdout, stderr)
	}
	if strings.Contains(stdout, "new cell") || !strings.Contains(stdout, "No changes.") {
		t.Errorf("suite --with --baseline reports changes:\n%s", stdout)
	}
	// tiny: 2 widths, so 2 Tikhonov cells.
	if !strings.Contains(stdout, "Added by --with, not compared") || !strings.Contains(stdout, "2 cells of estimators added by --with") {
		t.Errorf("suite --with --baseline does not list the 2 added cells:\n%s", stdout)
	}
	b, err := os.ReadFile(filepath.Join(withResultDir(t, out), "suite.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep suite.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Changes) != 0 || len(rep.NotCompared) != 1 || rep.NotCompared[0] != (suite.AddedCells{Config: "tiny", Method: "Tikhonov", Spec: "tikhonov", Cells: 2}) {
		t.Errorf("suite.json: changes %v, added_not_compared %+v; want none and tiny/Tikhonov/2", rep.Changes, rep.NotCompared)
	}

	// A moved metric of the config's own methods is still a change.
	recs, err := report.ReadJSONL(filepath.Join(base, "tiny", "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var moved string
	for i := range recs {
		if recs[i].Params["method"] == "HR" {
			recs[i].Metrics["mse_median"] *= 2
			moved = recs[i].Key
			break
		}
	}
	if moved == "" {
		t.Fatal("no HR record in the baseline")
	}
	if err := report.WriteJSONL(filepath.Join(base, "tiny", "records.jsonl"), recs); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runSuite()
	if code != exitClaim || !strings.Contains(stdout, "mse_median") || !strings.Contains(stdout, "1 change.") {
		t.Errorf("suite --with against a baseline with a moved HR metric: exit %d, want 1 and that one change\n%s%s", code, stdout, stderr)
	}
}

// Editing an external estimator's script after its shards ran is not
// "another build of runexp": merge says the script changed, between
// the shards or since they ran. The script fails every cell it gets
// (each shard then exits 3); what it computes does not matter here, only
// its fingerprint (methods.ExternalFingerprint covers the script
// parameter's file).
func TestMergeWithEditedScript(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	f := writeTiny(t, dir, "")
	script := filepath.Join(dir, "mine.sh")
	edit := func(body string) {
		t.Helper()
		if err := os.WriteFile(script, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	spec := "external:command=sh " + script + ",script=" + script + ",label=Mine"
	shard := func(i string) {
		t.Helper()
		if code, stdout, stderr := runCLI("-q", "--out", out, "--shard", i, "--with", spec, f); code != exitIncomplete || !strings.Contains(stdout, "1 failed") {
			t.Fatalf("shard %s: exit %d, want %d with Mine's one cell failed\n%s%s", i, code, exitIncomplete, stdout, stderr)
		}
	}
	merge := func() (int, string, string) { return runCLI("merge", "--out", out, "--with", spec, f) }
	wantScript := func(what, stderr string, want ...string) {
		t.Helper()
		if strings.Contains(stderr, "build") {
			t.Errorf("%s: blames a build of runexp: %s", what, stderr)
		}
		for _, w := range want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%s: stderr %q, want %q", what, stderr, w)
			}
		}
	}

	edit("exit 1\n")
	shard("0/2")
	edit("exit 2\n")
	shard("1/2")
	code, _, stderr := merge()
	if code != exitUsage {
		t.Errorf("merge of shards that ran two versions of the script: exit %d, want %d", code, exitUsage)
	}
	wantScript("shards of two script versions", stderr, "shards disagree on the code", `different versions of the external estimator "Mine" (--with "`+spec+`")`, "command or script changed")

	edit("exit 1\n")
	shard("1/2")
	edit("exit 3\n")
	code, _, stderr = merge()
	if code != exitUsage {
		t.Errorf("merge after the script changed: exit %d, want %d", code, exitUsage)
	}
	wantScript("script edited after the shards", stderr, `the external estimator "Mine" (--with "`+spec+`") changed its command or script since the shards ran`, "restore the script")

	// The script the shards ran merges (Mine's two cells failed: exit 3).
	edit("exit 1\n")
	if code, stdout, stderr := merge(); code != exitIncomplete || !strings.Contains(stdout, "merged 6 cells (2 failed)") {
		t.Errorf("merge with the shards' script: exit %d, want %d\n%s%s", code, exitIncomplete, stdout, stderr)
	}
}
