package conformance

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// T is what the kit needs from a test: the methods of *testing.T it uses,
// and Run, which runs a check as a subtest. Package methodtest adapts a
// *testing.T to it; Check's runs the kit outside go test, so that the
// runexp binary does not link package testing.
type T interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	Logf(format string, args ...any)
	Failed() bool
	// Run runs f as the subtest name and reports whether it passed.
	Run(name string, f func(T)) bool
}

// run runs f as the subtest name of t.
func run(t T, name string, f func(T)) bool { return t.Run(name, f) }

// Result is the verdict of one check run by Check.
type Result struct {
	// Name is the check's path, its subtest names joined by "/".
	Name string
	// Failed reports an Errorf or Fatalf in the check or its subtests.
	Failed bool
	// Leaf is true for a check with no subtests.
	Leaf bool
	// Errors and Notes hold the check's own Errorf/Fatalf and Logf
	// messages, in order.
	Errors, Notes []string
}

// Check runs f, which drives the kit (CheckRegistered or CheckEstimator),
// outside go test and returns one Result per check, parents before their
// subtests: first the root, named name, which holds what f reports outside
// any subtest (CheckRegistered's checks of the Spec), then the subtests
// by their paths without the root's name ("Denoiser/exact-denoise"). Like go
// test, Fatalf ends the check it is called in, and a panic that escapes
// the kit fails its check instead of the program.
func Check(name string, f func(T)) []Result {
	var out []*Result
	top := &check{results: &out}
	top.Run(name, f)
	res := make([]Result, len(out))
	for i, r := range out {
		res[i] = *r
	}
	return res
}

// check is one running check of Check.
type check struct {
	path    string // prefix of the subtests' names
	res     *Result
	results *[]*Result
	parent  *check
}

// Run runs f as the check name below c.
func (c *check) Run(name string, f func(T)) bool {
	full, path := name, ""
	if c.res != nil {
		// Below the root, names are paths.
		full = c.path + name
		path = full + "/"
	}
	child := &check{path: path, results: c.results, parent: c}
	child.res = &Result{Name: full, Leaf: true}
	*c.results = append(*c.results, child.res)
	if c.res != nil {
		c.res.Leaf = false
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			// recover is nil after Fatalf's Goexit.
			if r := recover(); r != nil {
				child.fail(fmt.Sprintf("panic: %v\n%s", r, debug.Stack()))
			}
		}()
		f(child)
	}()
	<-done
	return !child.res.Failed
}

func (c *check) fail(msg string) {
	c.res.Errors = append(c.res.Errors, msg)
	for p := c; p != nil && p.res != nil; p = p.parent {
		p.res.Failed = true
	}
}

func (c *check) Helper() {}

func (c *check) Errorf(format string, args ...any) { c.fail(fmt.Sprintf(format, args...)) }

func (c *check) Fatalf(format string, args ...any) {
	c.fail(fmt.Sprintf(format, args...))
	runtime.Goexit()
}

func (c *check) Logf(format string, args ...any) {
	c.res.Notes = append(c.res.Notes, strings.TrimRight(fmt.Sprintf(format, args...), "\n"))
}

func (c *check) Failed() bool { return c.res.Failed }
