package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/runner"
)

// withSpec is one --with SPEC: an estimator added to every config whose
// kind can use it, without editing any file.
type withSpec struct {
	arg    string // as given, for messages
	name   string
	label  string
	params map[string]any
	spec   *methods.Spec
}

// withFlag collects the repeatable --with flag.
type withFlag []string

func (w *withFlag) String() string { return strings.Join(*w, " ") }
func (w *withFlag) Set(s string) error {
	*w = append(*w, s)
	return nil
}

const withUsage = "add an estimator to every config whose kind can use it: NAME or NAME:key=value,key=value (values are YAML scalars; label=… sets the label), e.g. learned:alpha=0.01 (repeatable)"

// parseWith parses a --with SPEC: NAME or NAME:key=value,key=value. The
// estimator must be registered and its parameters must bind, so a typo is
// a usage error before anything runs.
func parseWith(arg string) (*withSpec, error) {
	name, rest, hasParams := strings.Cut(arg, ":")
	name = strings.TrimSpace(name)
	if name == "" {
		return nil, fmt.Errorf("--with %q: want NAME or NAME:key=value,key=value", arg)
	}
	spec, ok := methods.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("--with %s: unknown estimator %q (registered: %s)", arg, name, strings.Join(methods.Names(), ", "))
	}
	w := &withSpec{arg: arg, name: name, params: map[string]any{}, spec: spec}
	if hasParams {
		if strings.TrimSpace(rest) == "" {
			return nil, fmt.Errorf("--with %s: no parameters after ':' (want NAME:key=value,key=value)", arg)
		}
		for _, kv := range strings.Split(rest, ",") {
			k, v, ok := strings.Cut(kv, "=")
			k = strings.TrimSpace(k)
			if !ok || k == "" {
				return nil, fmt.Errorf("--with %s: %q is not key=value", arg, kv)
			}
			if k == "label" {
				w.label = strings.TrimSpace(v)
				if w.label == "" {
					return nil, fmt.Errorf("--with %s: empty label", arg)
				}
				continue
			}
			if _, dup := w.params[k]; dup {
				return nil, fmt.Errorf("--with %s: parameter %q given twice", arg, k)
			}
			x, err := withScalar(v)
			if err != nil {
				return nil, fmt.Errorf("--with %s: parameter %s: %v", arg, k, err)
			}
			w.params[k] = x
		}
	}
	if _, err := spec.Bind(w.params); err != nil {
		var pe *methods.ParamError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("--with %s: parameter %s: %s", arg, pe.Param, pe.Error())
		}
		return nil, fmt.Errorf("--with %s: %v", arg, err)
	}
	return w, nil
}

// withScalar reads v as a YAML scalar, with the types a config's values
// have (int, float64, bool, string).
func withScalar(v string) (any, error) {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(v), &n); err != nil {
		return nil, fmt.Errorf("value %q: %v", v, err)
	}
	if len(n.Content) == 0 {
		return nil, fmt.Errorf("empty value")
	}
	s := n.Content[0]
	if s.Kind != yaml.ScalarNode {
		return nil, fmt.Errorf("value %q: want a scalar (a number, boolean or string)", v)
	}
	switch s.Tag {
	case "!!null":
		return nil, fmt.Errorf("empty value")
	case "!!bool":
		var b bool
		err := s.Decode(&b)
		return b, err
	case "!!int":
		var i int
		if err := s.Decode(&i); err != nil || i > 1<<53 || i < -(1<<53) {
			return nil, fmt.Errorf("integer %s out of range (want |n| ≤ 2^53)", v)
		}
		return i, nil
	case "!!float":
		var f float64
		err := s.Decode(&f)
		return f, err
	}
	return s.Value, nil
}

// withCapability is what a kind's methods must do; kinds absent here list
// no methods (distortion, classify) and take no --with.
var withCapability = map[string]methods.Capability{
	"local-minima": methods.PreImages,
	"stability":    methods.PreImages,
	"kkcluster":    methods.PreImages,
	"missing":      methods.Imputes,
	"denoise":      methods.Denoises,
	"robust":       methods.Denoises,
	"lgdenoise":    methods.Denoises,
	"matrix":       methods.Denoises,
}

var capabilityWord = map[methods.Capability]string{
	methods.PreImages: "a pre-image estimator",
	methods.Imputes:   "an imputing estimator",
	methods.Denoises:  "a de-noiser",
}

// addWith appends the --with estimators to c's methods, marked Added, where
// c's kind can use them; a config it skips is said on stderr. A label that
// clashes with one of the file's methods is an error.
func addWith(c *config.Config, with []*withSpec, stderr io.Writer) error {
	for _, w := range with {
		need, ok := withCapability[c.Kind]
		if !ok || len(c.Methods) == 0 {
			fmt.Fprintf(stderr, "runexp: --with %s: skipped in %s: kind %s lists no estimators\n", w.arg, c.Name, c.Kind)
			continue
		}
		if !w.spec.Can(need) {
			fmt.Fprintf(stderr, "runexp: --with %s: skipped in %s: kind %s needs %s\n", w.arg, c.Name, c.Kind, capabilityWord[need])
			continue
		}
		label := w.label
		if label == "" {
			label = w.spec.Title
		}
		for _, m := range c.Methods {
			id := m.Label
			if id == "" {
				if s, ok := methods.Lookup(m.Name); ok {
					id = s.Title
				}
			}
			if id == label || m.Label == label || (m.Label == "" && m.Name == label) {
				return fmt.Errorf("--with %s: %s already has a method labelled %q; give the added one another (label=…)", w.arg, c.Name, label)
			}
		}
		params := make(map[string]any, len(w.params))
		for k, v := range w.params {
			params[k] = v
		}
		m := config.Method{Name: w.name, Label: w.label, Params: config.Section{Values: params}, Added: true}
		// The kind's own check has the last word (tikhonov pre-images but
		// needs the observed input, which a kkcluster centre lacks): a
		// config it rejects only with the added method is skipped.
		trial := *c
		trial.Methods = append(slices.Clone(c.Methods), m)
		if _, err := runner.Validate(&trial); err != nil {
			if _, base := runner.Validate(c); base == nil {
				fmt.Fprintf(stderr, "runexp: --with %s: skipped in %s: %v\n", w.arg, c.Name, err)
				continue
			}
		}
		c.Methods = append(c.Methods, m)
	}
	return nil
}

// parseWiths parses every --with SPEC.
func parseWiths(args []string) ([]*withSpec, error) {
	var ws []*withSpec
	for _, a := range args {
		w, err := parseWith(a)
		if err != nil {
			return nil, err
		}
		ws = append(ws, w)
	}
	return ws, nil
}
