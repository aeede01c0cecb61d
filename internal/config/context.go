package config

// Context renders, canonically, everything in the config besides the grid
// that changes a cell's numbers: kind, seed, dataset, corruption, kernel
// family and experiment options. Titles, notes, outputs, paper values and
// claims are left out, so editing them recomputes nothing.
func (c *Config) Context() string {
	corr := map[string]any{}
	for k, v := range c.Corruption.Options.Values {
		corr[k] = v
	}
	ds := map[string]any{"name": c.Dataset.Name}
	for k, v := range c.Dataset.Options.Values {
		ds[k] = v
	}
	return CanonicalKey(map[string]any{
		"kind":       c.Kind,
		"seed":       int(c.Seed),
		"dataset":    ds,
		"corruption": corr,
		"experiment": c.Experiment.Values,
		"kernel":     c.Model.Kernel,
	})
}
