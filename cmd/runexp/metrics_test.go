package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// The metric names validate accepts are read off each kind's code, or
// declared by the kind (Kind.Metrics, for kinds whose names follow their
// options); the committed baseline holds real records of most kinds, so
// every metric they hold must be accepted (a name the reading missed would
// reject a correct claim), and a misspelt one must not.
func TestMetricNamesFromCode(t *testing.T) {
	runs, err := filepath.Glob("../../baseline/*/records.jsonl")
	if err != nil || len(runs) == 0 {
		t.Fatalf("no baseline records (%v)", err)
	}
	read, declared := map[string]bool{}, map[string]bool{}
	for _, f := range runs {
		name := filepath.Base(filepath.Dir(f))
		c, err := config.Load(filepath.Join("../../configs", name+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		k, _ := runner.LookupKind(c.Kind)
		var match func(string) bool
		var patterns []string
		if k.Metrics != nil {
			plan, err := runner.Validate(c)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			names := k.Metrics(plan.Options)
			match = func(m string) bool { return slices.Contains(names, m) }
			declared[c.Kind] = true
		} else {
			m, err := runner.CodeMetrics(k.File)
			if err != nil || m == nil {
				t.Fatalf("%s: kind %s: %v", name, c.Kind, err)
			}
			if m.Open {
				t.Logf("kind %s: metric names not readable from the code (%s); validate accepts any", c.Kind, m.Why)
				continue
			}
			match, patterns = m.Match, m.Patterns
			read[c.Kind] = true
		}
		recs, err := report.ReadJSONL(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			for metric := range r.Metrics {
				if !match(metric) {
					t.Errorf("%s: kind %s records %s, which validate would reject", name, c.Kind, metric)
				}
			}
		}
		if match("mse_medain_x_typo") && !strings.Contains(strings.Join(patterns, ","), "mse_*") {
			t.Errorf("kind %s accepts a misspelt metric (patterns %v)", c.Kind, patterns)
		}
	}
	t.Logf("metric names read from the code for kinds %v, declared by kinds %v", read, declared)
	if len(read) == 0 || len(declared) == 0 {
		t.Errorf("want kinds of both sorts in the baseline: read %v, declared %v", read, declared)
	}
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
