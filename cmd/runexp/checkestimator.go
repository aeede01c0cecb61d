package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/runexp/runexp/internal/methods/conformance"
)

// cmdCheckEstimator runs the conformance kit (internal/methods/conformance)
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
	rep, err := conformance.Run(conformance.Request{Name: name, Command: *command, Params: params, ExactTol: *exactTol, BatchCoupled: *coupled})
	if err != nil {
		fmt.Fprintln(stderr, "check-estimator:", err)
		return exitUsage
	}
	spec := rep.Spec
	fmt.Fprintf(stdout, "%s (%s): %s, %s", rep.Label, spec.Title, spec.Does, spec.Kernels)
	if len(rep.Params) > 0 {
		fmt.Fprintf(stdout, ", params %s", rep.Params)
	}
	fmt.Fprintf(stdout, ", exact tolerance %g\n", rep.ExactTol)
	for _, c := range rep.Checks {
		verdict := "PASS"
		if !c.Pass {
			verdict = "FAIL"
		}
		fmt.Fprintf(stdout, "%s  %s\n", verdict, c.Name)
		for _, m := range c.Errors {
			fmt.Fprintf(stdout, "      %s\n", indent(m))
		}
		// A failure's notes often hold its reason (the kit logs an
		// estimator's refusals before concluding it accepted nothing).
		if *verbose || !c.Pass {
			for _, m := range c.Notes {
				fmt.Fprintf(stdout, "      note: %s\n", indent(m))
			}
		}
	}
	if n := rep.Failed(); n > 0 {
		fmt.Fprintf(stdout, "FAIL: %d of %d checks failed\n", n, len(rep.Checks))
		return exitClaim
	}
	fmt.Fprintf(stdout, "ok: %d checks passed\n", len(rep.Checks))
	return exitOK
}

func indent(s string) string { return strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n      ") }
