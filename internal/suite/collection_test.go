package suite

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// stub is a config the collection tests expand but never run.
const stub = "title: t\npaper: p\nkind: local-minima\ndataset: {name: two-rings}\n"

// configsDir writes name → content (collections among them) into a
// fresh configs folder.
func configsDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name+".yaml"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func baseNames(files []string) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = strings.TrimSuffix(filepath.Base(f), ".yaml")
	}
	return out
}

func TestExpand(t *testing.T) {
	dir := configsDir(t, map[string]string{
		"a": stub, "b": stub, "c": stub,
		"inner": "title: inner\ncollection: [b, c]\n",
		"outer": "title: outer\ncollection:\n  - a\n  - inner\n  - b\n",
	})
	xs, cols, err := Expand([]string{filepath.Join(dir, "outer.yaml"), filepath.Join(dir, "c.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	// Members in order, a nested collection's in place, each config once
	// (b and c again after the first time are dropped).
	if got, want := baseNames(Files(xs)), []string{"a", "b", "c"}; !slices.Equal(got, want) {
		t.Errorf("configs %v, want %v", got, want)
	}
	if got := xs[1].Via; !slices.Equal(got, []string{"outer", "inner"}) {
		t.Errorf("b reached through %v, want [outer inner]", got)
	}
	if len(cols) != 2 || cols[0].Name != "outer" || cols[1].Name != "inner" {
		t.Errorf("collections met: %v", cols)
	}
	// A config named directly is reached through nothing.
	xs, _, err = Expand([]string{filepath.Join(dir, "c.yaml")})
	if err != nil || len(xs) != 1 || xs[0].Via != nil {
		t.Errorf("Expand(config) = %v, %v", xs, err)
	}
}

func TestExpandCycle(t *testing.T) {
	dir := configsDir(t, map[string]string{
		"a":     stub,
		"one":   "title: one\ncollection:\n  - a\n  - two\n",
		"two":   "title: two\ncollection:\n  - three\n",
		"three": "title: three\ncollection:\n  - one\n",
	})
	_, _, err := Expand([]string{filepath.Join(dir, "one.yaml")})
	// The member that closes the cycle, at its line in its file.
	want := "three.yaml:3: collection[0]: one forms a cycle: one → two → three → one"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want %q", err, want)
	}
}

func TestResolve(t *testing.T) {
	dir := configsDir(t, map[string]string{"zheng-lai-table2": stub, "zheng-lpkpca-table2": stub, "huang-table1": stub, "table1": "title: t\ncollection: [huang-table1]\n"})
	// A bare name is DIR/NAME.yaml; a path that exists is itself.
	if f, err := Resolve(dir, "huang-table1"); err != nil || f != filepath.Join(dir, "huang-table1.yaml") {
		t.Errorf("Resolve(huang-table1) = %q, %v", f, err)
	}
	p := filepath.Join(dir, "table1.yaml")
	if f, err := Resolve(dir, p); err != nil || f != p {
		t.Errorf("Resolve(%s) = %q, %v", p, f, err)
	}
	// A config that does not exist: the closest names, collections too.
	for _, tc := range []struct {
		arg  string
		want []string
	}{
		{"zheng-table2", []string{"zheng-lai-table2", "zheng-lpkpca-table2"}},
		{filepath.Join(dir, "zheng-table2.yaml"), []string{"zheng-lai-table2", "zheng-lpkpca-table2"}},
		{"tabel1", []string{"table1", "huang-table1"}},
		{"frobnicate", nil},
	} {
		_, err := Resolve(dir, tc.arg)
		var nf *NotFoundError
		if !errors.As(err, &nf) {
			t.Fatalf("Resolve(%s): %v, want a NotFoundError", tc.arg, err)
		}
		if !slices.Equal(nf.Closest, tc.want) {
			t.Errorf("Resolve(%s): closest %v, want %v", tc.arg, nf.Closest, tc.want)
		}
		if len(tc.want) == 0 && !strings.Contains(err.Error(), "runexp list configs") {
			t.Errorf("Resolve(%s): %v does not point to runexp list configs", tc.arg, err)
		}
	}
}

func TestSelectCollections(t *testing.T) {
	dir := configsDir(t, map[string]string{
		"zheng-lai-table1": stub, "huang-table1": stub, "huang-fig5": stub, "nguyen-table2": stub,
		"table1": "title: t\ncollection: [zheng-lai-table1, huang-table1]\n",
	})
	for _, tc := range []struct {
		name       string
		args, only []string
		want       []string
	}{
		// Every config, never a collection (its members are there).
		{"all", nil, nil, []string{"huang-fig5", "huang-table1", "nguyen-table2", "zheng-lai-table1"}},
		// --only naming a collection brings its members, in name order.
		{"only a collection", nil, []string{"table1"}, []string{"huang-table1", "zheng-lai-table1"}},
		{"only both", nil, []string{"table1", "nguyen-*"}, []string{"huang-table1", "nguyen-table2", "zheng-lai-table1"}},
		// A collection named: its members, in its order.
		{"named", []string{"table1", "huang-fig5"}, nil, []string{"zheng-lai-table1", "huang-table1", "huang-fig5"}},
		// --only filters a named collection's members by their names.
		{"named and only", []string{"table1"}, []string{"huang-*"}, []string{"huang-table1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files, err := Select(dir, tc.args, tc.only)
			if err != nil {
				t.Fatal(err)
			}
			if got := baseNames(files); !slices.Equal(got, tc.want) {
				t.Errorf("selected %v, want %v", got, tc.want)
			}
		})
	}
	if _, err := Select(dir, nil, []string{"nothing-*"}); err == nil || !strings.Contains(err.Error(), "matches none of the 4 configs") {
		t.Errorf("a glob matching nothing: %v", err)
	}
}

// Load expands a collection into entries that say where they came from.
func TestLoadCollection(t *testing.T) {
	fig2, err := os.ReadFile("../../configs/abrahamsen-hansen-fig2.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := configsDir(t, map[string]string{"a": string(fig2), "b": string(fig2), "set": "title: t\ncollection: [a, b]\n"})
	es, err := Load([]string{filepath.Join(dir, "set.yaml")}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 2 || es[0].Config.Name != "a" || es[1].Config.Name != "b" || !slices.Equal(es[1].Via, []string{"set"}) {
		t.Errorf("entries %+v", es)
	}
}
