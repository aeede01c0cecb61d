package conformance

import (
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/runexp/runexp/internal/methods"
)

// Request is one run of the kit outside go test: on a registered
// estimator by Name, or on an external one by Command.
type Request struct {
	// Name is a registered estimator; Command, when set, checks the
	// external estimator running that command line instead.
	Name, Command string
	// Params are the estimator's parameters (name → value); nil for its
	// defaults.
	Params map[string]any
	// ExactTol, when positive, replaces the tolerance of the exact
	// pre-image checks.
	ExactTol float64
	// BatchCoupled skips the row-independence check.
	BatchCoupled bool
}

// Verdict is one check's outcome.
type Verdict struct {
	// Name is the check's path ("spec" for the checks of the Spec
	// itself).
	Name string
	Pass bool
	// Errors are the check's failures; Notes what it logged (a failure's
	// notes often hold its reason).
	Errors, Notes []string
}

// Report is what a Request gave.
type Report struct {
	Spec *methods.Spec
	// Label names what was checked: the estimator's name, or
	// "external CMD".
	Label string
	// Params are the parameters shown beside the label (the command
	// aside).
	Params map[string]any
	// ExactTol is the tolerance the exact checks used.
	ExactTol float64
	Checks   []Verdict
}

// Failed counts the checks that failed.
func (r *Report) Failed() int {
	n := 0
	for _, c := range r.Checks {
		if !c.Pass {
			n++
		}
	}
	return n
}

// Run runs the kit as Request asks: a registered estimator gets the
// adaptations go test gives it (Known), so the verdict on it is go
// test's. An unknown estimator or parameters that do not bind are an
// error before any check runs.
func Run(req Request) (*Report, error) {
	name, params := req.Name, maps.Clone(req.Params)
	if params == nil {
		params = map[string]any{}
	}
	if req.Command != "" {
		name = "external"
		params["command"] = req.Command
	}
	spec, ok := methods.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("unknown estimator %q (registered: %s)", name, strings.Join(methods.Names(), ", "))
	}
	bound, err := spec.Bind(params)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	// A parameter New refuses (external's params that are not a JSON
	// object) is the request's error, as a range error is, not a failure
	// of every check.
	if _, err := spec.New(bound); err != nil {
		var pe *methods.ParamError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
	}
	cfg := Known[name]
	if req.Command != "" {
		cfg = Config{}
	}
	if req.ExactTol > 0 {
		cfg.ExactTol = req.ExactTol
	}
	cfg.BatchCoupled = cfg.BatchCoupled || req.BatchCoupled
	if len(params) > 0 {
		cfg.Params = params
	}
	rep := &Report{Spec: spec, Label: name, Params: maps.Clone(params), ExactTol: cfg.exactTol()}
	if req.Command != "" {
		rep.Label = "external " + req.Command
	}
	delete(rep.Params, "command")
	results := Check(name, func(t T) { CheckRegistered(t, spec, cfg) })
	for i, r := range results {
		// A parent check is reported through its subtests, unless it
		// failed on its own account.
		if !r.Leaf && len(r.Errors) == 0 && i > 0 {
			continue
		}
		v := Verdict{Name: r.Name, Pass: !(r.Failed && (r.Leaf || len(r.Errors) > 0)), Errors: r.Errors, Notes: r.Notes}
		if i == 0 {
			v.Name = "spec"
		}
		rep.Checks = append(rep.Checks, v)
	}
	return rep, nil
}
