package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/datasets"
)

// TestFeatureCache checks the derived-feature cache: a stored set reads
// back bit for bit under its key; another key (other inputs, another
// GISTVersion), a truncated file and a missing file all miss, so stale
// or damaged descriptors are recomputed rather than used.
func TestFeatureCache(t *testing.T) {
	dir := t.TempDir()
	path, key := featureCachePath(dir, "test", "v1", "a.jpg 00ff")
	path2, key2 := featureCachePath(dir, "test", "v1", "a.jpg 00fe")
	if path == path2 || key == key2 {
		t.Fatal("different inputs give the same cache entry")
	}
	if _, ok := readFeatures(path, key); ok {
		t.Fatal("hit before anything was written")
	}
	set := &datasets.Set{Name: "s", X: mat.NewDense(2, 3, []float64{1, 2.5, -3, 1e-300, 0, 7}), Labels: []int{1, 0}, LabelNames: []string{"x", "y"}}
	if err := writeFeatures(path, key, set); err != nil {
		t.Fatal(err)
	}
	got, ok := readFeatures(path, key)
	if !ok {
		t.Fatal("miss after write")
	}
	if !mat.Equal(got.X, set.X) || got.Name != "s" || got.Labels[0] != 1 || got.LabelNames[1] != "y" {
		t.Errorf("read back %v %v %v, want %v", mat.Formatted(got.X), got.Labels, got.LabelNames, mat.Formatted(set.X))
	}
	// A file under another key's name is not trusted.
	b, _ := os.ReadFile(path)
	if err := os.WriteFile(path2, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := readFeatures(path2, key2); ok {
		t.Error("a file holding another key was used")
	}
	if err := os.WriteFile(path, b[:len(b)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := readFeatures(path, key); ok {
		t.Error("a truncated file was used")
	}
}

// TestFeatureCacheKeys checks that the key separates its parts: moving a
// character from one part to the next names another entry, as does the
// prefix (another kind of feature).
func TestFeatureCacheKeys(t *testing.T) {
	dir := t.TempDir()
	a, ka := featureCachePath(dir, "gist", "ab", "c")
	b, kb := featureCachePath(dir, "gist", "a", "bc")
	c, _ := featureCachePath(dir, "hog", "ab", "c")
	if a == b || ka == kb || a == c {
		t.Errorf("entries %s, %s, %s: want three", a, b, c)
	}
	if filepath.Dir(a) != filepath.Join(dir, "features") || !strings.HasPrefix(filepath.Base(a), "gist-") {
		t.Errorf("entry %s, want features/gist-… under the cache", a)
	}
}

// TestFeatureCacheLinks checks that the feature cache, like the cell
// cache, follows no link below its folder: a sound entry behind a linked
// features folder is not read, and nothing is written through it.
func TestFeatureCacheLinks(t *testing.T) {
	other, dir := t.TempDir(), t.TempDir()
	set := &datasets.Set{Name: "s", X: mat.NewDense(1, 2, []float64{1, 2}), Labels: []int{0}}
	path, key := featureCachePath(other, "test", "v1")
	if err := writeFeatures(path, key, set); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(other, "features"), filepath.Join(dir, "features")); err != nil {
		t.Fatal(err)
	}
	linked, key2 := featureCachePath(dir, "test", "v1")
	if _, ok := readFeatures(linked, key2); ok {
		t.Error("an entry was read through a link")
	}
	p3, k3 := featureCachePath(dir, "test", "v2")
	if err := writeFeatures(p3, k3, set); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("a write through a link: %v", err)
	}
	if ents, _ := os.ReadDir(filepath.Join(other, "features")); len(ents) != 1 {
		t.Errorf("%d entries behind the link, want the 1 written there", len(ents))
	}
}
