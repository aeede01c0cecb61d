package registry_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/runexp/runexp/internal/registry"
)

type spec struct {
	Name string
	File string
}

// TestStoredOnce checks that a registered value is stored once and handed
// out by pointer: Add's result and every Lookup are the same value, a
// field filled in through it is seen by all, and the caller's own copy is
// not that value.
func TestStoredOnce(t *testing.T) {
	r := registry.New[spec]("test: spec")
	mine := spec{Name: "a"}
	p := r.Add("a", mine)
	q, ok := r.Lookup("a")
	if !ok || p != q {
		t.Fatalf("Lookup gave %p (%t), Add %p", q, ok, p)
	}
	p.File = "a.go"
	if q.File != "a.go" || mine.File != "" {
		t.Errorf("stored %+v, caller's copy %+v", *q, mine)
	}
	if all := r.All(); len(all) != 1 || all[0] != p {
		t.Errorf("All %v, want the stored value", all)
	}
}

// TestEmptyAndOrder checks an empty registry and the name order of All
// and Names whatever the order of registration.
func TestEmptyAndOrder(t *testing.T) {
	r := registry.New[spec]("test: spec")
	if len(r.All()) != 0 || len(r.Names()) != 0 {
		t.Errorf("empty registry lists %v, %v", r.All(), r.Names())
	}
	if _, ok := r.Lookup(""); ok {
		t.Error("an empty registry found a value")
	}
	for _, n := range []string{"mika", "identity", "kwok-tsang", "external"} {
		r.Add(n, spec{Name: n})
	}
	want := []string{"external", "identity", "kwok-tsang", "mika"}
	if got := r.Names(); !slices.Equal(got, want) {
		t.Errorf("Names %v, want %v", got, want)
	}
	for i, s := range r.All() {
		if s.Name != want[i] {
			t.Errorf("All[%d] is %s, want %s", i, s.Name, want[i])
		}
	}
}

// TestDuplicateKeepsFirst checks that a second registration of a name
// panics with the registry's words and leaves the first value in place.
func TestDuplicateKeepsFirst(t *testing.T) {
	r := registry.New[spec]("methods: estimator")
	r.Add("mika", spec{File: "first.go"})
	func() {
		defer func() {
			if got := fmt.Sprint(recover()); got != `methods: estimator "mika" registered twice` {
				t.Errorf("panic %q", got)
			}
		}()
		r.Add("mika", spec{File: "second.go"})
	}()
	if s, _ := r.Lookup("mika"); s.File != "first.go" {
		t.Errorf("the duplicate replaced the first: %+v", *s)
	}
}

// TestConcurrent registers and reads from many goroutines at once (run
// with -race to check the lock): every name ends registered once.
func TestConcurrent(t *testing.T) {
	r := registry.New[spec]("test: spec")
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := fmt.Sprintf("s%02d", i)
			r.Add(n, spec{Name: n})
			r.Lookup(n)
			r.All()
		}()
	}
	wg.Wait()
	if got := r.Names(); len(got) != 16 || got[0] != "s00" || got[15] != "s15" {
		t.Errorf("names %v", got)
	}
}
