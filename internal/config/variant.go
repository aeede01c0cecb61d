package config

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// ambiguityID is the form of an ambiguity id of a paper-values file.
var ambiguityID = regexp.MustCompile(`^a[0-9]+$`)

// parseVariant reads variant_of and what the variant is to its base:
// exactly one of reads (the id of the paper's ambiguity it reads
// otherwise), post_hoc (why a variant reading no listed ambiguity was
// added) and diagnostic (what it probes of our data), with moves for a
// diagnostic that moves a property of the data toward the paper's; and,
// on any config, ambiguities and stand_in. The base must be a file beside
// this one: a variant whose base was renamed or deleted would otherwise
// drop out of the scoreboard's matrix silently.
func (c *Config) parseVariant(w *walker, f map[string]*yaml.Node) error {
	if v := f["variant_of"]; v != nil {
		s, err := w.str(v, "variant_of")
		if err != nil {
			return err
		}
		if err := CheckFileName(s); err != nil {
			return w.errf(v, "variant_of: %v; want the base config's file name, e.g. variant_of: huang-table1.yaml", err)
		}
		if s == filepath.Base(c.File) {
			return w.errf(v, "variant_of: %s names this config itself; want its base config", s)
		}
		base := filepath.Join(filepath.Dir(c.File), s)
		if fi, err := os.Stat(base); err != nil || !fi.Mode().IsRegular() {
			return w.errf(v, "variant_of: no config %s beside this one (%s): give the base config's file name", s, base)
		}
		c.VariantOf = s
	}
	if err := w.strings(f, strField{"reads", &c.Reads}, strField{"post_hoc", &c.PostHoc}, strField{"moves", &c.Moves}, strField{"stand_in", &c.StandIn}); err != nil {
		return err
	}
	if d := f["diagnostic"]; d != nil {
		if d.Kind != yaml.ScalarNode || d.Tag != "!!str" || strings.TrimSpace(d.Value) == "" {
			return w.errf(d, "diagnostic: want a string saying what the diagnostic probes of our data (e.g. diagnostic: \"the graph built from the labels\"), got %s", describe(d))
		}
		c.Diagnostic, c.Probe = true, d.Value
	}
	if err := c.checkVariantRole(w, f); err != nil {
		return err
	}
	if n := f["ambiguities"]; n != nil {
		return c.parseAmbiguities(w, n)
	}
	return nil
}

// checkVariantRole checks that a variant says what it is to its base
// (exactly one of reads, post_hoc, diagnostic) and that a base says none.
func (c *Config) checkVariantRole(w *walker, f map[string]*yaml.Node) error {
	var set []string
	for _, k := range []string{"reads", "post_hoc", "diagnostic"} {
		if f[k] != nil {
			set = append(set, k)
		}
	}
	switch {
	case c.VariantOf == "" && len(set) > 0:
		return w.errf(f[set[0]], "%s: needs variant_of: only a variant reads, is post hoc or is a diagnostic of a base config", set[0])
	case c.VariantOf != "" && len(set) == 0:
		return w.errf(f["variant_of"], "variant_of: say what this variant is to its base: reads: <ambiguity id> (a reading of one of the paper's ambiguities, a1, a2, …), post_hoc: <why it was added> (it reads no listed ambiguity) or diagnostic: <what it probes of our data> (docs/readings.md)")
	case len(set) > 1:
		return w.errf(f[set[1]], "%s: a variant is one of reads, post_hoc and diagnostic, and this one already says %s", set[1], set[0])
	}
	if n := f["reads"]; n != nil {
		if !ambiguityID.MatchString(c.Reads) {
			return w.errf(n, "reads: %q: want the id of one of the paper's ambiguities (a1, a2, … of its paper-values file)", Excerpt(c.Reads))
		}
		c.ReadsLine = n.Line
	}
	if n := f["post_hoc"]; n != nil && strings.TrimSpace(c.PostHoc) == "" {
		return w.errf(n, "post_hoc: say why this variant was added (it reads no ambiguity the paper values list)")
	}
	if n := f["moves"]; n != nil && !c.Diagnostic {
		return w.errf(n, "moves: only a diagnostic moves a property of the data toward the paper's")
	}
	return nil
}

// parseAmbiguities reads ambiguities: a mapping from the ids of the
// paper's ambiguities that can change this config's verdicts to how the
// config reads each.
func (c *Config) parseAmbiguities(w *walker, n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return w.errf(n, "ambiguities: want a mapping from the paper's ambiguity ids (a1, a2, …) to how this config reads each, got %s", describe(n))
	}
	c.Ambiguities, c.AmbiguityLines = map[string]string{}, map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !ambiguityID.MatchString(k.Value) {
			return w.errf(k, "ambiguities: key %q: want an ambiguity id of the paper (a1, a2, …)", Excerpt(k.Value))
		}
		if _, dup := c.Ambiguities[k.Value]; dup {
			return w.errf(k, "ambiguities: %s listed twice", k.Value)
		}
		s, err := w.str(v, "ambiguities."+k.Value)
		if err != nil {
			return err
		}
		if strings.TrimSpace(s) == "" {
			return w.errf(v, "ambiguities.%s: say how this config reads it", k.Value)
		}
		c.Ambiguities[k.Value], c.AmbiguityLines[k.Value] = s, k.Line
	}
	return nil
}

// AmbiguityIDs returns the ids of c.Ambiguities, sorted by number.
func (c *Config) AmbiguityIDs() []string {
	ids := make([]string, 0, len(c.Ambiguities))
	for id := range c.Ambiguities {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, CompareAmbiguityIDs)
	return ids
}

// CompareAmbiguityIDs orders ambiguity ids by their number (a2 before
// a10).
func CompareAmbiguityIDs(a, b string) int {
	var x, y int
	fmt.Sscanf(a, "a%d", &x)
	fmt.Sscanf(b, "a%d", &y)
	if x != y {
		return x - y
	}
	return strings.Compare(a, b)
}

// CheckAmbiguities checks the ambiguity ids c names (reads and the keys
// of ambiguities) against known, the ids of its paper's paper-values
// file, and reports the first unknown one at its line.
func (c *Config) CheckAmbiguities(known []string) error {
	has := func(id string) bool { return slices.Contains(known, id) }
	list := strings.Join(known, ", ")
	if list == "" {
		list = "none"
	}
	if c.Reads != "" && !has(c.Reads) {
		return c.Errorf(c.ReadsLine, "reads: %s is not an ambiguity of paper %s (its paper values list %s)", c.Reads, c.Paper, list)
	}
	for _, id := range c.AmbiguityIDs() {
		if !has(id) {
			return c.Errorf(c.AmbiguityLines[id], "ambiguities: %s is not an ambiguity of paper %s (its paper values list %s)", id, c.Paper, list)
		}
	}
	return nil
}
