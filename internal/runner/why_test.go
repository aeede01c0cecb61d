package runner

import (
	"testing"

	"github.com/runexp/runexp/internal/codefp"
)

// TestContextDiff: two config contexts (canonical keys of nested
// sections) differ key by key, with the old and new values, a quoted
// value's commas and a list's braces not splitting it.
func TestContextDiff(t *testing.T) {
	old := `corruption={std=0.1,type=gaussian},dataset={name=usps,subset="a,b"},experiment={grid=[1 2],x={y=1}},kernel=gaussian,kind=denoise,seed=1`
	now := `corruption={std=0.2,type=gaussian},dataset={name=usps,subset="a,c"},experiment={grid=[1 2],x={y=2}},kernel=gaussian,kind=denoise,seed=1,z=3`
	want := `corruption.std 0.1 → 0.2, dataset.subset "a,b" → "a,c", experiment.x.y 1 → 2, z unset → 3`
	if got := ContextDiff(old, now); got != want {
		t.Errorf("ContextDiff:\n got %s\nwant %s", got, want)
	}
}

// TestDeclDiff: the declarations that changed between two digests, a
// method named as Type.Method.
func TestDeclDiff(t *testing.T) {
	old := map[string]string{"a.go#F#0": "1", "a.go#T.M,T#0": "2", "b.go#G#0": "3"}
	now := map[string]string{"a.go#F#0": "1", "a.go#T.M,T#0": "9", "c.go#H#0": "4"}
	var got []string
	for _, d := range codefp.Diff(old, now) {
		got = append(got, d.String())
	}
	want := []string{"a.go: T.M (changed)", "b.go: G (removed)", "c.go: H (added)"}
	if len(got) != len(want) {
		t.Fatalf("diff %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("diff %q, want %q", got, want)
		}
	}
}
