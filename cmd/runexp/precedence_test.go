package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// precedenceConfig is a small lgdenoise config (Huang et al.'s kind, which
// sets every estimator's neighbour count by experiment.neighbors).
const precedenceConfig = `title: precedence
paper: test
kind: lgdenoise
seed: 5
dataset: {name: synthetic-images, classes: 4, groups: 3, per_cell: 3, width: 8, height: 8, labels: group}
corruption: {type: gaussian, std: 0.06}
methods:
  - {name: identity}
experiment: {train_fraction: 0.5, models: per-group, neighbors: mean-distance}
`

// TestWithNeighborsPrecedence is the case on synthetic data: an
// estimator declaring a neighbours role, added with --with and an
// explicit count, runs with that count, and its records and the
// manifest's with entry say so; added without one, it runs with the
// kind's count: the records say mean-distance and the manifest does not
// list the parameter (before, it said the estimator's default 10, which
// never ran).
func TestWithNeighborsPrecedence(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "precedence.yaml")
	if err := os.WriteFile(cfg, []byte(precedenceConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ spec, want string }{
		{"kwok-tsang:neighbors=3", "3"},
		{"kwok-tsang", "mean-distance"},
	} {
		out := t.TempDir()
		code, stdout, stderr := runCLI("run", "-q", "--no-cache", "--with", tc.spec, "--out", out, cfg)
		if code != exitOK {
			t.Fatalf("--with %s: exit %d\n%s%s", tc.spec, code, stdout, stderr)
		}
		dir := filepath.Join(withResultDir(t, out), "precedence")
		b, err := os.ReadFile(filepath.Join(dir, "records.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var r struct {
				Params  map[string]any
				Metrics map[string]float64
			}
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatal(err)
			}
			if r.Params["method"] != "Kwok–Tsang" {
				continue
			}
			n++
			if got := fmt.Sprint(r.Params["neighbors"]); got != tc.want {
				t.Errorf("--with %s: record says neighbors %s, want %s", tc.spec, got, tc.want)
			}
			if tc.want == "3" {
				for k, v := range r.Metrics {
					if strings.HasPrefix(k, "neighbors") && v != 3 {
						t.Errorf("--with %s: %s = %v, want the count that ran, 3", tc.spec, k, v)
					}
				}
			}
		}
		if n == 0 {
			t.Fatalf("--with %s: no Kwok–Tsang records", tc.spec)
		}
		man := readManifest(t, dir)
		if len(man.With) != 1 {
			t.Fatalf("--with %s: manifest with = %v", tc.spec, man.With)
		}
		got, listed := man.With[0].Params["neighbors"]
		switch {
		case tc.want == "3" && fmt.Sprint(got) != "3":
			t.Errorf("--with %s: manifest says neighbors %v, the records 3", tc.spec, got)
		case tc.want == "mean-distance" && listed:
			t.Errorf("--with %s: manifest says neighbors %v, the records mean-distance (a role left to the kind is not listed)", tc.spec, got)
		}
	}
}
