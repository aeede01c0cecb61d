package config_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/config"
)

// writeFiles writes name → content into a fresh folder and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestCollection(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a.yaml":   head,
		"b.yaml":   head,
		"set.yaml": "title: the set\nnotes: two configs\ncollection:\n  - a\n  - b.yaml\n",
	})
	c, col, err := config.Open(filepath.Join(dir, "set.yaml"))
	if err != nil || c != nil || col == nil {
		t.Fatalf("Open: config %v, collection %v, error %v; want a collection", c, col, err)
	}
	if col.Name != "set" || col.Title != "the set" || col.Notes != "two configs" || len(col.Members) != 2 {
		t.Fatalf("collection %+v", col)
	}
	// Members in order, on their lines (4 and 5), beside the collection.
	for i, want := range []config.Member{{Name: "a", File: filepath.Join(dir, "a.yaml"), Line: 4}, {Name: "b", File: filepath.Join(dir, "b.yaml"), Line: 5}} {
		if col.Members[i] != want {
			t.Errorf("member %d = %+v, want %+v", i, col.Members[i], want)
		}
	}
	if !config.IsCollection(filepath.Join(dir, "set.yaml")) || config.IsCollection(filepath.Join(dir, "a.yaml")) {
		t.Error("IsCollection tells a collection from a config wrongly")
	}
	// An experiment config through Open is a config.
	if c, col, err := config.Open(filepath.Join(dir, "a.yaml")); err != nil || c == nil || col != nil {
		t.Errorf("Open(a config) = %v, %v, %v", c, col, err)
	}
	// Load refuses a collection, at the line of its key.
	_, err = config.Load(filepath.Join(dir, "set.yaml"))
	if err == nil || !strings.Contains(err.Error(), "set.yaml:3: a collection of configs") {
		t.Errorf("Load(collection) error %v, want set.yaml:3: a collection of configs", err)
	}
	if _, err := config.LoadCollection(filepath.Join(dir, "a.yaml")); err == nil {
		t.Error("LoadCollection accepted an experiment config")
	}
}

func TestCollectionErrors(t *testing.T) {
	dir := writeFiles(t, map[string]string{"huang-table1.yaml": head, "zheng-lai-table1.yaml": head})
	for _, tc := range []struct {
		name, src, want string
	}{
		{"missing member", "title: t\ncollection:\n  - huang-table1\n  - huang-tabel1\n",
			"set.yaml:4: collection[1]: no config huang-tabel1 beside this collection"},
		{"missing member suggests", "title: t\ncollection:\n  - huang-tabel1\n", "did you mean huang-table1?"},
		{"listed twice", "title: t\ncollection:\n  - huang-table1\n  - huang-table1.yaml\n",
			"set.yaml:4: collection[1]: huang-table1 is already listed at line 3"},
		{"itself", "title: t\ncollection:\n  - set\n", "set.yaml:3: collection[0]: set names this collection itself"},
		{"a path", "title: t\ncollection:\n  - ../x\n", "set.yaml:3: collection[0]: \"../x\" holds a path separator"},
		{"empty", "title: t\ncollection: []\n", "set.yaml:2: collection: want a list of config names"},
		{"not a list", "title: t\ncollection: huang-table1\n", "set.yaml:2: collection: want a list of config names"},
		{"no title", "collection:\n  - huang-table1\n", "set.yaml:1: collection file: missing required key \"title\""},
		{"an experiment key", "title: t\nkind: denoise\ncollection:\n  - huang-table1\n",
			"set.yaml:2: collection file: unknown key \"kind\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := config.ParseAny(filepath.Join(dir, "set.yaml"), []byte(tc.src))
			var ce *config.Error
			if err == nil || !errors.As(err, &ce) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want a config error containing %q", err, tc.want)
			}
		})
	}
}
