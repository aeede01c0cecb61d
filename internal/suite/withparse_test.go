package suite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParseWithRefusals checks that a malformed --with SPEC is a usage
// error naming the SPEC and what is wrong with it, before anything runs.
func TestParseWithRefusals(t *testing.T) {
	for _, tc := range []struct{ arg, want string }{
		{"", `--with "": want NAME or NAME:key=value,key=value`},
		{":tol=1", `--with ":tol=1": want NAME`},
		{"mikka", `--with mikka: unknown estimator "mikka" (registered: `},
		{"mika:", "--with mika:: no parameters after ':'"},
		{"mika:tol", `--with mika:tol: "tol" is not key=value`},
		{"mika:=1", `--with mika:=1: "=1" is not key=value`},
		{"mika:label=", "--with mika:label=: empty label"},
		{"mika:tol=1,tol=2", `--with mika:tol=1,tol=2: parameter "tol" given twice`},
		{"mika:tol=", "--with mika:tol=: parameter tol: empty value"},
		{"mika:tol=[1, 2]", "parameter tol: value \"[1\": "},
		{"mika:max_iter={a: 1}", "want a scalar (a number, boolean or string)"},
		{"mika:max_iter=1e300", "--with mika:max_iter=1e300: parameter max_iter: parameter \"max_iter\": integer 1e+300 out of range"},
		{"mika:max_iter=9007199254740993", "integer 9007199254740993 out of range (want |n| ≤ 2^53)"},
		{"mika:nope=1", `--with mika:nope=1: parameter nope: parameter "nope": unknown for mika`},
		{"mika:max_iter=abc", "--with mika:max_iter=abc: parameter max_iter"},
	} {
		if _, err := ParseWith(tc.arg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseWith(%q): %v, want %q", tc.arg, err, tc.want)
		}
	}
}

// TestParseWithScalars checks the types --with gives values, those a
// config's YAML would: integers, floats, booleans and strings, quoted
// ones kept as strings, spaces around names, keys and values trimmed.
func TestParseWithScalars(t *testing.T) {
	w, err := ParseWith(" external : command=python3 est.py , label = Mine ")
	if err != nil {
		t.Fatal(err)
	}
	if w.Name != "external" || w.Label != "Mine" || w.Params["command"] != "python3 est.py" {
		t.Errorf("name %q, label %q, command %q", w.Name, w.Label, w.Params["command"])
	}
	for _, tc := range []struct {
		v    string
		want any
	}{
		{"3", 3}, {"-2", -2}, {"0.5", 0.5}, {"1e-6", 1e-6}, {"true", true}, {"false", false},
		{"noisy", "noisy"}, {`"3"`, "3"}, {"'x y'", "x y"},
	} {
		got, err := withScalar(tc.v)
		if err != nil || got != tc.want {
			t.Errorf("withScalar(%q) = %#v, %v; want %#v", tc.v, got, err, tc.want)
		}
	}
	if w, err := ParseWith("mika:max_iter=20"); err != nil || w.Bound["max_iter"] != 20 || w.Bound["tol"] == nil {
		t.Errorf("bound parameters %v, %v: want max_iter 20 and the defaults filled in", w.Bound, err)
	}
}

// TestRoot checks where a --with run writes: --out itself without --with,
// with-SLUG inside it, or the folder --with-dir names (or --out itself
// for "."), never a path out of --out or through a symbolic link.
func TestRoot(t *testing.T) {
	out := t.TempDir()
	ws, err := ParseWiths([]string{"tikhonov"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir  string
		ws   []*With
		want string
	}{
		{"", nil, out},
		{"", ws, filepath.Join(out, Slug(ws))},
		{"mine", ws, filepath.Join(out, "mine")},
		{".", ws, out},
	} {
		if got, err := Root(out, tc.dir, tc.ws); err != nil || got != tc.want {
			t.Errorf("Root(out, %q, %d specs) = %q, %v; want %q", tc.dir, len(tc.ws), got, err, tc.want)
		}
	}
	for _, tc := range []struct {
		dir  string
		ws   []*With
		want string
	}{
		{"mine", nil, "--with-dir mine: only with --with"},
		{"../elsewhere", ws, "--with-dir ../elsewhere: want a folder name inside --out"},
		{"/tmp/abs", ws, "want a folder name inside --out"},
		{"link", ws, "is a symbolic link"},
	} {
		if tc.dir == "link" {
			if err := os.Symlink(t.TempDir(), filepath.Join(out, "link")); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := Root(out, tc.dir, tc.ws); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Root(out, %q): %v, want %q", tc.dir, err, tc.want)
		}
	}
}

// TestParseWithQuoted: a value that begins with a quote runs to its
// closing quote, commas included (a JSON object for external's params, a
// label with a comma), read as YAML reads a quoted scalar; a quote
// elsewhere is an ordinary character; an unclosed quote or text after the
// closing one is an error naming the key.
func TestParseWithQuoted(t *testing.T) {
	w, err := ParseWith(`external:command=python3 est.py,params='{"k": 1, "alpha": 0.5}',label='Mine, k = 1'`)
	if err != nil {
		t.Fatal(err)
	}
	if got := w.Params["params"]; got != `{"k": 1, "alpha": 0.5}` {
		t.Errorf("params = %#v", got)
	}
	if w.Label != "Mine, k = 1" || w.Params["command"] != "python3 est.py" {
		t.Errorf("label %q, command %q", w.Label, w.Params["command"])
	}
	if w, err := ParseWith(`external:command=python3 est.py,params="{\"k\": 2, \"b\": 1}"`); err != nil || w.Params["params"] != `{"k": 2, "b": 1}` {
		t.Errorf("double-quoted: %v, %v", w, err)
	}
	if w, err := ParseWith(`mika:label=Kwok's,start=noisy`); err != nil || w.Label != "Kwok's" || w.Params["start"] != "noisy" {
		t.Errorf("an apostrophe inside a value: %v, %v", w, err)
	}
	if w, err := ParseWith(`mika:label='it''s, mine'`); err != nil || w.Label != "it's, mine" {
		t.Errorf("a doubled quote: %v, %v", w, err)
	}
	for _, tc := range []struct{ arg, want string }{
		{`external:params='{"k": 1`, "params: unclosed ' quote"},
		{`external:params='{"k": 1}'x,command=a`, "params: text after the closing quote"},
	} {
		if _, err := ParseWith(tc.arg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseWith(%q): %v, want %q", tc.arg, err, tc.want)
		}
	}
}
