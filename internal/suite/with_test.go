package suite

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/runexp/runexp/experiments"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

func TestParseWithValues(t *testing.T) {
	w, err := ParseWith("mika:max_iter=20,tol=1e-6,label=Mine")
	if err != nil {
		t.Fatal(err)
	}
	if w.Name != "mika" || w.Label != "Mine" {
		t.Errorf("name %q label %q, want mika, Mine", w.Name, w.Label)
	}
	if v, ok := w.Params["max_iter"].(int); !ok || v != 20 {
		t.Errorf("max_iter = %#v, want int 20", w.Params["max_iter"])
	}
	if v, ok := w.Params["tol"].(float64); !ok || v != 1e-6 {
		t.Errorf("tol = %#v, want float64 1e-6", w.Params["tol"])
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
	w, err := ParseWith("learned")
	if err != nil {
		t.Fatal(err)
	}
	k, _ := runner.LookupKind("local-minima")
	if w.Spec.Can(k.Takes) {
		t.Fatal("learned became a pre-imager; pick another estimator for this test")
	}
	var stderr bytes.Buffer
	if _, err := AddWith(c, []*With{w}, &stderr); err != nil {
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
	w, err := ParseWith("tikhonov")
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	if _, err := AddWith(c, []*With{w}, &stderr); err != nil {
		t.Fatal(err)
	}
	if len(c.Methods) != n {
		t.Errorf("%d methods after a skipped --with, want %d", len(c.Methods), n)
	}
	if want := "--with tikhonov: skipped in huang-fig6: "; !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
}

func TestWithSlug(t *testing.T) {
	slug := func(args ...string) string {
		t.Helper()
		ws, err := ParseWiths(args)
		if err != nil {
			t.Fatal(err)
		}
		return Slug(ws)
	}
	a := slug("external:command=python3 my_preimage.py,label=My pre-image (v2)")
	if !strings.HasPrefix(a, "with-my-pre-image-v2-") || len(a) != len("with-my-pre-image-v2-")+8 {
		t.Errorf("slug %q, want with-my-pre-image-v2- and 8 hex digits", a)
	}
	if b := slug("external:command=python3 my_preimage.py,label=My pre-image (v2)"); b != a {
		t.Errorf("same specs, slugs %q and %q", a, b)
	}
	// Same label, another command: another folder.
	if b := slug("external:command=python3 other.py,label=My pre-image (v2)"); b == a {
		t.Errorf("different commands share the slug %q", a)
	}
	if s := slug("tikhonov", "learned:alpha=0.01"); !strings.HasPrefix(s, "with-tikhonov_learned-") {
		t.Errorf("slug %q, want with-tikhonov_learned-…", s)
	}
	long := slug("tikhonov:label=" + strings.Repeat("Ω very long label ", 10))
	if len(long) > len("with-")+48+1+8 || !filepath.IsLocal(long) || strings.ContainsAny(long, " /\\.Ω") {
		t.Errorf("slug %q: too long or unsafe", long)
	}
}

// registerAgain registers k unless a kind of its name is registered: a
// test body's own kind, which an earlier run of the test (go test
// -count=2) registered the same.
func registerAgain(k runner.Kind) {
	if _, ok := runner.LookupKind(k.Name); !ok {
		runner.RegisterKind(k)
	}
}

// A kind declares the capability it takes (runner.Kind.Takes) and --with
// reaches it with no other edit: a toy kind registered here that takes
// imputers gets an added imputer and skips an estimator that does not
// impute; a toy kind that takes nothing skips every estimator.
func TestWithReachesANewKind(t *testing.T) {
	k := runner.Define("toy-with-kind", "a kind registered by this test",
		func(c *config.Config) (struct{}, error) { return struct{}{}, nil },
		func(*runner.Env, struct{}) (runner.Instance, error) { return nil, nil })
	k.Takes = methods.Imputes
	registerAgain(k)
	c := &config.Config{Name: "toy", Kind: "toy-with-kind", Methods: []config.Method{{Name: "impute-mean"}}}
	add := func(arg string) (string, []report.WithSpec) {
		t.Helper()
		w, err := ParseWith(arg)
		if err != nil {
			t.Fatal(err)
		}
		var warn bytes.Buffer
		done, err := AddWith(c, []*With{w}, &warn)
		if err != nil {
			t.Fatal(err)
		}
		return warn.String(), done
	}
	// ppca imputes: the toy kind takes it.
	n := len(c.Methods)
	if warn, done := add("ppca"); warn != "" || len(done) != 1 || done[0].Skipped != "" || len(c.Methods) != n+1 || !c.Methods[n].Added {
		t.Errorf("--with ppca on a kind taking imputers: warning %q, %+v, %d methods; want it added", warn, done, len(c.Methods))
	}
	// mika pre-images and de-noises but does not impute: skipped.
	if warn, done := add("mika"); !strings.Contains(warn, "kind toy-with-kind needs an imputing estimator") || len(done) != 1 || done[0].Skipped == "" {
		t.Errorf("--with mika on a kind taking imputers: warning %q, %+v; want it skipped as no imputer", warn, done)
	}
	// A kind that takes nothing skips every estimator.
	k2 := runner.Define("toy-fixed-kind", "a kind with no estimators",
		func(c *config.Config) (struct{}, error) { return struct{}{}, nil },
		func(*runner.Env, struct{}) (runner.Instance, error) { return nil, nil })
	registerAgain(k2)
	c = &config.Config{Name: "toy", Kind: "toy-fixed-kind", Methods: []config.Method{{Name: "impute-mean"}}}
	if warn, _ := add("ppca"); !strings.Contains(warn, "kind toy-fixed-kind lists no estimators") {
		t.Errorf("--with ppca on a kind taking nothing: warning %q, want it skipped", warn)
	}
}
