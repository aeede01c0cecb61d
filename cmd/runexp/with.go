package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// withSpec is one --with SPEC: an estimator added to every config whose
// kind can use it, without editing any file.
type withSpec struct {
	arg    string // as given, for messages
	name   string
	label  string
	params map[string]any
	bound  methods.Params // params with the defaults filled in
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
	bound, err := spec.Bind(w.params)
	if err != nil {
		var pe *methods.ParamError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("--with %s: parameter %s: %s", arg, pe.Param, pe.Error())
		}
		return nil, fmt.Errorf("--with %s: %v", arg, err)
	}
	w.bound = bound
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
// clashes with one of the file's methods is an error. It returns what each
// SPEC did in c, for the manifest and a shard's provenance (nil without
// --with).
func addWith(c *config.Config, with []*withSpec, stderr io.Writer) ([]report.WithSpec, error) {
	var done []report.WithSpec
	for _, w := range with {
		label := w.label
		if label == "" {
			label = w.spec.Title
		}
		rec := report.WithSpec{Spec: w.arg, Estimator: w.name, Label: label, Params: map[string]any(w.bound)}
		skip := func(why string) {
			fmt.Fprintf(stderr, "runexp: --with %s: skipped in %s: %s\n", w.arg, c.Name, why)
			rec.Skipped = why
			done = append(done, rec)
		}
		need, ok := withCapability[c.Kind]
		if !ok || len(c.Methods) == 0 {
			skip(fmt.Sprintf("kind %s lists no estimators", c.Kind))
			continue
		}
		if !w.spec.Can(need) {
			skip(fmt.Sprintf("kind %s needs %s", c.Kind, capabilityWord[need]))
			continue
		}
		for _, m := range c.Methods {
			id := m.Label
			if id == "" {
				if s, ok := methods.Lookup(m.Name); ok {
					id = s.Title
				}
			}
			if id == label || m.Label == label || (m.Label == "" && m.Name == label) {
				return nil, fmt.Errorf("--with %s: %s already has a method labelled %q; give the added one another (label=…)", w.arg, c.Name, label)
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
				skip(err.Error())
				continue
			}
		}
		c.Methods = append(c.Methods, m)
		done = append(done, rec)
	}
	return done, nil
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

// withOptions are the flags of a command that takes --with: the specs
// and where their results go.
type withOptions struct {
	args withFlag
	dir  string
}

func (o *withOptions) register(fs *flag.FlagSet) {
	fs.Var(&o.args, "with", withUsage)
	fs.StringVar(&o.dir, "with-dir", "", "with --with: the folder inside --out for the results (default with-SLUG, named after the specs); '.' writes into --out itself, replacing the configs' own result folders")
}

// resolve parses the specs and returns them with the results root: out
// itself without --with; out/with-SLUG with it, so a --with run never
// replaces the result folders of the configs' own methods unless
// --with-dir . asks for it.
func (o *withOptions) resolve(out string) ([]*withSpec, string, error) {
	ws, err := parseWiths(o.args)
	if err != nil {
		return nil, "", err
	}
	if len(ws) == 0 {
		if o.dir != "" {
			return nil, "", fmt.Errorf("--with-dir %s: only with --with", o.dir)
		}
		return nil, out, nil
	}
	dir := o.dir
	if dir == "" {
		dir = withSlug(ws)
	} else if dir != "." && !filepath.IsLocal(dir) {
		return nil, "", fmt.Errorf("--with-dir %s: want a folder name inside --out (or '.' for --out itself)", dir)
	}
	return ws, filepath.Join(out, dir), nil
}

// withSlug names the results folder of a --with run: "with-", the specs'
// labels (or names) in safe characters, and the first 8 hex digits of the
// SHA-256 of the specs as given, so that the same flags always find the
// same folder and other flags (another command, same label) another one.
func withSlug(ws []*withSpec) string {
	var parts []string
	h := sha256.New()
	for _, w := range ws {
		l := safeName(w.label)
		if l == "" {
			l = safeName(w.name)
		}
		parts = append(parts, l)
		h.Write([]byte(w.arg))
		h.Write([]byte{0})
	}
	s := strings.Join(parts, "_")
	if len(s) > 48 {
		s = strings.TrimRight(s[:48], "-_")
	}
	return "with-" + s + "-" + hex.EncodeToString(h.Sum(nil))[:8]
}

// safeName lower-cases s and keeps ASCII letters and digits, every other
// run of characters becoming one '-'.
func safeName(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	return b.String()
}

// loadConfigs loads and validates every config before any runs (so a typo
// in the last does not surface after an hour of the first), adding the
// --with estimators to each; added[i] are config i's.
func loadConfigs(paths []string, with []*withSpec, stderr io.Writer) (cfgs []*config.Config, added [][]report.WithSpec, err error) {
	for _, path := range paths {
		c, err := config.Load(path)
		var a []report.WithSpec
		if err == nil {
			a, err = addWith(c, with, stderr)
		}
		if err == nil {
			_, err = runner.Validate(c)
		}
		if err != nil {
			return nil, nil, err
		}
		cfgs = append(cfgs, c)
		added = append(added, a)
	}
	return cfgs, added, nil
}
