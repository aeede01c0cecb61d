package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp"
	"github.com/runexp/runexp/internal/codefp/codefptest"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/runner"
	"github.com/runexp/runexp/internal/suite"
)

// oilConfig de-noises the rows of a fixture Oil Flow data root with two
// estimators; std is the corruption's noise.
func oilConfig(std string) string {
	return `title: "oil: two estimators on a fixture data root"
paper: none
kind: denoise
seed: 1
dataset:
  name: oilflow
corruption:
  type: gaussian
  std: ` + std + `
model:
  kernel: gaussian
  c: [5]
  components: 3
methods:
  - name: linear-pca
    label: PCA
  - name: identity
    label: Base
experiment: {renormalize: false, figure: none}
`
}

// writeOilRoot writes a data root holding the Oil Flow training split
// (its 1000 rows of 12 values, the first shifted by shift) and its
// SHA256SUMS.
func writeOilRoot(t *testing.T, dir string, shift float64) {
	t.Helper()
	var x, l strings.Builder
	for i := 0; i < 1000; i++ {
		for j := 0; j < 12; j++ {
			v := float64((i*7+j*3)%11) / 10
			if i == 0 && j == 0 {
				v += shift
			}
			fmt.Fprintf(&x, " %g", v)
		}
		x.WriteString("\n")
		l.WriteString([]string{"1 0 0\n", "0 1 0\n", "0 0 1\n"}[i%3])
	}
	files := map[string]string{"oilflow/DataTrn.txt": x.String(), "oilflow/DataTrnLbls.txt": l.String()}
	var sums strings.Builder
	for _, name := range []string{"oilflow/DataTrn.txt", "oilflow/DataTrnLbls.txt"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(files[name]), 0o644); err != nil {
			t.Fatal(err)
		}
		h := sha256.Sum256([]byte(files[name]))
		fmt.Fprintf(&sums, "%s  ./%s\n", hex.EncodeToString(h[:]), name)
	}
	if err := os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte(sums.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestStatusNamesEachReason (issue 47): runexp status and run --dry-run
// compute and write nothing; after a run, changing a config value, then
// a Go estimator's code, then a data file, status names each reason for
// the cells it would recompute (the keys with their old and new values,
// the declaration, the file) and leaves the others cached; a real run
// logs the same reason (-v) and suite.json keeps it.
func TestStatusNamesEachReason(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	data, dir := t.TempDir(), t.TempDir()
	writeOilRoot(t, data, 0)
	cfg := filepath.Join(dir, "oil.yaml")
	setConfig := func(std string) {
		if err := os.WriteFile(cfg, []byte(oilConfig(std)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	setConfig("0.1")
	out := filepath.Join(t.TempDir(), "out")
	cli := func(args ...string) (string, string) {
		t.Helper()
		code, stdout, stderr := runCLI(append(args, "--data", data, "--out", out)...)
		if code != exitOK {
			t.Fatalf("runexp %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout, stderr)
		}
		return stdout, stderr
	}
	want := func(what, got string, parts ...string) {
		t.Helper()
		for _, p := range parts {
			if !strings.Contains(got, p) {
				t.Errorf("%s: no %q in\n%s", what, p, got)
			}
		}
	}

	for _, args := range [][]string{{"status", cfg}, {"run", "--dry-run", cfg}} {
		got, _ := cli(args...)
		want(strings.Join(args[:len(args)-1], " "), got, "oil: 2 cells: 0 cached, 2 to compute", "2 cells to compute: not in the cache", "method=PCA", "method=Base")
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("status and run --dry-run wrote %s (%v)", out, err)
	}

	cli("-q", cfg)
	got, _ := cli("status", cfg)
	want("after the run", got, "oil: 2 cells: 2 cached, 0 to compute", "nothing to compute")

	setConfig("0.2")
	got, _ = cli("status", cfg)
	want("config changed", got, "2 cells to compute: config changed: corruption.std 0.1 → 0.2")
	setConfig("0.1")

	restore, err := runner.UseSources(codefptest.Edited(t, runexp.Sources, "internal/methods/identity.go", `"identity: no inputs"`, `"identity: no input"`))
	if err != nil {
		t.Fatal(err)
	}
	got, _ = cli("status", cfg)
	restore()
	want("code changed", got, "oil: 2 cells: 1 cached, 1 to compute",
		"1 cell to compute: code changed (estimator identity): internal/methods/identity.go: Identity.Denoise (changed)", "    method=Base\n")

	writeOilRoot(t, data, 0.5)
	got, _ = cli("status", "--cached", cfg)
	want("data changed", got, "2 cells to compute: data changed: ", "oilflow/DataTrn.txt", "predicted wall time")
	_, stderr := cli("-v", cfg)
	want("the run's log (-v)", stderr, "to compute", "data changed: ", "oilflow/DataTrn.txt")
	cli("status", cfg) // now cached

	// suite.json keeps the reason of each cell computed.
	writeOilRoot(t, data, 0.25)
	cli("suite", "-q", "--configs", dir)
	b, err := os.ReadFile(filepath.Join(out, "suite.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Runs []struct {
			Recomputed []struct {
				Why   []string `json:"why"`
				Text  string   `json:"text"`
				Cells []string `json:"cells"`
			} `json:"recomputed"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Runs) != 1 || len(rep.Runs[0].Recomputed) != 1 || rep.Runs[0].Recomputed[0].Why[0] != "data" || len(rep.Runs[0].Recomputed[0].Cells) != 2 {
		t.Errorf("suite.json recomputed: %+v, want both cells under one data reason", rep.Runs)
	}
}

// TestStatusPlansFromEarlierRuns: a fresh results folder has no cell
// time in its cache; status then predicts from what earlier runs of the
// same config recorded: a suite.json named by --times, the baseline's
// costs.json beside the configs folder (written with the baseline), and
// says which file gave them. Without either it says "unknown".
func TestStatusPlansFromEarlierRuns(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	data, dir := t.TempDir(), t.TempDir()
	writeOilRoot(t, data, 0)
	cfgs := filepath.Join(dir, "configs")
	if err := os.MkdirAll(cfgs, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(cfgs, "oil.yaml")
	if err := os.WriteFile(cfg, []byte(oilConfig("0.1")), 0o644); err != nil {
		t.Fatal(err)
	}
	cli := func(args ...string) string {
		t.Helper()
		code, stdout, stderr := runCLI(append(args, "--data", data)...)
		if code != exitOK {
			t.Fatalf("runexp %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout, stderr)
		}
		return stdout
	}
	earlier := filepath.Join(t.TempDir(), "earlier")
	cli("suite", "-q", "--configs", cfgs, "--out", earlier)

	fresh := filepath.Join(t.TempDir(), "fresh")
	if got := cli("status", "--out", fresh, cfg); !strings.Contains(got, "predicted wall time: unknown (none of the 2 computations") {
		t.Errorf("no earlier run known: want an unknown prediction, got\n%s", got)
	}
	suiteJSON := filepath.Join(earlier, "suite.json")
	got := cli("status", "--out", fresh, "--times", suiteJSON, cfg)
	if !strings.Contains(got, "predicted wall time of the cells to compute on") || !strings.Contains(got, "2 of the costs from earlier runs: "+suiteJSON) {
		t.Errorf("--times %s: want a prediction from it, naming it, got\n%s", suiteJSON, got)
	}
	js := cli("status", "--json", "--out", fresh, "--times", suiteJSON, cfg)
	for _, e := range loadSchema(t, "../../docs/schemas/status.schema.json").validate([]byte(js)) {
		t.Errorf("status --json --times: %s", e)
	}
	var st struct {
		Prediction *struct {
			Seconds     float64  `json:"seconds"`
			Earlier     int      `json:"earlier"`
			EarlierFrom []string `json:"earlier_from"`
		} `json:"prediction"`
	}
	if err := json.Unmarshal([]byte(js), &st); err != nil || st.Prediction == nil || st.Prediction.Seconds <= 0 || st.Prediction.Earlier != 2 || len(st.Prediction.EarlierFrom) != 1 || st.Prediction.EarlierFrom[0] != suiteJSON {
		t.Errorf("status --json --times: want a prediction of 2 earlier costs from %s, got %v\n%s", suiteJSON, err, js)
	}

	// The baseline keeps the costs beside the records; a fresh results
	// folder of a checkout with that baseline is planned from them.
	base := filepath.Join(dir, "baseline")
	cli("suite", "-q", "--configs", cfgs, "--out", earlier, "--write-baseline", base)
	costs := filepath.Join(base, "oil", "costs.json")
	if _, err := os.Stat(costs); err != nil {
		t.Fatalf("the baseline has no costs: %v", err)
	}
	got = cli("status", "--out", fresh, cfg)
	if !strings.Contains(got, "2 of the costs from earlier runs: "+costs) {
		t.Errorf("a baseline beside the configs: want a prediction from its costs.json, got\n%s", got)
	}

	// A history's latest night overlays the baseline's costs.
	hist := filepath.Join(t.TempDir(), "history")
	cli("suite", "-q", "--configs", cfgs, "--out", earlier, "--history", hist)
	got = cli("suite", "--dry-run", "--configs", cfgs, "--out", fresh, "--history", hist)
	if !strings.Contains(got, "2 of the costs from earlier runs: the history in "+hist+" (night of ") {
		t.Errorf("suite --dry-run --history: want a prediction from its last night, got\n%s", got)
	}
	if _, err := os.Stat(fresh); !os.IsNotExist(err) {
		t.Errorf("status wrote %s (%v)", fresh, err)
	}

	// A file named that cannot be read is refused, as the run refuses it.
	missing := filepath.Join(dir, "no-such-suite.json")
	for _, args := range [][]string{{"status"}, {"run", "--dry-run"}, {"run"}, {"suite", "--dry-run", "--configs", cfgs}} {
		code, stdout, stderr := runCLI(append(args, "--data", data, "--out", fresh, "--times", missing, cfg)...)
		if args[0] == "suite" {
			code, stdout, stderr = runCLI(append(args, "--data", data, "--out", fresh, "--times", missing)...)
		}
		if code != exitUsage || !strings.Contains(stderr, "--times: ") || !strings.Contains(stderr, "no-such-suite.json") {
			t.Errorf("runexp %s --times %s: exit %d, want %d naming the file\n%s%s", strings.Join(args, " "), missing, code, exitUsage, stdout, stderr)
		}
	}
}

// TestStatusLinesSummarise: a dry run of many configs says once why
// their data was not checked (a fresh results folder: every config, for
// the same reason), counting them, and names one baseline's costs.json
// files as one; a config or two are named.
func TestStatusLinesSummarise(t *testing.T) {
	const why = "no earlier run of it recorded which files it reads (the run checks each file it reads)"
	rep := &suite.DryRunReport{}
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		cp := suite.ConfigPlan{Data: runner.DataCheck{Needed: true, Unchecked: why}}
		cp.Config = &config.Config{Name: n}
		rep.Configs = append(rep.Configs, cp)
	}
	rep.Configs[4].Data.Unchecked = "the data root is not readable"
	want := "data: not checked: 4 configs (a, b, …), each: " + why + "; e: the data root is not readable"
	if got := dataLine(rep); got != want {
		t.Errorf("dataLine:\n got %s\nwant %s", got, want)
	}
	files := []string{"/r/suite.json", "/b/x/costs.json", "/b/y/costs.json", "/c/z/costs.json"}
	if got, want := strings.Join(sourceNames(files), ", "), "/r/suite.json, /b/*/costs.json (2 configs), /c/z/costs.json"; got != want {
		t.Errorf("sourceNames: %s, want %s", got, want)
	}
}
