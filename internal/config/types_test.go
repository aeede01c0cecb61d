package config_test

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/config"
)

// TestParseTypeErrors checks the errors of values of the wrong kind or
// combination in every section, each at the line of the value at fault
// (or of its section when what is wrong is a missing key) and saying
// what was wanted and what came: the message a user who typed the config
// reads first.
func TestParseTypeErrors(t *testing.T) {
	for _, tc := range []struct {
		src  string
		line int
		want string
	}{
		{"title: t\npaper: [p]\nkind: k\ndataset: {name: d}\n", 2, "paper: want a string, got a list"},
		{"title: t\npaper: p\nkind: {k: 1}\ndataset: {name: d}\n", 3, "kind: want a string, got a mapping"},
		{head + "notes: [a]\n", 5, "notes: want a string, got a list"},
		{head + "reading: {a: 1}\n", 5, "reading: want a string, got a mapping"},
		{head + "diagnostic: [yes please]\n", 5, `diagnostic: want a string saying what the diagnostic probes of our data`},
		{head + "diagnostic: \"a probe\"\n", 5, "diagnostic: needs variant_of: only a variant reads, is post hoc or is a diagnostic of a base config"},
		{"title: t\npaper: p\nkind: k\ndataset: {size: 3}\n", 4, "dataset: want a name: string (e.g. name: usps)"},
		{"title: t\npaper: p\nkind: k\ndataset: {name: 3}\n", 4, "dataset: want a name: string"},
		{head + "corruption: {type: occlusion, min_side: 2}\n", 5, "corruption: occlusion needs min_side and max_side (pixels)"},
		{head + "corruption:\n  type: occlusion\n  min_side: 4\n  max_side: 2\n", 8, "corruption: max_side 2 is below min_side 4"},
		{head + "corruption: {type: gaussian, std: 1, clip: true, stretch: true}\n", 5, "corruption: clip and stretch exclude each other"},
		{head + "corruption: {std: 1}\n", 5, "corruption: want type: none | gaussian | occlusion"},
		{head + "model:\n  kernel: [gaussian]\n", 6, "model.kernel: want a string, got a list"},
		{head + "model:\n  kernel: polynomial\n", 6, "model: a polynomial kernel needs degree"},
		{head + "model:\n  kernel: polynomial\n  degree: 0\n", 7, "model.degree: 0 is impossible, want an integer ≥ 1"},
		{head + "model:\n  kernel: polynomial\n  degree: 2\n  offset: high\n", 8, `model.offset: want a number, got the string "high"`},
		{head + "model:\n  kernel: linear\n  c: 1\n", 7, `model.c: only a gaussian kernel has a width (kernel is "linear")`},
		{head + "model:\n  kernel: gaussian\n  c: 1\n  gamma: 2\n", 6, "model: a gaussian kernel needs exactly one of c"},
		{head + "methods: mika\n", 5, `methods: want a list of estimators (- name: mika), got the string "mika"`},
		{head + "methods:\n  - name: [mika]\n", 6, "methods[0].name: want a string, got a list"},
		{head + "methods:\n  - name: mika\n    label: [x]\n", 7, "methods[0].label: want a string, got a list"},
		{head + "reference: {a: 1}\n", 5, "reference: want a list of paper values, got a mapping"},
		{head + "reference:\n  - {source: [s], metric: m, cell: {}, value: 1}\n", 6, "reference[0].source: want a string, got a list"},
		{head + "claims: {a: 1}\n", 5, "claims: want a list of claims, got a mapping"},
		{head + "claims:\n  - id: [c]\n    check: {type: value}\n", 6, "claims[0].id: want a string, got a list"},
		{head + "claims:\n  - id: c\n    check: value\n", 7, `claims[0].check: want a mapping (key: value lines), got the string "value"`},
		{head + "claims:\n  - id: c\n    statement: [s]\n    check: {type: value}\n", 7, "claims[0].statement: want a string, got a list"},
	} {
		_, err := config.Parse("f.yaml", []byte(tc.src))
		var e *config.Error
		if !errors.As(err, &e) {
			t.Errorf("%q: error %v, want a *config.Error", tc.src, err)
			continue
		}
		if want := fmt.Sprintf("f.yaml:%d: %s", tc.line, tc.want); !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q:\n got %q\nwant %q…", tc.src, err, want)
		}
	}
}

// TestCollectionLoad checks the two ways to read a collection: Open
// tells a collection from a config, LoadCollection refuses a config at
// line 1 saying what a collection is, and Errorf places an error at a
// line of the collection's file.
func TestCollectionLoad(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := dir + "/" + name + ".yaml"
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cfg := write("a", head)
	col := write("set", "title: both\ncollection:\n  - a\n")
	c, co, err := config.Open(cfg)
	if err != nil || c == nil || co != nil {
		t.Errorf("Open(config) = %v, %v, %v", c, co, err)
	}
	c, co, err = config.Open(col)
	if err != nil || c != nil || co == nil || co.Title != "both" || len(co.Members) != 1 || co.Members[0].Line != 3 {
		t.Errorf("Open(collection) = %v, %+v, %v", c, co, err)
	}
	if _, err := config.LoadCollection(cfg); err == nil || !strings.HasPrefix(err.Error(), cfg+":1: an experiment config, not a collection") {
		t.Errorf("LoadCollection(config): %v", err)
	}
	if err := co.Errorf(3, "member %s: %s", "a", "gone"); err.Error() != col+":3: member a: gone" {
		t.Errorf("Errorf: %q", err)
	}
	if _, _, err := config.Open(dir + "/missing.yaml"); err == nil || !strings.Contains(err.Error(), "missing.yaml") {
		t.Errorf("Open(missing): %v", err)
	}
}

// TestNumber checks config.Number on what YAML and JSON give for a
// number (an int when integral, else a float64) and on what is none.
func TestNumber(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want float64
		ok   bool
	}{
		{3, 3, true},
		{-2.5, -2.5, true},
		{"3", 0, false},
		{true, 0, false},
		{nil, 0, false},
	} {
		if got, ok := config.Number(tc.v); got != tc.want || ok != tc.ok {
			t.Errorf("Number(%#v) = %v, %t; want %v, %t", tc.v, got, ok, tc.want, tc.ok)
		}
	}
}
