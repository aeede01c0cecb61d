package matrix

import (
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
)

// The metrics of a record, a family per benchmark, named after the
// benchmark (experiment.benchmarks[].name); Run says when each is written.
func (b *benchmark) mse() report.Metric     { return report.Metric("mse_" + b.name) }
func (b *benchmark) failed() report.Metric  { return report.Metric("failed_" + b.name) }
func (b *benchmark) skipped() report.Metric { return report.Metric("skipped_" + b.name) }
func (b *benchmark) errored() report.Metric { return report.Metric("error_" + b.name) }
func (b *benchmark) refused() report.Metric { return report.Metric("refused_" + b.name) }

// metricNames lists every metric a record of a config with options o can
// hold (runner.Kind.Metrics): the five of each benchmark.
func metricNames(_ *config.Config, o options) []report.Metric {
	var names []report.Metric
	for i := range o.benchmarks {
		b := &o.benchmarks[i]
		names = append(names, b.mse(), b.failed(), b.skipped(), b.errored(), b.refused())
	}
	return names
}
