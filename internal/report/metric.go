package report

// Metric is the name of a metric of a record, a key of Record.Metrics.
// Each experiment kind declares the names it writes as constants of this
// type, or as small functions building a family of them ("mse_" and a
// benchmark's name); the same declarations write the records, read them
// back for the kind's tables and figures, and list what the kind records
// (runner.Kind.Metrics), against which the claims and reference values of
// a config are checked.
type Metric string

// Set records v as the metric m.
func (r *Record) Set(m Metric, v float64) {
	if r.Metrics == nil {
		r.Metrics = map[string]float64{}
	}
	r.Metrics[string(m)] = v
}

// Get returns the metric m of the record, 0 when it has none.
func (r *Record) Get(m Metric) float64 { return r.Metrics[string(m)] }

// Lookup returns the metric m of the record and whether it has one.
func (r *Record) Lookup(m Metric) (float64, bool) {
	v, ok := r.Metrics[string(m)]
	return v, ok
}
