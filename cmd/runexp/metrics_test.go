package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// The metric names validate accepts are those each kind declares
// (Kind.Metrics); the committed baseline holds real records of most kinds,
// so every metric they hold must be accepted (a name the declaration
// missed would reject a correct claim), and a misspelt one must not.
func TestMetricNamesOfBaseline(t *testing.T) {
	runs, err := filepath.Glob("../../baseline/*/records.jsonl")
	if err != nil || len(runs) == 0 {
		t.Fatalf("no baseline records (%v)", err)
	}
	kinds := map[string]bool{}
	for _, f := range runs {
		name := filepath.Base(filepath.Dir(f))
		c, err := config.Load(filepath.Join("../../configs", name+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		plan, err := runner.Validate(c)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if plan.Metrics == nil {
			t.Errorf("%s: kind %s declares no metric names; validate accepts any", name, c.Kind)
			continue
		}
		kinds[c.Kind] = true
		recs, err := report.ReadJSONL(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			for metric := range r.Metrics {
				if !plan.Metrics.Match(metric) {
					t.Errorf("%s: kind %s records %s, which validate would reject", name, c.Kind, metric)
				}
			}
		}
		if plan.Metrics.Match("mse_medain_x_typo") {
			t.Errorf("kind %s accepts a misspelt metric (declared %v)", c.Kind, plan.Metrics)
		}
	}
	t.Logf("metric names checked for kinds %v", kinds)
}

// A claim naming a metric the kind never records is a validate error at
// its line (issue 13), not a NOT-EVALUATED verdict after the run.
func TestValidateRejectsUnknownMetric(t *testing.T) {
	dir := t.TempDir()
	f := writeTiny(t, dir, `  - id: misspelt
    check: {type: value, metric: mse_medain, where: {method: HR, c: 5}, op: "<", value: 1}
`)
	code, _, stderr := runCLI("validate", f)
	if code != exitUsage || !strings.Contains(stderr, `tiny.yaml:30: claim misspelt: metric: "mse_medain" is not a metric this experiment records`) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	os.WriteFile(f, []byte(tinyConfig+"reference:\n  - {source: s, metric: snr_man, cell: {method: HR}, value: 1}\n"), 0o644)
	code, _, stderr = runCLI("validate", f)
	if code != exitUsage || !strings.Contains(stderr, `reference[0]: metric "snr_man" is not a metric`) {
		t.Errorf("reference: exit %d, stderr %q", code, stderr)
	}
}
