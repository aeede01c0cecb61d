package catalog

import (
	"os"
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
