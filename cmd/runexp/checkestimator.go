package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
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
verdict per check. Exit status 0 when every check passes, 1 otherwise.

A check that fails on many rows alike (an estimator inexact by design
failing the exact checks) is summarised: how many rows, the range of their
distances and the first one, its vectors at 4 digits; -v prints each row in
full. A Python estimator whose interpreter lacks a module it imports
(NumPy) gets a hint naming one that has it: RUNEXP_PYTHON=/usr/bin/python3
makes a bare python3 (or python) at the head of --command that interpreter.`)
	fs := c.flags
	command := fs.String("command", "", "check the external estimator running this command line `CMD` (instead of NAME); with RUNEXP_PYTHON set, a bare python3 or python at its head is that interpreter")
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
	*command = withPython(*command)
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
		errs := c.Errors
		if !*verbose {
			errs = summariseErrors(errs)
		}
		for _, m := range errs {
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
		if hint := pythonHint(*command, rep); hint != "" {
			fmt.Fprintf(stdout, "hint: %s\n", hint)
		}
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

// withPython returns the command line cmd with a bare python3 or python at
// its head replaced by RUNEXP_PYTHON, when that is set: the interpreter
// with NumPy is named once, not in every command.
func withPython(cmd string) string {
	py := os.Getenv("RUNEXP_PYTHON")
	head, rest, _ := strings.Cut(cmd, " ")
	if py == "" || head != "python3" && head != "python" {
		return cmd
	}
	return strings.TrimSpace(py + " " + rest)
}

// missingModule finds a Python "No module named 'numpy'" in the report's
// errors.
var missingModule = regexp.MustCompile(`No module named '([^']+)'`)

// pythonHint says, when the checks failed because the command's Python
// interpreter lacks a module, how to name one that has it.
func pythonHint(cmd string, rep *conformance.Report) string {
	var mod string
	for _, c := range rep.Checks {
		for _, e := range c.Errors {
			if m := missingModule.FindStringSubmatch(e); m != nil {
				mod = m[1]
			}
		}
	}
	if mod == "" || cmd == "" {
		return ""
	}
	head, _, _ := strings.Cut(cmd, " ")
	where := head
	if p, err := exec.LookPath(head); err == nil {
		where = head + " (" + p + ")"
	}
	top, _, _ := strings.Cut(mod, ".")
	var has []string
	for _, py := range []string{os.Getenv("RUNEXP_PYTHON"), "/usr/bin/python3"} {
		if py != "" && py != head && !slices.Contains(has, py) && exec.Command(py, "-c", "import "+top).Run() == nil {
			has = append(has, py)
		}
	}
	s := fmt.Sprintf("the interpreter %s cannot import %s", where, mod)
	if len(has) == 0 {
		return s + "; install it (Debian: apt-get install python3-" + top + "), or name an interpreter that has it: RUNEXP_PYTHON=/path/to/python3 (a bare python3 at the head of --command is then that one)"
	}
	return s + fmt.Sprintf("; %s can: RUNEXP_PYTHON=%s runexp check-estimator --command '%s' (a bare python3 at the head of --command is then that one), or name it in --command", has[0], has[0], cmd)
}

// Rows alike: a check's errors that differ only in their vectors, rows
// and distances ("got [...], want x_3 = [...] (distance 0.0116, ...)").
var (
	errVector   = regexp.MustCompile(`\[[-+0-9.eEInfa ]+\]`)
	errRow      = regexp.MustCompile(`\bx_\d+\b`)
	errDistance = regexp.MustCompile(`\(distance ([-+0-9.eEInfa]+),`)
	errNumber   = regexp.MustCompile(`[-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?`)
)

// summariseErrors folds a check's errors that differ only in their
// vectors, rows and distances into one line each: how many, the range of
// the distances, and the first of them with its vectors at 4 significant
// digits. An error alone keeps its text, its vectors shortened.
func summariseErrors(errs []string) []string {
	type group struct {
		first      string
		n          int
		minD, maxD float64
		hasD       bool
	}
	var order []string
	groups := map[string]*group{}
	for _, e := range errs {
		tmpl := templateOf(e)
		g, ok := groups[tmpl]
		if !ok {
			g = &group{first: e}
			groups[tmpl] = g
			order = append(order, tmpl)
		}
		g.n++
		if m := errDistance.FindStringSubmatch(e); m != nil {
			if d, err := strconv.ParseFloat(m[1], 64); err == nil {
				if !g.hasD || d < g.minD {
					g.minD = d
				}
				if !g.hasD || d > g.maxD {
					g.maxD = d
				}
				g.hasD = true
			}
		}
	}
	var out []string
	for _, tmpl := range order {
		g := groups[tmpl]
		first := errVector.ReplaceAllStringFunc(g.first, shortVector)
		if g.n < 3 {
			for _, e := range errs {
				if groups[templateOf(e)] == g {
					out = append(out, errVector.ReplaceAllStringFunc(e, shortVector))
				}
			}
			continue
		}
		s := fmt.Sprintf("%d rows alike", g.n)
		if g.hasD {
			s += fmt.Sprintf(", distance %.3g to %.3g", g.minD, g.maxD)
		}
		out = append(out, s+"; the first (-v prints each): "+first)
	}
	return out
}

// templateOf is an error without its vectors, rows and distance.
func templateOf(e string) string {
	t := errVector.ReplaceAllString(e, "[…]")
	t = errRow.ReplaceAllString(t, "x_j")
	return errDistance.ReplaceAllString(t, "(distance D,")
}

// shortVector writes a vector "[0.9127940295342353 0.44835 …]" at 4
// significant digits.
func shortVector(v string) string {
	return errNumber.ReplaceAllStringFunc(v, func(n string) string {
		f, err := strconv.ParseFloat(n, 64)
		if err != nil {
			return n
		}
		return strconv.FormatFloat(f, 'g', 4, 64)
	})
}
