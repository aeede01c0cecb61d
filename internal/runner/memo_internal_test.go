package runner

import (
	"testing"

	"github.com/runexp/runexp/internal/config"
)

// memoHas reports whether the memo holds key.
func memoHas(key string) bool {
	memo.Lock()
	defer memo.Unlock()
	_, ok := memo.m[key]
	return ok
}

// TestMemoScope: an entry two configs asked for lives until the second
// lets go of it, and is then dropped (a third config computes it again);
// one asked for outside a config is kept.
func TestMemoScope(t *testing.T) {
	p := &Plan{}
	c := &config.Config{}
	a, b := p.env(c, "", nil), p.env(c, "", nil)
	calls := 0
	fn := func() (int, error) { calls++; return 7, nil }
	for _, e := range []*Env{a, a, b} {
		if v, err := Memo(e, "scope-test|shared", fn); v != 7 || err != nil {
			t.Fatalf("Memo = %d, %v", v, err)
		}
	}
	a.releaseMemo()
	a.releaseMemo() // a second release changes nothing
	if !memoHas("scope-test|shared") {
		t.Fatal("dropped while the second config holds it")
	}
	b.releaseMemo()
	if memoHas("scope-test|shared") {
		t.Fatal("kept after the last config let go of it")
	}
	c3 := p.env(c, "", nil)
	if _, err := Memo(c3, "scope-test|shared", fn); err != nil || calls != 2 {
		t.Errorf("a later config: %d computations, want 2 (%v)", calls, err)
	}
	c3.releaseMemo()

	if _, err := Memo(nil, "scope-test|kept", fn); err != nil {
		t.Fatal(err)
	}
	d := p.env(c, "", nil)
	if _, err := Memo(d, "scope-test|kept", fn); err != nil {
		t.Fatal(err)
	}
	d.releaseMemo()
	if !memoHas("scope-test|kept") {
		t.Error("an entry asked for outside a config was dropped")
	}
}
