package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/config"
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
	// A value of the wrong type names the parameter.
	code, _, stderr := runCLI("run", "-q", "--no-cache", "--out", t.TempDir(), "--with", "mika:max_iter=many", cfg)
	if code != exitUsage || !strings.Contains(stderr, "max_iter") {
		t.Errorf("--with mika:max_iter=many: exit %d, stderr %q; want exit 2 naming max_iter", code, stderr)
	}
}

func TestParseWithValues(t *testing.T) {
	w, err := parseWith("mika:max_iter=20,tol=1e-6,label=Mine")
	if err != nil {
		t.Fatal(err)
	}
	if w.name != "mika" || w.label != "Mine" {
		t.Errorf("name %q label %q, want mika, Mine", w.name, w.label)
	}
	if v, ok := w.params["max_iter"].(int); !ok || v != 20 {
		t.Errorf("max_iter = %#v, want int 20", w.params["max_iter"])
	}
	if v, ok := w.params["tol"].(float64); !ok || v != 1e-6 {
		t.Errorf("tol = %#v, want float64 1e-6", w.params["tol"])
	}
}

// A kind that cannot use the estimator skips the config with a note on
// stderr, not an error, and leaves its methods alone.
func TestWithSkipsKind(t *testing.T) {
	c, err := config.Load("../../configs/abrahamsen-hansen-fig3.yaml")
	if err != nil {
		t.Fatal(err)
	}
	n := len(c.Methods)
	// learned de-noises but is no pre-imager; local-minima needs one.
	w, err := parseWith("learned")
	if err != nil {
		t.Fatal(err)
	}
	if w.spec.Can(withCapability["local-minima"]) {
		t.Fatal("learned became a pre-imager; pick another estimator for this test")
	}
	var stderr bytes.Buffer
	if err := addWith(c, []*withSpec{w}, &stderr); err != nil {
		t.Fatal(err)
	}
	if len(c.Methods) != n {
		t.Errorf("%d methods after a skipped --with, want %d", len(c.Methods), n)
	}
	if want := "--with learned: skipped in abrahamsen-hansen-fig3: kind local-minima needs a pre-image estimator"; !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
}

// A kind's own check rejecting the added method skips the config too:
// tikhonov pre-images but needs the observed input, which a kkcluster
// centre lacks.
func TestWithSkipsKindCheck(t *testing.T) {
	c, err := config.Load("../../configs/huang-fig6.yaml")
	if err != nil {
		t.Fatal(err)
	}
	n := len(c.Methods)
	w, err := parseWith("tikhonov")
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	if err := addWith(c, []*withSpec{w}, &stderr); err != nil {
		t.Fatal(err)
	}
	if len(c.Methods) != n {
		t.Errorf("%d methods after a skipped --with, want %d", len(c.Methods), n)
	}
	if want := "--with tikhonov: skipped in huang-fig6: "; !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
}
