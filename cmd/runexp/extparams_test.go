package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExternalParams follows docs/external-estimators.md, "Parameters of
// your own": the example script reads k from the manifest's params. With
// the page's --param (k = 1) the mean of the one nearest training input is
// an exact pre-image and every check of the kit passes; with its default
// k = 5 the exact checks fail at the kit's tolerance (measured when this
// test was written: FAIL PreImager/exact-pre-image, PreImager/exact-denoise
// and Denoiser/exact-denoise, 3 of 23 checks; not rerun here, since a kit
// run of a Python script takes a minute on two busy cores), so the
// parameter did reach the script. A params value that is not a JSON object is a usage
// error naming it.
func TestExternalParams(t *testing.T) {
	py := docPython(t)
	page, err := os.ReadFile("../../docs/external-estimators.md")
	if err != nil {
		t.Fatal(err)
	}
	param, ok := between(string(page), "runexp check-estimator --command \"python3 python/examples/feature_neighbours.py\" --param '", "'")
	if !ok {
		t.Fatal("docs/external-estimators.md no longer gives the check-estimator --param command this test runs")
	}
	helper, err := filepath.Abs("../../python")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PYTHONPATH", helper)
	script := py + " ../../python/examples/feature_neighbours.py"
	code, out, stderr := runCLI("check-estimator", "--command", script, "--param", param)
	if code != exitOK || !strings.Contains(out, "ok: 24 checks passed") {
		t.Errorf("--param %s: exit %d\n%s%s", param, code, out, stderr)
	}
	// The page's --with form, a quoted JSON object with a comma inside,
	// reaches the records as given.
	t.Setenv("RUNEXP_DATA", "")
	cfg := filepath.Join(t.TempDir(), "precedence.yaml")
	if err := os.WriteFile(cfg, []byte(precedenceConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	out2 := t.TempDir()
	spec := "external:command=" + script + `,params='{"k": 1, "unused": 2}',label=Nearest`
	if code, o, e := runCLI("run", "-q", "--no-cache", "--with", spec, "--out", out2, cfg); code != exitOK {
		t.Fatalf("--with %s: exit %d\n%s%s", spec, code, o, e)
	}
	b, err := os.ReadFile(filepath.Join(withResultDir(t, out2), "precedence", "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"params":"{\"k\": 1, \"unused\": 2}"`) {
		t.Errorf("records do not hold the params as given:\n%s", b)
	}
	for _, bad := range []string{"params=[1, 2]", "params={\"k\": 1} x", "params=k=1"} {
		if code, _, stderr := runCLI("check-estimator", "--command", script, "--param", bad); code != exitUsage || !strings.Contains(stderr, "params") {
			t.Errorf("--param %s: exit %d, stderr %q; want exit %d naming params", bad, code, stderr, exitUsage)
		}
	}
}
