package claims

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
)

// Setup resolves a setup reference of a because: text, a path into the
// config (dataset, dataset.subsets, corruption, corruption.variance,
// model.c, experiment.splits, seed, repeats, title), to its value as
// printed; ok is false when the config has no such key.
type Setup func(path string) (string, bool)

// ConfigSetup returns the Setup of config c: {dataset} is the dataset's
// name with its options, {dataset.KEY} one option (dataset.name the name),
// {corruption} the corruption as the config states it and
// {corruption.KEY} one of its keys, {model.KEY} a model key (c, gamma or
// sigma: the width grid; components, energy, kernel), {experiment.KEY} an
// experiment option, {seed}, {repeats} and {title} the config's own.
func ConfigSetup(c *config.Config) Setup {
	return func(path string) (string, bool) {
		head, key, sub := strings.Cut(path, ".")
		section := func(s config.Section) (string, bool) {
			v, ok := s.Values[key]
			if !ok {
				return "", false
			}
			return config.FormatValue(v), true
		}
		switch head {
		case "title":
			return c.Title, !sub
		case "seed":
			return fmt.Sprint(c.Seed), !sub
		case "repeats":
			return fmt.Sprint(max(c.Repeats, 1)), !sub
		case "dataset":
			switch {
			case !sub:
				return datasetText(c.Dataset), true
			case key == "name":
				return c.Dataset.Name, true
			}
			return section(c.Dataset.Options)
		case "corruption":
			if c.Corruption.Type == "" {
				return "", false
			}
			if !sub {
				if c.Corruption.Printed == "" {
					return c.Corruption.Type, true
				}
				return c.Corruption.Printed, true
			}
			return section(c.Corruption.Options)
		case "experiment":
			if !sub {
				return "", false
			}
			return section(c.Experiment)
		case "model":
			if !sub {
				return "", false
			}
			m := c.Model
			switch {
			case key == "kernel" && m.Kernel != "":
				return m.Kernel, true
			case key == m.WidthName && len(m.Widths) > 0:
				return listText(m.Widths), true
			case key == "components" && len(m.Components) > 0:
				f := make([]float64, len(m.Components))
				for i, q := range m.Components {
					f[i] = float64(q)
				}
				return listText(f), true
			case key == "energy" && len(m.Energy) > 0:
				return listText(m.Energy), true
			}
		}
		return "", false
	}
}

func listText(v []float64) string {
	if len(v) == 1 {
		return config.FormatValue(v[0])
	}
	a := make([]any, len(v))
	for i, x := range v {
		a[i] = x
	}
	return config.FormatValue(a)
}

// datasetText is "name (key value, …)", options in key order.
func datasetText(d config.Dataset) string {
	keys := make([]string, 0, len(d.Options.Values))
	for k := range d.Options.Values {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if len(keys) == 0 {
		return d.Name
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + " " + config.FormatValue(d.Options.Values[k])
	}
	return d.Name + " (" + strings.Join(parts, ", ") + ")"
}

// The result references of a because: text; the setup references are the
// config paths Setup resolves, and {metric:NAME} a recorded metric.
var resultRefs = []string{"evidence", "verdict", "point", "interval", "detectable", "cannot_discriminate"}

// setupHeads are the first parts of the paths Setup resolves.
var setupHeads = []string{"title", "seed", "repeats", "dataset", "corruption", "experiment", "model"}

// References returns the references of a because: text ({evidence},
// {dataset.subsets}, {metric:same_label_k5}, …) in order, or an error
// naming a malformed or unknown one. Braces are reserved for references.
func References(text string) ([]string, error) {
	var refs []string
	rest := text
	for {
		i := strings.IndexAny(rest, "{}")
		if i < 0 {
			return refs, nil
		}
		if rest[i] == '}' {
			return nil, fmt.Errorf("because: a '}' without its '{' in %q", text)
		}
		j := strings.IndexAny(rest[i+1:], "{}")
		if j < 0 || rest[i+1+j] != '}' {
			return nil, fmt.Errorf("because: a '{' without its '}' in %q", text)
		}
		ref := rest[i+1 : i+1+j]
		if err := checkRef(ref); err != nil {
			return nil, err
		}
		refs = append(refs, ref)
		rest = rest[i+2+j:]
	}
}

func checkRef(ref string) error {
	if name, ok := strings.CutPrefix(ref, "metric:"); ok {
		if name == "" || strings.ContainsAny(name, " \t") {
			return fmt.Errorf("because: {%s}: want {metric:NAME}", ref)
		}
		return nil
	}
	if slices.Contains(resultRefs, ref) {
		return nil
	}
	head, _, _ := strings.Cut(ref, ".")
	if slices.Contains(setupHeads, head) {
		return nil
	}
	return fmt.Errorf("because: unknown reference {%s}: want one of {%s}, {metric:NAME} or a config path ({dataset}, {dataset.KEY}, {corruption}, {model.KEY}, {experiment.KEY}, {seed}, {repeats})",
		ref, strings.Join(resultRefs, "}, {"))
}

// Expand fills the references of a because: text from the claim's result,
// the records it was judged on and the config (setup; nil leaves setup
// references as they are): {evidence}, {verdict}, {point} (the point
// verdict), {interval} ("[lo, hi]" or "no interval"), {detectable},
// {cannot_discriminate} (the two values and the tolerance), a
// config path, or {metric:NAME} (its value in the one record holding it,
// or "lo–hi over N cells"). A reference that cannot be filled (a metric no
// record holds, a path the config lacks) is an error: the text would
// otherwise state what was not measured.
func Expand(text string, res Result, recs []report.Record, setup Setup) (string, error) {
	if _, err := References(text); err != nil {
		return "", err
	}
	var b strings.Builder
	rest := text
	for {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			b.WriteString(rest)
			return b.String(), nil
		}
		j := strings.IndexByte(rest[i:], '}')
		b.WriteString(rest[:i])
		ref := rest[i+1 : i+j]
		v, err := fill(ref, res, recs, setup)
		if err != nil {
			return "", err
		}
		b.WriteString(v)
		rest = rest[i+j+1:]
	}
}

func fill(ref string, res Result, recs []report.Record, setup Setup) (string, error) {
	switch ref {
	case "evidence":
		return res.Evidence, nil
	case "verdict":
		return res.Verdict, nil
	case "point":
		return res.PointVerdict, nil
	case "interval":
		if res.CILo == nil || res.CIHi == nil {
			return "no interval", nil
		}
		return fmt.Sprintf("[%s, %s]", g(*res.CILo), g(*res.CIHi)), nil
	case "cannot_discriminate":
		if res.CannotDiscriminate == "" {
			return "", fmt.Errorf("because: {cannot_discriminate}: the check could tell its sides apart (it is %s)", res.Verdict)
		}
		return res.CannotDiscriminate, nil
	case "detectable":
		if res.Detectable == nil {
			return "", fmt.Errorf("because: {detectable}: the claim's verdict states no detectable effect (it is %s)", res.Verdict)
		}
		return "±" + g(*res.Detectable), nil
	}
	if name, ok := strings.CutPrefix(ref, "metric:"); ok {
		var vs []float64
		for i := range recs {
			if v, ok := recs[i].Metrics[name]; ok && !math.IsNaN(v) {
				vs = append(vs, v)
			}
		}
		switch len(vs) {
		case 0:
			return "", fmt.Errorf("because: {metric:%s}: no record holds it", name)
		case 1:
			return g(vs[0]), nil
		}
		lo, hi := slices.Min(vs), slices.Max(vs)
		if lo == hi {
			return fmt.Sprintf("%s (all %d cells)", g(lo), len(vs)), nil
		}
		return fmt.Sprintf("%s–%s over %d cells", g(lo), g(hi), len(vs)), nil
	}
	if setup == nil {
		return "{" + ref + "}", nil
	}
	v, ok := setup(ref)
	if !ok {
		return "", fmt.Errorf("because: {%s}: the config has no such value", ref)
	}
	return v, nil
}
