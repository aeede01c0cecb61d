package methods

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"

	reg "github.com/runexp/runexp/internal/registry"
)

// Kind is the type of an estimator parameter.
type Kind int

// Parameter kinds.
const (
	Float Kind = iota
	Int
	String
	Bool
)

func (k Kind) String() string {
	return [...]string{"number", "integer", "string", "boolean"}[k]
}

// Param declares one parameter an estimator accepts, so configs can be
// checked (name, type, range) before anything runs.
type Param struct {
	Name    string
	Kind    Kind
	Default any // float64, int, string or bool; nil means required
	// Min and Max bound numeric values (inclusive); NaN for no bound.
	Min, Max float64
	// Enum lists the allowed values of a String parameter; empty means any.
	Enum []string
	Doc  string
	// Role is what the parameter means to an experiment (see Role).
	Role Role
	// Zero says what the value 0 of a numeric parameter stands for
	// where it is not a quantity ("every training point"), for the
	// reports that print the values that ran; "" where 0 is itself.
	Zero string
}

// FloatParam, IntParam, StringParam and BoolParam declare parameters.
func FloatParam(name string, def float64, min, max float64, doc string) Param {
	return Param{Name: name, Kind: Float, Default: def, Min: min, Max: max, Doc: doc}
}

// IntParam declares an integer parameter; see FloatParam.
func IntParam(name string, def int, min, max float64, doc string) Param {
	return Param{Name: name, Kind: Int, Default: def, Min: min, Max: max, Doc: doc}
}

// StringParam declares a string parameter with allowed values enum (empty
// for any).
func StringParam(name, def string, enum []string, doc string) Param {
	return Param{Name: name, Kind: String, Default: def, Enum: enum, Doc: doc, Min: math.NaN(), Max: math.NaN()}
}

// BoolParam declares a boolean parameter.
func BoolParam(name string, def bool, doc string) Param {
	return Param{Name: name, Kind: Bool, Default: def, Doc: doc, Min: math.NaN(), Max: math.NaN()}
}

// Inf is a convenience for unbounded Max.
var Inf = math.Inf(1)

// Params holds bound, type-checked parameter values.
type Params map[string]any

// Float returns a numeric parameter.
func (p Params) Float(name string) float64 {
	switch v := p[name].(type) {
	case float64:
		return v
	case int:
		return float64(v)
	}
	panic(fmt.Sprintf("methods: parameter %q is %T, not a number", name, p[name]))
}

// Int returns an integer parameter.
func (p Params) Int(name string) int {
	if v, ok := p[name].(int); ok {
		return v
	}
	panic(fmt.Sprintf("methods: parameter %q is %T, not an integer", name, p[name]))
}

// String returns a string parameter.
func (p Params) String(name string) string {
	if v, ok := p[name].(string); ok {
		return v
	}
	panic(fmt.Sprintf("methods: parameter %q is %T, not a string", name, p[name]))
}

// Bool returns a boolean parameter.
func (p Params) Bool(name string) bool {
	if v, ok := p[name].(bool); ok {
		return v
	}
	panic(fmt.Sprintf("methods: parameter %q is %T, not a boolean", name, p[name]))
}

// Spec describes a registered estimator.
type Spec struct {
	// Name is the registry key used in configs, e.g. "mika".
	Name string
	// Title is the label used in tables and legends, e.g. "Mika et al.".
	Title string
	// Doc is a one-line description.
	Doc string
	// Source names the paper and equations implemented.
	Source string
	// Params lists the accepted parameters.
	Params []Param
	// Does declares what New returns: PreImages for a PreImager,
	// Denoises for a Denoiser, with Imputes when the Denoiser reads a
	// mask of missing entries. Experiments ask it (Can, NewPreImager,
	// NewDenoiser) rather than asserting types.
	Does Capability
	// Requires lists what the estimator needs from its problem.
	Requires Requirement
	// Kernels says which kernels it accepts.
	Kernels KernelSupport
	// New builds the estimator from bound parameters. It returns a
	// PreImager or a Denoiser, as Does declares; experiments build
	// through NewPreImager or NewDenoiser.
	New func(Params) (any, error)
	// Version names the numerics of the implementation; the runner's cell
	// cache keys on it, so bump it whenever a change alters results.
	// Empty means "1".
	Version string
	// File is the source file that registered the estimator, as
	// runtime.Caller names it; the runner's cell cache keys on a
	// fingerprint of that file and the code it reaches (internal/codefp).
	// Register fills it in.
	File string
}

// ParamError is a problem with one parameter, for the caller to place at a
// file and line.
type ParamError struct {
	Param string
	Msg   string
}

func (e *ParamError) Error() string {
	if e.Param == "" {
		return e.Msg
	}
	return fmt.Sprintf("parameter %q: %s", e.Param, e.Msg)
}

// Bind checks raw values against the declared parameters and fills in
// defaults. Integers are accepted for numeric parameters; a float with no
// fractional part is accepted for an integer one.
func (s *Spec) Bind(raw map[string]any) (Params, error) {
	out := make(Params, len(s.Params))
	known := make(map[string]bool, len(s.Params))
	for _, p := range s.Params {
		known[p.Name] = true
	}
	var names []string
	for k := range raw {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if !known[k] {
			return nil, &ParamError{k, fmt.Sprintf("unknown for %s (accepted: %s)", s.Name, strings.Join(s.paramNames(), ", "))}
		}
	}
	for _, p := range s.Params {
		v, ok := raw[p.Name]
		if !ok {
			if p.Default == nil {
				return nil, &ParamError{p.Name, fmt.Sprintf("required by %s", s.Name)}
			}
			out[p.Name] = p.Default
			continue
		}
		cv, err := p.coerce(v)
		if err != nil {
			return nil, &ParamError{p.Name, err.Error()}
		}
		out[p.Name] = cv
	}
	return out, nil
}

func (s *Spec) paramNames() []string {
	n := make([]string, len(s.Params))
	for i, p := range s.Params {
		n[i] = p.Name
	}
	return n
}

func (p Param) coerce(v any) (any, error) {
	var f float64
	switch p.Kind {
	case Float:
		switch x := v.(type) {
		case float64:
			f = x
		case int:
			f = float64(x)
		default:
			return nil, fmt.Errorf("want a number, got %v (%T)", v, v)
		}
		// An infinite value is no parameter any estimator can honour,
		// and records must hold finite numbers: refused here, where a
		// run's flags and configs are bound, not after every cell ran.
		if math.IsNaN(f) {
			return nil, fmt.Errorf("want a number, got NaN")
		}
		if math.IsInf(f, 0) {
			return nil, fmt.Errorf("want a finite number, got %v", f)
		}
		if err := p.inRange(f); err != nil {
			return nil, err
		}
		return f, nil
	case Int:
		switch x := v.(type) {
		case int:
			f = float64(x)
		case float64:
			if x != math.Trunc(x) {
				return nil, fmt.Errorf("want an integer, got %v", x)
			}
			// Beyond 2⁵³ a float is no exact integer, and beyond the
			// int range the conversion below would wrap (1e19 became a
			// negative max_iter).
			if math.Abs(x) > 1<<53 {
				return nil, fmt.Errorf("integer %v out of range (want |n| ≤ 2^53)", x)
			}
			f = x
		default:
			return nil, fmt.Errorf("want an integer, got %v (%T)", v, v)
		}
		if err := p.inRange(f); err != nil {
			return nil, err
		}
		return int(f), nil
	case String:
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("want a string, got %v (%T)", v, v)
		}
		if len(p.Enum) > 0 && !slices.Contains(p.Enum, s) {
			return nil, fmt.Errorf("want one of %s, got %q", strings.Join(p.Enum, ", "), s)
		}
		return s, nil
	case Bool:
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("want true or false, got %v (%T)", v, v)
		}
		return b, nil
	}
	panic("methods: unknown parameter kind")
}

func (p Param) inRange(f float64) error {
	if !math.IsNaN(p.Min) && f < p.Min {
		return fmt.Errorf("%v is below the minimum %v", f, p.Min)
	}
	if !math.IsNaN(p.Max) && f > p.Max {
		return fmt.Errorf("%v is above the maximum %v", f, p.Max)
	}
	return nil
}

var registry = reg.New[Spec]("methods: estimator")

// Register adds an estimator to the registry. It panics on a duplicate
// name: registration happens in init functions, where that is a bug.
func Register(s Spec) {
	if s.Does&(PreImages|Denoises) == 0 {
		panic(fmt.Sprintf("methods: estimator %q declares neither PreImages nor Denoises", s.Name))
	}
	for i := range s.Params {
		if s.Params[i].Kind == Float || s.Params[i].Kind == Int {
			continue
		}
		s.Params[i].Min, s.Params[i].Max = math.NaN(), math.NaN()
	}
	if s.File == "" {
		_, s.File, _, _ = runtime.Caller(1)
	}
	registry.Add(s.Name, s)
}

// Lookup returns the estimator registered under name.
func Lookup(name string) (*Spec, bool) { return registry.Lookup(name) }

// All returns every registered estimator, sorted by name.
func All() []*Spec { return registry.All() }

// Names returns the registered names, sorted.
func Names() []string { return registry.Names() }

// New binds raw parameters and builds the named estimator.
func New(name string, raw map[string]any) (any, Params, error) {
	s, ok := Lookup(name)
	if !ok {
		return nil, nil, fmt.Errorf("unknown estimator %q (registered: %s)", name, strings.Join(Names(), ", "))
	}
	p, err := s.Bind(raw)
	if err != nil {
		return nil, nil, err
	}
	est, err := s.New(p)
	if err != nil {
		return nil, nil, err
	}
	return est, p, nil
}
