package conformance_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/methods/conformance"
)

// TestCheckResults checks how Check records a tree of checks the way go
// test would: one Result per check, parents before their subtests, names
// as paths below the root, a failure marking every ancestor, Fatalf
// ending only its own check, a panic failing its check instead of the
// program, and Logf's notes kept in order without their trailing newline.
func TestCheckResults(t *testing.T) {
	var afterFatal, afterPanic, failedSeen bool
	res := conformance.Check("root", func(t conformance.T) {
		t.Helper()
		t.Logf("spec checked\n")
		t.Run("a", func(t conformance.T) {
			t.Run("ok", func(t conformance.T) { t.Logf("note %d", 1) })
			t.Run("bad", func(t conformance.T) {
				t.Errorf("want %d, got %d", 1, 2)
				failedSeen = t.Failed()
				t.Errorf("second")
			})
		})
		passed := t.Run("fatal", func(t conformance.T) {
			t.Fatalf("stop %s", "here")
			afterFatal = true
		})
		if passed {
			t.Errorf("Run reported a fatal check as passed")
		}
		t.Run("panics", func(t conformance.T) {
			var m map[string]int
			m["x"]++ // a nil map: the panic the kit must contain
			afterPanic = true
		})
		t.Run("quiet", func(t conformance.T) {})
	})
	if afterFatal {
		t.Error("the check went on after Fatalf")
	}
	if afterPanic {
		t.Error("the check went on after its panic")
	}
	if !failedSeen {
		t.Error("Failed was false after Errorf")
	}

	type brief struct {
		Name         string
		Failed, Leaf bool
		Errors       int
		Notes        []string
	}
	var got []brief
	byName := map[string]conformance.Result{}
	for _, r := range res {
		got = append(got, brief{r.Name, r.Failed, r.Leaf, len(r.Errors), r.Notes})
		byName[r.Name] = r
	}
	want := []brief{
		{"root", true, false, 0, []string{"spec checked"}},
		{"a", true, false, 0, nil},
		{"a/ok", false, true, 0, []string{"note 1"}},
		{"a/bad", true, true, 2, nil},
		{"fatal", true, true, 1, nil},
		{"panics", true, true, 1, nil},
		{"quiet", false, true, 0, nil},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("results:\n got %+v\nwant %+v", got, want)
	}
	if e := byName["a/bad"].Errors; len(e) == 2 && (e[0] != "want 1, got 2" || e[1] != "second") {
		t.Errorf("a/bad's errors are %q, want the two messages in order", e)
	}
	if e := byName["fatal"].Errors; len(e) == 1 && e[0] != "stop here" {
		t.Errorf("fatal's error is %q, want %q", e[0], "stop here")
	}
	if e := byName["panics"].Errors; len(e) == 1 && (!strings.HasPrefix(e[0], "panic: assignment to entry in nil map") || !strings.Contains(e[0], "goroutine")) {
		t.Errorf("the panic's error is %q, want the panic's value and its stack", e[0])
	}
}

// TestCheckRootFatal checks that a Fatalf outside any subtest (the Spec's
// checks of CheckRegistered) ends the root check and is its own error.
func TestCheckRootFatal(t *testing.T) {
	ran := false
	res := conformance.Check("spec", func(t conformance.T) {
		t.Fatalf("spec %q has no constructor", "toy")
		ran = true
	})
	if ran {
		t.Error("the root went on after Fatalf")
	}
	want := []conformance.Result{{Name: "spec", Failed: true, Leaf: true, Errors: []string{`spec "toy" has no constructor`}}}
	if !reflect.DeepEqual(res, want) {
		t.Errorf("got %+v, want %+v", res, want)
	}
}
