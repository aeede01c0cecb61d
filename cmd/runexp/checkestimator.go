package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/runexp/runexp/internal/methods/conformance"
	"github.com/runexp/runexp/internal/report"
)

// cmdCheckEstimator runs the conformance kit (internal/methods/conformance)
// on a registered estimator, or on an external command, outside go test,
// and prints a verdict per check, as benchopt test does for a solver:
//
//	runexp check-estimator learned
//	runexp check-estimator --command "python3 my_preimage.py"
//
// It exits 0 when every check passes, 1 when one fails, 2 on a usage
// error.
func cmdCheckEstimator(args []string, stdout, stderr io.Writer) int {
	c := newCommand("check-estimator", []string{"runexp check-estimator [flags] NAME", "runexp check-estimator [flags] --command CMD"},
		`Runs the conformance kit on a registered estimator (runexp list names
them) or on an external one (docs/external-estimators.md) and prints a
verdict per check. Exit status 0 when every check passes, 1 otherwise.`)
	fs := c.flags
	command := fs.String("command", "", "check the external estimator running this command line `CMD` (instead of NAME)")
	params := paramFlags{}
	fs.Var(params, "param", "estimator parameter `name=value` (repeatable)")
	exactTol := fs.Float64("exact-tol", 0, "tolerance of the exact pre-image checks, relative (default: the kit's, or runexp's own for a registered estimator)")
	coupled := fs.Bool("batch-coupled", false, "skip the row-independence check (rows legitimately share state)")
	verbose := fs.Bool("v", false, "print every check's notes (the failures' are always printed)")
	e, pos, code, done := c.begin(args, stdout, stderr)
	if done {
		return code
	}
	var name string
	switch len(pos) {
	case 0:
	case 1:
		name = pos[0]
	default:
		return e.fail(exitUsage, "want one NAME, got %d arguments; see runexp check-estimator --help", len(pos))
	}
	if (name == "") == (*command == "") {
		return e.fail(exitUsage, "give either NAME or --command CMD; see runexp check-estimator --help")
	}
	rep, err := conformance.Run(conformance.Request{Name: name, Command: *command, Params: params, ExactTol: *exactTol, BatchCoupled: *coupled})
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	spec := rep.Spec
	fmt.Fprintf(stdout, "%s (%s): %s, %s", rep.Label, spec.Title, spec.Does, spec.Kernels)
	if len(rep.Params) > 0 {
		fmt.Fprintf(stdout, ", parameters %s", report.ParamList(rep.Params))
	}
	fmt.Fprintf(stdout, ", exact tolerance %g\n", rep.ExactTol)
	if rep.ExactTol >= looseExactTol {
		fmt.Fprintf(stdout, "note: at a relative tolerance of %g the exact checks accept pre-images that are not exact; an estimator inexact by design fails them, which the kit reports as it is (docs/external-estimators.md, \"The conformance kit\")\n", rep.ExactTol)
	}
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

// looseExactTol is the exact checks' relative tolerance from which they
// say little: check-estimator notes it.
const looseExactTol = 0.1
