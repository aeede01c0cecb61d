package config_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/config"
)

// paperValues is a paper-values file in the layout of
// ../shared/paper-values/*.yaml: a citation and tables of printed rows.
const paperValues = `citation:
  title: "Kernel PCA and de-noising"
  year: 2020
tables:
  - id: table1
    rows:
      - {value: 10.6, printed: "10.60", std_printed: "2.84"}
      - {value: 0.125, printed: ".125"}
  - id: table2
    rows: []
`

// TestPaperTitle reads citation.title, and refuses a file without one, a
// file that is not YAML (with its line) and a missing file.
func TestPaperTitle(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"p.yaml":        paperValues,
		"untitled.yaml": "citation:\n  year: 2001\n",
		"bad.yaml":      "citation: x\n  title: p\n",
	})
	got, err := config.PaperTitle(filepath.Join(dir, "p.yaml"))
	if err != nil || got != "Kernel PCA and de-noising" {
		t.Errorf("PaperTitle = %q, %v; want the citation's title", got, err)
	}
	for _, c := range []struct{ file, want string }{
		{"untitled.yaml", "untitled.yaml: paper values: no citation.title"},
		{"bad.yaml", "bad.yaml:2: not valid YAML: mapping values are not allowed"},
		{"missing.yaml", "config: stat " + filepath.Join(dir, "missing.yaml")},
	} {
		got, err := config.PaperTitle(filepath.Join(dir, c.file))
		if err == nil || got != "" || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %q, %v; want an error containing %q", c.file, got, err, c.want)
		}
	}
}

// TestPaperTableValues reads a table's rows in order with their printed
// forms, an empty table as no rows, and names a table the file lacks.
func TestPaperTableValues(t *testing.T) {
	dir := writeFiles(t, map[string]string{"p.yaml": paperValues, "bad.yaml": "tables: {id: [\n"})
	path := filepath.Join(dir, "p.yaml")
	rows, err := config.PaperTableValues(path, "table1")
	if err != nil {
		t.Fatal(err)
	}
	want := []config.PrintedValue{{Value: 10.6, Printed: "10.60", StdPrinted: "2.84"}, {Value: 0.125, Printed: ".125"}}
	if len(rows) != len(want) || rows[0] != want[0] || rows[1] != want[1] {
		t.Errorf("table1 = %+v, want %+v", rows, want)
	}
	if rows, err := config.PaperTableValues(path, "table2"); err != nil || len(rows) != 0 {
		t.Errorf("table2 = %+v, %v; want no rows", rows, err)
	}
	if _, err := config.PaperTableValues(path, "table3"); err == nil || err.Error() != path+`: paper values: no table "table3"` {
		t.Errorf("table3: %v, want %s: paper values: no table \"table3\"", err, path)
	}
	if _, err := config.PaperTableValues(filepath.Join(dir, "bad.yaml"), "table1"); err == nil || !strings.Contains(err.Error(), "not valid YAML") {
		t.Errorf("bad.yaml: %v, want not valid YAML", err)
	}
	if _, err := config.PaperTableValues(filepath.Join(dir, "none.yaml"), "table1"); err == nil || !strings.HasPrefix(err.Error(), "config: ") {
		t.Errorf("missing file: %v, want a config: error", err)
	}
}

// TestErrorPlacement: ModelErrorf points at the model section, Section.Line
// at a key's own line or, for a key the section lacks, at the section's,
// and Error without a line prints FILE: only. A block section's line is
// its mapping's, which starts at its first key (the line below model:).
func TestErrorPlacement(t *testing.T) {
	c := mustParse(t, head+"model:\n  kernel: linear\nexperiment:\n  trials: 3\n  seeds: [1, 2]\n")
	if got := c.ModelErrorf("components %d too many", 9).Error(); got != "f.yaml:6: components 9 too many" {
		t.Errorf("ModelErrorf = %q, want f.yaml:6: components 9 too many", got)
	}
	for key, want := range map[string]int{"trials": 8, "seeds": 9, "absent": 8} {
		if got := c.Experiment.Line(key); got != want {
			t.Errorf("Experiment.Line(%q) = %d, want %d", key, got, want)
		}
	}
	if got := c.Experiment.Errorf("absent", "want %s", "it").Error(); got != "f.yaml:8: want it" {
		t.Errorf("Errorf(absent key) = %q, want f.yaml:8: want it", got)
	}
	if got := c.Dataset.Options.Line("name"); got != 4 {
		t.Errorf("Dataset.Options.Line(name) = %d, want 4 (the flow mapping's line)", got)
	}
	e := &config.Error{File: "x.yaml", Msg: "no line"}
	if e.Error() != "x.yaml: no line" {
		t.Errorf("Error without a line = %q", e.Error())
	}
}

// TestDescribeInErrors: a wrong type is described as the value the file
// holds — a list, a mapping, nothing, a string, an alias, a number — so
// the error says what came as well as what was wanted.
func TestDescribeInErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{head + "methods: {name: mika}\n", "f.yaml:5: methods: want a list of estimators (- name: mika), got a mapping"},
		{head + "methods:\n", "f.yaml:5: methods: want a list of estimators (- name: mika), got nothing"},
		{head + "methods: mika\n", `f.yaml:5: methods: want a list of estimators (- name: mika), got the string "mika"`},
		{head + "methods: 3\n", "f.yaml:5: methods: want a list of estimators (- name: mika), got 3"},
		{head + "claims: {a: 1}\n", "f.yaml:5: claims: want a list of claims, got a mapping"},
		{head + "reference: true\n", "f.yaml:5: reference: want a list of paper values, got true"},
		{head + "diagnostic: [1]\n", "f.yaml:5: diagnostic: want a string saying what the diagnostic probes of our data (e.g. diagnostic: \"the graph built from the labels\"), got a list"},
		{"title: t\npaper: p\nkind: k\ndataset: [d]\n", "f.yaml:4: dataset: want a mapping (key: value lines), got a list"},
	} {
		_, err := config.Parse("f.yaml", []byte(c.src))
		if err == nil || err.Error() != c.want {
			t.Errorf("Parse:\n%s\nerror %v\nwant  %s", c.src, err, c.want)
		}
	}
}

// TestLoadCollectionRefusals: LoadCollection names a config that is not a
// collection at line 1, and passes on the reason a file cannot be read.
func TestLoadCollectionRefusals(t *testing.T) {
	dir := writeFiles(t, map[string]string{"a.yaml": head, "bad.yaml": "collection: [a\n"})
	_, err := config.LoadCollection(filepath.Join(dir, "a.yaml"))
	if err == nil || err.Error() != filepath.Join(dir, "a.yaml")+":1: an experiment config, not a collection (collection: a list of configs)" {
		t.Errorf("LoadCollection(config) = %v", err)
	}
	for _, f := range []string{"bad.yaml", "none.yaml"} {
		col, err := config.LoadCollection(filepath.Join(dir, f))
		if err == nil || col != nil || !strings.Contains(err.Error(), f) {
			t.Errorf("LoadCollection(%s) = %v, %v; want an error naming the file", f, col, err)
		}
	}
}
