package main

import (
	"flag"
	"fmt"
	"io"
	"maps"
	"strings"

	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/methods/methodtest"
)

// cmdCheckEstimator runs the conformance kit (internal/methods/methodtest)
// on a registered estimator, or on an external command, outside go test,
// and prints a verdict per check, as benchopt test does for a solver:
//
//	runexp check-estimator learned
//	runexp check-estimator --command "python3 my_preimage.py" --exact-tol 0.05
//
// It exits 0 when every check passes, 1 when one fails, 2 on a usage
// error.
func cmdCheckEstimator(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check-estimator", flag.ContinueOnError)
	fs.SetOutput(stderr)
	command := fs.String("command", "", "check the external estimator running this command line (instead of NAME)")
	params := paramFlags{}
	fs.Var(params, "param", "estimator parameter name=value (repeatable)")
	exactTol := fs.Float64("exact-tol", 0, "tolerance of the exact pre-image checks, relative (default: the kit's, or runexp's own for a registered estimator)")
	coupled := fs.Bool("batch-coupled", false, "skip the row-independence check (rows legitimately share state)")
	verbose := fs.Bool("v", false, "print every check's notes (the failures' are always printed)")
	fs.Usage = func() {
		fmt.Fprint(stderr, `Usage: runexp check-estimator [flags] NAME
       runexp check-estimator [flags] --command CMD

Runs the conformance kit on a registered estimator (runexp list names
them) or on an external one (docs/external-estimators.md) and prints a
verdict per check. Exit status 0 when every check passes, 1 otherwise.

Flags:
`)
		fs.PrintDefaults()
	}
	// NAME may come before the flags.
	var name string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		name, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	switch {
	case name == "" && fs.NArg() == 1:
		name = fs.Arg(0)
	case fs.NArg() > 0:
		fs.Usage()
		return exitUsage
	}
	if (name == "") == (*command == "") {
		fmt.Fprintln(stderr, "check-estimator: give either NAME or --command CMD")
		return exitUsage
	}
	if *command != "" {
		name = "external"
		params["command"] = *command
	}
	spec, ok := methods.Lookup(name)
	if !ok {
		fmt.Fprintf(stderr, "check-estimator: unknown estimator %q (registered: %s)\n", name, strings.Join(methods.Names(), ", "))
		return exitUsage
	}
	if _, err := spec.Bind(params); err != nil {
		fmt.Fprintf(stderr, "check-estimator: %s: %v\n", name, err)
		return exitUsage
	}
	// A registered estimator gets the adaptations go test gives it.
	cfg := methodtest.Known[name]
	if *command != "" {
		cfg = methodtest.Config{}
	}
	if *exactTol > 0 {
		cfg.ExactTol = *exactTol
	}
	cfg.BatchCoupled = cfg.BatchCoupled || *coupled
	if len(params) > 0 {
		cfg.Params = params
	}

	label := name
	if *command != "" {
		label = "external " + *command
	}
	fmt.Fprintf(stdout, "%s (%s): %s, %s", label, spec.Title, spec.Does, spec.Kernels)
	if shown := maps.Clone(params); len(shown) > 0 {
		delete(shown, "command")
		if len(shown) > 0 {
			fmt.Fprintf(stdout, ", params %s", shown)
		}
	}
	tol := cfg.ExactTol
	if tol == 0 {
		tol = methodtest.DefaultExactTol
	}
	fmt.Fprintf(stdout, ", exact tolerance %g\n", tol)

	results := methodtest.Check(name, func(t methodtest.T) { methodtest.CheckRegistered(t, spec, cfg) })
	var pass, fail int
	for i, r := range results {
		if !r.Leaf && len(r.Errors) == 0 && i > 0 {
			continue
		}
		what := r.Name
		if i == 0 {
			what = "spec"
		}
		verdict := "PASS"
		if r.Failed && (r.Leaf || len(r.Errors) > 0) {
			verdict = "FAIL"
			fail++
		} else {
			pass++
		}
		fmt.Fprintf(stdout, "%s  %s\n", verdict, what)
		for _, m := range r.Errors {
			fmt.Fprintf(stdout, "      %s\n", indent(m))
		}
		// A failure's notes often hold its reason (the kit logs an
		// estimator's refusals before concluding it accepted nothing).
		if *verbose || verdict == "FAIL" {
			for _, m := range r.Notes {
				fmt.Fprintf(stdout, "      note: %s\n", indent(m))
			}
		}
	}
	if fail > 0 {
		fmt.Fprintf(stdout, "FAIL: %d of %d checks failed\n", fail, pass+fail)
		return exitClaim
	}
	fmt.Fprintf(stdout, "ok: %d checks passed\n", pass)
	return exitOK
}

func indent(s string) string { return strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n      ") }
