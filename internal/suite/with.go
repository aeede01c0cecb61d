package suite

import (
	"github.com/runexp/runexp/internal/safefs"

	"crypto/sha256"
	"encoding/hex"
	"errors"
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

// With is one --with SPEC: an estimator added to every config whose kind
// can take it, without editing any file.
type With struct {
	// Arg is the SPEC as given, for messages and provenance.
	Arg string
	// Name is the registered estimator; Label the label= given, if any.
	Name, Label string
	// Params are the parameters as given; Bound has the defaults filled
	// in.
	Params map[string]any
	Bound  methods.Params
	Spec   *methods.Spec
}

// ParseWith parses a --with SPEC: NAME or NAME:key=value,key=value. The
// estimator must be registered and its parameters must bind, so a typo is
// a usage error before anything runs.
func ParseWith(arg string) (*With, error) {
	name, rest, hasParams := strings.Cut(arg, ":")
	name = strings.TrimSpace(name)
	if name == "" {
		return nil, fmt.Errorf("--with %q: want NAME or NAME:key=value,key=value", arg)
	}
	spec, ok := methods.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("--with %s: unknown estimator %q (registered: %s)", arg, name, strings.Join(methods.Names(), ", "))
	}
	w := &With{Arg: arg, Name: name, Params: map[string]any{}, Spec: spec}
	if hasParams {
		if strings.TrimSpace(rest) == "" {
			return nil, fmt.Errorf("--with %s: no parameters after ':' (want NAME:key=value,key=value)", arg)
		}
		pairs, err := splitPairs(rest)
		if err != nil {
			return nil, fmt.Errorf("--with %s: %v", arg, err)
		}
		for _, kv := range pairs {
			k, v, ok := strings.Cut(kv, "=")
			k = strings.TrimSpace(k)
			if !ok || k == "" {
				return nil, fmt.Errorf("--with %s: %q is not key=value", arg, kv)
			}
			if k == "label" {
				w.Label = strings.TrimSpace(v)
				if q, err := withScalar(w.Label); err == nil && isQuoted(w.Label) {
					w.Label, _ = q.(string)
				}
				if w.Label == "" {
					return nil, fmt.Errorf("--with %s: empty label", arg)
				}
				continue
			}
			if _, dup := w.Params[k]; dup {
				return nil, fmt.Errorf("--with %s: parameter %q given twice", arg, k)
			}
			x, err := withScalar(v)
			if err != nil {
				return nil, fmt.Errorf("--with %s: parameter %s: %v", arg, k, err)
			}
			w.Params[k] = x
		}
	}
	bound, err := spec.Bind(w.Params)
	if err != nil {
		var pe *methods.ParamError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("--with %s: parameter %s: %s", arg, pe.Param, pe.Error())
		}
		return nil, fmt.Errorf("--with %s: %v", arg, err)
	}
	w.Bound = bound
	if w.Label == "" && name == "external" {
		w.Label = methods.ExternalLabel(bound.String("command"), bound.String("params"))
	}
	return w, nil
}

// splitPairs splits the parameters of a --with SPEC on the commas between
// them. A value that begins with a quote (after key=) runs to its closing
// quote, commas included, as in YAML: in single quotes a doubled quote
// is one quote, in double quotes a backslash escapes the next character; the
// quotes stay on the value, which withScalar reads as a quoted YAML
// scalar. A quote anywhere else is an ordinary character (label=Kwok's).
func splitPairs(rest string) ([]string, error) {
	var out []string
	start := 0
	for i := 0; i <= len(rest); i++ {
		if i == len(rest) || rest[i] == ',' {
			out = append(out, rest[start:i])
			start = i + 1
			continue
		}
		if rest[i] != '=' || strings.Contains(rest[start:i], "=") {
			continue
		}
		// The value begins after the key's '=': skip spaces, then a quote.
		j := i + 1
		for j < len(rest) && rest[j] == ' ' {
			j++
		}
		if j == len(rest) || (rest[j] != '\'' && rest[j] != '"') {
			continue
		}
		q := rest[j]
		k := j + 1
		for ; k < len(rest); k++ {
			if q == '"' && rest[k] == '\\' {
				k++
				continue
			}
			if rest[k] == q {
				if q == '\'' && k+1 < len(rest) && rest[k+1] == '\'' {
					k++
					continue
				}
				break
			}
		}
		if k >= len(rest) {
			return nil, fmt.Errorf("%s: unclosed %c quote", strings.TrimSpace(rest[start:i]), q)
		}
		// After the closing quote only spaces, then a comma or the end.
		m := k + 1
		for m < len(rest) && rest[m] == ' ' {
			m++
		}
		if m < len(rest) && rest[m] != ',' {
			return nil, fmt.Errorf("%s: text after the closing quote: %q (quote the whole value)", strings.TrimSpace(rest[start:i]), rest[k+1:])
		}
		i = m - 1
	}
	return out, nil
}

// isQuoted reports whether v (trimmed) is wholly in single or double
// quotes.
func isQuoted(v string) bool {
	return len(v) >= 2 && (v[0] == '\'' || v[0] == '"') && v[len(v)-1] == v[0]
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

var capabilityWord = map[methods.Capability]string{
	methods.PreImages: "a pre-image estimator",
	methods.Imputes:   "an imputing estimator",
	methods.Denoises:  "a de-noiser",
}

// AddWith appends the --with estimators to c's methods, marked Added, where
// c's kind can take them (runner.Kind.Takes); a config it skips is said on stderr. A label that
// clashes with one of the file's methods is an error. It returns what each
// SPEC did in c, for the manifest and a shard's provenance (nil without
// --with).
func AddWith(c *config.Config, with []*With, warn io.Writer) ([]report.WithSpec, error) {
	var done []report.WithSpec
	for _, w := range with {
		label := w.Label
		if label == "" {
			label = w.Spec.Title
		}
		rec := report.WithSpec{Spec: w.Arg, Estimator: w.Name, Label: label, Params: w.manifestParams()}
		skip := func(why string) {
			fmt.Fprintf(warn, "runexp: --with %s: skipped in %s: %s\n", w.Arg, c.Name, why)
			rec.Skipped = why
			done = append(done, rec)
		}
		var need methods.Capability
		if k, ok := runner.LookupKind(c.Kind); ok {
			need = k.Takes
		}
		if need == 0 || len(c.Methods) == 0 {
			skip(fmt.Sprintf("kind %s lists no estimators", c.Kind))
			continue
		}
		if !w.Spec.Can(need) {
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
				return nil, fmt.Errorf("--with %s: %s already has a method labelled %q; give the added one another (label=…)", w.Arg, c.Name, label)
			}
		}
		params := make(map[string]any, len(w.Params))
		for k, v := range w.Params {
			params[k] = v
		}
		m := config.Method{Name: w.Name, Label: w.Label, Params: config.Section{Values: params}, Added: true}
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

// manifestParams returns the parameters the manifest lists for w: those
// the SPEC gives (which run as given: the precedence rule of
// docs/extending.md, "Parameter roles") and the defaults of the others,
// except a parameter with a role (methods.Role) that the SPEC leaves
// unset: a kind may set that one from the data (Huang et al.'s
// mean-distance neighbour count), so its default may not be what ran, and
// the records say what did.
func (w *With) manifestParams() map[string]any {
	out := make(map[string]any, len(w.Bound))
	for _, p := range w.Spec.Params {
		_, given := w.Params[p.Name]
		if v, ok := w.Bound[p.Name]; ok && (given || p.Role == methods.NoRole) {
			out[p.Name] = v
		}
	}
	return out
}

// ParseWiths parses every --with SPEC.
func ParseWiths(args []string) ([]*With, error) {
	var ws []*With
	for _, a := range args {
		w, err := ParseWith(a)
		if err != nil {
			return nil, err
		}
		ws = append(ws, w)
	}
	return ws, nil
}

// Root returns the results root of a run with the estimators ws added:
// out itself without any; out/with-SLUG with some, so that a --with run
// never replaces the result folders of the configs' own methods unless
// dir is "." (--with-dir .); dir, when not empty, names the folder inside
// out instead of with-SLUG. A symbolic link (or a file) at any component
// of it below out is refused.
func Root(out, dir string, ws []*With) (string, error) {
	if len(ws) == 0 {
		if dir != "" {
			return "", fmt.Errorf("--with-dir %s: only with --with", dir)
		}
		return out, nil
	}
	if dir == "" {
		dir = Slug(ws)
	} else if dir != "." && !filepath.IsLocal(dir) {
		return "", fmt.Errorf("--with-dir %s: want a folder name inside --out (or '.' for --out itself)", dir)
	} else if first := splitFirst(dir); dir != "." && strings.HasPrefix(first, ".") {
		// runexp's own folders and files under --out are hidden: the
		// cell cache, the suite shards' reports, locks, staging.
		return "", fmt.Errorf("--with-dir %s: %s is runexp's own (names beginning with '.', such as .cache and .shards, are); want a folder name such as with-mine, or '.' for --out itself", dir, first)
	}
	root := filepath.Join(out, dir)
	// No symbolic link on the way: the results would land at its target.
	if err := safefs.CheckUnder(out, root); err != nil {
		return "", err
	}
	return root, nil
}

// Slug names the results folder of a --with run: "with-", the specs'
// labels (or names) in safe characters, and the first 8 hex digits of the
// SHA-256 of the specs as given, so that the same flags always find the
// same folder and other flags (another command, same label) another one.
func Slug(ws []*With) string {
	var parts []string
	h := sha256.New()
	for _, w := range ws {
		l := safeName(w.Label)
		if l == "" {
			l = safeName(w.Name)
		}
		parts = append(parts, l)
		h.Write([]byte(w.Arg))
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

// splitFirst returns the first component of the relative path p.
func splitFirst(p string) string {
	p = filepath.ToSlash(filepath.Clean(p))
	first, _, _ := strings.Cut(p, "/")
	return first
}
