package config

// Context renders, canonically, everything in the config besides the grid
// that changes a cell's numbers: kind, seed, dataset, corruption, kernel
// family and experiment options. Titles, notes, outputs, paper values and
// claims are left out, so editing them recomputes nothing.
func (c *Config) Context() string { return c.ContextExcept(nil) }

// ContextExcept is Context without the experiment options named in
// reportOnly: options a kind declares its cells' records independent of
// (they only choose what the report presents of a record), so configs that
// differ only in them share their cells. The names must be exact option
// keys; an option absent from the config is simply not there to leave out.
func (c *Config) ContextExcept(reportOnly []string) string {
	corr := map[string]any{}
	for k, v := range c.Corruption.Options.Values {
		corr[k] = v
	}
	ds := map[string]any{"name": c.Dataset.Name}
	for k, v := range c.Dataset.Options.Values {
		ds[k] = v
	}
	exp := c.Experiment.Values
	if len(reportOnly) > 0 {
		skip := map[string]bool{}
		for _, k := range reportOnly {
			skip[k] = true
		}
		exp = map[string]any{}
		for k, v := range c.Experiment.Values {
			if !skip[k] {
				exp[k] = v
			}
		}
	}
	return CanonicalKey(map[string]any{
		"kind":       c.Kind,
		"seed":       int(c.Seed),
		"dataset":    ds,
		"corruption": corr,
		"experiment": exp,
		"kernel":     c.Model.Kernel,
	})
}
