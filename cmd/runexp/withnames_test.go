package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/report"
)

// namesMatrix is a cross-paper matrix in small, on synthetic images.
const namesMatrix = `title: matrix with added estimators
paper: runexp
kind: matrix
seed: 3
dataset: {name: synthetic-images, classes: 3, groups: 2, per_cell: 5, test_per_cell: 2, width: 4, height: 4, noise: 0.05}
methods:
  - {name: identity}
  - {name: mika, params: {max_iter: 50}}
experiment:
  resamples: 200
  benchmarks:
    - {name: noise, corruption: {type: gaussian, std: 0.2}, range: [0, 1], c: 2, components: 8}
`

// TestWithNamedEverywhere (issue 47): an external estimator added with
// --with is named by its script and parameters (feature_neighbours[k=3])
// without label=, and its run page, the matrix page and the index of the
// --with folder show the spec as given and the parameters that ran,
// the script's default (k = 5, reported back through the protocol)
// included; manifest.json records them. With the paper values at hand,
// the paper's reproduction report names the spec and parameters too, and
// its reproduce commands carry --with and the results root that was used.
func TestWithNamedEverywhere(t *testing.T) {
	py := docPython(t)
	helper, err := filepath.Abs("../../python")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PYTHONPATH", helper)
	script := filepath.Join(helper, "examples", "feature_neighbours.py")
	withK := "external:command=" + py + " " + script + `,params='{"k": 3}'`
	withDefault := "external:command=" + py + " " + script
	t.Setenv("RUNEXP_DATA", "")

	dir := t.TempDir()
	cfg := filepath.Join(dir, "matrix.yaml")
	if err := os.WriteFile(cfg, []byte(namesMatrix), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	code, stdout, stderr := runCLI("-q", "--out", out, "--with", withK, "--with", withDefault, cfg)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	root := withResultDir(t, out)
	if !strings.Contains(filepath.Base(root), "feature-neighbours-k-3_feature-neighbours-") {
		t.Errorf("--with folder %s: want it named after the derived labels", root)
	}
	m := readManifest(t, filepath.Join(root, "matrix"))
	if len(m.With) != 2 || m.With[0].Label != "feature_neighbours[k=3]" || m.With[1].Label != "feature_neighbours" ||
		m.With[0].Ran["k"] != 3.0 || m.With[1].Ran["k"] != 5.0 {
		t.Errorf("manifest with: %+v; want the derived labels and k = 3 and 5 as ran", m.With)
	}
	// records.jsonl keeps each cell's parameters that ran (docs/external-
	// estimators.md: `ran`), and so does the cache: a rerun served from
	// it writes them again, and the manifest's.
	checkRan := func(when string) {
		t.Helper()
		recs, err := report.ReadJSONL(filepath.Join(root, "matrix", "records.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, r := range recs {
			want, ok := map[string]int{"feature_neighbours[k=3]": 3, "feature_neighbours": 5}[r.Method()]
			if !ok {
				continue
			}
			n++
			if r.Ran["k"] != want {
				t.Errorf("%s: records.jsonl: %s ran %v, want k = %d", when, r.Key, r.Ran, want)
			}
		}
		if n == 0 {
			t.Errorf("%s: no record of the added estimators", when)
		}
	}
	checkRan("computed")
	if code, stdout, stderr := runCLI("-q", "--out", out, "--with", withK, "--with", withDefault, cfg); code != exitOK || !strings.Contains(stdout, "(0 computed") {
		t.Fatalf("the rerun: exit %d, want every cell cached\n%s%s", code, stdout, stderr)
	}
	checkRan("cached")
	if m := readManifest(t, filepath.Join(root, "matrix")); len(m.With) != 2 || m.With[0].Ran["k"] != 3.0 {
		t.Errorf("the rerun's manifest with: %+v; want k = 3 as ran", m.With)
	}
	for _, page := range []string{filepath.Join(root, "matrix", "index.html"), filepath.Join(root, "index.html")} {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"Added estimators", "<td>feature_neighbours[k=3]</td>", "<td>feature_neighbours</td>",
			"--with ", "feature_neighbours.py,params=", "<td>k=3</td>", "<td>k=5</td>"} {
			if !strings.Contains(string(b), want) {
				t.Errorf("%s: no %q", page, want)
			}
		}
	}
	// The matrix table's rows carry the labels (escaped as Markdown: read
	// as written).
	if b, err := os.ReadFile(filepath.Join(root, "matrix", "tables.md")); err != nil || !strings.Contains(report.MarkdownUnescape(string(b)), "feature_neighbours[k=3]") {
		t.Errorf("matrix tables.md: %v; want a row of feature_neighbours[k=3]", err)
	}

	// The report needs the paper values (skipped, saying so, without).
	noDataWithPaperValues(t)
	out2 := filepath.Join(dir, "suite")
	code, stdout, stderr = runCLI("suite", "-q", "--configs", "../../configs", "--out", out2, "--only", "abrahamsen-hansen-fig3", "--with", withDefault)
	if code != exitOK {
		t.Fatalf("suite --with: exit %d\n%s%s", code, stdout, stderr)
	}
	root2 := withResultDir(t, out2)
	rep, err := os.ReadFile(filepath.Join(root2, "reports", "abrahamsen-hansen-regularized-preimage", "REPORT.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"feature_neighbours: `--with ", "feature_neighbours.py", "ran with k=5",
		// The commands name no folder of this machine's layout: out2 lies
		// outside the working folder, so by its name, and root2 inside it.
		"`runexp suite --baseline baseline --out suite --with ", "`runexp report --results suite/" + filepath.Base(root2) + " abrahamsen-hansen-regularized-preimage`"} {
		if !strings.Contains(report.MarkdownUnescape(string(rep)), want) {
			t.Errorf("REPORT.md: no %q", want)
		}
	}
}
